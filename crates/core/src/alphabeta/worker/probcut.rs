//! ProbCut: a capture that beats beta by a margin in a shallow search would very likely beat
//! beta in the full one, so the node is cut without searching its other moves.

use std::mem::MaybeUninit;

use super::{pick_next, zeroed_prefix, Shared, Worker, MAX_KEYS};
use crate::game::PackedMove;
use crate::score::Bound;
use crate::search::{Evaluate, NullMove, Tactical};
use crate::tt::TtEntry;

/// How many plies shallower than the node the capture is verified.
const VERIFICATION_REDUCTION: i32 = 4;

/// The least depth at which a node tries ProbCut.
const MIN_DEPTH: i32 = 5;

/// What the node knows when it tries ProbCut (all from its own probe and evaluation).
pub(super) struct ProbCutNode<M> {
    pub key: u64,
    pub entry: Option<TtEntry>,
    pub tt_move: Option<M>,
    pub depth: i32,
    pub ply: usize,
    pub beta: i32,
    /// The static evaluation, corrected (what pruning compares).
    pub static_eval: i32,
    /// The static evaluation as the game gave it (what the table keeps).
    pub raw_eval: i32,
    pub cut_node: bool,
}

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    /// The value that cuts a non-PV node not in check, if one of its captures that wins at least
    /// `beta + margin − static evaluation` by exchange still beats `beta + margin` in quiescence
    /// and then in a search [`VERIFICATION_REDUCTION`] plies shallower (0 after an abort, which
    /// ends the node as any search does); `None` otherwise. The margin is the game's
    /// [`crate::search::Pruning::probcut_margin`].
    pub(super) fn probcut(
        &mut self,
        position: &mut G,
        shared: &Shared<'_>,
        node: &ProbCutNode<G::Move>,
    ) -> Option<i32> {
        let margin = G::PRUNING.probcut_margin;
        if margin == 0 || !<G as Tactical>::ENABLED || node.depth < MIN_DEPTH {
            return None;
        }
        let probcut_beta = node.beta + margin;
        // A table entry about as deep as the verification, below the raised bound, already says no.
        if node.entry.is_some_and(|entry| entry.depth >= node.depth - 3 && entry.value < probcut_beta) {
            return None;
        }
        let mut captures = G::Moves::default();
        position.generate_tactical_moves(&mut captures);
        let mut storage = [MaybeUninit::uninit(); MAX_KEYS];
        let keys = zeroed_prefix(&mut storage, captures.len());
        for (key, &mv) in keys.iter_mut().zip(captures.iter()) {
            *key = if Some(mv) == node.tt_move { i32::MAX } else { position.move_order_hint(mv) };
        }
        let ply = node.ply;
        for index in 0..captures.len() {
            pick_next(&mut captures, keys, index);
            let mv = captures[index];
            if !position.static_exchange_at_least(mv, probcut_beta - node.static_eval) {
                continue;
            }
            self.record_move(ply, (G::MOVE_CONTEXTS > 0).then(|| position.move_context(mv)), false);
            position.play(mv);
            let mut value = -self.quiescence(position, shared, ply + 1, -probcut_beta, -probcut_beta + 1, false);
            if value >= probcut_beta {
                let depth = node.depth - VERIFICATION_REDUCTION;
                value = -self.search(
                    position,
                    shared,
                    depth,
                    ply + 1,
                    -probcut_beta,
                    -probcut_beta + 1,
                    true,
                    !node.cut_node,
                );
            }
            position.undo();
            if shared.aborted() {
                return Some(0);
            }
            if value >= probcut_beta {
                let depth = node.depth - 3;
                shared.tt.store(node.key, ply, Some(mv.to_bits()), value, node.raw_eval, depth, Bound::Lower);
                return Some(value);
            }
        }
        None
    }
}
