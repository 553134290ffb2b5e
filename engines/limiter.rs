//! The strength limiter behind UCI's `UCI_LimitStrength` and `UCI_Elo`, around any searcher: the
//! engine's policy for playing weaker, which the UCI session only switches (its dialect's
//! `set_strength`). Written once here and included by the chess and xiangqi engines (`#[path]`,
//! as `evaluation.rs` is), since neither game crate may serve the other and core holds no policy.
//!
//! A limited search plays at a strength *level*: it gets a node budget that doubles every 180
//! levels, searches four lines (MultiPV), and picks among them at random with weights
//! `exp((value - best) / T)`, where the temperature `T` falls from about 400 centipawns at the
//! lowest level to 10 at the highest. An [`EloScale`] says which level a requested `UCI_Elo`
//! plays at: measured for chess (`scripts/calibrate-chess-elo.sh`), the identity elsewhere.

use std::time::{SystemTime, UNIX_EPOCH};

use tessera_core::{
    EngineOptions, Game, Info, InfoSink, Limits, Report, Rng, Score, SearchControl, SearchResult, Searcher,
};

/// The lowest strength level.
pub const LEVEL_MIN: u32 = 800;
/// The highest strength level.
pub const LEVEL_MAX: u32 = 2800;
/// Lines searched to choose from at limited strength.
const CANDIDATE_LINES: usize = 4;

