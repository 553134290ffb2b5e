//! What `tessera match` shows: a progress bar while games run and a final table.

use indicatif::{ProgressBar, ProgressStyle};
use tessera_arena::{SprtDecision, Standings};

/// The progress bar of a running match.
pub struct Progress {
    bar: ProgressBar,
    names: [String; 2],
}

impl Progress {
    /// A bar for `games` games between `names[0]` (the engine the figures are about) and `names[1]`.
    pub fn new(games: u64, names: [String; 2]) -> Self {
        let bar = ProgressBar::new(games);
        let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        Progress { bar, names }
    }

    /// Updates the bar after a game and prints the game's result line above it.
    pub fn game_finished(&self, line: &str, standings: &Standings) {
        if self.bar.is_hidden() {
            // Not a terminal (a pipe, CI): the result lines are the log.
            println!("{line}");
        } else {
            self.bar.println(line);
        }
        self.bar.set_message(short_summary(&self.names, standings));
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn short_summary(names: &[String; 2], standings: &Standings) -> String {
    let results = &standings.results;
    let elo = results.elo().map_or_else(String::new, |elo| format!("  Elo {elo}"));
    format!("{} {}-{}-{} ({:.1}%){elo}", names[0], results.wins, results.draws, results.losses, 100.0 * results.score())
}

/// The final table, in cutechess's words so that existing habits carry over.
pub fn final_table(names: &[String; 2], standings: &Standings) -> String {
    let results = &standings.results;
    let mut text = format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
        names[0],
        names[1],
        results.wins,
        results.losses,
        results.draws,
        results.score(),
        results.games()
    );
    if let Some(elo) = results.elo() {
        let draw_ratio = f64::from(results.draws) / f64::from(results.games().max(1));
        text.push_str(&format!(
            "Elo difference: {elo}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
            100.0 * results.likelihood_of_superiority(),
            100.0 * draw_ratio
        ));
    }
    let pairs = &standings.pairs;
    if pairs.counts.iter().sum::<u32>() > 0 {
        let counts = pairs.counts.map(|count| count.to_string()).join(", ");
        let elo = pairs.elo().map_or_else(String::new, |elo| format!(", pair Elo {elo}"));
        text.push_str(&format!("Pentanomial [0, 0.5, 1, 1.5, 2]: [{counts}]{elo}\n"));
    }
    if let Some((llr, decision)) = standings.sprt {
        let verdict = match decision {
            SprtDecision::Continue => "no decision",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        };
        text.push_str(&format!("SPRT (pairs): llr {llr:.2}, {verdict}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_arena::{Pentanomial, Results};

    #[test]
    fn table_reads_like_cutechess() {
        let standings = Standings {
            results: Results { wins: 60, draws: 30, losses: 10 },
            pairs: Pentanomial { counts: [0, 1, 4, 20, 25] },
            sprt: Some((3.1, SprtDecision::AcceptH1)),
        };
        let table = final_table(&["A".into(), "B".into()], &standings);
        assert!(table.starts_with("Score of A vs B: 60 - 10 - 30  [0.750] 100\n"), "{table}");
        assert!(table.contains("Elo difference: +190.8 +/- 62.0, LOS: 100.0 %, DrawRatio: 30.0 %"), "{table}");
        assert!(table.contains("Pentanomial [0, 0.5, 1, 1.5, 2]: [0, 1, 4, 20, 25]"), "{table}");
        assert!(table.contains("SPRT (pairs): llr 3.10, H1 accepted"), "{table}");
    }
}
