//! What a search is allowed: depth, nodes, time, clock, pondering, and the engine-wide options.

use std::time::Duration;

/// A player's clock as a protocol reports it before a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left on our clock (main time, or the current overtime period once main time is gone).
    pub ours: Duration,
    /// Time left on the opponent's clock, if known.
    pub theirs: Option<Duration>,
    /// Time added to our clock after each of our moves.
    pub increment: Duration,
    /// Moves to play before `ours` is replenished (UCI `movestogo`, Canadian byo-yomi stones).
    pub moves_to_go: Option<u32>,
    /// Japanese byo-yomi: time granted for every move once main time runs out.
    pub byo_yomi: Option<Duration>,
}

/// The bounds of one search. Every field is optional; none at all means "until stopped".
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Limits<M> {
    /// Stop after completing this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exactly this many, single-threaded).
    pub nodes: Option<u64>,
    /// Use exactly this much time.
    pub move_time: Option<Duration>,
    /// Budget the move from this clock.
    pub clock: Option<Clock>,
    /// Search until stopped; never return before `stop`.
    pub infinite: bool,
    /// Search on the opponent's time: no time limit and no result until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Look for a mate in at most this many moves and stop when found.
    pub mate: Option<u32>,
    /// Consider only these root moves (empty = all).
    pub search_moves: Vec<M>,
    /// Send [`crate::Report::Analysis`] events this often (tree searches; `None` = never).
    pub report_interval: Option<Duration>,
    /// Ask the searcher for the ownership of the board's cells, averaged over its playouts, in
    /// its analysis reports ([`crate::Report::Analysis`]); searchers and games without it ignore it.
    pub ownership: bool,
}

impl<M> Limits<M> {
    /// Limits of a fixed depth and nothing else.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        Limits { depth: Some(depth), ..Self::none() }
    }

    /// Limits of a fixed node (or playout) count.
    #[must_use]
    pub fn nodes(nodes: u64) -> Self {
        Limits { nodes: Some(nodes), ..Self::none() }
    }

    /// Limits of a fixed time per move.
    #[must_use]
    pub fn move_time(time: Duration) -> Self {
        Limits { move_time: Some(time), ..Self::none() }
    }

    /// No limit at all (like `Default`, without requiring `M: Default`).
    #[must_use]
    pub fn none() -> Self {
        Limits {
            depth: None,
            nodes: None,
            move_time: None,
            clock: None,
            infinite: false,
            ponder: false,
            mate: None,
            search_moves: Vec::new(),
            report_interval: None,
            ownership: false,
        }
    }

    /// Whether only `stop` (or a depth/node/mate bound) ends the search: no clock and no move time.
    #[must_use]
    pub fn is_untimed(&self) -> bool {
        self.move_time.is_none() && self.clock.is_none()
    }
}

/// Engine-wide settings that protocols expose as options and every searcher honours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Transposition table or tree memory, in MiB.
    pub hash_mb: usize,
    /// Principal variations to report (at least 1).
    pub multipv: usize,
    /// Time kept back from every move for the GUI and pipes.
    pub move_overhead: Duration,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: 1, hash_mb: 16, multipv: 1, move_overhead: Duration::from_millis(30) }
    }
}
