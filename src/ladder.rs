//! `tessera report-ladder`: the strength ladder of the README, Elo against each third-party
//! opponent by game, read from the strength logs in `docs/` (the tables of `chess.md`,
//! `xiangqi.md`, `gomoku.md` and `go.md`) and drawn as an SVG chart.
//!
//! A log row counts when its opponent (the `opponent…` column, or the section's heading "…against
//! X" when the table has none) names an engine of [`OPPONENTS`] and its `Elo…` column starts with
//! a number; the latest such row of each opponent (the logs are in date order) is its rung. The
//! opponent's protocol (`over UCI`), board (`9×9`) and rule column tell rungs apart; a row that
//! gives none of them ("Pachi as above") keeps those of the row before it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use tessera_arena::report::charts::{ladder_chart, Rung};

/// The strength logs, by game.
const LOGS: [(&str, &str); 4] =
    [("chess", "chess.md"), ("xiangqi", "xiangqi.md"), ("gomoku", "gomoku.md"), ("go", "go.md")];

/// The third-party engines of the logs: the words that name one, and its name on the chart.
/// Fairy-Stockfish comes before Stockfish, whose name it contains.
pub const OPPONENTS: [(&str, &str); 10] = [
    ("Toga II", "Toga II"),
    ("Ethereal", "Ethereal"),
    ("Phalanx", "Phalanx"),
    ("GNU Chess", "GNU Chess"),
    ("Fairy-Stockfish", "Fairy-Stockfish"),
    ("Stockfish", "Stockfish"),
    ("Sjaak", "Sjaak II"),
    ("Rapfi", "Rapfi"),
    ("Pachi", "Pachi"),
    ("GNU Go", "GNU Go"),
];

/// `tessera report-ladder`'s options.
#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The folder of the strength logs.
    #[arg(long, default_value = "docs")]
    pub docs: PathBuf,
    /// The chart to write.
    #[arg(long, default_value = "docs/pictures/ladder.svg")]
    pub output: PathBuf,
}

/// Why the ladder could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// A log or the chart could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// No log row measured us against a known opponent.
    #[error("no strength log row names a known opponent with an Elo figure")]
    Empty,
}

/// Reads the logs, writes the chart and prints its rungs.
///
/// # Errors
/// [`LadderError`] when a log cannot be read, the chart cannot be written, or it would be empty.
pub fn run(args: &LadderArgs) -> Result<(), LadderError> {
    let mut rungs = Vec::new();
    for (game, file) in LOGS {
        let path = args.docs.join(file);
        let text = std::fs::read_to_string(&path).map_err(|source| LadderError::File { path: path.clone(), source })?;
        rungs.extend(rungs_of(game, &format!("docs/{file}"), &text));
    }
    if rungs.is_empty() {
        return Err(LadderError::Empty);
    }
    for rung in &rungs {
        let elo = match rung.elo {
            elo if elo.is_infinite() => if elo > 0.0 { "no loss" } else { "no win" }.to_string(),
            elo => format!("{elo:+.1}"),
        };
        let margin = rung.margin.map_or_else(String::new, |margin| format!(" ± {margin:.1}"));
        println!("{:<8} {:<28} {elo}{margin}  ({})", rung.game, rung.opponent, rung.source);
    }
    let chart = ladder_chart(&rungs, "Tessera against other engines (latest strength logs)");
    if let Some(folder) = args.output.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|source| LadderError::File { path: folder.into(), source })?;
    }
    std::fs::write(&args.output, chart + "\n")
        .map_err(|source| LadderError::File { path: args.output.clone(), source })?;
    println!("Ladder: {}", args.output.display());
    Ok(())
}

/// The cells of a table row `| a | b \| c |` (an escaped bar stays in its cell).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().expect("never empty").push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            _ => cells.last_mut().expect("never empty").push(c),
        }
    }
    cells.into_iter().map(|cell| cell.trim().to_string()).collect()
}

/// The Elo at the start of a log cell (`**+338.0 ± 91.7**, …`, `−52.5 ± 109.8 (…)`), with its
/// margin; a cell saying "no loss" or "no win" is an unbounded result.
fn elo_of(cell: &str) -> Option<(f64, Option<f64>)> {
    if cell.contains("no loss") {
        return Some((f64::INFINITY, None));
    }
    if cell.contains("no win") {
        return Some((f64::NEG_INFINITY, None));
    }
    let text = cell.trim_start_matches('*').replace('−', "-");
    let number = |text: &str| -> Option<(f64, usize)> {
        let length = text.find(|c: char| !(c.is_ascii_digit() || "+-.".contains(c))).unwrap_or(text.len());
        Some((text[..length].parse().ok()?, length))
    };
    let (elo, length) = number(&text)?;
    let rest = text[length..].trim_start();
    let margin = rest.strip_prefix('±').and_then(|rest| number(rest.trim_start())).map(|(margin, _)| margin);
    Some((elo, margin))
}

/// What tells two rungs against one engine apart: its protocol and board in `text`, the rule.
fn qualifiers(text: &str, rule: Option<&str>) -> Vec<String> {
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == ',').filter(|word| !word.is_empty()).collect();
    let mut found = Vec::new();
    if let Some(protocol) = words.windows(2).find(|pair| pair[0] == "over").map(|pair| pair[1]) {
        found.push(format!("over {protocol}"));
    }
    if let Some(board) =
        words.iter().find(|word| word.split_once('×').is_some_and(|(a, b)| a.parse::<u32>().is_ok() && a == b))
    {
        found.push((*board).to_string());
    }
    found.extend(rule.filter(|rule| !rule.is_empty()).map(str::to_string));
    found
}

