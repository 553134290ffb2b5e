//! Match statistics: Elo difference with a 95% error bar, likelihood of superiority, and a
//! sequential probability ratio test (SPRT) on game results or on pairs of games (pentanomial).
//!
//! The models are the usual ones of engine testing: the logistic Elo curve, a normal
//! approximation of the mean score, and the generalised SPRT log-likelihood ratio
//! `N (s1 - s0)(2 m - s0 - s1) / (2 v)` for mean score `m` and per-sample variance `v`.

use std::fmt;
use std::str::FromStr;

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_985;

/// The expected score of a player `elo` points stronger, in `(0, 1)`.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives `score` (clamped away from 0 and 1, where it is infinite).
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    let score = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / score - 1.0).log10()
}

/// An Elo estimate with its 95% confidence margin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimated difference (positive: the first engine is stronger).
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub margin: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+.1} +/- {:.1}", self.elo, self.margin)
    }
}

/// Mean, variance and size of a sample given as (value, weight) pairs; `None` when empty.
fn moments(samples: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let count: f64 = samples.iter().map(|&(_, n)| n).sum();
    if count <= 0.0 {
        return None;
    }
    let mean = samples.iter().map(|&(x, n)| x * n).sum::<f64>() / count;
    let variance = samples.iter().map(|&(x, n)| n * (x - mean).powi(2)).sum::<f64>() / count;
    Some((mean, variance, count))
}

fn weighted(samples: &[(f64, u32)]) -> Vec<(f64, f64)> {
    samples.iter().map(|&(x, n)| (x, f64::from(n))).collect()
}

/// A mean score with its 95% confidence interval (normal approximation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreInterval {
    /// The mean score per game, 0 to 1.
    pub mean: f64,
    /// The interval's lower end (it may pass below 0 for few samples).
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

fn interval(samples: &[(f64, u32)]) -> Option<ScoreInterval> {
    let (mean, variance, count) = moments(&weighted(samples))?;
    let spread = Z_95 * (variance / count).sqrt();
    Some(ScoreInterval { mean, low: mean - spread, high: mean + spread })
}

fn estimate(samples: &[(f64, u32)]) -> Option<EloEstimate> {
    let ScoreInterval { mean, low, high } = interval(samples)?;
    Some(EloEstimate { elo: elo_from_score(mean), margin: (elo_from_score(high) - elo_from_score(low)) / 2.0 })
}

fn log_likelihood_ratio(samples: &[(f64, u32)], elo0: f64, elo1: f64) -> f64 {
    if samples.iter().all(|&(_, n)| n == 0) {
        return 0.0;
    }
    // One pseudo-observation of an even result, split into half a win and half a loss: a record
    // of one kind only (all wins so far, or only drawn pairs) then has a variance, and a first
    // game or pair cannot decide the test by itself, as it would with a variance near zero (a
    // pseudo-draw did not help a record of drawn pairs: the first two draws decided at once).
    // Over hundreds of games its weight is negligible.
    let mut regularised = weighted(samples);
    regularised.extend([(0.0, 0.5), (1.0, 0.5)]);
    let Some((mean, variance, count)) = moments(&regularised) else { return 0.0 };
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    (s1 - s0) * (2.0 * mean - s0 - s1) * count / (2.0 * variance)
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Results {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score as a fraction (0.5 before any game).
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.games())
        }
    }

    fn samples(&self) -> [(f64, u32); 3] {
        [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)]
    }

    /// The Elo difference and its 95% margin, `None` before any game.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.samples())
    }

    /// Likelihood of superiority: the probability that the first engine is the stronger.
    #[must_use]
    pub fn likelihood_of_superiority(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
    }
}

/// Counts of game pairs (the same opening with colours swapped) by the pair's total score for the
/// first engine: 0, ½, 1, 1½ and 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: pairs where the first engine scored `k / 2` points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Records a finished pair; `points` is the first engine's total over both games (0.0–2.0).
    pub fn add_pair(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[index] += 1;
    }

    fn samples(&self) -> [(f64, u32); 5] {
        std::array::from_fn(|k| (k as f64 / 4.0, self.counts[k]))
    }

    /// The Elo difference and its 95% margin from pair results (narrower when openings are unbalanced).
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        estimate(&self.samples())
    }

    /// The mean score per game of the pairs with its 95% interval, `None` before any pair.
    #[must_use]
    pub fn score_interval(&self) -> Option<ScoreInterval> {
        interval(&self.samples())
    }
}

