//! ICCS move text: files `a`–`i` from Red's left, ranks `0`–`9` from Red's side (`h2e2`).
//! UCCI and Pikafish-style UCI both use it.

use tessera_core::{Game, Notation};

use crate::position::Position;
use crate::types::{file_of, rank_of, square, Move, ON_BOARD};

/// Why a move text is not ICCS.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not 4 characters (or `X0-X0` with a dash).
    #[error("move '{0}' is not 4 characters like h2e2")]
    Length(String),
    /// A file outside `a`–`i` or a rank outside `0`–`9`.
    #[error("move '{0}' names a square off the board")]
    OffBoard(String),
}

/// The ICCS text of `mv` (`h2e2`).
#[must_use]
pub fn iccs(mv: Move) -> String {
    if !ON_BOARD[mv.from as usize] || !ON_BOARD[mv.to as usize] {
        return "0000".to_owned();
    }
    let mut text = String::with_capacity(4);
    for at in [mv.from, mv.to] {
        text.push(char::from(b'a' + file_of(at) as u8));
        text.push(char::from(b'0' + rank_of(at) as u8));
    }
    text
}

/// Reads `h2e2` (also `H2-E2`, the dashed upper-case ICCS form). Checks the syntax only.
///
/// # Errors
/// [`NotationError`] when the text is not a move between two board squares.
pub fn parse_iccs(text: &str) -> Result<Move, NotationError> {
    let compact: Vec<u8> = text.bytes().filter(|&byte| byte != b'-').map(|byte| byte.to_ascii_lowercase()).collect();
    if compact.len() != 4 || text.len() > 5 {
        return Err(NotationError::Length(text.to_owned()));
    }
    let square_at = |index: usize| -> Option<u8> {
        let file = compact[index].checked_sub(b'a').filter(|&file| file < 9)?;
        let rank = compact[index + 1].checked_sub(b'0').filter(|&rank| rank < 10)?;
        Some(square(usize::from(file), usize::from(rank)))
    };
    match (square_at(0), square_at(2)) {
        (Some(from), Some(to)) => Ok(Move::new(from, to)),
        _ => Err(NotationError::OffBoard(text.to_owned())),
    }
}

/// Moves show as their ICCS text in test failures and logs. Written here rather than beside
/// `Move` so that `types` stays at the bottom of the crate.
impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if ON_BOARD[self.from as usize] && ON_BOARD[self.to as usize] {
            write!(f, "{}", iccs(*self))
        } else {
            write!(f, "Move({}, {})", self.from, self.to)
        }
    }
}

/// The ICCS notation as a [`Notation`] for protocols.
#[derive(Clone, Copy, Debug, Default)]
pub struct Iccs;

impl Notation for Iccs {
    type Game = Position;
    type Error = NotationError;

    fn parse_move(&self, _position: &Position, text: &str) -> Result<Move, NotationError> {
        parse_iccs(text)
    }

    fn format_move(&self, _position: &Position, mv: <Position as Game>::Move) -> String {
        iccs(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trips_and_rejects_junk() {
        let mv = parse_iccs("h2e2").unwrap();
        assert_eq!(iccs(mv), "h2e2");
        assert_eq!(parse_iccs("H2-E2").unwrap(), mv);
        assert_eq!(iccs(parse_iccs("a0i9").unwrap()), "a0i9");
        assert!(matches!(parse_iccs("j2e2"), Err(NotationError::OffBoard(_))));
        assert!(matches!(parse_iccs("h2e"), Err(NotationError::Length(_))));
        assert!(matches!(parse_iccs("h2e2q"), Err(NotationError::Length(_))));
        assert!(matches!(parse_iccs("é2e2"), Err(NotationError::Length(_))));
    }
}
