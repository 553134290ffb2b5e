//! Quiescence: the search below the horizon, over tactical moves (and on its first ply quiet
//! checks) until the position is quiet enough for the static evaluation.

use std::mem::MaybeUninit;

use super::{pick_next, zeroed_prefix, Shared, Worker, MAX_KEYS};
use crate::game::PackedMove;
use crate::score::{Bound, INFINITE, MAX_EVAL, MAX_PLY};
use crate::search::{Evaluate, NullMove, Tactical};

/// The ordering key of quiescence's quiet checks: after every tactical move.
const QUIET_CHECK_KEY: i32 = i32::MIN / 2;

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    /// Resolves tactical moves at the horizon so that the static evaluation is taken in a quiet
    /// position; on its first ply (`checks`) it also tries the game's quiet checks, which is where
    /// mating attacks hide just beyond the horizon.
    pub(super) fn quiescence(
        &mut self,
        position: &mut G,
        shared: &Shared<'_>,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        checks: bool,
    ) -> i32 {
        if let Some(value) = self.enter_node(position, shared, ply) {
            return value;
        }
        let in_check = <G as Tactical>::ENABLED && position.in_check();
        if ply >= MAX_PLY || (!<G as Tactical>::ENABLED) {
            return position.evaluate().clamp(-MAX_EVAL, MAX_EVAL);
        }
        let use_table = G::PRUNING.table_refinements;
        let key = position.hash();
        let entry = if use_table { shared.tt.probe(key, ply) } else { None };
        if let Some(entry) = entry {
            if beta - alpha == 1 && entry.cuts(alpha, beta) {
                return entry.value;
            }
        }
        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut static_eval = 0;
        if !in_check {
            static_eval = entry
                .map_or_else(|| position.evaluate_within(alpha, beta).clamp(-MAX_EVAL, MAX_EVAL), |entry| entry.eval);
            best_value = match entry {
                Some(entry) if entry.refines(static_eval) => entry.value,
                _ => static_eval,
            };
            if best_value >= beta {
                return best_value;
            }
            alpha = alpha.max(best_value);
        }
        let mut moves = G::Moves::default();
        if in_check {
            position.generate_evasions(&mut moves);
            if moves.is_empty() {
                return Self::outcome_value(position, position.no_move_outcome(), ply);
            }
        } else {
            position.generate_tactical_moves(&mut moves);
        }
        let tactical_count = moves.len();
        if checks && !in_check {
            position.generate_quiet_checks(&mut moves);
        }
        let tt_move = entry.and_then(|entry| entry.move_bits).map(G::Move::from_bits);
        let mut storage = [MaybeUninit::uninit(); MAX_KEYS];
        let keys = zeroed_prefix(&mut storage, moves.len());
        for (index, (key, &mv)) in keys.iter_mut().zip(moves.iter()).enumerate() {
            *key = if Some(mv) == tt_move {
                i32::MAX
            } else if index >= tactical_count {
                QUIET_CHECK_KEY
            } else {
                position.move_order_hint(mv)
            };
        }
        let mut best_move = None;
        for index in 0..moves.len() {
            pick_next(&mut moves, keys, index);
            let mv = moves[index];
            if !in_check && !position.static_exchange_at_least(mv, 0) {
                continue;
            }
            if use_table {
                if let Some(key) = position.hash_after(mv) {
                    shared.tt.prefetch(key);
                }
            }
            position.play(mv);
            let value = -self.quiescence(position, shared, ply + 1, -beta, -alpha, false);
            position.undo();
            if shared.aborted() {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            let bound = Bound::of(best_value, original_alpha, beta);
            shared.tt.store(key, ply, best_move.map(PackedMove::to_bits), best_value, static_eval, 0, bound);
        }
        best_value
    }
}
