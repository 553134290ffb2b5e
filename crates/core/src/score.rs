//! Search values and the scores reported to protocols.
//!
//! Inside the alpha-beta search a value is an `i32` from the side to move: evaluations stay
//! within `±MAX_EVAL`, mates are `±(MATE - plies)`. [`Score`] is what leaves the search; each
//! protocol formats it its own way (UCI `cp`/`mate`, UCCI bare numbers, GTP win rates).

/// The value of mating at the root; a mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32_000;
/// The deepest ply a search may reach; also the room reserved below `MATE` for mate distances.
pub const MAX_PLY: usize = 246;
/// Values at or above this are mates (wins by force), at or below its negation forced losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Static evaluations are clamped into `±MAX_EVAL` so they never look like mates.
pub const MAX_EVAL: i32 = MATE_BOUND - 1;
/// A tablebase win found `ply` plies from the root is `TABLEBASE_WIN - ply`: above every
/// evaluation a real position gets, below the mates (a proven result without a mate distance).
pub const TABLEBASE_WIN: i32 = MAX_EVAL - MAX_PLY as i32;
/// Larger than every value; the initial window bound.
pub const INFINITE: i32 = MATE + 1;

/// A search value for winning in `ply` plies from the root.
#[must_use]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// A search value for being mated in `ply` plies from the root.
#[must_use]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Whether a value means a forced result (mate either way).
#[must_use]
pub const fn is_mate_value(value: i32) -> bool {
    value >= MATE_BOUND || value <= -MATE_BOUND
}

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// A heuristic evaluation in the game's hundredths of a pawn (or its own unit).
    Centipawns(i32),
    /// A forced result in `n` full moves: positive when the side to move wins, negative when it
    /// loses; `Mate(0)` means the side to move is already mated.
    Mate(i32),
    /// An estimated probability of winning, in `[0, 1]` (MCTS searchers).
    WinRate(f32),
}

impl Score {
    /// Converts an alpha-beta value (plies to mate counted from the root) into a score.
    #[must_use]
    pub fn from_value(value: i32) -> Score {
        if value >= MATE_BOUND {
            let plies = MATE - value;
            Score::Mate((plies + 1) / 2)
        } else if value <= -MATE_BOUND {
            let plies = MATE + value;
            Score::Mate(-(plies / 2))
        } else {
            Score::Centipawns(value)
        }
    }

    /// A win probability for the side to move; centipawns go through a logistic curve where
    /// `scale` centipawns are worth about 73% (chess engines use a scale near 200–400).
    #[must_use]
    pub fn win_rate(self, scale: f32) -> f32 {
        match self {
            Score::Centipawns(cp) => 1.0 / (1.0 + (-(cp as f32) / scale).exp()),
            Score::Mate(moves) if moves > 0 => 1.0,
            Score::Mate(_) => 0.0,
            Score::WinRate(rate) => rate.clamp(0.0, 1.0),
        }
    }

    /// What the score proves for the side to move, given the game's proven-win bound
    /// ([`crate::Evaluate::DECISIVE`]): 1 a win, −1 a loss, 0 nothing (a value short of the
    /// bound, or a win rate).
    #[must_use]
    pub fn proven(self, decisive: i32) -> i32 {
        match self {
            Score::Mate(moves) if moves > 0 => 1,
            Score::Mate(_) => -1,
            Score::Centipawns(value) if value.abs() >= decisive => value.signum(),
            Score::Centipawns(_) | Score::WinRate(_) => 0,
        }
    }
}

/// Whether a reported value is exact or only a bound (a fail-high or fail-low of the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// The true value.
    #[default]
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

impl Bound {
    /// What a search of window `(alpha, beta)` that found `value` knows about the true value.
    #[must_use]
    pub fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value >= beta {
            Bound::Lower
        } else if value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_convert_to_full_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(35), Score::Centipawns(35));
        assert!(is_mate_value(mate_in(MAX_PLY)));
        assert!(!is_mate_value(MAX_EVAL));
    }

    #[test]
    fn decisive_values_and_mates_are_proofs() {
        assert_eq!(Score::Mate(3).proven(MATE_BOUND), 1);
        assert_eq!(Score::Mate(0).proven(MATE_BOUND), -1);
        assert_eq!(Score::Centipawns(900).proven(800), 1);
        assert_eq!(Score::Centipawns(-800).proven(800), -1);
        assert_eq!(Score::Centipawns(799).proven(800), 0);
        assert_eq!(Score::WinRate(1.0).proven(800), 0);
    }

    #[test]
    fn win_rates_are_probabilities() {
        assert!((Score::Centipawns(0).win_rate(300.0) - 0.5).abs() < 1e-6);
        assert!(Score::Centipawns(300).win_rate(300.0) > 0.7);
        assert_eq!(Score::Mate(-3).win_rate(300.0), 0.0);
        assert_eq!(Score::WinRate(1.5).win_rate(300.0), 1.0);
    }
}
