//! The report's charts: the first engine's running score with its 95% band and an Elo scale,
//! and the SPRT log-likelihood ratio between its bounds, both game pair by game pair; and the
//! strength ladder of the README (Elo against each opponent, by game).

use std::collections::BTreeMap;

use super::svg::{colour, number, ticks, Plot};
use crate::shard::GameResult;
use crate::stats::{elo_from_score, score_from_elo, Pentanomial, ScoreInterval, Sprt};

/// The standings after each complete pair, in the order of the match's games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The first engine's score with its 95% interval after pair 1, 2, ….
    pub scores: Vec<ScoreInterval>,
    /// The SPRT's log-likelihood ratio after each pair, when the match runs a test.
    pub llrs: Vec<f64>,
}

/// Walks the pairs (games `2p` and `2p + 1`) in order, counting those with both games played, as
/// the standings and the SPRT count them.
#[must_use]
pub fn progress(results: &BTreeMap<u32, GameResult>, sprt: Option<&Sprt>) -> Progress {
    let mut pairs = Pentanomial::default();
    let mut progress = Progress::default();
    for (&game, &result) in results {
        let Some(first) = results.get(&(game ^ 1)).filter(|_| !game.is_multiple_of(2)) else { continue };
        pairs.add_pair(first.points() + result.points());
        if let Some(interval) = pairs.score_interval() {
            progress.scores.push(interval);
        }
        if let Some(sprt) = sprt {
            progress.llrs.push(sprt.llr_pairs(&pairs));
        }
    }
    progress
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;

/// The pair numbers' axis: round ticks from 1 to `pairs`.
fn pair_ticks(pairs: usize) -> Vec<(f64, String)> {
    let mut values = ticks(1.0, pairs as f64, 8);
    values.retain(|&value| value >= 1.0 && value.fract() == 0.0);
    if values.first() != Some(&1.0) {
        values.insert(0, 1.0);
    }
    values.into_iter().map(|value| (value, number(value, 0))).collect()
}

/// The running score chart (`id="score-chart"`): the first engine's mean score over the pairs so
/// far with its 95% band, scored on the left in percent and on the right in Elo. `None` before
/// the first complete pair.
#[must_use]
pub fn score_chart(names: &[String; 2], scores: &[ScoreInterval]) -> Option<String> {
    let last = scores.len();
    if last == 0 {
        return None;
    }
    // The first pairs' bands are as wide as the whole scale: the range follows the later ones.
    let settled = &scores[last / 5..];
    let low = settled.iter().map(|score| score.low.min(score.mean)).fold(0.5, f64::min);
    let high = settled.iter().map(|score| score.high.max(score.mean)).fold(0.5, f64::max);
    let pad = ((high - low) * 0.08).max(0.02);
    let (low, high) = ((low - pad).max(0.0), (high + pad).min(1.0));
    let mut plot = Plot::new(WIDTH, HEIGHT, (1.0, last as f64), (low, high));
    let percent: Vec<(f64, String)> =
        ticks(low, high, 6).into_iter().map(|value| (value, format!("{}%", number(100.0 * value, 1)))).collect();
    plot.left_axis(&percent, "score");
    // Elo ticks where the Elo scale is finite, placed at the score they stand for.
    let (elo_low, elo_high) = (elo_from_score(low.max(0.005)), elo_from_score(high.min(0.995)));
    let mut elo: Vec<(f64, String)> = Vec::new();
    for value in ticks(elo_low, elo_high, 6) {
        // Elo crowds towards 0% and 100%: a tick too close to the one before is left out.
        let score = score_from_elo(value);
        if elo.last().is_none_or(|(last, _)| (plot.py(*last) - plot.py(score)).abs() >= 14.0) {
            elo.push((score, format!("{}{}", if value > 0.0 { "+" } else { "" }, number(value, 0))));
        }
    }
    plot.right_axis(&elo, "Elo");
    plot.bottom_axis(&pair_ticks(last), "game pairs");
    let clip = |value: f64| value.clamp(low, high);
    let upper: Vec<(f64, f64)> = scores.iter().enumerate().map(|(i, s)| ((i + 1) as f64, clip(s.high))).collect();
    let lower: Vec<(f64, f64)> = scores.iter().enumerate().map(|(i, s)| ((i + 1) as f64, clip(s.low))).collect();
    plot.band("score-band", &upper, &lower, colour::BAND);
    plot.rule("even", 0.5, "even", colour::INK);
    let means: Vec<(f64, f64)> = scores.iter().enumerate().map(|(i, s)| ((i + 1) as f64, s.mean)).collect();
    plot.line("score-line", &means, colour::FIRST);
    let final_score = scores[last - 1];
    plot.title(&format!(
        "{} vs {}: {}% after {last} pairs ({} Elo), 95% band",
        names[0],
        names[1],
        number(100.0 * final_score.mean, 1),
        signed(elo_from_score(final_score.mean))
    ));
    Some(plot.finish("score-chart", &format!("Running score of {} against {}", names[0], names[1])))
}

/// `+12.3`, `-4`, `0`.
fn signed(value: f64) -> String {
    let text = number(value, 1);
    if value > 0.0 && text != "0" {
        format!("+{text}")
    } else {
        text
    }
}

/// The SPRT chart (`id="sprt-chart"`): the log-likelihood ratio after each pair between the
/// bounds that accept H0 (below) and H1 (above). `None` before the first complete pair.
#[must_use]
pub fn sprt_chart(sprt: &Sprt, llrs: &[f64]) -> Option<String> {
    let last = llrs.len();
    if last == 0 {
        return None;
    }
    let (lower, upper) = sprt.bounds();
    let low = llrs.iter().copied().fold(lower, f64::min);
    let high = llrs.iter().copied().fold(upper, f64::max);
    let pad = (high - low) * 0.08;
    let mut plot = Plot::new(WIDTH, HEIGHT, (1.0, last as f64), (low - pad, high + pad));
    let values: Vec<(f64, String)> =
        ticks(low - pad, high + pad, 6).into_iter().map(|value| (value, number(value, 2))).collect();
    plot.left_axis(&values, "log-likelihood ratio");
    plot.bottom_axis(&pair_ticks(last), "game pairs");
    plot.rule("bound-upper", upper, &format!("H1 accepted ({})", number(upper, 2)), colour::ACCEPT);
    plot.rule("bound-lower", lower, &format!("H0 accepted ({})", number(lower, 2)), colour::REJECT);
    plot.rule("zero", 0.0, "", colour::GRID);
    let points: Vec<(f64, f64)> = llrs.iter().enumerate().map(|(i, &llr)| ((i + 1) as f64, llr)).collect();
    plot.line("llr-line", &points, colour::FIRST);
    plot.title(&format!(
        "SPRT [{}, {}] on pairs: LLR {} after {last} pairs",
        number(sprt.elo0, 1),
        number(sprt.elo1, 1),
        number(llrs[last - 1], 2)
    ));
    Some(plot.finish("sprt-chart", "SPRT log-likelihood ratio against its bounds"))
}

/// One bar of the strength ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// The game it was measured in.
    pub game: String,
    /// The opponent as the chart names it.
    pub opponent: String,
    /// Our Elo against it.
    pub elo: f64,
    /// Half its 95% interval, when known.
    pub margin: Option<f64>,
    /// Where it comes from (date, settings), for the tooltip.
    pub source: String,
}

