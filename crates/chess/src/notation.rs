//! Move text: UCI long algebraic (`e2e4`, `e7e8q`, castling `e1g1` or king-takes-rook `e1h1` in
//! Chess960) and SAN (`Nf3`, `exd5`, `O-O`, `e8=Q#`) for PGN, both directions.

use tessera_core::{Game, Notation};

use crate::board::Board;
use crate::game::{Chess, Moves};
use crate::moves::{Move, MoveKind};
use crate::types::{file_of, parse_square, rank_of, square_name, Kind};

/// Why a move text was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not of the form `<from><to>[promotion]`.
    #[error("'{0}' is not a move in UCI notation")]
    Syntax(String),
    /// A SAN text that matches no legal move.
    #[error("'{0}' matches no legal move")]
    NoSuchMove(String),
    /// A SAN text that matches more than one legal move.
    #[error("'{0}' is ambiguous")]
    Ambiguous(String),
}

/// UCI move notation; `chess960` selects king-takes-rook castling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Uci {
    /// Write castling as king takes rook (`UCI_Chess960`).
    pub chess960: bool,
}

impl Uci {
    /// Writes `mv` of `position`.
    #[must_use]
    pub fn format(&self, board: &Board, mv: Move) -> String {
        let from = mv.from();
        let mut to = mv.to();
        if mv.is_castle() && !self.chess960 {
            to = Board::castle_targets(board.side_to_move(), from, to).0;
        }
        let mut text = format!("{}{}", square_name(from), square_name(to));
        if let Some(kind) = mv.promotion() {
            text.push(kind.letter());
        }
        text
    }

    /// Reads a UCI move. Castling is understood both as the king's two-square step (standard) and
    /// as king takes own rook (Chess960); the result is legal or a plain move `is_legal` refuses.
    ///
    /// # Errors
    /// [`MoveTextError::Syntax`] when the text is not a UCI move.
    pub fn parse(&self, position: &Chess, text: &str) -> Result<Move, MoveTextError> {
        let syntax = || MoveTextError::Syntax(text.to_owned());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(syntax());
        }
        let from = parse_square(&text[..2]).ok_or_else(syntax)?;
        let to = parse_square(&text[2..4]).ok_or_else(syntax)?;
        let promotion = match text.as_bytes().get(4) {
            None => None,
            Some(&letter) => match Kind::from_letter(letter as char) {
                Some(kind @ (Kind::Knight | Kind::Bishop | Kind::Rook | Kind::Queen)) => Some(kind),
                _ => return Err(syntax()),
            },
        };
        let mut moves = Moves::new();
        position.generate_legal_moves(&mut moves);
        let board = position.board();
        let found = moves.iter().copied().find(|&mv| {
            if mv.from() != from || mv.promotion() != promotion {
                return false;
            }
            if mv.is_castle() {
                let king_to = Board::castle_targets(board.side_to_move(), from, mv.to()).0;
                // King takes rook always; the two-square step only outside Chess960, where it is unambiguous.
                mv.to() == to || (!self.chess960 && king_to == to && file_of(from).abs_diff(file_of(to)) == 2)
            } else {
                mv.to() == to
            }
        });
        Ok(found.unwrap_or(match promotion {
            Some(kind) => Move::new(from, to, MoveKind::Promotion(kind)),
            None => Move::normal(from, to),
        }))
    }
}

/// Protocols read and write castling as the position's rules say: king takes rook when the
/// position is played under Chess960 rules (`UCI_Chess960`), whatever `chess960` says here.
impl Notation for Uci {
    type Game = Chess;
    type Error = MoveTextError;

    fn parse_move(&self, position: &Chess, text: &str) -> Result<Move, MoveTextError> {
        self.for_rules(position).parse(position, text)
    }

    fn format_move(&self, position: &Chess, mv: Move) -> String {
        self.for_rules(position).format(position.board(), mv)
    }
}

impl Uci {
    fn for_rules(self, position: &Chess) -> Uci {
        Uci { chess960: self.chess960 || position.rules().chess960 }
    }
}

/// Writes `mv` (legal in `position`) in Standard Algebraic Notation with `+`/`#` suffixes.
#[must_use]
pub fn to_san(position: &Chess, mv: Move) -> String {
    let mut text = san_without_suffix(position, mv);
    let mut after = position.clone();
    after.play(mv);
    if after.board().in_check() {
        text.push(if after.count_legal_moves() == 0 { '#' } else { '+' });
    }
    text
}

fn san_without_suffix(position: &Chess, mv: Move) -> String {
    let board = position.board();
    if mv.is_castle() {
        return if file_of(mv.to()) > file_of(mv.from()) { "O-O".into() } else { "O-O-O".into() };
    }
    let Some(piece) = board.piece_at(mv.from()) else { return "--".into() };
    let capture = board.piece_at(mv.to()).is_some() || mv.is_en_passant();
    let mut text = String::new();
    if piece.kind == Kind::Pawn {
        if capture {
            text.push((b'a' + file_of(mv.from())) as char);
        }
    } else {
        text.push(piece.kind.letter().to_ascii_uppercase());
        let mut moves = Moves::new();
        position.generate_legal_moves(&mut moves);
        let rivals: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|other| {
                *other != mv
                    && other.to() == mv.to()
                    && !other.is_castle()
                    && board.piece_at(other.from()).is_some_and(|p| p.kind == piece.kind)
            })
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|other| file_of(other.from()) == file_of(mv.from()));
            let same_rank = rivals.iter().any(|other| rank_of(other.from()) == rank_of(mv.from()));
            let name = square_name(mv.from());
            if !same_file {
                text.push_str(&name[..1]);
            } else if !same_rank {
                text.push_str(&name[1..]);
            } else {
                text.push_str(&name);
            }
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(&square_name(mv.to()));
    if let Some(kind) = mv.promotion() {
        text.push('=');
        text.push(kind.letter().to_ascii_uppercase());
    }
    text
}