/// Which strength level plays at which rating: `(rating, level)` pairs, both strictly ascending,
/// at least two. Between two pairs the level is interpolated linearly; the first and the last
/// rating bound what `UCI_Elo` offers.
#[derive(Clone, Copy, Debug)]
pub struct EloScale(pub &'static [(u32, u32)]);

impl EloScale {
    /// No measurement: a level is taken for its own rating.
    // tessera-ucci's scale; tessera-uci has a measured one.
    #[allow(dead_code)]
    pub const UNCALIBRATED: EloScale = EloScale(&[(LEVEL_MIN, LEVEL_MIN), (LEVEL_MAX, LEVEL_MAX)]);

    /// The ratings `UCI_Elo` offers: those of the lowest and the highest level.
    #[must_use]
    pub fn range(self) -> std::ops::RangeInclusive<u32> {
        // Both ends exist: every scale holds at least two pairs.
        self.0[0].0..=self.0[self.0.len() - 1].0
    }

    /// Whether the pairs are strictly ascending in both rating and level, at least two, and
    /// every level within `LEVEL_MIN..=LEVEL_MAX`: what [`EloScale::level`] relies on.
    #[cfg(test)]
    pub fn is_valid(self) -> bool {
        self.0.len() >= 2
            && self.0.windows(2).all(|pair| pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1)
            && self.0.iter().all(|&(_, level)| (LEVEL_MIN..=LEVEL_MAX).contains(&level))
    }

    /// The level that plays at `elo` (clamped to [`EloScale::range`]).
    #[must_use]
    pub fn level(self, elo: u32) -> u32 {
        let range = self.range();
        let elo = elo.clamp(*range.start(), *range.end());
        // The clamped rating lies within some pair of neighbours (a scale holds at least two
        // pairs); the fallback is only for a scale that breaks that rule, and plays its top level.
        let Some(&[(low_rating, low_level), (high_rating, high_level)]) =
            self.0.windows(2).find(|pair| elo <= pair[1].0)
        else {
            return self.0[self.0.len() - 1].1;
        };
        let fraction = f64::from(elo - low_rating) / f64::from(high_rating - low_rating);
        low_level + (fraction * f64::from(high_level - low_level)).round() as u32
    }
}

/// A searcher that can play below its strength.
pub struct Limited<S> {
    inner: S,
    scale: EloScale,
    level: Option<u32>,
    options: EngineOptions,
    rng: Rng,
}

impl<S> Limited<S> {
    /// Wraps `inner` at full strength; `scale` maps `UCI_Elo` to a level.
    pub fn new(inner: S, options: &EngineOptions, scale: EloScale) -> Self {
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |time| time.as_nanos() as u64);
        Limited { inner, scale, level: None, options: options.clone(), rng: Rng::new(seed) }
    }

    /// Plays at `elo` (clamped to the scale's range), or at full strength with `None`.
    pub fn set_strength(&mut self, elo: Option<u32>) {
        self.level = elo.map(|elo| self.scale.level(elo));
    }

    /// The node budget of one move at `level`.
    #[must_use]
    pub fn node_budget(level: u32) -> u64 {
        let steps = f64::from(level.clamp(LEVEL_MIN, LEVEL_MAX) - LEVEL_MIN) / 180.0;
        (64.0 * steps.exp2()) as u64
    }

    /// The choice temperature at `level`, in centipawns.
    #[must_use]
    pub fn temperature(level: u32) -> f64 {
        10.0 + f64::from(LEVEL_MAX - level.clamp(LEVEL_MIN, LEVEL_MAX)) / 5.0
    }

    /// The wrapped searcher.
    // tessera-ucci's `probe` reads the table through it; tessera-uci has no use for it.
    #[allow(dead_code)]
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

fn comparable(score: Score) -> f64 {
    match score {
        Score::Centipawns(cp) => f64::from(cp),
        Score::Mate(moves) if moves > 0 => 30_000.0 - f64::from(moves),
        Score::Mate(moves) => -30_000.0 - f64::from(moves),
        Score::WinRate(rate) => f64::from(rate) * 1000.0,
    }
}

impl<G: Game, S: Searcher<G>> Searcher<G> for Limited<S> {
    fn search(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        control: &SearchControl,
        sink: &mut dyn InfoSink<G::Move>,
    ) -> SearchResult<G::Move> {
        let Some(level) = self.level else { return self.inner.search(root, limits, control, sink) };
        let shown = self.options.multipv;
        self.inner.set_options(&EngineOptions { multipv: shown.max(CANDIDATE_LINES), ..self.options.clone() });
        let mut limited = limits.clone();
        let budget = Self::node_budget(level);
        limited.nodes = Some(limits.nodes.map_or(budget, |nodes| nodes.min(budget)));
        let mut lines: Vec<Info<G::Move>> = Vec::new();
        let mut filter = |report: Report<G::Move>| {
            if let Report::Info(info) = &report {
                let index = info.multipv as usize - 1;
                if lines.len() <= index {
                    lines.resize(index + 1, info.clone());
                }
                lines[index] = info.clone();
                if index >= shown {
                    return;
                }
            }
            sink.report(report);
        };
        let mut result = self.inner.search(root, &limited, control, &mut filter);
        self.inner.set_options(&self.options);
        let candidates: Vec<&Info<G::Move>> = lines.iter().filter(|line| !line.pv.is_empty()).collect();
        if candidates.len() > 1 {
            let best = candidates.iter().map(|line| comparable(line.score)).fold(f64::MIN, f64::max);
            let temperature = Self::temperature(level);
            let weights: Vec<f64> =
                candidates.iter().map(|line| ((comparable(line.score) - best) / temperature).exp()).collect();
            let mut pick = f64::from(self.rng.unit()) * weights.iter().sum::<f64>();
            let mut chosen = candidates[0];
            for (line, weight) in candidates.iter().zip(&weights) {
                chosen = line;
                if pick < *weight {
                    break;
                }
                pick -= weight;
            }
            result.best = Some(chosen.pv[0]);
            result.ponder = chosen.pv.get(1).copied();
            result.score = chosen.score;
            result.pv.clone_from(&chosen.pv);
        }
        result
    }

    fn clear(&mut self) {
        self.inner.clear();
    }

    fn set_options(&mut self, options: &EngineOptions) {
        self.options = options.clone();
        self.inner.set_options(options);
    }

    fn memory_mb(&self) -> Option<usize> {
        self.inner.memory_mb()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_grow_with_elo() {
        assert_eq!(Limited::<()>::node_budget(LEVEL_MIN), 64);
        assert!(Limited::<()>::node_budget(2000) > 5_000);
        assert!(Limited::<()>::node_budget(LEVEL_MAX) > 100_000);
        assert!(Limited::<()>::temperature(LEVEL_MIN) > Limited::<()>::temperature(LEVEL_MAX));
    }

    #[test]
    fn scales_interpolate_between_measured_points() {
        let scale = EloScale(&[(1100, 800), (1500, 1600), (2600, 2800)]);
        assert_eq!(scale.range(), 1100..=2600);
        assert_eq!(scale.level(1100), 800);
        assert_eq!(scale.level(1300), 1200);
        assert_eq!(scale.level(1500), 1600);
        assert_eq!(scale.level(2050), 2200);
        assert_eq!(scale.level(2600), 2800);
        // Outside the range, the nearest end.
        assert_eq!(scale.level(800), 800);
        assert_eq!(scale.level(3000), 2800);
        assert!(scale.is_valid() && EloScale::UNCALIBRATED.is_valid());
        assert!(!EloScale(&[(1100, 800)]).is_valid());
        assert!(!EloScale(&[(1100, 800), (1500, 800)]).is_valid());
        assert!(!EloScale(&[(1100, 800), (1500, 3000)]).is_valid());
        assert_eq!(EloScale::UNCALIBRATED.range(), LEVEL_MIN..=LEVEL_MAX);
        assert_eq!(EloScale::UNCALIBRATED.level(1234), 1234);
    }
}
