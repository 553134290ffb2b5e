//! One search thread: principal variation search with the usual pruning (ProbCut, quiescence,
//! singular extensions, the evaluation's correction history and the late-move reduction table in
//! the child modules).

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

mod correction;
mod probcut;
mod quiescence;
mod reductions;
mod singular;

use correction::CorrectionHistory;
use probcut::ProbCutNode;
use reductions::ReductionTable;
use singular::Singular;

use super::ordering::{
    is_early_key, is_tactical, pick_next, score_moves, zeroed_prefix, Heuristics, PreviousContexts, MAX_KEYS,
};
use crate::game::{Game, Outcome, PackedMove};
use crate::score::{is_mate_value, mate_in, mated_in, Bound, INFINITE, MATE_BOUND, MAX_EVAL, MAX_PLY, TABLEBASE_WIN};
use crate::search::{Evaluate, NullMove, TablebaseResult, Tactical};
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
    /// Tablebase answers used by all threads (UCI `tbhits`).
    pub tablebase_hits: AtomicU64,
}

impl Shared<'_> {
    pub(crate) fn aborted(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }
}

/// How much deeper than the node's own depth a tablebase answer counts in the table: it is exact
/// whatever the depth (Stockfish stores it six plies deeper, so that it outlives ordinary entries).
const TABLEBASE_DEPTH_BONUS: i32 = 6;

/// How many children of a node must fail high before its late quiet moves are reduced more
/// ([`crate::search::Pruning::cutoff_count_reductions`]).
const MANY_CUTOFFS: u32 = 3;

/// How often (in nodes) a thread flushes its count and the main thread checks the clock.
const POLL_INTERVAL: u64 = 1024;

/// No static evaluation at this ply (in check, or not computed).
const NO_EVAL: i32 = i32::MIN;

/// What the search keeps about each ply of the line it is on.
#[derive(Clone, Copy)]
struct Frame<M> {
    /// The static evaluation ([`NO_EVAL`] in check).
    eval: i32,
    /// The context (see [`Evaluate::move_context`]) of the move being searched from this ply;
    /// `None` for a null move or a game without contexts.
    context: Option<usize>,
    /// The move a singular-extension check leaves out at this ply.
    excluded: Option<M>,
    /// Whether the move being searched from this ply is quiet (not tactical).
    quiet: bool,
    /// Cutoffs at this ply since the node at the ply before it began.
    cutoffs: u32,
}

impl<M> Frame<M> {
    const EMPTY: Frame<M> = Frame { eval: NO_EVAL, context: None, excluded: None, quiet: false, cutoffs: 0 };
}

