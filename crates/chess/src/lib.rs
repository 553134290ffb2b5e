//! `tessera-chess`: the rules of chess and Chess960 for the Tessera engines.
//!
//! - [`Board`] holds a position in bitboards; [`Chess`] adds the history and implements the core's
//!   [`tessera_core::Game`] (legal moves, make/undo, Zobrist keys, fifty-move, repetition and
//!   insufficient-material draws).
//! - [`fen`] reads and writes FEN (X-FEN and Shredder-FEN castling); [`notation`] writes and
//!   reads UCI and SAN moves; [`perft`] counts move trees.
//! - [`eval`] and [`search`] give the alpha-beta searcher its evaluation and hooks; [`packed`]
//!   stores positions in training-data files; [`nnue`] gives networks their chess features.
//! - [`syzygy`] probes Syzygy endgame tablebases (through Fathom) for the search.
//!
//! Modules, bottom-up: types → attacks → moves → board → syzygy → movegen → fen → eval → nnue →
//! game → packed → notation → perft → search → bench.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod attacks;
pub mod bench;
pub mod board;
pub mod eval;
pub mod fen;
pub mod game;
mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod packed;
pub mod perft;
pub mod search;
pub mod syzygy;
pub mod types;

pub use board::Board;
pub use fen::{FenError, START_FEN};
pub use game::{Chess, Moves, Rules, MAX_MOVES};
pub use moves::{Move, MoveKind};
pub use notation::{parse_san, to_san, MoveTextError, Uci};
pub use perft::{parse_perft_suite, perft, perft_divide, PerftCase};
pub use types::{CastleSide, Color, Kind, Piece, Square};

/// The format of chess opening books (`tessera book --game chess`, UCI `BookFile`): what a book
/// file is checked against before the engine plays from it. Books hold standard chess.
#[must_use]
pub fn book_format() -> tessera_core::BookFormat {
    tessera_core::BookFormat::of("chess", &Chess::new(Rules::STANDARD))
}