/// Elo beyond which the ladder's scale stops: error bars of near-certain results reach ±1000,
/// and would flatten every other bar.
const LADDER_LIMIT: f64 = 700.0;

/// The strength ladder (`id="ladder-chart"`): a horizontal bar of Elo with its 95% whisker per
/// opponent, grouped by game in the order given.
#[must_use]
pub fn ladder_chart(rungs: &[Rung], title: &str) -> String {
    let row = 24.0;
    let mut games: Vec<&str> = Vec::new();
    for rung in rungs {
        if !games.contains(&rung.game.as_str()) {
            games.push(&rung.game);
        }
    }
    let rows = (rungs.len() + games.len()) as f64;
    let reach = |rung: &Rung| (rung.elo.abs() + rung.margin.unwrap_or(0.0)).min(LADDER_LIMIT);
    let extent = rungs.iter().map(reach).fold(100.0, f64::max);
    let extent = ticks(0.0, extent, 4).last().copied().filter(|&tick| tick >= extent).unwrap_or(extent * 1.1);
    let height = 70.0 + rows * row;
    let mut plot = Plot::new(WIDTH, height, (-extent, extent), (rows, 0.0)).with_margins(250.0, 20.0, 30.0, 40.0);
    let grid: Vec<(f64, String)> = ticks(-extent, extent, 8)
        .into_iter()
        .map(|elo| (elo, format!("{}{}", if elo > 0.0 { "+" } else { "" }, number(elo, 0))))
        .collect();
    for (elo, _) in &grid {
        plot.segment("grid", (*elo, 0.0), (*elo, rows), colour::GRID);
    }
    plot.bottom_axis(&grid, "Elo of Tessera against the opponent (95% interval)");
    plot.segment("even", (0.0, 0.0), (0.0, rows), colour::INK);
    let mut at = 0.0;
    for game in games {
        plot.text(8.0, plot.py(at + 0.7), "start", game, "ladder-game");
        at += 1.0;
        for rung in rungs.iter().filter(|rung| rung.game == game) {
            let centre = at + 0.5;
            plot.text(240.0, plot.py(centre) + 4.0, "end", &rung.opponent, "ladder-label");
            let shade = if rung.elo >= 0.0 { colour::FIRST } else { colour::SECOND };
            // A match without a loss (or a win) has no finite Elo: its bar runs off the scale.
            let value = match rung.elo {
                elo if elo == f64::INFINITY => "no loss".to_string(),
                elo if elo == f64::NEG_INFINITY => "no win".to_string(),
                elo => signed(elo),
            };
            let tooltip = match rung.margin {
                Some(margin) => format!("{value} ± {} Elo: {}", number(margin, 1), rung.source),
                None => format!("{value} Elo: {}", rung.source),
            };
            let clamp = |elo: f64| elo.clamp(-extent, extent);
            plot.rect("ladder-bar", (0.0, at + 0.2), (clamp(rung.elo), at + 0.8), shade, &tooltip);
            if let Some(margin) = rung.margin {
                let (low, high) = (clamp(rung.elo - margin), clamp(rung.elo + margin));
                plot.segment("ladder-whisker", (low, centre), (high, centre), colour::INK);
                plot.segment("ladder-whisker", (low, at + 0.35), (low, at + 0.65), colour::INK);
                plot.segment("ladder-whisker", (high, at + 0.35), (high, at + 0.65), colour::INK);
            }
            if rung.elo.abs() >= extent {
                // The bar runs off the scale: its figure goes inside its end.
                let inside = plot.px(clamp(rung.elo)) - 4.0 * rung.elo.signum();
                let anchor = if rung.elo > 0.0 { "end" } else { "start" };
                plot.coloured_text(inside, plot.py(centre) + 4.0, anchor, &value, "ladder-value", "white");
            } else {
                let value_at = if rung.elo >= 0.0 { rung.elo } else { 0.0 };
                plot.text(plot.px(value_at) + 4.0, plot.py(centre) - 6.0, "start", &value, "ladder-value");
            }
            at += 1.0;
        }
    }
    plot.title(title);
    plot.finish("ladder-chart", title)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw, Loss, Win};

    fn results(list: &[(u32, GameResult)]) -> BTreeMap<u32, GameResult> {
        list.iter().copied().collect()
    }

    #[test]
    fn progress_counts_complete_pairs_in_game_order() {
        // Pair 0: 1.5 points; pair 1: game 3 missing; pair 2: 0.5 points.
        let played = results(&[(0, Win), (1, Draw), (2, Loss), (4, Loss), (5, Draw)]);
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let progress = progress(&played, Some(&sprt));
        let means: Vec<f64> = progress.scores.iter().map(|score| score.mean).collect();
        assert_eq!(means, [0.75, 0.5]);
        let mut pairs = Pentanomial::default();
        pairs.add_pair(1.5);
        pairs.add_pair(0.5);
        assert_eq!(progress.llrs.last(), Some(&sprt.llr_pairs(&pairs)));
        assert_eq!(progress.llrs.len(), 2);
        assert!(super::progress(&results(&[(0, Win)]), None).scores.is_empty());
    }

    #[test]
    fn charts_draw_one_point_per_pair_and_the_bounds() {
        let played: BTreeMap<u32, GameResult> =
            (0..40).map(|game| (game, if game % 3 == 0 { Win } else { Draw })).collect();
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let progress = progress(&played, Some(&sprt));
        let names = ["A".to_string(), "B".to_string()];
        let score = score_chart(&names, &progress.scores).unwrap();
        assert!(score.contains(r#"class="score-line" data-points="20""#), "{score}");
        assert!(score.contains(r#"class="score-band" data-points="20""#));
        assert!(score.contains(">Elo</text>") && score.contains(">+"), "an Elo scale with signed ticks");
        let chart = sprt_chart(&sprt, &progress.llrs).unwrap();
        assert!(chart.contains(r#"class="llr-line" data-points="20""#));
        assert!(chart.contains("H1 accepted (2.94)") && chart.contains("H0 accepted (-2.94)"), "{chart}");
        assert!(score_chart(&names, &[]).is_none() && sprt_chart(&sprt, &[]).is_none());
    }

    #[test]
    fn the_ladder_has_a_bar_per_opponent_grouped_by_game() {
        let rung = |game: &str, opponent: &str, elo, margin| Rung {
            game: game.into(),
            opponent: opponent.into(),
            elo,
            margin,
            source: "a log".into(),
        };
        let chart = ladder_chart(
            &[
                rung("chess", "Toga", 338.0, Some(91.7)),
                rung("go", "Pachi", -190.8, None),
                rung("chess", "X", f64::INFINITY, None),
            ],
            "ladder",
        );
        assert_eq!(chart.matches(r#"class="ladder-bar""#).count(), 3);
        assert_eq!(chart.matches(r#"class="ladder-game""#).count(), 2);
        assert_eq!(chart.matches(r#"class="ladder-whisker""#).count(), 3, "one whisker with its two ends");
        assert!(chart.contains("+338 ± 91.7 Elo: a log"), "{chart}");
        assert!(chart.contains(">no loss</text>"), "an unbounded result is named, not drawn as a number");
    }
}
