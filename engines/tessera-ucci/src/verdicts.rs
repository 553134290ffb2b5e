//! When the xiangqi engine offers, accepts or resigns: its policy for the `draw` and `resign` a
//! UCCI `bestmove` carries, in UCCI's score scale (100 = a horse). The UCCI session asks it through
//! its dialect's [`Verdicts`].

use tessera_core::Score;
use tessera_ucci_protocol::{ucci_score, Verdict, Verdicts};

/// Draw and resign decisions from the scores of our recent searches.
///
/// - Resign when mated in at most [`VerdictPolicy::RESIGN_MATE`] moves, or when the score stayed
///   below −[`VerdictPolicy::RESIGN_SCORE`] for [`VerdictPolicy::RESIGN_MOVES`] searches in a row.
/// - Accept an offered draw unless we are clearly better (above [`VerdictPolicy::ACCEPT_BELOW`]).
/// - Offer a draw when the score stayed within ±[`VerdictPolicy::DEAD_EVEN`] for
///   [`VerdictPolicy::OFFER_MOVES`] searches in a row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerdictPolicy {
    recent: Vec<i32>,
}

impl VerdictPolicy {
    /// Resign when the opponent mates in this many moves or fewer.
    pub const RESIGN_MATE: i32 = 3;
    /// Resign below minus this score (a rook and a horse down)…
    pub const RESIGN_SCORE: i32 = 450;
    /// …for this many of our searches in a row.
    pub const RESIGN_MOVES: usize = 5;
    /// Accept a draw offer unless our score is above this.
    pub const ACCEPT_BELOW: i32 = 20;
    /// Scores within this of zero are dead even.
    pub const DEAD_EVEN: i32 = 5;
    /// Offer a draw after this many dead-even searches in a row.
    pub const OFFER_MOVES: usize = 12;
}

impl Verdicts for VerdictPolicy {
    fn clear(&mut self) {
        self.recent.clear();
    }

    fn decide(&mut self, score: Score, offered: bool) -> Verdict {
        let value = ucci_score(score);
        self.recent.push(value);
        let tail = |count: usize| self.recent.len().checked_sub(count).map(|start| self.recent[start..].iter());
        let mated_soon = matches!(score, Score::Mate(moves) if moves <= 0 && -moves <= Self::RESIGN_MATE);
        let hopeless = tail(Self::RESIGN_MOVES).is_some_and(|mut values| values.all(|&v| v < -Self::RESIGN_SCORE));
        if mated_soon || hopeless {
            return Verdict { draw: false, resign: true };
        }
        let dead_even = tail(Self::OFFER_MOVES).is_some_and(|mut values| values.all(|&v| v.abs() <= Self::DEAD_EVEN));
        let draw = (offered && value <= Self::ACCEPT_BELOW) || dead_even;
        Verdict { draw, resign: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigns_when_lost_and_draws_when_even() {
        let mut policy = VerdictPolicy::default();
        assert_eq!(policy.decide(Score::Mate(-2), false), Verdict { draw: false, resign: true });
        policy.clear();
        for _ in 0..VerdictPolicy::RESIGN_MOVES - 1 {
            assert!(!policy.decide(Score::Centipawns(-900), false).resign);
        }
        assert!(policy.decide(Score::Centipawns(-900), false).resign);
        policy.clear();
        assert!(policy.decide(Score::Centipawns(0), true).draw, "accept when not better");
        assert!(!policy.decide(Score::Centipawns(200), true).draw, "refuse when better");
        policy.clear();
        for _ in 0..VerdictPolicy::OFFER_MOVES - 1 {
            assert!(!policy.decide(Score::Centipawns(1), false).draw);
        }
        assert!(policy.decide(Score::Centipawns(-2), false).draw);
    }
}
