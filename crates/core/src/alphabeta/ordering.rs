//! Move ordering for the alpha-beta searcher: TT move, good tactical moves, killers, history.

use crate::game::PackedMove;
use crate::score::MAX_PLY;
use crate::search::{Evaluate, Tactical};

const TT_MOVE: i32 = 1_000_000_000;
const GOOD_TACTICAL: i32 = 500_000_000;
const KILLER: i32 = 400_000_000;
const BAD_TACTICAL: i32 = -500_000_000;
/// History scores saturate here (the "gravity" update keeps them within ±HISTORY_MAX).
const HISTORY_MAX: i32 = 16_384;

/// Per-thread ordering heuristics: two killer moves per ply and a butterfly history by side and move code.
pub(crate) struct Heuristics<M> {
    killers: Vec<[Option<M>; 2]>,
    history: Box<[i32]>,
}

impl<M: PackedMove> Heuristics<M> {
    pub(crate) fn new() -> Self {
        Heuristics { killers: vec![[None; 2]; MAX_PLY + 2], history: vec![0; 2 << 16].into_boxed_slice() }
    }

    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
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

    pub(crate) fn history(&self, side: usize, mv: M) -> i32 {
        self.history[Self::history_index(side, mv)]
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiet moves tried before it.
    pub(crate) fn reward_cutoff(&mut self, side: usize, ply: usize, depth: i32, best: M, tried_before: &[M]) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(best) {
            killers[1] = killers[0];
            killers[0] = Some(best);
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.update_history(side, best, bonus);
        for &mv in tried_before {
            self.update_history(side, mv, -bonus);
        }
    }

    fn update_history(&mut self, side: usize, mv: M, bonus: i32) {
        let entry = &mut self.history[Self::history_index(side, mv)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    pub(crate) fn killers(&self, ply: usize) -> [Option<M>; 2] {
        self.killers[ply]
    }
}

/// Gives every move of a list an ordering key, so the caller can pick the best remaining one.
pub(crate) fn score_moves<G: Evaluate + Tactical>(
    position: &G,
    moves: &[G::Move],
    keys: &mut [i32],
    tt_move: Option<G::Move>,
    heuristics: &Heuristics<G::Move>,
    ply: usize,
) {
    let side = position.side_to_move().index();
    let killers = heuristics.killers(ply);
    for (key, &mv) in keys.iter_mut().zip(moves) {
        let hint = position.move_order_hint(mv);
        *key = if Some(mv) == tt_move {
            TT_MOVE
        } else if <G as Tactical>::ENABLED && position.is_tactical(mv) {
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
            heuristics.history(side, mv) + hint
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

/// Keys for a move list of any game (the largest legal move list of any game here stays below this).
pub(crate) const MAX_KEYS: usize = 1024;
