//! The generic alpha-beta searcher: iterative deepening with aspiration windows over a principal
//! variation search, a shared transposition table, MultiPV, search moves and Lazy-SMP threads.
//!
//! Games plug in through [`Evaluate`], [`Tactical`] and [`NullMove`]; pruning margins come from
//! [`Evaluate::PRUNING`], so a game with `Pruning::NONE` gets an exact full-width search.

mod ordering;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use worker::{Shared, Worker};

use crate::game::{Game, PackedMove};
use crate::info::{Info, InfoSink, Report, SearchResult};
use crate::limits::{EngineOptions, Limits};
use crate::score::{is_mate_value, Bound, Score, INFINITE, MATE, MAX_PLY};
use crate::search::{Evaluate, NullMove, Searcher, Tactical};
use crate::threads::{shortfall_message, spawn_helpers};
use crate::time::{SearchControl, TimeManager};
use crate::tt::TranspositionTable;

pub use crate::threads::SEARCH_STACK_SIZE;

/// After this long, the main thread reports the root move it is searching.
const CURRENT_MOVE_DELAY: Duration = Duration::from_secs(1);

/// A root move with the value and line of its last full search.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    value: i32,
    pv: Vec<M>,
    /// Nodes this thread spent below the move, over all iterations so far.
    nodes: u64,
}

/// The alpha-beta searcher for any game with an evaluation.
pub struct AlphaBeta<G: Game> {
    tt: TranspositionTable,
    workers: Vec<Worker<G>>,
    options: EngineOptions,
    moves_left: u32,
    /// Whether the user was told that fewer threads started than asked (told once per setting).
    thread_shortfall_reported: bool,
}

impl<G: Evaluate + Tactical + NullMove> AlphaBeta<G> {
    /// A searcher with `options`; `moves_left` is the game's estimate of moves still to play when
    /// the clock does not say (see [`TimeManager::new`]).
    #[must_use]
    pub fn new(options: &EngineOptions, moves_left: u32) -> Self {
        let mut searcher = AlphaBeta {
            tt: TranspositionTable::new(options.hash_mb),
            workers: Vec::new(),
            options: options.clone(),
            moves_left,
            thread_shortfall_reported: false,
        };
        searcher.set_options(options);
        searcher
    }

    /// The shared transposition table (for `probe`-style protocol commands).
    #[must_use]
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }
}

impl<G: Evaluate + Tactical + NullMove> Searcher<G> for AlphaBeta<G> {
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut legal = G::Moves::default();
        root.generate_legal_moves(&mut legal);
        let mut root_moves: Vec<RootMove<G::Move>> = legal
            .iter()
            .filter(|mv| limits.search_moves.is_empty() || limits.search_moves.contains(mv))
            .map(|&mv| RootMove { mv, value: -INFINITE, pv: vec![mv], nodes: 0 })
            .collect();
        // A tablebase that knows the root keeps the moves that hold its result (and make
        // progress towards a win); the search then chooses among them.
        let root_list: Vec<G::Move> = root_moves.iter().map(|root_move| root_move.mv).collect();
        let kept = if root_list.is_empty() { None } else { root.tablebase_root_moves(&root_list) };
        if let Some(kept) = &kept {
            root_moves.retain(|root_move| kept.contains(&root_move.mv));
        }
        if root_moves.is_empty() {
            // No legal move (or none of the search moves is legal): report the final verdict.
            let score = match root.outcome() {
                Some(crate::game::Outcome::Win(side)) if side != root.side_to_move() => Score::Mate(0),
                _ if legal.is_empty() => Score::Centipawns(0),
                _ => Score::Centipawns(root.evaluate()),
            };
            return SearchResult {
                best: legal.first().copied(),
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: legal.first().copied().into_iter().collect(),
            };
        }
        self.tt.new_search();
        let shared = Shared {
            tt: &self.tt,
            control,
            time: TimeManager::new(limits, self.options.move_overhead, self.moves_left),
            node_limit: limits.nodes,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tablebase_hits: AtomicU64::new(u64::from(kept.is_some())),
        };
        let multipv = self.options.multipv.clamp(1, root_moves.len());
        let (main, helpers) = self.workers.split_first_mut().expect("set_options keeps at least one worker");
        let asked = helpers.len();
        let (depth, started) = std::thread::scope(|scope| {
            let shared = &shared;
            let payloads =
                helpers.iter_mut().enumerate().map(|(index, helper)| (index, helper, root.clone(), root_moves.clone()));
            let started = spawn_helpers(scope, payloads, move |(index, helper, mut position, mut moves)| {
                let mut context = Iteration { worker: helper, shared, limits, multipv: 1, start, sink: None };
                context.deepen(&mut position, &mut moves, 1 + (index as u32 + 1) % 2);
            });
            if started < asked && !self.thread_shortfall_reported {
                sink.report(Report::Text(shortfall_message(started + 1, asked + 1)));
            }
            let mut position = root.clone();
            let mut context = Iteration { worker: main, shared, limits, multipv, start, sink: Some(sink) };
            let depth = context.deepen(&mut position, &mut root_moves, 1);
            shared.abort.store(true, Ordering::Relaxed);
            (depth, started)
        });
        self.thread_shortfall_reported |= started < asked;
        let best = &root_moves[0];
        let ponder = best.pv.get(1).copied().or_else(|| self.ponder_from_table(root, best.mv));
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: Score::from_value(best.value.max(-MATE)),
            depth,
            nodes: shared.nodes.load(Ordering::Relaxed),
            time: start.elapsed(),
            pv: best.pv.clone(),
        }
    }

    fn clear(&mut self) {
        self.tt.clear();
        for worker in &mut self.workers {
            worker.heuristics.clear();
            worker.correction.clear();
        }
    }

    fn set_options(&mut self, options: &EngineOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.tt.resize(options.hash_mb);
        }
        let threads = options.threads.max(1);
        self.thread_shortfall_reported &= threads == self.workers.len();
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            let is_main = self.workers.is_empty();
            self.workers.push(Worker::new(is_main));
        }
        self.options = options.clone();
    }

    fn memory_mb(&self) -> Option<usize> {
        Some(self.tt.megabytes())
    }
}

