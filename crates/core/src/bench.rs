//! The one bench driver: a game's fixed positions, each searched by a fresh searcher within the
//! game's limits. On one thread the result is deterministic — the search's signature, which a test
//! asserts and a commit that changes the search quotes ("Bench: N"). The game supplies the
//! positions, the searcher and the limits ([`Bench`]); [`run`] searches them and
//! [`BenchReport::lines`] writes the one bench text ([`crate::report::bench_lines`]).

use std::time::{Duration, Instant};

use crate::game::Game;
use crate::info::{SearchResult, Silent};
use crate::limits::{EngineOptions, Limits};
use crate::report;
use crate::search::Searcher;
use crate::time::SearchControl;

/// A move of bench `B`'s game.
type BenchMove<B> = <<B as Bench>::Game as Game>::Move;

/// What a game's bench searches.
pub trait Bench {
    /// The game.
    type Game: Game;
    /// The searcher the engine plays it with.
    type Searcher: Searcher<Self::Game>;

    /// The fixed positions, in order.
    fn positions(&self) -> Vec<Self::Game>;

    /// A fresh searcher with `options`, one for each position.
    fn searcher(&self, options: &EngineOptions) -> Self::Searcher;

    /// The limits of each search (a depth for alpha-beta, playouts for MCTS).
    fn limits(&self) -> Limits<<Self::Game as Game>::Move>;

    /// The signature of the searches: by default the nodes searched. A game whose node counts are
    /// fixed by its limits (playouts) folds in what the searches found.
    fn signature(&self, searches: &[BenchSearch<BenchMove<Self>>]) -> u64 {
        searches.iter().map(|search| search.result.nodes).sum()
    }

    /// Figures the game prints before the totals (e.g. the speed of each search); none by default.
    fn figures(&self, _searches: &[BenchSearch<BenchMove<Self>>]) -> Vec<String> {
        Vec::new()
    }
}

/// One search of a bench.
#[derive(Clone, Debug)]
pub struct BenchSearch<M> {
    /// What it found.
    pub result: SearchResult<M>,
    /// Its wall time.
    pub time: Duration,
}

/// A finished bench: its totals and signature, and the game's figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes (or playouts) over all searches.
    pub nodes: u64,
    /// Wall time of the whole bench.
    pub time: Duration,
    /// The signature (`Bench: N`).
    pub signature: u64,
    /// The game's own figures, printed first.
    pub figures: Vec<String>,
}

impl BenchReport {
    /// The bench text: the game's figures, then the totals, the speed and `Bench: N`.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.figures.clone();
        lines.extend(report::bench_lines(self.nodes, self.time, self.signature));
        lines
    }
}

/// Searches every position of `bench` with a fresh searcher made with `options`.
pub fn run<B: Bench>(bench: &B, options: &EngineOptions) -> BenchReport {
    let start = Instant::now();
    let limits = bench.limits();
    let mut searches = Vec::new();
    for position in bench.positions() {
        let mut searcher = bench.searcher(options);
        let search_start = Instant::now();
        let result = searcher.search(&position, &limits, &SearchControl::new(), &mut Silent);
        searches.push(BenchSearch { result, time: search_start.elapsed() });
    }
    let time = start.elapsed();
    BenchReport {
        nodes: searches.iter().map(|search| search.result.nodes).sum(),
        time,
        signature: bench.signature(&searches),
        figures: bench.figures(&searches),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::TicTacToe;
    use crate::AlphaBeta;

    /// Tic-tac-toe from the start and after the centre, to depth 4.
    struct Toy;

    impl Bench for Toy {
        type Game = TicTacToe;
        type Searcher = AlphaBeta<TicTacToe>;

        fn positions(&self) -> Vec<TicTacToe> {
            vec![TicTacToe::new(), TicTacToe::from_moves(&[4])]
        }
        fn searcher(&self, options: &EngineOptions) -> AlphaBeta<TicTacToe> {
            AlphaBeta::new(options, 5)
        }
        fn limits(&self) -> Limits<u8> {
            Limits::depth(4)
        }
    }

    #[test]
    fn a_bench_is_its_own_signature_on_one_thread() {
        let first = run(&Toy, &EngineOptions::default());
        assert!(first.nodes > 0);
        assert_eq!(first.signature, first.nodes);
        assert_eq!(run(&Toy, &EngineOptions::default()).signature, first.signature);
        let lines = first.lines();
        assert_eq!(lines[0], format!("Nodes searched: {}", first.nodes));
        assert_eq!(lines.last(), Some(&format!("Bench: {}", first.nodes)));
    }
}
