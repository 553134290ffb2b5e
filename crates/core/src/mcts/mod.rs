//! The generic Monte-Carlo tree searcher: PUCT or UCT selection, priors and optional RAVE,
//! virtual-loss threads over one shared tree without a lock, tree reuse between moves, and
//! analysis reports.
//!
//! Games plug in through [`Playout`]: the moves to expand, their priors and a fast playout.
//!
//! Modules, bottom-up: `tree` (the lock-free arena of nodes) and `ownership` (the cells' owners
//! summed over the playouts) → `run` (one search's shared state and each thread's playout cycle)
//! → `stop` (when a search ends) → this file (settings, the searcher, tree reuse).

mod ownership;
mod run;
mod stop;
mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use ownership::OwnershipTally;
use run::{Run, Scratch};
#[cfg(test)]
use stop::playouts_left;
use stop::{fallback_result, should_stop};
use tree::Tree;

use crate::game::{Game, PackedMove};
use crate::info::{Info, InfoSink, Report, SearchResult};
use crate::limits::{EngineOptions, Limits};
use crate::score::{Bound, Score};
use crate::search::{Playout, Searcher};
use crate::threads::{shortfall_message, spawn_helpers};
use crate::time::{SearchControl, TimeManager};

/// How children are chosen during descent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// `Q + c·sqrt(ln N / n)`; unvisited children first.
    Uct {
        /// The exploration constant `c`.
        exploration: f32,
    },
    /// `Q + c·P·sqrt(N) / (1 + n)` with the game's priors `P` (AlphaZero style).
    Puct {
        /// The exploration constant `c`.
        exploration: f32,
        /// Unvisited children are valued at the parent's mean minus this.
        first_play_reduction: f32,
    },
}

/// Settings of the MCTS searcher.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The selection rule.
    pub selection: Selection,
    /// RAVE equivalence parameter `k` (AMAF weight `sqrt(k / (3n + k))`), or `None` for no RAVE.
    pub rave_equivalence: Option<f32>,
    /// Visits a leaf needs before it is expanded (1 = expand at the first visit).
    pub expand_after: u32,
    /// Seed of the playout generators (thread `i` uses `seed + i`).
    pub seed: u64,
    /// Keep the subtree of the position reached when the next search starts from a later position.
    pub reuse_tree: bool,
    /// Estimated moves still to play when the clock does not say.
    pub moves_left: u32,
    /// Progressive widening: children are kept in order of prior, and a node with `n` visits
    /// selects only among its first `2 + ceil((n / scale) ^ exponent)`; `None` opens every child
    /// at once. It spends a small search on the moves the priors rank high.
    pub widening: Option<Widening>,
    /// End a search early once its choice is settled: the most visited root move leads the
    /// runner-up by more than this share of the playouts its limit still allows (the rest of a
    /// playout budget, or of a clock's budget at the rate so far). At 1 no playout left could change
    /// the move; below 1 the runner-up is assumed to win at most that share of them, which saves
    /// more but can change the move when a runner-up is gaining fast. The time saved goes to
    /// later moves. `None` uses every limit in full; time that would be lost unused (a fixed time
    /// per move, a byo-yomi period) is always used in full.
    pub stop_when_settled: Option<f32>,
    /// Visits at which a node asks the game for refined priors of its children
    /// ([`Playout::refined_priors`], e.g. from a neural network); the root asks when it is
    /// expanded. `None` never asks.
    pub refine_after: Option<u32>,
    /// Playouts that a refined node's value estimate ([`crate::Refined::value`]) counts as in its
    /// mean when its parent selects among its children: `(sum + w·v) / (visits + w)`. 0 ignores
    /// the estimates; they never enter the reported win rates or the choice of the move.
    pub value_weight: f32,
}

/// The progressive-widening schedule of [`MctsConfig::widening`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// Visits per unit of width growth.
    pub scale: f32,
    /// Growth exponent (0.5: the width grows as the square root of the visits).
    pub exponent: f32,
}

impl Widening {
    /// Children a node with `visits` visits may select among.
    #[must_use]
    pub fn width(&self, visits: u32) -> usize {
        2 + (visits as f32 / self.scale).powf(self.exponent).ceil() as usize
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            selection: Selection::Uct { exploration: 1.0 },
            rave_equivalence: None,
            expand_after: 1,
            seed: 0x0007_E55E_4A00,
            reuse_tree: true,
            moves_left: 30,
            widening: None,
            stop_when_settled: Some(1.0),
            refine_after: None,
            value_weight: 0.0,
        }
    }
}

/// Bytes one tree node takes with its RAVE statistics (a test checks the bound), for sizing the tree
/// from the `Hash` option. The tree takes at most `Hash` plus the children of one node (64 KiB).
const NODE_BYTES: usize = 64;
/// Longest principal line reported.
const MAX_REPORTED_LINE: usize = 24;

/// The MCTS searcher.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    options: EngineOptions,
    /// The tree of the last search and the position at its root, kept for reuse.
    kept: Option<(G, Tree<G::Move>)>,
    /// Whether the user was told that fewer threads started than asked (told once per setting).
    thread_shortfall_reported: bool,
    /// The tree's memory bound: `hash_mb` clamped to what the system has available.
    memory_mb: usize,
}

