//! One search thread: principal variation search with the usual pruning, and quiescence.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::ordering::{is_early_key, pick_next, score_moves, Heuristics, MAX_KEYS};
use crate::game::{Game, Outcome, PackedMove};
use crate::score::{is_mate_value, mate_in, mated_in, Bound, INFINITE, MATE_BOUND, MAX_EVAL, MAX_PLY};
use crate::search::{Evaluate, NullMove, Tactical};
use crate::time::{SearchControl, TimeManager};
use crate::tt::TranspositionTable;

/// Everything the threads of one search share.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a SearchControl,
    pub time: TimeManager,
    pub node_limit: Option<u64>,
    /// Set by the main thread when the whole search must end (stop, time, nodes, or done).
    pub abort: AtomicBool,
    /// Nodes flushed by all threads.
    pub nodes: AtomicU64,
}

impl Shared<'_> {
    pub(crate) fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }
}

/// How often (in nodes) a thread flushes its count and the main thread checks the clock.
const POLL_INTERVAL: u64 = 1024;

/// The first `len` keys of `storage`, set to zero: only as many as there are moves, since
/// clearing the whole 4 KiB array at every node would cost more than ordering itself.
fn zeroed_prefix(storage: &mut [MaybeUninit<i32>; MAX_KEYS], len: usize) -> &mut [i32] {
    let prefix = &mut storage[..len];
    for key in prefix.iter_mut() {
        key.write(0);
    }
    // SAFETY: every element of `prefix` was initialised just above; `MaybeUninit<i32>` has the
    // layout of `i32`.
    unsafe { &mut *(std::ptr::from_mut::<[MaybeUninit<i32>]>(prefix) as *mut [i32]) }
}

/// `LMR[depth][move_index]`: plies to reduce a late quiet move by.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Box<[[u8; 64]; 64]>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Box::new([[0u8; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.75 + (depth as f64).ln() * (index as f64).ln() / 2.25) as u8;
            }
        }
        table
    });
    i32::from(table[depth.clamp(0, 63) as usize][index.min(63)])
}

