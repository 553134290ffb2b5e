//! `bench`: a fixed set of positions searched to a fixed depth. The single-threaded node count
//! is the search's signature.

use std::sync::Arc;

use tessera_core::bench::Bench;
use tessera_core::{AlphaBeta, EngineOptions, Limits};

use crate::nnue::Network;
use crate::position::{Position, START_FEN};
use crate::search::MOVES_LEFT;

/// The bench positions: the start, middlegames from the perft suite, and endings.
pub const POSITIONS: [&str; 8] = [
    START_FEN,
    "r1bakab2/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1CN1C1N2/9/R1BAKAB1R w - - 0 1",
    "1n1aka3/6r2/1c4n1b/p1p3p2/2b1p4/2c1P3p/P1P3P2/2R1B1RC1/5N3/1N1AKA3 w - - 4 21",
    "r3kabnr/3n2c2/3ab2R1/p3p1p1p/2p2c2P/6P2/P1P6/5C2N/2R2C3/1NBAKAB2 w - - 32 21",
    "2bakabnr/9/r1n6/p1p5p/1c2p1p2/8P/P1P1P1Pc1/NC6R/C3A4/R1BAK1BN1 w - - 30 16",
    "1nbaka3/2r2n3/r8/p1C1p4/2b1P1C1p/6P1P/P1P4c1/4B3B/6R2/3AKA2R w - - 5 21",
    "2bak4/4a4/4b4/9/2n6/9/9/4B4/4A4/3AK1B2 w - - 0 1",
    "3k5/4a4/4b4/9/2p6/9/9/4B4/4A4/3AK1R2 w - - 0 1",
];

/// The default bench depth.
pub const DEPTH: u32 = 10;

/// The bench at `depth`, evaluating with `network` (the hand-crafted evaluation when `None`):
/// core's [`tessera_core::bench::run`] searches it.
#[derive(Clone, Debug)]
pub struct XiangqiBench {
    /// The search depth.
    pub depth: u32,
    /// The network the positions evaluate with.
    pub network: Option<Arc<Network>>,
}

impl Bench for XiangqiBench {
    type Game = Position;
    type Searcher = AlphaBeta<Position>;

    /// # Panics
    /// Never on the fixed positions (they are valid FENs, checked by a test).
    fn positions(&self) -> Vec<Position> {
        POSITIONS
            .iter()
            .map(|fen| {
                let mut position: Position = fen.parse().expect("bench FENs are valid");
                position.set_network(self.network.clone());
                position
            })
            .collect()
    }

    fn searcher(&self, options: &EngineOptions) -> AlphaBeta<Position> {
        AlphaBeta::new(options, MOVES_LEFT)
    }

    fn limits(&self) -> Limits<crate::Move> {
        Limits::depth(self.depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search's signature with the embedded network (the engine's default, what
    /// `tessera-ucci bench` runs): change it only with a commit that says "Bench: N".
    const SIGNATURE: u64 = 245_584;
    /// With the hand-crafted evaluation.
    const CLASSICAL_SIGNATURE: u64 = 219_106;

    #[test]
    fn bench_positions_are_valid_and_the_node_count_is_the_signature() {
        for fen in POSITIONS {
            assert!(fen.parse::<Position>().is_ok(), "{fen}");
        }
        let nodes = |network| {
            tessera_core::bench::run(&XiangqiBench { depth: DEPTH, network }, &EngineOptions::default()).nodes
        };
        assert_eq!(nodes(Some(crate::nnue::default_network())), SIGNATURE);
        assert_eq!(nodes(None), CLASSICAL_SIGNATURE);
    }
}
