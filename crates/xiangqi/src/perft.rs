//! Perft: the number of leaf nodes of the legal move tree, counted on the bare board with bulk
//! counting at the last ply (no allocation, no hashing).

use tessera_core::Side;

use crate::board::Board;
use crate::movegen::{Generate, Moves};
use crate::position::Position;
use crate::types::Move;

fn perft_board(board: &mut Board, side: Side, depth: u32) -> u64 {
    if depth == 1 {
        return board.count_legal_moves(side) as u64;
    }
    let mut moves = Moves::new();
    board.legal_moves(side, Generate::All, &mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let captured = board.make(mv);
        nodes += perft_board(board, side.opponent(), depth - 1);
        board.unmake(mv, captured);
    }
    nodes
}

/// The number of leaves of the legal move tree `depth` plies deep (1 for depth 0). Repetition
/// and move-count rules do not cut the tree, as in every perft.
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut board = position.board;
    perft_board(&mut board, position.side, depth)
}

/// Perft split by root move ("divide"): each legal move with the leaves below it.
#[must_use]
pub fn perft_divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Moves::new();
    position.board.legal_moves(position.side, Generate::All, &mut moves);
    let mut board = position.board;
    moves
        .iter()
        .map(|&mv| {
            let captured = board.make(mv);
            let nodes = if depth <= 1 { 1 } else { perft_board(&mut board, position.side.opponent(), depth - 1) };
            board.unmake(mv, captured);
            (mv, nodes)
        })
        .collect()
}

/// The fast counts above, for core's `perft` text and the protocols' `go perft`.
impl tessera_core::Perft for Position {
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(self, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUITE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/xiangqi-perft.epd"));

    /// Every position of the reference suite at every depth up to `max_nodes` leaves.
    #[test]
    fn reference_suite_at_cheap_depths() {
        let mut checked = 0;
        for line in SUITE.lines().filter(|line| !line.trim().is_empty()) {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap().trim();
            let position: Position = fen.parse().unwrap_or_else(|error| panic!("{fen}: {error}"));
            for field in fields {
                let (depth, count) = field.trim().split_once(' ').unwrap();
                let depth: u32 = depth.trim_start_matches('D').parse().unwrap();
                let count: u64 = count.parse().unwrap();
                if count > 100_000 {
                    continue;
                }
                assert_eq!(perft(&position, depth), count, "{fen} depth {depth}");
                checked += 1;
            }
        }
        assert!(checked >= 50, "only {checked} counts checked");
    }

    #[test]
    fn divide_adds_up() {
        let start = Position::start();
        let split = perft_divide(&start, 2);
        assert_eq!(split.len(), 44);
        assert_eq!(split.iter().map(|(_, nodes)| nodes).sum::<u64>(), 1920);
    }
}