/// The per-thread state of a search.
pub(crate) struct Worker<G: Game> {
    pub heuristics: Heuristics<G::Move>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pv: Vec<Vec<G::Move>>,
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    pub root_ply: usize,
    pub is_main: bool,
}

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    pub(crate) fn new(is_main: bool) -> Self {
        Worker {
            heuristics: Heuristics::new(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY + 1)).collect(),
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            root_ply: 0,
            is_main,
        }
    }

    pub(crate) fn reset_counters(&mut self, root_ply: usize) {
        self.nodes = 0;
        self.unflushed = 0;
        self.seldepth = 0;
        self.root_ply = root_ply;
    }

    /// The best line found from the root by the last completed root-move search.
    pub(crate) fn pv_from(&self, ply: usize) -> &[G::Move] {
        &self.pv[ply]
    }

    /// Counts a node; every `POLL_INTERVAL` nodes flushes the count and (main thread) checks limits.
    #[inline]
    fn count_node(&mut self, shared: &Shared<'_>) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.is_main {
            if let Some(limit) = shared.node_limit {
                if shared.nodes.load(Ordering::Relaxed) + self.unflushed >= limit {
                    shared.abort.store(true, Ordering::Relaxed);
                }
            }
        }
        if self.unflushed >= POLL_INTERVAL {
            self.flush(shared);
            if self.is_main && (shared.control.is_stopped() || shared.time.hard_expired(shared.control)) {
                shared.abort.store(true, Ordering::Relaxed);
            }
        }
    }

    pub(crate) fn flush(&mut self, shared: &Shared<'_>) {
        shared.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    fn outcome_value(position: &G, outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(side) if side == position.side_to_move() => mate_in(ply),
            Outcome::Win(_) => mated_in(ply),
        }
    }

    /// Searches the children of a root move: the caller has played it; `ply` is 1.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        position: &mut G,
        shared: &Shared<'_>,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_allowed: bool,
    ) -> i32 {
        let is_pv = beta - alpha > 1;
        self.pv[ply].clear();
        self.count_node(shared);
        if shared.aborted() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = position.rule_outcome(Some(self.root_ply)) {
            return Self::outcome_value(position, outcome, ply);
        }
        if ply >= MAX_PLY {
            return position.evaluate().clamp(-MAX_EVAL, MAX_EVAL);
        }
        // Mate distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let in_check = <G as Tactical>::ENABLED && position.in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(position, shared, ply, alpha, beta);
        }

        let key = position.hash();
        let entry = shared.tt.probe(key, ply);
        let tt_move = entry.and_then(|entry| entry.move_bits).map(G::Move::from_bits);
        if let Some(entry) = entry {
            if !is_pv && entry.depth >= depth {
                let cuts = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.value >= beta,
                    Bound::Upper => entry.value <= alpha,
                };
                if cuts {
                    return entry.value;
                }
            }
        }
        let eval = if in_check {
            -INFINITE
        } else {
            entry.map_or_else(|| position.evaluate().clamp(-MAX_EVAL, MAX_EVAL), |entry| entry.eval)
        };
        let pruning = G::PRUNING;
        let beta_is_not_mate = beta.abs() < MATE_BOUND;

        if !is_pv && !in_check && beta_is_not_mate {
            // Reverse futility: far above beta at low depth, the opponent will not catch up.
            if pruning.reverse_futility_margin > 0
                && depth <= 6
                && eval - pruning.reverse_futility_margin * depth >= beta
            {
                return eval;
            }
            // Razoring: far below alpha near the horizon, only tactics can save the node.
            if pruning.razor_margin > 0 && depth <= 2 && eval + pruning.razor_margin * depth < alpha {
                let value = self.quiescence(position, shared, ply, alpha, alpha + 1);
                if value <= alpha {
                    return value;
                }
            }
            // Null move: if passing still beats beta, a real move will too.
            if <G as NullMove>::ENABLED && null_allowed && depth >= 2 && eval >= beta && position.null_move_allowed() {
                let reduction = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                position.play_null();
                let value = -self.search(position, shared, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
                position.undo_null();
                if shared.aborted() {
                    return 0;
                }
                if value >= beta {
                    return if is_mate_value(value) { beta } else { value };
                }
            }
        }

        let mut moves = G::Moves::default();
        position.generate_search_moves(&mut moves);
        if moves.is_empty() {
            return Self::outcome_value(position, position.no_move_outcome(), ply);
        }
        let mut storage = [MaybeUninit::uninit(); MAX_KEYS];
        let keys = zeroed_prefix(&mut storage, moves.len());
        score_moves(position, &moves, keys, tt_move, &self.heuristics, ply);

        let side = position.side_to_move().index();
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried = crate::moves::MoveList::<G::Move, 64>::new();
        let futility_base = (pruning.futility_margin > 0 && !is_pv && !in_check && depth <= 6)
            .then(|| eval + pruning.futility_margin * depth);
        for index in 0..moves.len() {
            pick_next(&mut moves, keys, index);
            let mv = moves[index];
            let tactical = <G as Tactical>::ENABLED && position.is_tactical(mv);
            // Quiet moves that are neither the TT move nor killers may be pruned and reduced.
            let late_quiet = !tactical && !is_early_key(keys[index]);
            if index > 0 && best_value > -MATE_BOUND {
                if let Some(base) = futility_base {
                    // Futility and late-move pruning: quiet moves at the horizon that cannot raise alpha.
                    if late_quiet && (base <= alpha || index as i32 > 3 + depth * depth * 2) {
                        continue;
                    }
                    if tactical && !position.static_exchange_at_least(mv, -pruning.futility_margin * depth) {
                        continue;
                    }
                }
            }
            position.play(mv);
            let gives_check = <G as Tactical>::ENABLED && position.in_check();
            let new_depth = depth - 1;
            let value = if index == 0 {
                -self.search(position, shared, new_depth, ply + 1, -beta, -alpha, true)
            } else {
                let reduction = if pruning.late_move_reductions
                    && depth >= 3
                    && late_quiet
                    && !in_check
                    && !gives_check
                    && index >= 2
                {
                    (late_move_reduction(depth, index) - i32::from(is_pv)).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut value =
                    -self.search(position, shared, new_depth - reduction, ply + 1, -alpha - 1, -alpha, true);
                if value > alpha && reduction > 0 {
                    value = -self.search(position, shared, new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if value > alpha && value < beta {
                    value = -self.search(position, shared, new_depth, ply + 1, -beta, -alpha, true);
                }
                value
            };
            position.undo();
            if shared.aborted() {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    if is_pv {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        if !tactical {
                            self.heuristics.reward_cutoff(side, ply, depth, mv, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !tactical && quiets_tried.len() < 64 {
                quiets_tried.push(mv);
            }
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if in_check { 0 } else { eval };
        shared.tt.store(key, ply, best_move.map(PackedMove::to_bits), best_value, stored_eval, depth, bound);
        best_value
    }

    /// Resolves tactical moves at the horizon so that the static evaluation is taken in a quiet position.
    fn quiescence(&mut self, position: &mut G, shared: &Shared<'_>, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.count_node(shared);
        if shared.aborted() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = position.rule_outcome(Some(self.root_ply)) {
            return Self::outcome_value(position, outcome, ply);
        }
        let in_check = <G as Tactical>::ENABLED && position.in_check();
        if ply >= MAX_PLY || (!<G as Tactical>::ENABLED) {
            return position.evaluate().clamp(-MAX_EVAL, MAX_EVAL);
        }
        let mut best_value = -INFINITE;
        if !in_check {
            best_value = position.evaluate().clamp(-MAX_EVAL, MAX_EVAL);
            if best_value >= beta {
                return best_value;
            }
            alpha = alpha.max(best_value);
        }
        let mut moves = G::Moves::default();
        if in_check {
            position.generate_legal_moves(&mut moves);
            if moves.is_empty() {
                return Self::outcome_value(position, position.no_move_outcome(), ply);
            }
        } else {
            position.generate_tactical_moves(&mut moves);
        }
        let mut storage = [MaybeUninit::uninit(); MAX_KEYS];
        let keys = zeroed_prefix(&mut storage, moves.len());
        for (key, &mv) in keys.iter_mut().zip(moves.iter()) {
            *key = position.move_order_hint(mv);
        }
        for index in 0..moves.len() {
            pick_next(&mut moves, keys, index);
            let mv = moves[index];
            if !in_check && !position.static_exchange_at_least(mv, 0) {
                continue;
            }
            position.play(mv);
            let value = -self.quiescence(position, shared, ply + 1, -beta, -alpha);
            position.undo();
            if shared.aborted() {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best_value
    }

    /// `pv[ply] = mv + pv[ply + 1]`.
    pub(crate) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}
