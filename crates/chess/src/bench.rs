//! `bench`: a fixed set of positions searched to a fixed depth. The single-threaded node count is
//! the search's signature; a test asserts it, so any change to search or evaluation shows.

use std::sync::Arc;

use tessera_core::bench::Bench;
use tessera_core::{AlphaBeta, EngineOptions, Limits};
use tessera_nnue::Network;

use crate::game::{Chess, Rules};

/// The default bench depth: deep enough that nodes of depth 7 and 8 off the principal variation
/// occur, where chess's futility pruning reaches (at depth 7 the bench could not tell it from
/// futility up to depth 6).
pub const DEPTH: u32 = 9;

/// Positions of every phase: openings, tactics, endgames, and a Chess960 start.
pub const BENCH_POSITIONS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/2n5/3p4/3P4/2P2N2/P4PPP/2R3K1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

/// The bench at `depth`, evaluating with `network` (the hand-crafted evaluation when `None`):
/// core's [`tessera_core::bench::run`] searches it.
#[derive(Clone, Debug)]
pub struct ChessBench {
    /// The search depth.
    pub depth: u32,
    /// The network the positions evaluate with.
    pub network: Option<Arc<Network>>,
}

impl Bench for ChessBench {
    type Game = Chess;
    type Searcher = AlphaBeta<Chess>;

    fn positions(&self) -> Vec<Chess> {
        BENCH_POSITIONS
            .iter()
            .map(|fen| {
                let rules = if fen.contains("HFhf") { Rules::CHESS960 } else { Rules::STANDARD };
                // The bench FENs are constants checked by the bench test.
                let mut position = Chess::from_fen(fen, rules).expect("bench FENs are valid");
                position.set_network(self.network.clone());
                position
            })
            .collect()
    }

    fn searcher(&self, options: &EngineOptions) -> AlphaBeta<Chess> {
        AlphaBeta::new(options, 30)
    }

    fn limits(&self) -> Limits<crate::Move> {
        Limits::depth(self.depth)
    }
}
