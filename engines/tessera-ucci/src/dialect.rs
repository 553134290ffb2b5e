//! Xiangqi seen by both protocols its GUIs speak: UCCI and the Pikafish-style UCI dialect. The
//! searcher (core's alpha-beta with xiangqi's hooks), the ICCS notation and the rule decisions
//! come from `tessera-xiangqi`; this file only connects them.

use std::time::Duration;

use tessera_core::tt::TtEntry;
use tessera_core::{AlphaBeta, EngineOptions, Evaluate, Identity};
use tessera_ucci_protocol as ucci;
use tessera_uci_protocol as uci;
use tessera_xiangqi::{bench, perft_divide, search_root, FenError, Iccs, Move, Position, MOVES_LEFT};

use crate::evaluation::{self, Evaluation};

/// Xiangqi under the Asian rules, with ICCS move text in both protocols.
#[derive(Clone, Copy, Debug, Default)]
pub struct Xiangqi;

fn searcher(options: &EngineOptions) -> AlphaBeta<Position> {
    AlphaBeta::new(options, MOVES_LEFT)
}

impl ucci::Dialect for Xiangqi {
    type Game = Position;
    type Searcher = AlphaBeta<Position>;
    type Notation = Iccs;
    type FenError = FenError;
    type Options = Evaluation;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> AlphaBeta<Position> {
        searcher(options)
    }

    fn new_options(&self) -> Evaluation {
        Evaluation::default()
    }

    fn start_position(&self) -> Position {
        Position::start()
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        fen.parse()
    }

    fn search_root(&self, position: &Position) -> ucci::SearchRoot<Position> {
        let (position, note) = search_root(position);
        ucci::SearchRoot { position, note }
    }

    fn static_eval(&self, position: &Position) -> i32 {
        position.evaluate()
    }

    fn probe(&self, searcher: &AlphaBeta<Position>, key: u64) -> Option<TtEntry> {
        searcher.table().probe(key, 0)
    }

    fn perft_divide(&self, position: &Position, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(position, depth)
    }
}

impl uci::Dialect for Xiangqi {
    type Game = Position;
    type Searcher = AlphaBeta<Position>;
    type Notation = Iccs;
    type Options = Evaluation;
    type FenError = FenError;

    /// Pikafish's answer when there is no move.
    const NO_MOVE: &'static str = "(none)";

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> AlphaBeta<Position> {
        searcher(options)
    }

    fn new_options(&self) -> Evaluation {
        Evaluation::default()
    }

    fn start_position(&self, _chess960: bool) -> Position {
        Position::start()
    }

    fn parse_fen(&self, fen: &str, _chess960: bool) -> Result<Position, FenError> {
        fen.parse()
    }

    fn fen(&self, position: &Position) -> String {
        position.to_fen()
    }

    fn diagram(&self, position: &Position) -> Vec<String> {
        position.to_string().lines().map(str::to_owned).collect()
    }

    fn perft_divide(&self, position: &Position, depth: u32) -> Vec<(Move, u64)> {
        perft_divide(position, depth)
    }

    fn bench(&self, depth: Option<u32>, options: &EngineOptions) -> (u64, Duration) {
        let result = bench::run(depth.unwrap_or(bench::DEPTH), options.threads, evaluation::default_choice().as_ref());
        (result.nodes, result.time)
    }

    fn search_root(&self, position: &Position) -> uci::SearchRoot<Position> {
        let (position, note) = search_root(position);
        uci::SearchRoot { position, note }
    }
}