/// Reads a SAN move (tolerating `0-0`, missing or extra `+`/`#`/`!`/`?`, `e.p.` and a missing `=`).
///
/// # Errors
/// [`MoveTextError::NoSuchMove`] or [`MoveTextError::Ambiguous`].
pub fn parse_san(position: &Chess, text: &str) -> Result<Move, MoveTextError> {
    let normalise = |san: &str| -> String {
        san.trim()
            .trim_end_matches(" e.p.")
            .trim_end_matches("e.p.")
            .trim_end_matches(['+', '#', '!', '?'])
            .replace('0', "O")
            .replace('=', "")
    };
    let wanted = normalise(text);
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    let mut found = None;
    for &mv in moves.iter() {
        let san = normalise(&san_without_suffix(position, mv));
        // Also accept over-specified forms such as `Ngf3` or `Ng1f3` by checking the squares.
        let loose = loose_match(position, mv, &wanted);
        if san == wanted || loose {
            if found.is_some_and(|other| other != mv) {
                return Err(MoveTextError::Ambiguous(text.to_owned()));
            }
            found = Some(mv);
        }
    }
    found.ok_or_else(|| MoveTextError::NoSuchMove(text.to_owned()))
}

/// Whether `wanted` (normalised SAN) names `mv` with full or partial origin squares.
fn loose_match(position: &Chess, mv: Move, wanted: &str) -> bool {
    let board = position.board();
    if mv.is_castle() {
        return false;
    }
    let Some(piece) = board.piece_at(mv.from()) else { return false };
    let body = wanted.replace('x', "");
    let (letter, rest) = match body.chars().next() {
        Some(first) if first.is_ascii_uppercase() => (Some(first), &body[1..]),
        _ => (None, &body[..]),
    };
    let expected_letter = (piece.kind != Kind::Pawn).then(|| piece.kind.letter().to_ascii_uppercase());
    if letter != expected_letter {
        return false;
    }
    let promotion = mv.promotion().map(|kind| kind.letter().to_ascii_uppercase());
    let rest = match (promotion, rest.chars().last()) {
        (Some(p), Some(last)) if last == p => &rest[..rest.len() - 1],
        (Some(_), _) => return false,
        (None, Some(last)) if last.is_ascii_uppercase() => return false,
        _ => rest,
    };
    if rest.len() < 2 || !rest.is_ascii() {
        return false;
    }
    let (origin, destination) = rest.split_at(rest.len() - 2);
    if parse_square(destination) != Some(mv.to()) {
        return false;
    }
    let from = square_name(mv.from());
    match origin.len() {
        0 => piece.kind != Kind::Pawn || file_of(mv.from()) == file_of(mv.to()),
        1 => from.contains(origin),
        2 => from == origin,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Rules;

    #[test]
    fn uci_castling_both_ways() {
        let position = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Rules::STANDARD).unwrap();
        let standard = Uci { chess960: false };
        let castle = standard.parse(&position, "e1g1").unwrap();
        assert!(castle.is_castle() && position.is_legal(castle));
        assert_eq!(standard.format(position.board(), castle), "e1g1");
        assert_eq!(standard.parse(&position, "e1h1").unwrap(), castle);
        let fischer = Uci { chess960: true };
        assert_eq!(fischer.format(position.board(), castle), "e1h1");
        assert_eq!(fischer.parse(&position, "e1a1").unwrap(), Move::new(4, 0, MoveKind::Castle));
        assert!(standard.parse(&position, "e1").is_err());
        assert!(standard.parse(&position, "e1e9").is_err());
        assert!(standard.parse(&position, "e7e8k").is_err());
        assert!(!position.is_legal(standard.parse(&position, "e1e3").unwrap()));
    }

    #[test]
    fn san_round_trips_every_legal_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "R6R/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        ] {
            let position = Chess::from_fen(fen, Rules::STANDARD).unwrap();
            let mut moves = Moves::new();
            position.generate_legal_moves(&mut moves);
            for &mv in moves.iter() {
                let san = to_san(&position, mv);
                assert_eq!(parse_san(&position, &san), Ok(mv), "{san} in {fen}");
            }
        }
    }

    #[test]
    fn san_examples() {
        let position = Chess::default();
        let knight = parse_san(&position, "Nf3").unwrap();
        assert_eq!(to_san(&position, knight), "Nf3");
        assert_eq!(parse_san(&position, "Ng1f3"), Ok(knight));
        assert_eq!(to_san(&position, parse_san(&position, "e4").unwrap()), "e4");
        assert!(parse_san(&position, "Nf4").is_err());
        let mate = Chess::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::STANDARD).unwrap();
        assert_eq!(to_san(&mate, parse_san(&mate, "Ra8").unwrap()), "Ra8#");
        let rooks = Chess::from_fen("R6R/8/8/4k3/8/8/8/R3K3 w - - 0 1", Rules::STANDARD).unwrap();
        assert_eq!(to_san(&rooks, parse_san(&rooks, "Ra8b8").unwrap()), "Rab8");
        assert_eq!(to_san(&rooks, parse_san(&rooks, "Ra1a4").unwrap()), "R1a4");
    }
}