impl<G: Evaluate + Tactical + NullMove> AlphaBeta<G> {
    /// A reply to `best` from the table, when the PV is too short to have one (after a TT cutoff).
    fn ponder_from_table(&self, root: &G, best: G::Move) -> Option<G::Move> {
        let mut position = root.clone();
        position.play(best);
        let reply = G::Move::from_bits(self.tt.probe(position.hash(), 1)?.move_bits?);
        position.is_legal(reply).then_some(reply)
    }
}

/// One thread's iterative deepening over the root moves.
struct Iteration<'a, 'b, G: Game> {
    worker: &'a mut Worker<G>,
    shared: &'a Shared<'b>,
    limits: &'a Limits<G::Move>,
    multipv: usize,
    start: Instant,
    /// Only the main thread reports.
    sink: Option<&'a mut dyn InfoSink<G::Move>>,
}

impl<G: Evaluate + Tactical + NullMove> Iteration<'_, '_, G> {
    /// Deepens from `first_depth` until a limit or an abort; returns the last completed depth.
    fn deepen(&mut self, root: &mut G, root_moves: &mut [RootMove<G::Move>], first_depth: u32) -> u32 {
        self.worker.reset_counters(root.ply());
        self.worker.heuristics.age();
        self.worker.set_root(root);
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
        let mut completed = 0;
        let mut best_changes = 0.0f64;
        let mut last_reported = None;
        for depth in first_depth..=max_depth {
            let previous_best = root_moves[0].mv;
            self.worker.root_depth = depth as i32;
            for pv_index in 0..self.multipv {
                self.aspiration(root, root_moves, pv_index, depth as i32);
                if self.shared.aborted() {
                    break;
                }
                root_moves[..=pv_index].sort_by_key(|root_move| std::cmp::Reverse(root_move.value));
            }
            if self.shared.aborted() {
                break;
            }
            completed = depth;
            if self.sink.is_none() {
                continue;
            }
            self.worker.flush(self.shared);
            for pv_index in 0..self.multipv {
                self.report_line(root_moves, pv_index, depth, Bound::Exact);
            }
            last_reported = Some(root_moves[0].mv);
            if root_moves[0].mv != previous_best {
                best_changes += 1.0;
            }
            best_changes *= 0.5;
            if self.should_stop_after(depth, root_moves, best_changes) {
                break;
            }
        }
        self.worker.flush(self.shared);
        // A stop in the middle of an iteration may leave a new best move, fully searched there but
        // never reported: report it so that the GUI's last line matches the move played.
        if last_reported.is_some_and(|reported| reported != root_moves[0].mv) {
            self.report_line(root_moves, 0, completed + 1, Bound::Exact);
        }
        completed
    }

    /// Whether the main thread should end the search after completing `depth`.
    fn should_stop_after(&self, depth: u32, root_moves: &[RootMove<G::Move>], best_changes: f64) -> bool {
        let control = self.shared.control;
        if control.is_stopped() {
            return true;
        }
        if let Some(moves) = self.limits.mate {
            let value = root_moves[0].value;
            if is_mate_value(value) && value > 0 && MATE - value < 2 * moves as i32 {
                return true;
            }
        }
        // A proven result needs no deeper search unless the GUI asked for a depth or analysis.
        let proven = root_moves[0].value;
        if self.limits.depth.is_none()
            && !self.limits.infinite
            && is_mate_value(proven)
            && depth as i32 > 2 * (MATE - proven.abs()) + 4
        {
            return true;
        }
        let timed = !self.limits.is_untimed() && !control.is_pondering();
        if timed && root_moves.len() == 1 && depth >= 2 {
            return true; // a forced move needs no thought
        }
        let effort =
            G::PRUNING.node_time_management.then(|| root_moves[0].nodes as f64 / self.worker.nodes.max(1) as f64);
        self.shared.time.soft_expired(control, soft_budget_scale(best_changes, effort))
    }