/// What a sequential test says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Not enough evidence yet.
    Continue,
    /// The first engine is not stronger by `elo1` (H0 accepted).
    AcceptH0,
    /// The first engine is stronger by at least `elo0` (H1 accepted).
    AcceptH1,
}

/// The state of a match, from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// Wins, draws and losses of the first engine.
    pub results: Results,
    /// Results of complete pairs (same opening, colours swapped).
    pub pairs: Pentanomial,
    /// The SPRT log-likelihood ratio and decision, if a test runs.
    pub sprt: Option<(f64, SprtDecision)>,
}

impl Standings {
    /// Brings the test's state up to date with the pairs counted so far and returns its decision.
    /// A decision, once reached, stands with the ratio that reached it: games still under way when
    /// it stopped the match count in the score, but they came after the test had ended.
    pub fn update_sprt(&mut self, sprt: &Sprt) -> SprtDecision {
        if let Some((_, decision)) = self.sprt.filter(|&(_, decision)| decision != SprtDecision::Continue) {
            return decision;
        }
        let llr = sprt.llr_pairs(&self.pairs);
        let decision = sprt.decide(llr);
        self.sprt = Some((llr, decision));
        decision
    }
}

/// A sequential probability ratio test of H0: `elo = elo0` against H1: `elo = elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The (lower, upper) log-likelihood-ratio bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the game results.
    #[must_use]
    pub fn llr(&self, results: &Results) -> f64 {
        log_likelihood_ratio(&results.samples(), self.elo0, self.elo1)
    }

    /// The log-likelihood ratio of pair results.
    #[must_use]
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        log_likelihood_ratio(&pairs.samples(), self.elo0, self.elo1)
    }

    /// The decision for a log-likelihood ratio.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    /// The specification as [`Sprt::from_str`] reads it: `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "elo0={} elo1={} alpha={} beta={}", self.elo0, self.elo1, self.alpha, self.beta)
    }
}

/// Why an SPRT specification did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SprtSpecError {
    /// A `key=value` item with an unknown key or a bad number.
    #[error("bad SPRT item `{0}` (expected elo0=, elo1=, alpha=, beta=)")]
    BadItem(String),
    /// The values make no test (elo1 must exceed elo0; alpha and beta in (0, 0.5)).
    #[error("SPRT needs elo0 < elo1 and 0 < alpha, beta < 0.5")]
    Inconsistent,
}

impl FromStr for Sprt {
    type Err = SprtSpecError;

