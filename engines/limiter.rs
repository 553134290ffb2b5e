//! The strength limiter behind UCI's `UCI_LimitStrength` and `UCI_Elo`, around any searcher: the
//! engine's policy for playing weaker, which the UCI session only switches (its dialect's
//! `set_strength`). Written once here and included by the chess and xiangqi engines (`#[path]`,
//! as `evaluation.rs` is), since neither game crate may serve the other and core holds no policy.
//!
//! A limited search gets a node budget that doubles every 180 Elo, searches four lines
//! (MultiPV), and picks among them at random with weights `exp((value - best) / T)`, where the
//! temperature `T` falls from about 400 centipawns at the lowest level to 10 at the highest.
//! The mapping is a rough calibration (weak levels blunder pieces now and then, strong levels
//! play the best line almost always), not a measured rating scale.

use std::time::{SystemTime, UNIX_EPOCH};

use tessera_core::{
    EngineOptions, Game, Info, InfoSink, Limits, Report, Rng, Score, SearchControl, SearchResult, Searcher,
};

/// The lowest `UCI_Elo`.
pub const ELO_MIN: u32 = 800;
/// The highest `UCI_Elo`.
pub const ELO_MAX: u32 = 2800;
/// The range `UCI_Elo` offers.
pub const ELO_RANGE: std::ops::RangeInclusive<u32> = ELO_MIN..=ELO_MAX;
/// Lines searched to choose from at limited strength.
const CANDIDATE_LINES: usize = 4;

/// A searcher that can play below its strength.
pub struct Limited<S> {
    inner: S,
    elo: Option<u32>,
    options: EngineOptions,
    rng: Rng,
}

impl<S> Limited<S> {
    /// Wraps `inner` at full strength.
    pub fn new(inner: S, options: &EngineOptions) -> Self {
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |time| time.as_nanos() as u64);
        Limited { inner, elo: None, options: options.clone(), rng: Rng::new(seed) }
    }

    /// Plays at `elo` (clamped to `ELO_MIN..=ELO_MAX`), or at full strength with `None`.
    pub fn set_strength(&mut self, elo: Option<u32>) {
        self.elo = elo.map(|elo| elo.clamp(ELO_MIN, ELO_MAX));
    }

    /// The node budget of one move at `elo`.
    #[must_use]
    pub fn node_budget(elo: u32) -> u64 {
        let steps = f64::from(elo.clamp(ELO_MIN, ELO_MAX) - ELO_MIN) / 180.0;
        (64.0 * steps.exp2()) as u64
    }

    /// The choice temperature at `elo`, in centipawns.
    #[must_use]
    pub fn temperature(elo: u32) -> f64 {
        10.0 + f64::from(ELO_MAX - elo.clamp(ELO_MIN, ELO_MAX)) / 5.0
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
        let Some(elo) = self.elo else { return self.inner.search(root, limits, control, sink) };
        let shown = self.options.multipv;
        self.inner.set_options(&EngineOptions { multipv: shown.max(CANDIDATE_LINES), ..self.options.clone() });
        let mut limited = limits.clone();
        let budget = Self::node_budget(elo);
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
            let temperature = Self::temperature(elo);
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
        assert_eq!(Limited::<()>::node_budget(ELO_MIN), 64);
        assert!(Limited::<()>::node_budget(2000) > 5_000);
        assert!(Limited::<()>::node_budget(ELO_MAX) > 100_000);
        assert!(Limited::<()>::temperature(ELO_MIN) > Limited::<()>::temperature(ELO_MAX));
    }
}