    /// Searches line `pv_index` with a window around its last value, widening on failure.
    fn aspiration(&mut self, root: &mut G, root_moves: &mut [RootMove<G::Move>], pv_index: usize, depth: i32) {
        let window = G::PRUNING.aspiration_window;
        let previous = root_moves[pv_index].value;
        let mut delta = window;
        let (mut alpha, mut beta) = if window > 0 && depth >= 5 && !is_mate_value(previous) && previous > -INFINITE {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.search_root(root, root_moves, pv_index, depth, alpha, beta);
            if self.shared.aborted() {
                return;
            }
            if value <= alpha && alpha > -INFINITE {
                self.report_bound(root_moves, pv_index, depth, Bound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
            } else if value >= beta && beta < INFINITE {
                self.report_bound(root_moves, pv_index, depth, Bound::Lower);
                beta = (value + delta).min(INFINITE);
            } else {
                return;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Searches the root moves from `pv_index` on; moves a newly best move to `pv_index`.
    fn search_root(
        &mut self,
        root: &mut G,
        root_moves: &mut [RootMove<G::Move>],
        pv_index: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best_value = -INFINITE;
        for index in pv_index..root_moves.len() {
            let mv = root_moves[index].mv;
            if let Some(sink) = self.sink.as_deref_mut() {
                if self.start.elapsed() >= CURRENT_MOVE_DELAY {
                    sink.report(Report::CurrentMove { mv, number: (index + 1) as u32, depth: depth as u32 });
                }
            }
            self.worker.set_root_move(root, mv);
            let nodes_before = self.worker.nodes;
            root.play(mv);
            let value = if index == pv_index {
                -self.worker.search(root, self.shared, depth - 1, 1, -beta, -alpha, true, false)
            } else {
                let value = -self.worker.search(root, self.shared, depth - 1, 1, -alpha - 1, -alpha, true, true);
                if value > alpha && value < beta {
                    -self.worker.search(root, self.shared, depth - 1, 1, -beta, -alpha, true, false)
                } else {
                    value
                }
            };
            root.undo();
            root_moves[index].nodes += self.worker.nodes - nodes_before;
            if self.shared.aborted() {
                break;
            }
            if index == pv_index || value > alpha {
                let root_move = &mut root_moves[index];
                root_move.value = value;
                root_move.pv.clear();
                root_move.pv.push(mv);
                root_move.pv.extend_from_slice(self.worker.pv_from(1));
                root_moves[pv_index..=index].rotate_right(1);
            } else {
                root_moves[index].value = -INFINITE;
            }
            best_value = best_value.max(value);
            alpha = alpha.max(value);
            if value >= beta {
                break;
            }
        }
        best_value
    }

    fn report_bound(&mut self, root_moves: &[RootMove<G::Move>], pv_index: usize, depth: i32, bound: Bound) {
        if self.sink.is_some() && self.start.elapsed() >= CURRENT_MOVE_DELAY {
            self.report_line(root_moves, pv_index, depth as u32, bound);
        }
    }

    fn report_line(&mut self, root_moves: &[RootMove<G::Move>], pv_index: usize, depth: u32, bound: Bound) {
        let Some(sink) = self.sink.as_deref_mut() else { return };
        let line = &root_moves[pv_index];
        sink.report(Report::Info(Info {
            depth,
            seldepth: self.worker.seldepth.max(depth as usize) as u32,
            multipv: pv_index as u32 + 1,
            score: Score::from_value(line.value),
            bound,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            time: self.start.elapsed(),
            hashfull: Some(self.shared.tt.hashfull()),
            tablebase_hits: self.shared.tablebase_hits.load(Ordering::Relaxed),
            pv: line.pv.clone(),
        }));
    }
}

/// How much of the soft time budget to use: unstable best moves (`best_changes`, decayed count of
/// changes) earn more time and a stable one lets us move early; with node time management, a best
/// move that took a small share (`effort`) of the nodes earns more too, since others came close.
fn soft_budget_scale(best_changes: f64, effort: Option<f64>) -> f64 {
    let scale = 0.6 + best_changes.min(2.0);
    effort.map_or(scale, |effort| scale * (1.5 - effort) * 1.35)
}

#[cfg(test)]
mod tests;
