//! Move ordering for the alpha-beta searcher: TT move, good tactical moves, killers, history.

use std::mem::MaybeUninit;

use crate::game::PackedMove;
use crate::score::MAX_PLY;
use crate::search::{Evaluate, Tactical};

const TT_MOVE: i32 = 1_000_000_000;
const GOOD_TACTICAL: i32 = 500_000_000;
const KILLER: i32 = 400_000_000;
const BAD_TACTICAL: i32 = -500_000_000;
/// History scores saturate here (the "gravity" update keeps them within ±HISTORY_MAX).
const HISTORY_MAX: i32 = 16_384;

/// The move contexts (see [`Evaluate::move_context`]) of the moves one and two plies before a
/// node, where there are such moves (not at the root, not after a null move).
pub(crate) type PreviousContexts = [Option<usize>; 2];

/// Per-thread ordering heuristics: two killer moves per ply, a butterfly history by side and
/// move code, a continuation history by the contexts of the previous move and this one, and a
/// capture history by the capture's own context.
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Box<[i32]>,
    /// `continuation[previous × contexts + this]`: how well a move answered a move one or two
    /// plies before it. Empty when the game has no move contexts.
    continuation: Box<[i16]>,
    /// `capture[context]`: how often a capture by this piece on this point refuted the node it
    /// was tried in. Empty when the game has no move contexts.
    capture: Box<[i16]>,
    contexts: usize,
    /// [`crate::search::Pruning::history_bonus_scale`].
    bonus_scale: i32,
}

impl<M: PackedMove> Heuristics<M> {
    /// Heuristics for a game with `contexts` move contexts (0: no continuation history), whose
    /// cutoffs at depth `d` add `bonus_scale × d²` to the histories.
    pub(crate) fn new(contexts: usize, bonus_scale: i32) -> Self {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 << 16].into_boxed_slice(),
            continuation: vec![0; contexts * contexts].into_boxed_slice(),
            capture: vec![0; contexts].into_boxed_slice(),
            contexts,
            bonus_scale,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
        self.continuation.fill(0);
        self.capture.fill(0);
    }

    /// Forgets killers (they belong to one search) but keeps a faded history.
    pub(crate) fn age(&mut self) {
        self.killers.fill([None; 2]);
        for value in self.history.iter_mut() {
            *value /= 2;
        }
    }

    fn history_index(side: usize, mv: M) -> usize {
        (side << 16) | usize::from(mv.to_bits())
    }

    /// The history score of a quiet move: its butterfly history plus how well it answered the
    /// previous two moves.
    pub(crate) fn quiet_history(&self, side: usize, mv: M, context: usize, previous: PreviousContexts) -> i32 {
        let mut score = self.history[Self::history_index(side, mv)];
        if self.contexts > 0 {
            for earlier in previous.into_iter().flatten() {
                score += i32::from(self.continuation[earlier * self.contexts + context]);
            }
        }
        score
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiet moves tried before it
    /// (each with its context).
    pub(crate) fn reward_cutoff(
        &mut self,
        side: usize,
        ply: usize,
        depth: i32,
        best: (M, usize),
        tried_before: &[(M, usize)],
        previous: PreviousContexts,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best.0) {
            killers[1] = killers[0];
            killers[0] = Some(best.0);
        }
        let bonus = self.history_bonus(depth);
        self.update(side, best, bonus, previous);
        for &tried in tried_before {
            self.update(side, tried, -bonus, previous);
        }
    }

    fn update(&mut self, side: usize, (mv, context): (M, usize), bonus: i32, previous: PreviousContexts) {
        gravity(&mut self.history[Self::history_index(side, mv)], bonus);
        if self.contexts > 0 {
            self.update_continuation(context, bonus, previous);
        }
    }

    /// Rewards a quiet move (its context) as a good answer to the moves before it, as for a
    /// cutoff at `depth`: the continuation history alone, since the move itself is not at hand.
    pub(crate) fn reward_answer(&mut self, context: usize, previous: PreviousContexts, depth: i32) {
        let bonus = self.history_bonus(depth);
        self.update_continuation(context, bonus, previous);
    }

    fn update_continuation(&mut self, context: usize, bonus: i32, previous: PreviousContexts) {
        for earlier in previous.into_iter().flatten() {
            gravity_i16(&mut self.continuation[earlier * self.contexts + context], bonus);
        }
    }

    /// The capture history of a tactical move with this context (0 without move contexts).
    pub(crate) fn capture_history(&self, context: usize) -> i32 {
        self.capture.get(context).map_or(0, |&value| i32::from(value))
    }

    /// Rewards the tactical move that caused a cutoff at `depth` (when it was one) and punishes
    /// the tactical moves tried before the move that did.
    pub(crate) fn reward_captures(&mut self, depth: i32, best: Option<usize>, tried_before: &[usize]) {
        if self.capture.is_empty() {
            return;
        }
        let bonus = self.history_bonus(depth);
        if let Some(context) = best {
            gravity_i16(&mut self.capture[context], bonus);
        }
        for &context in tried_before {
            gravity_i16(&mut self.capture[context], -bonus);
        }
    }

    pub(crate) fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }

    /// The history bonus of a cutoff at `depth`: deeper cutoffs say more.
    fn history_bonus(&self, depth: i32) -> i32 {
        (self.bonus_scale * depth * depth).min(HISTORY_MAX / 4)
    }
}

