//! The xiangqi game seen by the UCCI/UCI session: ICCS moves, FEN, perft.

use tessera_ucci_protocol::{Dialect, Identity};
use tessera_xiangqi::{iccs, parse_iccs, perft_divide, Move, Position, MOVES_LEFT};

/// Xiangqi under the Asian rules, with ICCS move text in both dialects.
#[derive(Clone, Copy, Debug, Default)]
pub struct Xiangqi;

impl Dialect for Xiangqi {
    type Game = Position;

    fn identity(&self) -> Identity {
        Identity {
            name: concat!("Tessera ", env!("CARGO_PKG_VERSION")),
            author: "The Tessera developers",
            copyright: "MIT OR Apache-2.0",
            user: "Tessera",
        }
    }

    fn start_position(&self) -> Position {
        Position::start()
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, String> {
        fen.parse().map_err(|error: tessera_xiangqi::FenError| error.to_string())
    }

    fn parse_move(&self, _position: &Position, text: &str) -> Option<Move> {
        parse_iccs(text).ok()
    }

    fn format_move(&self, _position: &Position, mv: Move) -> String {
        iccs(mv)
    }

    fn without_history(&self, position: &Position) -> Position {
        position.without_history()
    }

    fn perft_divide(&self, position: &Position, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(position, depth)
    }

    fn moves_left(&self) -> u32 {
        MOVES_LEFT
    }
}
