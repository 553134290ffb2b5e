//! Correction history: a static evaluation misjudges some structures the same way again and
//! again (chess: a pawn chain it overrates), and the search sees it. Each thread keeps, per side
//! and per [`Evaluate::correction_key`], a running average of how far the searched value stood
//! from the evaluation, and adds it to the evaluation of later nodes with that key.

use super::Worker;
use crate::alphabeta::ordering::is_tactical;
use crate::score::{Bound, MAX_EVAL};
use crate::search::{Evaluate, NullMove, Tactical};

/// Entries per side; the key's top bits pick one.
const ENTRY_BITS: u32 = 14;
/// Entries hold evaluation units × `GRAIN`, so that small steps of the average are not lost.
const GRAIN: i32 = 256;
/// An update moves the entry `weight / WEIGHT_SCALE` of the way to the new error, the weight
/// being the node's depth + 1 up to `MAX_WEIGHT`: a deep search's verdict counts for more.
const WEIGHT_SCALE: i32 = 256;
const MAX_WEIGHT: i32 = 16;

/// Where a node's correction lives in the table: found once a node, read at its start and
/// updated at its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CorrectionSlot(usize);

/// The per-thread table of evaluation corrections (empty where the game does not use them).
pub(crate) struct CorrectionHistory {
    table: Box<[i32]>,
}

impl CorrectionHistory {
    /// A table for a game whose correction limit is `limit` (none at all for 0).
    pub(crate) fn new(limit: i32) -> Self {
        let len = if limit > 0 { 2 << ENTRY_BITS } else { 0 };
        CorrectionHistory { table: vec![0; len].into_boxed_slice() }
    }

    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
    }

    /// The entry of `side` to move and `key`.
    fn slot(side: usize, key: u64) -> CorrectionSlot {
        CorrectionSlot((side << ENTRY_BITS) | (key >> (64 - ENTRY_BITS)) as usize)
    }

    /// `raw` plus the correction learnt in `slot`, within ±[`MAX_EVAL`].
    fn correct(&self, slot: CorrectionSlot, raw: i32) -> i32 {
        (raw + self.table[slot.0] / GRAIN).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Moves the correction in `slot` towards `error` (searched value − raw evaluation), the more
    /// the deeper the search, keeping it within ±`limit`.
    fn learn(&mut self, slot: CorrectionSlot, error: i32, depth: i32, limit: i32) {
        let entry = &mut self.table[slot.0];
        let weight = (depth + 1).min(MAX_WEIGHT);
        *entry = ((*entry * (WEIGHT_SCALE - weight) + error * GRAIN * weight) / WEIGHT_SCALE)
            .clamp(-limit * GRAIN, limit * GRAIN);
    }
}

/// Whether a node's result says where its true value lies against its corrected evaluation: an
/// exact value does, and so does a fail-high above it or a fail-low below it; a proven result
/// (beyond the evaluations) says nothing about the evaluation.
fn teaches(best_value: i32, bound: Bound, corrected: i32) -> bool {
    let beside = match bound {
        Bound::Exact => true,
        Bound::Lower => best_value > corrected,
        Bound::Upper => best_value < corrected,
    };
    beside && best_value.abs() <= MAX_EVAL
}

impl<G: Evaluate + Tactical + NullMove> Worker<G> {
    /// The table entry of `position` (not in check), `None` where the game keeps no corrections.
    pub(super) fn correction_slot(&self, position: &G) -> Option<CorrectionSlot> {
        (!self.correction.table.is_empty())
            .then(|| CorrectionHistory::slot(position.side_to_move().index(), position.correction_key()))
    }

    /// `raw`, a static evaluation, with the correction learnt in `slot` added (`raw` without one).
    pub(super) fn corrected_eval(&self, slot: Option<CorrectionSlot>, raw: i32) -> i32 {
        slot.map_or(raw, |slot| self.correction.correct(slot, raw))
    }

    /// Learns, in the node's `slot`, from a finished node (not in check, not a singular check's)
    /// whose static evaluation was `raw`, corrected to `corrected`, and whose search ended at
    /// `best_value` with `bound` (see [`teaches`]). A node a capture decided teaches nothing about
    /// its quiet structure.
    pub(super) fn update_correction(
        &mut self,
        slot: CorrectionSlot,
        position: &G,
        (raw, corrected): (i32, i32),
        (best_value, bound): (i32, Bound),
        best_move: Option<G::Move>,
        depth: i32,
    ) {
        if teaches(best_value, bound, corrected) && !best_move.is_some_and(|mv| is_tactical(position, mv)) {
            self.correction.learn(slot, best_value - raw, depth, G::PRUNING.correction_limit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: u64 = 0xABCD_0000_0000_0000;

    #[test]
    fn a_repeated_error_is_learnt_up_to_the_limit_and_for_its_key_alone() {
        let mut history = CorrectionHistory::new(30);
        for _ in 0..200 {
            history.learn(CorrectionHistory::slot(0, KEY), 20, 20, 30);
        }
        // The average converges on the error from below (integer steps round towards zero).
        assert!((19..=20).contains(&(history.correct(CorrectionHistory::slot(0, KEY), 100) - 100)));
        assert_eq!(history.correct(CorrectionHistory::slot(1, KEY), 100), 100, "the other side to move");
        assert_eq!(history.correct(CorrectionHistory::slot(0, KEY >> 1), 100), 100, "another key");
        for _ in 0..200 {
            history.learn(CorrectionHistory::slot(0, KEY), -90, 20, 30);
        }
        assert_eq!(history.correct(CorrectionHistory::slot(0, KEY), 100), 70, "held at the limit");
        assert_eq!(history.correct(CorrectionHistory::slot(0, KEY), -MAX_EVAL), -MAX_EVAL, "within the evaluations");
        history.clear();
        assert_eq!(history.correct(CorrectionHistory::slot(0, KEY), 100), 100);
    }

    #[test]
    fn a_deeper_search_moves_the_correction_further() {
        let mut shallow = CorrectionHistory::new(64);
        let mut deep = CorrectionHistory::new(64);
        shallow.learn(CorrectionHistory::slot(0, KEY), 64, 1, 64);
        deep.learn(CorrectionHistory::slot(0, KEY), 64, 12, 64);
        assert_eq!(shallow.correct(CorrectionHistory::slot(0, KEY), 0), 0);
        assert_eq!(deep.correct(CorrectionHistory::slot(0, KEY), 0), 3);
        assert!(CorrectionHistory::new(0).table.is_empty(), "no table for a game without corrections");
    }

    #[test]
    fn only_results_beside_the_evaluation_teach() {
        assert!(teaches(50, Bound::Exact, 80));
        assert!(teaches(90, Bound::Lower, 80));
        assert!(!teaches(70, Bound::Lower, 80));
        assert!(teaches(70, Bound::Upper, 80));
        assert!(!teaches(90, Bound::Upper, 80));
        assert!(!teaches(MAX_EVAL + 5, Bound::Exact, 80), "a proven result");
    }
}
