//! What a search reports while it runs and when it ends. Protocols format these; searchers never
//! write text.

use std::time::Duration;

use crate::score::{Bound, Score};

/// One line of search progress: a completed (or failed-high/low) iteration of one principal variation.
#[derive(Clone, Debug, PartialEq)]
pub struct Info<M> {
    /// Nominal depth in plies (MCTS: average depth of the best line).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line when several are searched (MultiPV).
    pub multipv: u32,
    /// Score from the side to move at the root.
    pub score: Score,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Nodes (or playouts) searched so far, all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Transposition-table fill in per mille, if the searcher has one.
    pub hashfull: Option<u32>,
    /// Positions an endgame tablebase answered so far, all threads (UCI `tbhits`; 0 without one).
    pub tablebase_hits: u64,
    /// The principal variation, first move first.
    pub pv: Vec<M>,
}

impl<M> Info<M> {
    /// Nodes per second, 0 before any time has passed.
    #[must_use]
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

/// `nodes / time` in whole nodes per second, without dividing by zero.
#[must_use]
pub fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
}

/// Statistics of one root move in a tree search (what GTP analysis and MCTS reports show).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat<M> {
    /// The root move.
    pub mv: M,
    /// Visits through this move.
    pub visits: u32,
    /// Mean result for the side to move at the root, in `[0, 1]`.
    pub win_rate: f32,
    /// The prior probability the game gave this move.
    pub prior: f32,
    /// A lower confidence bound on `win_rate`.
    pub lower_bound: f32,
    /// The most visited line starting with this move.
    pub pv: Vec<M>,
    /// The final score the playouts through this move reached, for games that keep one.
    pub score: Option<ScoreEstimate>,
}

/// Final scores of playouts, in points for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreEstimate {
    /// Mean score (negative when behind).
    pub mean: f32,
    /// Standard deviation of the scores.
    pub stdev: f32,
}

/// An event from a running search.
#[derive(Clone, Debug, PartialEq)]
pub enum Report<M> {
    /// An iteration or principal variation finished.
    Info(Info<M>),
    /// The root move being searched now (sent sparingly, after the first second).
    CurrentMove {
        /// The move.
        mv: M,
        /// Its 1-based position in the root move order.
        number: u32,
        /// The iteration depth.
        depth: u32,
    },
    /// Per-move statistics of a tree search, best first (analysis streaming).
    Analysis {
        /// One entry per visited root move, ordered by visits.
        moves: Vec<MoveStat<M>>,
        /// Playouts so far.
        playouts: u64,
        /// Time since the search started.
        time: Duration,
        /// When [`crate::Limits::ownership`] asked for it and the game's playouts report owners
        /// ([`crate::Playout::ownership_cells`]): each cell's mean owner over the playouts this
        /// search ran, +1 for [`crate::Side::First`], -1 for [`crate::Side::Second`], in the game's
        /// cell order. `None` otherwise.
        ownership: Option<Vec<f32>>,
    },
    /// Free text for the user (UCI `info string`, pbrain `MESSAGE`).
    Text(String),
}

/// The final answer of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    /// The score of `best` from the side to move.
    pub score: Score,
    /// Depth of the last completed iteration (MCTS: of the best line).
    pub depth: u32,
    /// Nodes or playouts searched.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// Receives search events. Implemented for every `FnMut(Report<M>) + Send` closure.
pub trait InfoSink<M>: Send {
    /// Called for each event, on the search's main thread; keep it quick.
    fn report(&mut self, report: Report<M>);
}

impl<M, F: FnMut(Report<M>) + Send> InfoSink<M> for F {
    fn report(&mut self, report: Report<M>) {
        self(report);
    }
}

/// A sink that drops every event (benchmarks, internal searches).
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl<M> InfoSink<M> for Silent {
    fn report(&mut self, _report: Report<M>) {}
}
