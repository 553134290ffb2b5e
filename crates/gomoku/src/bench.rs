//! `bench`: fixed positions searched to a fixed depth, single-threaded; the node count is the
//! search's signature (asserted by a test).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tessera_core::{EngineOptions, Limits, SearchControl, Searcher, Silent};

use crate::nnue::Network;
use crate::{Board, GomokuSearcher, Point, Rules, Style};

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 5;

/// The bench positions: rules and moves (x, y).
const POSITIONS: &[(Rules, &[(u8, u8)])] = &[
    (Rules::FREESTYLE_15, &[(7, 7), (8, 8), (8, 6), (6, 8), (9, 5)]),
    (Rules::FREESTYLE_20, &[(10, 10), (11, 11), (9, 11), (10, 12), (11, 9), (12, 8)]),
    (Rules::STANDARD_15, &[(7, 7), (7, 8), (8, 7), (6, 7), (8, 8), (9, 9)]),
    (Rules::RENJU_15, &[(7, 7), (8, 6), (8, 8), (6, 6), (9, 9), (10, 10), (6, 8)]),
    (Rules::CARO_15, &[(7, 7), (7, 6), (6, 6), (8, 8), (5, 5), (4, 4)]),
];

/// Total nodes and time of the bench at `depth`, evaluating with `network` or, when `None`, the
/// pattern weights.
#[must_use]
pub fn run(depth: u32, network: Option<&Arc<Network>>) -> (u64, Duration) {
    let mut nodes = 0;
    let start = Instant::now();
    for (rules, moves) in POSITIONS {
        let mut board = Board::new(*rules);
        for &(x, y) in *moves {
            board.place(Point::new(x, y)).expect("bench positions are valid");
        }
        board.set_network(network.cloned());
        let mut searcher = GomokuSearcher::new(&EngineOptions { hash_mb: 16, ..EngineOptions::default() }, Style::Full);
        let control = SearchControl::new();
        nodes += searcher.search(&board, &Limits::depth(depth), &control, &mut Silent).nodes;
    }
    (nodes, start.elapsed())
}
