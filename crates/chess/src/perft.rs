//! Perft: counting the leaves of the legal move tree, the standard check of move generation.
//! The last ply is counted in bulk (moves are counted, not played), and nothing allocates.

use tessera_core::Game;

use crate::board::Board;
use crate::game::{Chess, Moves};
use crate::movegen::{Counter, Mode};
use crate::moves::Move;

/// Leaves of the legal move tree of `board` at `depth`.
#[must_use]
pub fn perft_board(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        let mut counter = Counter(0);
        board.generate(&mut counter, Mode::All);
        return counter.0;
    }
    let mut moves = Moves::new();
    board.generate(&mut moves, Mode::All);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = *board;
        child.apply(mv);
        total += perft_board(&child, depth - 1);
    }
    total
}

/// Leaves at `depth` below `position`.
#[must_use]
pub fn perft(position: &Chess, depth: u32) -> u64 {
    perft_board(position.board(), depth)
}

/// Leaves at `depth` below each legal move (depth ≥ 1), in generation order ("divide").
#[must_use]
pub fn perft_divide(position: &Chess, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Moves::new();
    position.generate_legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = *position.board();
            child.apply(mv);
            (mv, perft_board(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// The fast counts above, for core's `perft` text and the protocols' `go perft`.
impl tessera_core::Perft for Chess {
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(self, depth)
    }
}

/// One line of an EPD perft suite: `<fen> ;D1 <n> ;D2 <n> …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The position.
    pub fen: String,
    /// `(depth, leaves)` pairs.
    pub depths: Vec<(u32, u64)>,
}

/// Reads an EPD perft suite, skipping blank lines, `#` comments and malformed entries.
#[must_use]
pub fn parse_perft_suite(text: &str) -> Vec<PerftCase> {
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next()?.trim().to_owned();
            let depths = parts
                .filter_map(|part| {
                    let mut fields = part.split_whitespace();
                    let depth = fields.next()?.strip_prefix('D')?.parse().ok()?;
                    Some((depth, fields.next()?.parse().ok()?))
                })
                .collect();
            Some(PerftCase { fen, depths })
        })
        .collect()
}
