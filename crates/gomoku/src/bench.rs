//! `bench`: fixed positions searched to a fixed depth, single-threaded; the node count is the
//! search's signature (asserted by a test).

use std::sync::Arc;

use tessera_core::bench::Bench;
use tessera_core::{EngineOptions, Limits};

use crate::nnue::Network;
use crate::{Board, GomokuSearcher, Point, Rules, Style};

/// Default bench depth.
pub const DEPTH: u32 = 5;

/// The bench positions: rules and moves (x, y).
const POSITIONS: &[(Rules, &[(u8, u8)])] = &[
    (Rules::FREESTYLE_15, &[(7, 7), (8, 8), (8, 6), (6, 8), (9, 5)]),
    (Rules::FREESTYLE_20, &[(10, 10), (11, 11), (9, 11), (10, 12), (11, 9), (12, 8)]),
    (Rules::STANDARD_15, &[(7, 7), (7, 8), (8, 7), (6, 7), (8, 8), (9, 9)]),
    (Rules::RENJU_15, &[(7, 7), (8, 6), (8, 8), (6, 6), (9, 9), (10, 10), (6, 8)]),
    (Rules::CARO_15, &[(7, 7), (7, 6), (6, 6), (8, 8), (5, 5), (4, 4)]),
];

/// The bench at `depth`, evaluating with `network` or, when `None`, the pattern weights: core's
/// [`tessera_core::bench::run`] searches it (the engines run it with the default options).
#[derive(Clone, Debug)]
pub struct GomokuBench {
    /// The search depth.
    pub depth: u32,
    /// The network the boards evaluate with.
    pub network: Option<Arc<Network>>,
}

impl Bench for GomokuBench {
    type Game = Board;
    type Searcher = GomokuSearcher;

    /// # Panics
    /// Never on the fixed positions (checked by the bench test).
    fn positions(&self) -> Vec<Board> {
        POSITIONS
            .iter()
            .map(|(rules, moves)| {
                let mut board = Board::new(*rules);
                for &(x, y) in *moves {
                    board.place(Point::new(x, y)).expect("bench positions are valid");
                }
                board.set_network(self.network.clone());
                board
            })
            .collect()
    }

    fn searcher(&self, options: &EngineOptions) -> GomokuSearcher {
        GomokuSearcher::new(options, Style::Full)
    }

    fn limits(&self) -> Limits<Point> {
        Limits::depth(self.depth)
    }
}