/// Moves `entry` by `bonus` towards ±[`HISTORY_MAX`], the more slowly the closer it is.
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// [`gravity`] for the i16 tables: `gravity` keeps values within ±HISTORY_MAX, which fits.
fn gravity_i16(entry: &mut i16, bonus: i32) {
    let mut value = i32::from(*entry);
    gravity(&mut value, bonus);
    *entry = value as i16;
}

/// How many history points weigh as much as one point of a game's move-order hint among
/// tactical moves: with xiangqi's hint (a horse victim is 1,600) the capture history moves a
/// capture by at most 2,048, a horse and a quarter of victim.
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// Gives every move of a list an ordering key, so the caller can pick the best remaining one.
pub(crate) fn score_moves<G: Evaluate + Tactical>(
    position: &G,
    moves: &[G::Move],
    keys: &mut [i32],
    tt_move: Option<G::Move>,
    heuristics: &Heuristics<G::Move>,
    ply: usize,
    previous: PreviousContexts,
) {
    let side = position.side_to_move().index();
    let killers = heuristics.killers(ply);
    for (key, &mv) in keys.iter_mut().zip(moves) {
        let hint = position.move_order_hint(mv);
        *key = if Some(mv) == tt_move {
            TT_MOVE
        } else if is_tactical(position, mv) {
            let hint = if G::PRUNING.capture_history {
                hint + heuristics.capture_history(position.move_context(mv)) / CAPTURE_HISTORY_DIVISOR
            } else {
                hint
            };
            if position.static_exchange_at_least(mv, 0) {
                GOOD_TACTICAL + hint
            } else {
                BAD_TACTICAL + hint
            }
        } else if Some(mv) == killers[0] {
            KILLER + 1
        } else if Some(mv) == killers[1] {
            KILLER
        } else {
            heuristics.quiet_history(side, mv, position.move_context(mv), previous) + hint
        };
    }
}

/// Swaps the best-keyed move among `moves[from..]` into `moves[from]` (selection sort, one step):
/// cheaper than sorting when a cutoff comes early, as it usually does.
#[inline]
pub(crate) fn pick_next<M: Copy>(moves: &mut [M], keys: &mut [i32], from: usize) {
    let mut best = from;
    for index in from + 1..moves.len() {
        if keys[index] > keys[best] {
            best = index;
        }
    }
    moves.swap(from, best);
    keys.swap(from, best);
}

/// Whether an ordering key marks a move as the TT move, a good tactical move or a killer.
pub(crate) fn is_early_key(key: i32) -> bool {
    key >= KILLER
}