/// The per-thread state of a search.
pub(crate) struct Worker<G: Game> {
    pub heuristics: Heuristics<G::Move>,
    pub correction: CorrectionHistory,
    reductions: ReductionTable,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pv: Vec<Vec<G::Move>>,
    /// One frame per ply of the current line, the root's at 0.
    stack: Vec<Frame<G::Move>>,
    /// The depth of the iteration under way (extensions stop at twice this many plies).
    pub root_depth: i32,
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    pub root_ply: usize,
    pub is_main: bool,
}

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    pub(crate) fn new(is_main: bool) -> Self {
        // The null move divides by both: a game whose settings make either zero does not compile.
        const { assert!(G::PRUNING.null_move_divisor > 0 && G::PRUNING.null_move_eval_unit > 0) };
        Worker {
            heuristics: Heuristics::new(G::MOVE_CONTEXTS, G::PRUNING.history_bonus_scale),
            correction: CorrectionHistory::new(G::PRUNING.correction_limit),
            reductions: ReductionTable::new(G::PRUNING.late_move_reduction_divisor),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY + 1)).collect(),
            stack: vec![Frame::EMPTY; MAX_PLY + 2],
            root_depth: 1,
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

    /// Readies the root's frame for a search of `root`.
    pub(crate) fn set_root(&mut self, root: &G) {
        let in_check = <G as Tactical>::ENABLED && root.in_check();
        let eval = if in_check {
            NO_EVAL
        } else {
            self.corrected_eval(self.correction_slot(root), root.evaluate().clamp(-MAX_EVAL, MAX_EVAL))
        };
        self.stack[0] = Frame { eval, ..Frame::EMPTY };
    }

    /// Records the root move about to be searched (its context is the first "previous move").
    pub(crate) fn set_root_move(&mut self, root: &G, mv: G::Move) {
        self.record_move(0, (G::MOVE_CONTEXTS > 0).then(|| root.move_context(mv)), false);
    }

    /// The contexts of the moves one and two plies before `ply`.
    fn previous_contexts(&self, ply: usize) -> PreviousContexts {
        [self.stack[ply - 1].context, ply.checked_sub(2).and_then(|earlier| self.stack[earlier].context)]
    }

    /// Records the move searched from `ply`: its context (`None` for a null move) and whether it
    /// is quiet, always together, so that no mark is left over from another line.
    fn record_move(&mut self, ply: usize, context: Option<usize>, quiet: bool) {
        self.stack[ply].context = context;
        self.stack[ply].quiet = quiet;
    }

    /// A node at `ply` failed low: its parent's quiet move (not a null move, which has no context)
    /// refuted everything here, so it answered the moves before it well.
    fn reward_prior_move(&mut self, ply: usize, depth: i32) {
        let parent = self.stack[ply - 1];
        if let (true, Some(context)) = (parent.quiet, parent.context) {
            let previous = self.previous_contexts(ply - 1);
            self.heuristics.reward_answer(context, previous, depth);
        }
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

    /// The tablebase's value of `position` where it decides the node: a draw always, a win that
    /// fails high, a loss that fails low. Kept in the table as deep as a search could go.
    #[allow(clippy::too_many_arguments)]
    fn tablebase_cut(
        &self,
        position: &G,
        shared: &Shared<'_>,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let result = position.probe_tablebase(depth)?;
        shared.tablebase_hits.fetch_add(1, Ordering::Relaxed);
        // `ply` is below MAX_PLY here, so the values stay between the evaluations and the mates.
        let win = TABLEBASE_WIN - ply as i32;
        let (value, bound) = match result {
            TablebaseResult::Win => (win, Bound::Lower),
            TablebaseResult::Loss => (-win, Bound::Upper),
            TablebaseResult::Draw => (0, Bound::Exact),
        };
        let decides = match bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        if !decides {
            return None;
        }
        shared.tt.store(key, ply, None, value, value, (depth + TABLEBASE_DEPTH_BONUS).min(MAX_PLY as i32), bound);
        Some(value)
    }

    /// What every node does first: counts itself, clears its PV and notes the depth reached.
    /// `Some` ends the node: 0 after an abort, or the value of a game the rules have ended.
    fn enter_node(&mut self, position: &G, shared: &Shared<'_>, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        self.count_node(shared);
        if shared.aborted() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        let outcome = position.rule_outcome(Some(self.root_ply))?;
        Some(Self::outcome_value(position, outcome, ply))
    }

    fn outcome_value(position: &G, outcome: Outcome, ply: usize) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(side) if side == position.side_to_move() => mate_in(ply),
            Outcome::Win(_) => mated_in(ply),
        }
    }

    /// Searches the children of a root move: the caller has played it; `ply` is 1. `cut_node`
    /// says the parent expects this zero-window node to fail high (see
    /// [`crate::search::Pruning::cut_node_reductions`]); it alternates down the line from there.
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
        cut_node: bool,
    ) -> i32 {
        let is_pv = beta - alpha > 1;
        let cut_node = cut_node && !is_pv;
        let excluded = self.stack[ply].excluded;
        if let Some(value) = self.enter_node(position, shared, ply) {
            return value;
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
            return self.quiescence(position, shared, ply, alpha, beta, true);
        }
        let pruning = G::PRUNING;
        self.stack[ply + 1].cutoffs = 0;

        let key = position.hash();
        // A singular-extension check searches this position without its best move: the table's
        // entry is about the whole position and must neither cut nor be overwritten.
        let entry = if excluded.is_none() { shared.tt.probe(key, ply) } else { None };
        let tt_move = entry.and_then(|entry| entry.move_bits).map(G::Move::from_bits);
        if let Some(entry) = entry {
            if !is_pv && entry.depth >= depth && entry.cuts(alpha, beta) {
                return entry.value;
            }
        }
        if excluded.is_none() {
            if let Some(value) = self.tablebase_cut(position, shared, key, depth, ply, alpha, beta) {
                return value;
            }
        }
        // The table keeps the evaluation as the game gave it (`raw_eval`); pruning uses it corrected.
        let (raw_eval, static_eval, correction_slot) = if in_check {
            (NO_EVAL, NO_EVAL, None)
        } else if excluded.is_some() {
            (NO_EVAL, self.stack[ply].eval, None)
        } else {
            let raw = entry
                .map_or_else(|| position.evaluate_within(alpha, beta).clamp(-MAX_EVAL, MAX_EVAL), |entry| entry.eval);
            let slot = self.correction_slot(position);
            (raw, self.corrected_eval(slot, raw), slot)
        };
        self.stack[ply].eval = static_eval;
        // The table's value, where its bound allows, is a better guess than the static evaluation.
        let eval = match entry {
            Some(entry) if pruning.table_refinements && !in_check && entry.refines(static_eval) => entry.value,
            _ => static_eval,
        };
        let improving = pruning.improving
            && !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != NO_EVAL
            && static_eval > self.stack[ply - 2].eval;
        let beta_is_not_mate = beta.abs() < MATE_BOUND;

        if pruning.internal_iterative_reductions && depth >= 4 && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        if !is_pv && !in_check && excluded.is_none() && beta_is_not_mate {
            // Reverse futility: far above beta at low depth, the opponent will not catch up.
            if pruning.reverse_futility_margin > 0
                && depth <= 6
                && eval - pruning.reverse_futility_margin * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Razoring: far below alpha near the horizon, only tactics can save the node.
            if pruning.razor_margin > 0 && depth <= pruning.razor_depth && eval + pruning.razor_margin * depth < alpha {
                let value = self.quiescence(position, shared, ply, alpha, alpha + 1, true);
                if value <= alpha {
                    return value;
                }
            }
            // Null move: if passing still beats beta, a real move will too.
            if <G as NullMove>::ENABLED && null_allowed && depth >= 2 && eval >= beta && position.null_move_allowed() {
                let reduction = pruning.null_move_reduction
                    + depth / pruning.null_move_divisor
                    + ((eval - beta) / pruning.null_move_eval_unit).min(3);
                self.record_move(ply, None, false);
                position.play_null();
                let value =
                    -self.search(position, shared, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false, !cut_node);
                position.undo_null();
                if shared.aborted() {
                    return 0;
                }
                if value >= beta {
                    return if is_mate_value(value) { beta } else { value };
                }
            }
            let node = ProbCutNode { key, entry, tt_move, depth, ply, beta, static_eval, raw_eval, cut_node };
            if let Some(value) = self.probcut(position, shared, &node) {
                return value;
            }
        }

        let mut moves = G::Moves::default();
        position.generate_search_moves(depth, &mut moves);
        if moves.is_empty() {
            return Self::outcome_value(position, position.no_move_outcome(), ply);
        }
        let previous = self.previous_contexts(ply);
        let mut storage = [MaybeUninit::uninit(); MAX_KEYS];
        let keys = zeroed_prefix(&mut storage, moves.len());
        score_moves(position, &moves, keys, tt_move, &self.heuristics, ply, previous);

        let side = position.side_to_move().index();
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried = crate::moves::MoveList::<(G::Move, usize), 64>::new();
        let mut captures_tried = crate::moves::MoveList::<usize, 32>::new();
        let futility_base = (pruning.futility_margin > 0 && !is_pv && !in_check && depth <= pruning.futility_depth)
            .then(|| eval + pruning.futility_margin * depth);
        let late_move_count = match (pruning.improving, improving) {
            (true, false) => (3 + depth * depth * pruning.late_move_scale) / 2,
            _ => 3 + depth * depth * pruning.late_move_scale,
        };
        let quiet_exchange_margin = pruning.quiet_exchange_margin * depth * depth;
        let tactical_table_move =
            pruning.tactical_table_move_reductions && tt_move.is_some_and(|tt| is_tactical(position, tt));
        let mut searched = 0usize;
        for index in 0..moves.len() {
            pick_next(&mut moves, keys, index);
            let mv = moves[index];
            if Some(mv) == excluded {
                continue;
            }
            let tactical = is_tactical(position, mv);
            // Quiet moves that are neither the TT move nor killers may be pruned and reduced.
            let late_quiet = !tactical && !is_early_key(keys[index]);
            // Where every move so far lost by force, the others are the node's only hope: none is pruned.
            if searched > 0 && best_value > -G::DECISIVE {
                if let Some(base) = futility_base {
                    // Futility, late-move and exchange pruning: quiet moves at the horizon that cannot
                    // raise alpha, come late or lose material, checks aside (a check near the horizon
                    // is where a mating attack shows).
                    if late_quiet
                        && (base <= alpha
                            || index as i32 > late_move_count
                            || (quiet_exchange_margin > 0
                                && !position.static_exchange_at_least(mv, -quiet_exchange_margin)))
                        && !position.gives_check(mv)
                    {
                        continue;
                    }
                    if tactical && !position.static_exchange_at_least(mv, -pruning.futility_margin * depth) {
                        continue;
                    }
                }
            }
            let context = if G::MOVE_CONTEXTS > 0 { position.move_context(mv) } else { 0 };
            let mut extension = 0;
            if Some(mv) == tt_move && excluded.is_none() {
                match self.singular_extension(position, shared, entry, depth, ply, beta, cut_node) {
                    Singular::Extend => extension = 1,
                    Singular::MultiCut(value) => return value,
                    Singular::No => {}
                }
                if shared.aborted() {
                    return 0;
                }
            }
            self.record_move(ply, (G::MOVE_CONTEXTS > 0).then_some(context), !tactical);
            // The child probes the table first: fetch its entry while the move is being made.
            if let Some(key) = position.hash_after(mv) {
                shared.tt.prefetch(key);
            }
            position.play(mv);
            let gives_check = <G as Tactical>::ENABLED && position.in_check();
            let new_depth = depth - 1 + extension;
            let value = if searched == 0 {
                -self.search(position, shared, new_depth, ply + 1, -beta, -alpha, true, !cut_node)
            } else {
                let reduction = if pruning.late_move_reduction_divisor > 0
                    && depth >= 3
                    && late_quiet
                    && !in_check
                    && (!gives_check || pruning.check_reductions)
                    && index >= 2
                {
                    let mut reduction = self.reductions.get(depth, index) - i32::from(is_pv) - i32::from(gives_check);
                    if pruning.improving && !improving {
                        reduction += 1;
                    }
                    if pruning.history_reduction_unit > 0 {
                        reduction -=
                            self.heuristics.quiet_history(side, mv, context, previous) / pruning.history_reduction_unit;
                    }
                    if pruning.cut_node_reductions && cut_node {
                        reduction += 1;
                    }
                    if tactical_table_move {
                        reduction += 1;
                    }
                    if pruning.cutoff_count_reductions && self.stack[ply + 1].cutoffs > MANY_CUTOFFS {
                        reduction += 1;
                    }
                    reduction.clamp(0, new_depth - 1)
                } else {
                    0
                };
                // A reduced child is expected to fail high (it is reduced for looking poor); a child
                // searched at full depth expects the opposite of this node.
                let reduced = reduction > 0;
                let mut value = -self.search(
                    position,
                    shared,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                    reduced || !cut_node,
                );
                if value > alpha && reduced {
                    value = -self.search(position, shared, new_depth, ply + 1, -alpha - 1, -alpha, true, !cut_node);
                }
                if value > alpha && value < beta {
                    value = -self.search(position, shared, new_depth, ply + 1, -beta, -alpha, true, false);
                }
                value
            };
            position.undo();
            searched += 1;
            if shared.aborted() {
                return 0;
            }
            if self.take_value(ply, is_pv, (mv, value), (&mut best_value, &mut best_move), &mut alpha, beta) {
                self.stack[ply].cutoffs += 1;
                if !tactical {
                    self.heuristics.reward_cutoff(side, ply, depth, (mv, context), &quiets_tried, previous);
                }
                if pruning.capture_history {
                    self.heuristics.reward_captures(depth, tactical.then_some(context), &captures_tried);
                }
                break;
            }
            if !tactical && quiets_tried.len() < 64 {
                quiets_tried.push((mv, context));
            } else if tactical && pruning.capture_history && captures_tried.len() < 32 {
                captures_tried.push(context);
            }
        }
        if searched == 0 {
            // Only the excluded move was left: the singular check's caller judges that.
            return alpha;
        }
        if best_value <= -G::DECISIVE && best_value < beta && excluded.is_none() {
            // Every candidate lost to a forced win: try the moves the candidate list left out.
            let mut more = G::Moves::default();
            position.generate_more_search_moves(&mut more);
            for &mv in more.iter().filter(|mv| !moves.contains(mv)) {
                let quiet = !is_tactical(position, mv);
                self.record_move(ply, (G::MOVE_CONTEXTS > 0).then(|| position.move_context(mv)), quiet);
                position.play(mv);
                let value = -self.search(position, shared, depth - 1, ply + 1, -beta, -alpha, true, !cut_node);
                position.undo();
                if shared.aborted() {
                    return 0;
                }
                if self.take_value(ply, is_pv, (mv, value), (&mut best_value, &mut best_move), &mut alpha, beta) {
                    break;
                }
            }
        }
        // Not at the root's children: the root orders its moves by their own searches.
        if pruning.prior_move_bonus && excluded.is_none() && best_value <= original_alpha && ply >= 2 {
            self.reward_prior_move(ply, depth);
        }
        if excluded.is_none() {
            let bound = Bound::of(best_value, original_alpha, beta);
            let stored_eval = if in_check { 0 } else { raw_eval };
            shared.tt.store(key, ply, best_move.map(PackedMove::to_bits), best_value, stored_eval, depth, bound);
            if let Some(slot) = correction_slot {
                self.update_correction(slot, position, (raw_eval, static_eval), (best_value, bound), best_move, depth);
            }
        }
        best_value
    }

    /// Takes a searched move's value into the node's best value and move and its alpha (and the
    /// PV at a PV node); true when the value reaches `beta`, a cut-off.
    fn take_value(
        &mut self,
        ply: usize,
        is_pv: bool,
        (mv, value): (G::Move, i32),
        (best_value, best_move): (&mut i32, &mut Option<G::Move>),
        alpha: &mut i32,
        beta: i32,
    ) -> bool {
        if value <= *best_value {
            return false;
        }
        *best_value = value;
        if value <= *alpha {
            return false;
        }
        *best_move = Some(mv);
        *alpha = value;
        if is_pv {
            self.update_pv(ply, mv);
        }
        value >= beta
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
