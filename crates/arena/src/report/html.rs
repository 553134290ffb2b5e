//! The report page: its sections around the charts and tables, and the viewer's games as JSON
//! in the page for the viewer's script (`viewer.js`), with the stylesheet (`report.css`), both
//! ours and inlined so that the page is one file that needs nothing else.

use std::fmt::Write as _;

use tessera_core::{Score, Side};

use super::replay::Replay;
use super::svg::escape;
use crate::stats::score_from_elo;

/// The viewer's script: draws the boards and the score chart under them, steps through moves.
const SCRIPT: &str = include_str!("viewer.js");

/// The page's stylesheet.
const STYLE: &str = include_str!("report.css");

/// The parts of a page.
pub struct Page<'a> {
    /// The heading (the two engines).
    pub title: &'a str,
    /// Lines under the heading (the game, the settings).
    pub details: &'a [String],
    /// The standings and pentanomial tables.
    pub standings: String,
    /// The charts (inline SVG), if any pair finished.
    pub charts: Vec<String>,
    /// The per-opening table.
    pub openings: String,
    /// The time-per-move table.
    pub times: String,
    /// Records that could not be read, and other warnings.
    pub problems: &'a [String],
    /// The games of the viewer.
    pub games: &'a [Replay],
}

/// The whole page.
#[must_use]
pub fn page(page: &Page<'_>) -> String {
    let mut html = format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{STYLE}</style>
</head>
<body>
<header><h1>{title}</h1>"#,
        title = escape(page.title)
    );
    for line in page.details {
        let _ = write!(html, r#"<p class="details">{}</p>"#, escape(line));
    }
    html.push_str("</header>\n");
    if !page.problems.is_empty() {
        html.push_str(r#"<section id="problems"><h2>Problems</h2><ul>"#);
        for problem in page.problems {
            let _ = write!(html, "<li>{}</li>", escape(problem));
        }
        html.push_str("</ul></section>\n");
    }
    let _ = write!(
        html,
        r#"<section id="standings"><h2>Standings</h2><div class="row">{}</div></section>"#,
        page.standings
    );
    html.push('\n');
    html.push_str(r#"<section id="charts"><h2>Score and SPRT, pair by pair</h2>"#);
    if page.charts.is_empty() {
        html.push_str("<p>No game pair is complete yet: the charts need one.</p>");
    }
    for chart in &page.charts {
        let _ = write!(html, r#"<figure class="chart-box">{chart}</figure>"#);
    }
    html.push_str("</section>\n");
    html.push_str(
        r#"<section id="games"><h2>Games</h2>
<p class="hint">Choose a game; ← and → step through its moves, Home and End jump to its ends.</p>
<div id="viewer">
<div class="board-column"><svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="board"></svg>
<div id="controls"><button id="first" title="first (Home)">«</button><button id="previous" title="back (←)">‹</button><span id="ply-label"></span><button id="next" title="forward (→)">›</button><button id="last" title="last (End)">»</button></div>
<svg id="eval-chart" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="scores by move"></svg></div>
<div class="moves-column"><h3 id="game-title"></h3><p id="game-facts"></p><p id="move-info"></p><ol id="moves"></ol></div>
</div>
<table id="game-list" class="wide"></table>
</section>
"#,
    );
    let _ = write!(html, r#"<section id="openings"><h2>Openings</h2>{}</section>"#, page.openings);
    html.push('\n');
    let _ = write!(html, r#"<section id="times"><h2>Time per move</h2>{}</section>"#, page.times);
    html.push('\n');
    let _ = write!(
        html,
        "<script type=\"application/json\" id=\"report-data\">{}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        games_json(page.games)
    );
    html
}

/// A JSON string, safe inside a `<script>` element (`<`, `>` and `&` escaped as well).
fn json_string(text: &str) -> String {
    let mut json = String::with_capacity(text.len() + 2);
    json.push('"');
    for c in text.chars() {
        match c {
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(json, "\\u{:04x}", u32::from(c));
            }
            c if u32::from(c) < 0x20 => {
                let _ = write!(json, "\\u{:04x}", u32::from(c));
            }
            c => json.push(c),
        }
    }
    json.push('"');
    json
}

/// The first side's expected score after a move whose mover judged its position `score`: the
/// logistic Elo curve turns centipawns into a score (400 per factor of ten, as the adjudication
/// reads win rates), a mate is 1 or 0.
fn first_side_value(score: Score, mover: Side) -> f64 {
    let own = match score {
        Score::Centipawns(cp) => score_from_elo(f64::from(cp)),
        Score::Mate(moves) => f64::from(u8::from(moves > 0)),
        Score::WinRate(rate) => f64::from(rate).clamp(0.0, 1.0),
    };
    if mover == Side::First {
        own
    } else {
        1.0 - own
    }
}

/// The viewer's games: `{"games": [{…}, …]}`, each with its board's cells before the first move
/// and its moves as `[text, [cell, piece, cell, piece…], [marked cells], value or null, note]`.
fn games_json(games: &[Replay]) -> String {
    let mut json = String::from(r#"{"games":["#);
    for (index, game) in games.iter().enumerate() {
        if index > 0 {
            json.push(',');
        }
        let _ = write!(
            json,
            r#"{{"round":{},"kind":{},"width":{},"height":{},"players":[{},{}],"sides":[{},{}],"firstMover":{},"result":{},"termination":{},"book":{},"start":{},"moves":["#,
            game.round.map_or_else(|| "null".to_string(), |round| round.to_string()),
            json_string(game.kind.name()),
            game.width,
            game.height,
            json_string(&game.players[0]),
            json_string(&game.players[1]),
            json_string(game.kind.sides()[0]),
            json_string(game.kind.sides()[1]),
            game.first_mover.index(),
            json_string(&game.result),
            json_string(&game.termination),
            game.book_moves(),
            json_string(&game.start.iter().collect::<String>()),
        );
        for (ply, mv) in game.moves.iter().enumerate() {
            if ply > 0 {
                json.push(',');
            }
            let changes: Vec<String> =
                mv.changes.iter().map(|&(cell, piece)| format!("{cell},{}", json_string(&piece.to_string()))).collect();
            let marks: Vec<String> = mv.marks.iter().map(usize::to_string).collect();
            let value = mv.note.score.map(|score| first_side_value(score, game.mover(ply)));
            let _ = write!(
                json,
                "[{},[{}],[{}],{},{}]",
                json_string(&mv.text),
                changes.join(","),
                marks.join(","),
                value.map_or_else(|| "null".to_string(), |value| format!("{value:.4}")),
                json_string(&mv.note.text())
            );
        }
        json.push_str("]}");
    }
    json.push_str("]}");
    json
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_cannot_close_the_script() {
        assert_eq!(json_string("a\"b\\c</script>\n"), r#""a\"b\\c\u003c/script\u003e\u000a""#);
    }

    #[test]
    fn values_are_the_first_sides_expected_score() {
        assert_eq!(first_side_value(Score::Centipawns(0), Side::Second), 0.5);
        assert!((first_side_value(Score::Centipawns(400), Side::First) - 10.0 / 11.0).abs() < 1e-12);
        assert!((first_side_value(Score::Centipawns(400), Side::Second) - 1.0 / 11.0).abs() < 1e-12);
        assert_eq!(first_side_value(Score::Mate(-2), Side::Second), 1.0);
        assert!((first_side_value(Score::WinRate(0.7), Side::Second) - 0.3).abs() < 1e-6);
    }
}
