//! UCCI's scores, and the draw/resign decisions it lets an engine attach to `bestmove` (the
//! decisions themselves are the engine's, through [`Verdicts`]).

use tessera_core::Score;

use crate::response::InfoLine;

/// The UCCI value of a mate: ElephantEye's convention, 10000 minus the plies to mate.
const UCCI_MATE: i32 = 10_000;

/// A score as UCCI writes it: a bare number, mates as ±(10000 − plies).
#[must_use]
pub fn ucci_score(score: Score) -> i32 {
    match score {
        Score::Centipawns(value) => value.clamp(-UCCI_MATE + 500, UCCI_MATE - 500),
        Score::Mate(moves) if moves > 0 => UCCI_MATE - (2 * moves - 1),
        Score::Mate(moves) => -(UCCI_MATE + 2 * moves),
        Score::WinRate(rate) => ((rate - 0.5) * 800.0) as i32,
    }
}

/// An `info message` line.
pub(crate) fn message(text: impl Into<String>) -> InfoLine {
    InfoLine { message: Some(text.into()), ..InfoLine::default() }
}

/// What to attach to a UCCI `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Offer (or accept) a draw.
    pub draw: bool,
    /// Resign.
    pub resign: bool,
}

/// The draw and resign decisions a `bestmove` carries, from the scores of our searches: the
/// engine's policy, kept by the session for one game.
pub trait Verdicts: Default + Send + 'static {
    /// Forgets the game (a new game starts).
    fn clear(&mut self);

    /// Records the score of our latest search and decides; `offered` says the opponent offers a
    /// draw.
    fn decide(&mut self, score: Score, offered: bool) -> Verdict;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_scores_follow_elephanteye() {
        assert_eq!(ucci_score(Score::Centipawns(35)), 35);
        assert_eq!(ucci_score(Score::Mate(1)), 9999);
        assert_eq!(ucci_score(Score::Mate(-1)), -9998);
        assert_eq!(ucci_score(Score::Mate(0)), -10000);
    }
}
