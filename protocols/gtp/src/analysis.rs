//! The analysis commands (`lz-analyze`, `kata-analyze` and their `genmove` forms): their arguments,
//! and the lines in the formats Sabaki and Lizzie parse.

use std::fmt::Write as _;

use tessera_core::{Game, MoveStat, Notation};

use crate::error::CommandError;
use crate::vertex::Color;

/// Which analysis dialect (and its line format) a command asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyzeKind {
    /// Leela Zero: integer win rates ×10000.
    Lz,
    /// KataGo: floats, optional ownership.
    Kata,
}

/// Arguments of the analysis commands: `[color] [interval] [key value…]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Analyze {
    /// The dialect.
    pub kind: AnalyzeKind,
    /// The side to analyse for (default: the side to move).
    pub color: Option<Color>,
    /// Centiseconds between lines (default 50 for the `genmove` forms when absent, else 0 = only once).
    pub interval: Option<u32>,
    /// `ownership true` (KataGo).
    pub ownership: bool,
}

pub(crate) fn parse_analyze(kind: AnalyzeKind, args: &[&str]) -> Result<Analyze, CommandError> {
    let mut analyze = Analyze { kind, color: None, interval: None, ownership: false };
    let mut rest = args;
    if let Some(first) = rest.first() {
        if let Ok(color) = first.parse::<Color>() {
            analyze.color = Some(color);
            rest = &rest[1..];
        }
    }
    if let Some(first) = rest.first() {
        if let Ok(interval) = first.parse::<u32>() {
            analyze.interval = Some(interval);
            rest = &rest[1..];
        }
    }
    while let [key, tail @ ..] = rest {
        let value = tail.first().ok_or(CommandError::Syntax)?;
        match *key {
            "interval" => analyze.interval = Some(value.parse().map_err(|_| CommandError::Syntax)?),
            "ownership" => analyze.ownership = *value == "true",
            // Options we do not use (minmoves, maxmoves, avoid, allow…) take one value and are ignored.
            _ => {}
        }
        rest = &tail[1..];
    }
    Ok(analyze)
}

pub(crate) fn analyze_text(name: &str, analyze: &Analyze) -> String {
    let mut text = name.to_string();
    if let Some(color) = analyze.color {
        text.push_str(&format!(" {color}"));
    }
    if let Some(interval) = analyze.interval {
        text.push_str(&format!(" {interval}"));
    }
    if analyze.ownership {
        text.push_str(" ownership true");
    }
    text
}

/// One `info …` line for `moves` (best first), with KataGo ownership values appended if given.
/// KataGo's lines carry `scoreMean`, `scoreStdev` and `scoreLead` when the move has a score
/// ([`tessera_core::MoveStat::score`]): the mean and spread of the final scores of the playouts
/// through the move, the lead being that mean (see the comment in the body).
#[must_use]
pub fn info_line<N: Notation + Default>(
    game: &N::Game,
    kind: AnalyzeKind,
    moves: &[MoveStat<<N::Game as Game>::Move>],
    ownership: Option<&[f32]>,
) -> String {
    let notation = N::default();
    let mut line = String::new();
    for (order, stat) in moves.iter().enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let vertex = notation.format_move(game, stat.mv);
        match kind {
            AnalyzeKind::Lz => {
                let scaled = |value: f32| (value.clamp(0.0, 1.0) * 10_000.0).round() as u32;
                let _ = write!(
                    line,
                    "info move {vertex} visits {} winrate {} prior {} lcb {} order {order} pv",
                    stat.visits,
                    scaled(stat.win_rate),
                    scaled(stat.prior),
                    scaled(stat.lower_bound)
                );
            }
            AnalyzeKind::Kata => {
                let _ = write!(
                    line,
                    "info move {vertex} visits {} utility {:.6} winrate {:.6}",
                    stat.visits,
                    2.0 * stat.win_rate - 1.0,
                    stat.win_rate
                );
                // The mean final score of the playouts through this move: its subtree, so the
                // search's own line weighs in as the move gathers visits. KataGo's scoreLead is
                // likewise its search's mean over the move's visits (and its scoreMean the same
                // number). Playouts give no other estimate of the lead under good play: no
                // value head, and a median or a minimax of subtree means would be a guess.
                // Both fields print the mean.
                if let Some(score) = stat.score {
                    let _ = write!(
                        line,
                        " scoreMean {:.2} scoreStdev {:.2} scoreLead {:.2}",
                        score.mean, score.stdev, score.mean
                    );
                }
                let _ = write!(line, " prior {:.6} lcb {:.6} order {order} pv", stat.prior, stat.lower_bound);
            }
        }
        for text in notation.format_line(game, &stat.pv) {
            let _ = write!(line, " {text}");
        }
    }
    if let Some(values) = ownership {
        line.push_str(" ownership");
        for value in values {
            let _ = write!(line, " {value:.4}");
        }
    }
    line
}