/// Whether `mv` is tactical in a game that has tactics at all: the searcher's one test, so that
/// a game without [`Tactical::ENABLED`] pays nothing for it.
#[inline]
pub(crate) fn is_tactical<G: Tactical>(position: &G, mv: G::Move) -> bool {
    G::ENABLED && position.is_tactical(mv)
}

/// Keys for a move list of any game (the largest legal move list of any game here stays below this).
pub(crate) const MAX_KEYS: usize = 1024;

/// The first `len` keys of `storage`, set to zero: only as many as there are moves, since
/// clearing the whole 4 KiB array at every node would cost more than ordering itself.
pub(crate) fn zeroed_prefix(storage: &mut [MaybeUninit<i32>; MAX_KEYS], len: usize) -> &mut [i32] {
    let prefix = &mut storage[..len];
    for key in prefix.iter_mut() {
        key.write(0);
    }
    // SAFETY: every element of `prefix` was initialised just above; `MaybeUninit<i32>` has the
    // layout of `i32`.
    unsafe { &mut *(std::ptr::from_mut::<[MaybeUninit<i32>]>(prefix) as *mut [i32]) }
}

#[cfg(test)]
mod tests {
    use super::Heuristics;
    use crate::game::Game;
    use crate::toys::TicTacToe;

    type Move = <TicTacToe as Game>::Move;

    #[test]
    fn a_refuting_capture_gains_and_the_captures_tried_before_it_lose() {
        let mut heuristics = Heuristics::<Move>::new(4, 1);
        heuristics.reward_captures(6, Some(2), &[0, 1]);
        heuristics.reward_captures(6, Some(2), &[1]);
        assert!(heuristics.capture_history(2) > 0);
        assert!(heuristics.capture_history(1) < heuristics.capture_history(0));
        assert!(heuristics.capture_history(0) < 0);
        assert_eq!(heuristics.capture_history(3), 0);
        // A quiet move's cutoff punishes the captures tried before it, and rewards none.
        let before = heuristics.capture_history(2);
        heuristics.reward_captures(6, None, &[2]);
        assert!(heuristics.capture_history(2) < before);
        assert_eq!(heuristics.capture_history(3), 0);
        // Without move contexts there is no table to read or write.
        let mut without = Heuristics::<Move>::new(0, 1);
        without.reward_captures(6, Some(0), &[]);
        assert_eq!(without.capture_history(0), 0);
        // Saturation: the value approaches the bound but never leaves it.
        for _ in 0..10_000 {
            heuristics.reward_captures(20, Some(3), &[]);
        }
        assert!((1..=super::HISTORY_MAX).contains(&heuristics.capture_history(3)));
    }

    #[test]
    fn a_good_answer_gains_continuation_history_after_the_moves_it_answered_only() {
        use crate::game::PackedMove;
        let mut heuristics = Heuristics::<Move>::new(4, 1);
        let mv = Move::from_bits(0);
        heuristics.reward_answer(3, [Some(1), None], 5);
        assert_eq!(heuristics.quiet_history(0, mv, 3, [Some(1), None]), 25);
        assert_eq!(heuristics.quiet_history(0, mv, 3, [Some(1), Some(2)]), 25);
        // Not after another move, nor as the move's own (butterfly) history.
        assert_eq!(heuristics.quiet_history(0, mv, 3, [Some(2), None]), 0);
        assert_eq!(heuristics.quiet_history(0, mv, 3, [None, None]), 0);
    }

    #[test]
    fn the_bonus_scale_multiplies_a_cutoffs_bonus_up_to_a_quarter_of_the_bound() {
        let (usual, scaled) = (Heuristics::<Move>::new(0, 1), Heuristics::<Move>::new(0, 16));
        assert_eq!((usual.history_bonus(4), scaled.history_bonus(4)), (16, 256));
        assert_eq!(scaled.history_bonus(20), super::HISTORY_MAX / 4);
        assert_eq!(usual.history_bonus(200), super::HISTORY_MAX / 4);
    }
}
