//! Game records as the match writes them and the report reads them back: PGN for chess and
//! xiangqi ([`pgn`]), SGF for gomoku and go ([`sgf`]), every move with a comment in cutechess's
//! words ([`comment`]): `book` for the opening's moves, the engine's score, depth and time for
//! the others.

pub mod comment;
pub mod pgn;
pub mod sgf;

use tessera_core::{Game, Outcome, Side};

use crate::game::GameRecord;

/// Why a game of a record file could not be read. `game` counts the games of the file from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text stops before the game does (a file cut short, a game still being written).
    #[error("game {game}: the record is cut short ({what})")]
    Truncated {
        /// The game's number in its file.
        game: usize,
        /// What was left open.
        what: &'static str,
    },
    /// Text that is not PGN or SGF where it should be.
    #[error("game {game}: {what}")]
    Syntax {
        /// The game's number in its file.
        game: usize,
        /// What is wrong.
        what: String,
    },
    /// A game we cannot replay (another variant, another SGF game type).
    #[error("game {game}: unknown game {what}")]
    UnknownGame {
        /// The game's number in its file.
        game: usize,
        /// What the record says it is.
        what: String,
    },
    /// A move that does not parse or is illegal where it stands, by our rules.
    #[error("game {game}: move {ply} `{text}` cannot be played ({why})")]
    BadMove {
        /// The game's number in its file.
        game: usize,
        /// The move's number from the game's first move, from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why not.
        why: String,
    },
}

/// The PGN result of an outcome; SGF writes its own.
#[must_use]
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// A move with its comment, if it has one.
type Annotated<M> = (M, Option<String>);

/// The position before a record's opening and every move from there with its comment: the
/// opening's moves as `book`, the engines' moves with their notes (none for a move without one).
fn annotated_moves<G: Game>(record: &GameRecord<G>) -> (G, Vec<Annotated<G::Move>>) {
    let mut initial = record.start.clone();
    while initial.ply() > 0 {
        initial.undo();
    }
    let opening = (0..record.start.ply())
        .filter_map(|index| record.start.move_played(index))
        .map(|mv| (mv, Some(comment::BOOK.to_string())));
    let notes = record.notes.iter().map(|note| Some(comment::format(note))).chain(std::iter::repeat(None));
    let played = record.moves.iter().copied().zip(notes);
    (initial, opening.chain(played).collect())
}

/// A reading position in a record's text; each format reads with its own methods, in its module.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    /// The text from the position on.
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// A value up to `close` (read past), `\` escaping the character after it (an escaped line
    /// break disappears: SGF's soft break); `None` if the text ends first, or a line starting
    /// with `cut` (every line for `""`), which means the value was cut off.
    fn escaped(&mut self, close: char, cut: &str) -> Option<String> {
        let rest = self.rest();
        let mut value = String::new();
        let mut chars = rest.char_indices();
        while let Some((offset, c)) = chars.next() {
            match c {
                c if c == close => {
                    self.at += offset + c.len_utf8();
                    return Some(value);
                }
                '\\' => match chars.next()? {
                    (_, '\n') => {}
                    (_, escaped) => value.push(escaped),
                },
                '\n' if rest[offset + 1..].starts_with(cut) => return None,
                _ => value.push(c),
            }
        }
        None
    }
}

/// A PGN tag value with `\` and `"` escaped.
fn escape_pgn(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