    /// Reads `elo0=0 elo1=5 alpha=0.05 beta=0.05` (spaces or commas between items; alpha and beta
    /// default to 0.05).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        for item in text.split([' ', ',']).filter(|item| !item.is_empty()) {
            let bad = || SprtSpecError::BadItem(item.to_string());
            let (key, value) = item.split_once('=').ok_or_else(bad)?;
            let value: f64 = value.parse().map_err(|_| bad())?;
            match key.to_ascii_lowercase().as_str() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(bad()),
            }
        }
        let probability = |p: f64| p > 0.0 && p < 0.5;
        if sprt.elo1 <= sprt.elo0 || !probability(sprt.alpha) || !probability(sprt.beta) {
            return Err(SprtSpecError::Inconsistent);
        }
        Ok(sprt)
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() <= tolerance, "{actual} is not within {tolerance} of {expected}");
    }

    #[test]
    fn elo_curve_and_error_bars_match_known_values() {
        close(elo_from_score(0.75), 190.8485, 1e-3);
        close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12);
        let even = Results { wins: 30, draws: 40, losses: 30 }.elo().unwrap();
        close(even.elo, 0.0, 1e-9);
        close(even.margin, 53.158, 1e-2);
        let strong = Results { wins: 60, draws: 30, losses: 10 }.elo().unwrap();
        close(strong.elo, 190.8485, 1e-3);
        close(strong.margin, 62.045, 1e-2);
        assert_eq!(strong.to_string(), "+190.8 +/- 62.0");
        assert!(Results::default().elo().is_none());
    }

    #[test]
    fn likelihood_of_superiority() {
        close(Results { wins: 10, draws: 7, losses: 5 }.likelihood_of_superiority(), 0.901_647, 1e-5);
        close(Results { wins: 3, draws: 0, losses: 3 }.likelihood_of_superiority(), 0.5, 1e-9);
    }

    #[test]
    fn sprt_llr_bounds_and_decisions() {
        let sprt: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        close(lower, -2.944_439, 1e-5);
        close(upper, 2.944_439, 1e-5);
        // The textbook values without the pseudo-observation (1.935 475 and 1.140 003): over
        // hundreds of games it barely moves them.
        close(sprt.llr(&Results { wins: 400, draws: 300, losses: 300 }), 1.934_429, 1e-5);
        let pairs = Pentanomial { counts: [10, 40, 100, 60, 20] };
        close(sprt.llr_pairs(&pairs), 1.123_262, 1e-5);
        close(pairs.elo().unwrap().elo, 30.2883, 1e-3);
        let band = pairs.score_interval().unwrap();
        close(band.mean, 0.543_478, 1e-5);
        close(elo_from_score(band.high) - elo_from_score(band.low), 2.0 * pairs.elo().unwrap().margin, 1e-9);
        assert_eq!(sprt.decide(3.0), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(-3.0), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(1.9), SprtDecision::Continue);
        // A first game or pair, however one-sided, is far from deciding (it once decided at once).
        let first_win = sprt.llr(&Results { wins: 1, draws: 0, losses: 0 });
        close(first_win, 0.018_911, 1e-5);
        assert_eq!(sprt.decide(first_win), SprtDecision::Continue);
        assert_eq!(sprt.decide(sprt.llr_pairs(&Pentanomial { counts: [1, 0, 0, 0, 0] })), SprtDecision::Continue);
        // A first pair of draws has no spread of its own.
        assert_eq!(sprt.decide(sprt.llr_pairs(&Pentanomial { counts: [0, 0, 1, 0, 0] })), SprtDecision::Continue);
        assert_eq!(sprt.decide(sprt.llr_pairs(&Pentanomial { counts: [0, 0, 5, 0, 0] })), SprtDecision::Continue);
    }

    #[test]
    fn a_decision_stands_after_the_games_that_were_still_under_way() {
        let sprt: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        let mut standings = Standings::default();
        while standings.update_sprt(&sprt) == SprtDecision::Continue {
            standings.pairs.add_pair(1.5);
            standings.pairs.add_pair(1.0);
        }
        let (llr, decision) = standings.sprt.unwrap();
        assert_eq!(decision, SprtDecision::AcceptH1);
        // Two lost pairs finish after the stop: the ratio falls below the bound, the verdict stays.
        standings.pairs.add_pair(0.0);
        standings.pairs.add_pair(0.0);
        assert_eq!(sprt.decide(sprt.llr_pairs(&standings.pairs)), SprtDecision::Continue);
        assert_eq!(standings.update_sprt(&sprt), SprtDecision::AcceptH1);
        assert_eq!(standings.sprt, Some((llr, SprtDecision::AcceptH1)));
    }

    #[test]
    fn sprt_specifications() {
        assert_eq!("elo0=-2,elo1=3".parse::<Sprt>().unwrap().elo0, -2.0);
        let sprt: Sprt = "elo1=10 alpha=0.1".parse().unwrap();
        assert_eq!(sprt.to_string(), "elo0=0 elo1=10 alpha=0.1 beta=0.05");
        assert_eq!(sprt.to_string().parse::<Sprt>(), Ok(sprt));
        assert_eq!("elo0=5 elo1=0".parse::<Sprt>(), Err(SprtSpecError::Inconsistent));
        assert!(matches!("gamma=1".parse::<Sprt>(), Err(SprtSpecError::BadItem(_))));
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.5);
        pairs.add_pair(0.0);
        assert_eq!(pairs.counts, [1, 0, 0, 1, 0]);
    }
}