impl<G: Playout> Mcts<G> {
    /// A searcher with `config` and engine `options`.
    #[must_use]
    pub fn new(config: MctsConfig, options: &EngineOptions) -> Self {
        Mcts {
            config,
            options: options.clone(),
            kept: None,
            thread_shortfall_reported: false,
            memory_mb: crate::memory::clamp_mb(options.hash_mb),
        }
    }

    /// The settings in use.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    fn max_nodes(&self) -> usize {
        (self.memory_mb * 1024 * 1024 / NODE_BYTES).max(1024)
    }

    /// The tree to start from: the kept subtree if `root` follows the kept position, else a fresh one.
    fn starting_tree(&mut self, root: &G) -> Tree<G::Move> {
        let limit = self.max_nodes();
        let kept = self.kept.take();
        let reused = kept.as_ref().and_then(|(old_root, old_tree)| {
            let node = self.kept_node(old_root, old_tree, root)?;
            old_tree.extract(node, limit)
        });
        // The old tree goes before a fresh one is allocated: it may need the memory.
        drop(kept);
        match reused {
            Some(tree) => {
                tree.node(0).forget_outcome();
                tree
            }
            None => Tree::new(G::Move::from_bits(0), limit),
        }
    }

    /// The node of the kept tree at `root`, if reuse is on and `root` follows the kept position.
    fn kept_node(&self, old_root: &G, old_tree: &Tree<G::Move>, root: &G) -> Option<usize> {
        if !self.config.reuse_tree || root.ply() < old_root.ply() || root.rules() != old_root.rules() {
            return None;
        }
        let mut earlier = root.clone();
        while earlier.ply() > old_root.ply() {
            earlier.undo();
        }
        if earlier.hash() != old_root.hash() || earlier.side_to_move() != old_root.side_to_move() {
            return None;
        }
        let mut node = 0;
        for index in old_root.ply()..root.ply() {
            node = old_tree.child_with_move(node, root.move_played(index)?)?;
        }
        Some(node)
    }
}

impl<G: Playout> Searcher<G> for Mcts<G> {
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let time = TimeManager::new(limits, self.options.move_overhead, self.config.moves_left);
        let tree = self.starting_tree(root);
        let threads = self.options.threads.max(1);
        let ownership_cells = if limits.ownership { root.ownership_cells() } else { 0 };
        let run = Run {
            tree,
            control,
            config: &self.config,
            root,
            search_moves: &limits.search_moves,
            playouts: AtomicU64::new(0),
            abort: AtomicBool::new(false),
            ownership: (ownership_cells > 0).then(|| OwnershipTally::new(ownership_cells, threads)),
        };
        let seed = self.config.seed;
        let started = std::thread::scope(|scope| {
            let run = &run;
            let started = spawn_helpers(scope, 1..threads, move |thread| {
                let mut scratch = Scratch::new(root, seed + thread as u64, thread, ownership_cells);
                while !run.aborted() {
                    run.iterate(&mut scratch);
                }
            });
            if started + 1 < threads && !self.thread_shortfall_reported {
                sink.report(Report::Text(shortfall_message(started + 1, threads)));
            }
            let mut scratch = Scratch::new(root, seed, 0, ownership_cells);
            let mut last_report = Instant::now();
            // The main thread's own count paces its checks: the shared count moves under other
            // threads' playouts too, and could step over every multiple of 16 it would read.
            let mut iterations = 0u64;
            loop {
                run.iterate(&mut scratch);
                iterations += 1;
                let playouts = run.playouts.load(Ordering::Relaxed);
                if iterations.is_multiple_of(16) || limits.nodes.is_some() {
                    if should_stop(run, limits, &time, playouts) {
                        break;
                    }
                    if let Some(interval) = limits.report_interval {
                        if last_report.elapsed() >= interval {
                            last_report = Instant::now();
                            sink.report(run.analysis(run.root_stats(), playouts, start.elapsed()));
                        }
                    }
                }
            }
            run.abort.store(true, Ordering::Relaxed);
            started
        });
        self.thread_shortfall_reported |= started + 1 < threads;
        let stats = run.root_stats();
        let playouts = run.playouts.load(Ordering::Relaxed);
        let result = match stats.first() {
            Some(best) => SearchResult {
                best: Some(best.mv),
                ponder: best.pv.get(1).copied(),
                score: Score::WinRate(best.win_rate),
                depth: best.pv.len() as u32,
                nodes: playouts,
                time: start.elapsed(),
                pv: best.pv.clone(),
            },
            None => fallback_result(root, playouts, start.elapsed()),
        };
        if let Some(best) = stats.first() {
            if limits.report_interval.is_some() {
                sink.report(run.analysis(stats.clone(), playouts, start.elapsed()));
            }
            sink.report(Report::Info(Info {
                depth: result.depth,
                seldepth: result.depth,
                multipv: 1,
                score: Score::WinRate(best.win_rate),
                bound: Bound::Exact,
                nodes: playouts,
                time: start.elapsed(),
                hashfull: None,
                tablebase_hits: 0,
                pv: best.pv.clone(),
            }));
        }
        self.kept = Some((root.clone(), run.tree));
        result
    }

    fn clear(&mut self) {
        self.kept = None;
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.thread_shortfall_reported &= options.threads == self.options.threads;
        if options.hash_mb != self.options.hash_mb {
            self.memory_mb = crate::memory::clamp_mb(options.hash_mb);
        }
        self.options = options.clone();
    }

    fn memory_mb(&self) -> Option<usize> {
        Some(self.memory_mb)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod thread_tests;
