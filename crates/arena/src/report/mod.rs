//! The match report: a folder with one page (`index.html`) that opens from disk in any browser
//! and needs nothing else, no server and no network: the running score and SPRT charts, the
//! standings, per-opening results, time per move and pentanomial counts, and a viewer that
//! replays every recorded game on a drawn board with the engines' scores under it.
//!
//! The page is built from the match's results and from the PGN or SGF records it wrote: a
//! record that cannot be read (cut short, of an unknown game, with an illegal move) is named
//! under "Problems" and the rest of the report is written all the same. The charts are also
//! written alone (`score.svg`, `sprt.svg`), and the records are copied beside the page.

pub mod charts;
mod html;
pub mod replay;
pub mod svg;
mod tables;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::shard::{standings, GameResult};
use crate::stats::Sprt;
use replay::{read_games, Replay};

/// One record file's text, with the name it is reported under.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordText {
    /// The file's name.
    pub name: String,
    /// What it holds: PGN or SGF games.
    pub text: String,
}

/// What a report is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportInput {
    /// The page's heading.
    pub title: String,
    /// Lines under it: the game, the settings, where the results come from.
    pub details: Vec<String>,
    /// The two engines (the figures are the first one's).
    pub names: [String; 2],
    /// The first engine's result in each game, by game index from 0.
    pub results: BTreeMap<u32, GameResult>,
    /// The match's SPRT, if it ran one.
    pub sprt: Option<Sprt>,
    /// The records of the games.
    pub records: Vec<RecordText>,
}

/// What [`write`] wrote, and what it could not read.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The page.
    pub page: PathBuf,
    /// Games played (results given).
    pub games: usize,
    /// Games in the viewer.
    pub replayed: usize,
    /// Records that could not be read, and disagreements between records and results.
    pub problems: Vec<String>,
}

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", .path.display())]
pub struct ReportError {
    /// The file or folder.
    pub path: PathBuf,
    /// What went wrong.
    pub source: std::io::Error,
}

/// Writes the report of `input` into folder `dir` (made if needed): `index.html`, the charts as
/// `score.svg` and `sprt.svg`, and the records as `games.pgn` or `games.sgf`.
///
/// # Errors
/// [`ReportError`] when a file cannot be written; unreadable records are not errors but
/// [`Written::problems`].
pub fn write(dir: &Path, input: &ReportInput) -> Result<Written, ReportError> {
    let file_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError { path, source }
    };
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let (games, mut problems) = replay_records(&input.records);
    problems.extend(disagreements(&input.names, &input.results, &games));
    let standings = standings(&input.results, input.sprt.as_ref());
    let progress = charts::progress(&input.results, input.sprt.as_ref());
    let mut charts = Vec::new();
    let mut files = Vec::new();
    if let Some(chart) = charts::score_chart(&input.names, &progress.scores) {
        files.push(("score.svg", chart.clone()));
        charts.push(chart);
    }
    if let Some(chart) = input.sprt.as_ref().and_then(|sprt| charts::sprt_chart(sprt, &progress.llrs)) {
        files.push(("sprt.svg", chart.clone()));
        charts.push(chart);
    }
    let page = html::page(&html::Page {
        title: &input.title,
        details: &input.details,
        standings: format!(
            "{}{}",
            tables::standings(&input.names, &standings, input.sprt.map(|sprt| sprt.bounds())),
            tables::pentanomial(&input.names, &standings.pairs.counts)
        ),
        charts,
        openings: tables::openings(&input.names, &input.results, &games),
        times: tables::times(&games),
        problems: &problems,
        games: &games,
    });
    files.push(("index.html", page));
    for (extension, text) in record_copies(&input.records) {
        files.push((extension, text));
    }
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(file_error(&path))?;
    }
    Ok(Written { page: dir.join("index.html"), games: input.results.len(), replayed: games.len(), problems })
}

/// Every readable game of the records in game order, and a line for each one that is not.
fn replay_records(records: &[RecordText]) -> (Vec<Replay>, Vec<String>) {
    let mut games = Vec::new();
    let mut problems = Vec::new();
    if records.is_empty() {
        problems.push("no game records were given: the viewer is empty".to_string());
    }
    for record in records {
        for game in read_games(&record.text) {
            match game {
                Ok(game) => games.push(game),
                Err(error) => problems.push(format!("{}: {error}", record.name)),
            }
        }
    }
    games.sort_by_key(|game| game.round.unwrap_or(u32::MAX));
    let mut seen = BTreeSet::new();
    games.retain(|game| match game.round {
        Some(round) if !seen.insert(round) => {
            problems.push(format!("game {round} is recorded twice: the first record is shown"));
            false
        }
        _ => true,
    });
    let kinds: BTreeSet<&str> = games.iter().map(|game| game.kind.name()).collect();
    if kinds.len() > 1 {
        problems.push(format!("the records hold games of {}", kinds.into_iter().collect::<Vec<_>>().join(" and ")));
    }
    (games, problems)
}

/// Records that disagree with the results: another engine, another result, a game not played.
fn disagreements(names: &[String; 2], results: &BTreeMap<u32, GameResult>, games: &[Replay]) -> Vec<String> {
    let mut problems = Vec::new();
    for game in games {
        let Some(round) = game.round else { continue };
        let Some(&result) = round.checked_sub(1).and_then(|index| results.get(&index)) else {
            problems.push(format!("game {round} has a record but no result"));
            continue;
        };
        match tables::first_engine_result(names, game) {
            Some(recorded) if recorded != result => problems.push(format!(
                "game {round}: the record says {} but the results give {} {} points",
                game.result,
                names[0],
                result.points()
            )),
            Some(_) => {}
            None if game.outcome.is_some() => {
                problems.push(format!(
                    "game {round} is between {} and {}, not this match's engines",
                    game.players[0], game.players[1]
                ));
            }
            None => {}
        }
    }
    problems
}

/// The records' texts to copy beside the page, by format: `games.pgn`, `games.sgf`.
fn record_copies(records: &[RecordText]) -> Vec<(&'static str, String)> {
    let mut copies: Vec<(&'static str, String)> = Vec::new();
    for record in records {
        let name = if record.text.trim_start().starts_with('(') { "games.sgf" } else { "games.pgn" };
        match copies.iter_mut().find(|(copy, _)| *copy == name) {
            Some((_, text)) => text.push_str(&record.text),
            None => copies.push((name, record.text.clone())),
        }
    }
    copies
}

#[cfg(test)]
mod tests;