/// The latest rung against each opponent in one game's log `text` (`source` names the log).
fn rungs_of(game: &str, source: &str, text: &str) -> Vec<Rung> {
    let mut latest: BTreeMap<String, Rung> = BTreeMap::new();
    let mut remembered: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut heading = String::new();
    let mut header: Option<Vec<String>> = None;
    let lines: Vec<&str> = text.lines().collect();
    for (index, line) in lines.iter().enumerate() {
        if line.starts_with('#') {
            heading = line.trim_start_matches('#').trim().to_string();
        }
        if !line.starts_with('|') {
            header = None;
            continue;
        }
        if header.is_none() {
            if lines.get(index + 1).is_some_and(|next| next.starts_with("|---") || next.starts_with("| ---")) {
                header = Some(cells(line).into_iter().map(|cell| cell.to_lowercase()).collect());
            }
            continue;
        }
        let Some(columns) = &header else { continue };
        let row = cells(line);
        let column =
            |wanted: &dyn Fn(&str) -> bool| columns.iter().position(|name| wanted(name)).and_then(|at| row.get(at));
        let Some(elo_cell) = column(&|name| name.starts_with("elo")) else { continue };
        // The opponent's cell starts with its name ("GNU Go referee" further on names no
        // opponent); a table without one is the section's, "… against Rapfi".
        let opponent_cell = column(&|name| name.starts_with("opponent"));
        let names = |words: &str| match opponent_cell {
            Some(cell) => cell.starts_with(words),
            None => heading.contains(&format!("against {words}")),
        };
        let opponent = opponent_cell.map_or(heading.as_str(), String::as_str);
        let Some(&(_, name)) = OPPONENTS.iter().find(|(words, _)| names(words)) else { continue };
        let rule = column(&|name| name == "rule").map(String::as_str);
        let mut found = qualifiers(opponent, rule);
        if found.is_empty() {
            found = remembered.get(name).cloned().unwrap_or_default();
        } else {
            remembered.insert(name, found.clone());
        }
        let Some((elo, margin)) = elo_of(elo_cell) else { continue };
        let label = if found.is_empty() { name.to_string() } else { format!("{name}, {}", found.join(", ")) };
        let date = column(&|name| name == "date").cloned().unwrap_or_default();
        let rung =
            Rung { game: game.to_string(), opponent: label.clone(), elo, margin, source: format!("{source}, {date}") };
        latest.insert(label, rung);
    }
    let mut rungs: Vec<Rung> = latest.into_values().collect();
    rungs.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    rungs
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "\
## Strength log

| date | change | opponent, settings | games | Elo | kept? |
|---|---|---|---|---|---|
| 2026-11-25 | a | Pachi 12.90 `-t =9000`, 9×9, komi 7.5 | 24 | −280 ± 282 | reference |
| 2026-11-26 | b | the kept state, 9×9 self-play, GNU Go referee | 100 | +100 ± 72 | kept |
| 2026-11-27 | c | Pachi as above, ours `--playouts 9200` | 34 | **−268 ± 187** (pairs [11, 0, 6, 0, 0]) | dropped |
| 2026-11-28 | d | GNU Go 3.8 `--level 10`, 19×19 \\| referee | 8 | 0 ± 297 | stopped |
| 2026-11-29 | e | GNU Go 3.8 `--level 10`, 19×19 | 40 | n/a (no loss) | |
| 2026-11-30 | f | Pachi 12.90, 9×9 | 60 | (stopped) | |

### Strength log against Rapfi

| date | what | rule | games | Elo ± 95% |
|---|---|---|---|---|
| 2026-11-25 | baseline | renju | 52 | −683 ± 956 |
| 2026-11-26 | later | renju | 40 | −127.0 ± 117.5 (pairs) |
| 2026-11-26 | later | standard | 40 | — |
";

    #[test]
    fn the_latest_row_of_each_opponent_is_its_rung() {
        let rungs = rungs_of("go", "docs/go.md", LOG);
        let summary: Vec<(&str, f64, Option<f64>)> =
            rungs.iter().map(|rung| (rung.opponent.as_str(), rung.elo, rung.margin)).collect();
        assert_eq!(
            summary,
            [
                ("GNU Go, 19×19", f64::INFINITY, None),
                ("Rapfi, renju", -127.0, Some(117.5)),
                ("Pachi, 9×9", -268.0, Some(187.0)),
            ]
        );
        assert_eq!(rungs[2].source, "docs/go.md, 2026-11-27");
    }

    #[test]
    fn cells_numbers_and_qualifiers() {
        assert_eq!(cells("| a | b \\| c | |"), ["a", "b | c", ""]);
        assert_eq!(elo_of("**+338.0 ± 91.7**, LOS 100%"), Some((338.0, Some(91.7))));
        assert_eq!(elo_of("−338 (95%: below −181)"), Some((-338.0, None)));
        assert_eq!(elo_of("n/a (no win)"), Some((f64::NEG_INFINITY, None)));
        assert_eq!(elo_of("—"), None);
        assert_eq!(qualifiers("Fairy-Stockfish 11.1 over UCCI, 10 s + 0.1 s", None), ["over UCCI"]);
        assert_eq!(qualifiers("Pachi, 9×9, komi", Some("renju")), ["9×9", "renju"]);
    }
}
