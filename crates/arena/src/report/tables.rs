//! The report's tables, as HTML: the standings, the pentanomial counts, the results of each
//! opening with the colours each engine had, and the time the engines took per move.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

use tessera_core::{Outcome, Side};

use super::replay::Replay;
use super::svg::{escape, number};
use crate::shard::GameResult;
use crate::stats::{SprtDecision, Standings};

/// The standings in cutechess's terms: games, wins-losses-draws, score, Elo, LOS, draw ratio,
/// the pair Elo and the SPRT state.
#[must_use]
pub fn standings(names: &[String; 2], standings: &Standings, bounds: Option<(f64, f64)>) -> String {
    let results = &standings.results;
    let mut rows = vec![
        ("Games", results.games().to_string()),
        (
            "Wins – losses – draws",
            format!("{} – {} – {} (of {})", results.wins, results.losses, results.draws, escape(&names[0])),
        ),
        ("Score", format!("{}%", number(100.0 * results.score(), 1))),
    ];
    if let Some(elo) = results.elo() {
        rows.push(("Elo difference", format!("{elo} (95%)")));
        rows.push(("LOS", format!("{}%", number(100.0 * results.likelihood_of_superiority(), 1))));
        let draws = f64::from(results.draws) / f64::from(results.games().max(1));
        rows.push(("Draw ratio", format!("{}%", number(100.0 * draws, 1))));
    }
    if let Some(elo) = standings.pairs.elo() {
        rows.push(("Elo from pairs", format!("{elo} (95%)")));
    }
    if let (Some((llr, decision)), Some((lower, upper))) = (standings.sprt, bounds) {
        let verdict = match decision {
            SprtDecision::Continue => "no decision yet",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        };
        rows.push((
            "SPRT (pairs)",
            format!("LLR {} in [{}, {}]: {verdict}", number(llr, 2), number(lower, 2), number(upper, 2)),
        ));
    }
    let mut html = String::from(r#"<table id="standings-table" class="facts">"#);
    for (name, value) in rows {
        let _ = write!(html, "<tr><th>{name}</th><td>{value}</td></tr>");
    }
    html.push_str("</table>");
    html
}

/// The pentanomial counts: pairs by the first engine's points over both games, with a bar each.
#[must_use]
pub fn pentanomial(names: &[String; 2], counts: &[u32; 5]) -> String {
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let mut html = format!(
        r#"<table id="pentanomial" class="counts"><caption>Game pairs by {}'s points over both games</caption><tr><th>points</th><th>pairs</th><th></th></tr>"#,
        escape(&names[0])
    );
    for (index, (label, &count)) in ["0", "½", "1", "1½", "2"].iter().zip(counts).enumerate() {
        let width = 100.0 * f64::from(count) / f64::from(most);
        let _ = write!(
            html,
            r#"<tr><td>{label}</td><td class="count" data-points="{index}">{count}</td><td class="bar-cell"><span class="bar" style="width:{width:.0}%"></span></td></tr>"#
        );
    }
    html.push_str("</table>");
    html
}

/// The first engine's view of game `game`'s record: whether it played the first side.
fn first_engine_side(names: &[String; 2], replay: &Replay) -> Option<Side> {
    if replay.players[0] == names[0] {
        Some(Side::First)
    } else if replay.players[1] == names[0] {
        Some(Side::Second)
    } else {
        None
    }
}

/// The first engine's result in a replayed game, when the record tells it.
#[must_use]
pub fn first_engine_result(names: &[String; 2], replay: &Replay) -> Option<GameResult> {
    let side = first_engine_side(names, replay)?;
    Some(match replay.outcome? {
        Outcome::Draw => GameResult::Draw,
        Outcome::Win(winner) if winner == side => GameResult::Win,
        Outcome::Win(_) => GameResult::Loss,
    })
}

/// The opening a game started from: the book moves, else the set-up position, else the start.
#[must_use]
fn opening_of(replay: &Replay) -> String {
    let book: Vec<&str> = replay.moves[..replay.book_moves()].iter().map(|mv| mv.text.as_str()).collect();
    if !book.is_empty() {
        book.join(" ")
    } else if let Some(setup) = &replay.setup {
        setup.clone()
    } else {
        "the start position".to_string()
    }
}

/// One game of a pair in the openings table: the first engine's colour and the result.
fn pair_game(names: &[String; 2], game: u32, result: Option<GameResult>, replay: Option<&Replay>) -> String {
    let Some(result) = result else { return r#"<td class="missing">not played</td>"#.to_string() };
    let colour = replay.and_then(|replay| Some(replay.kind.sides()[first_engine_side(names, replay)?.index()]));
    let class = match result {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    };
    let what = match result {
        GameResult::Win => format!("{} won", escape(&names[0])),
        GameResult::Draw => "draw".to_string(),
        GameResult::Loss => format!("{} won", escape(&names[1])),
    };
    let colour = colour.map_or_else(String::new, |colour| format!("{} as {colour}: ", escape(&names[0])));
    format!(r#"<td class="{class}" data-game="{}">{colour}{what}</td>"#, game + 1)
}

/// The results of every opening: each pair's two games with the colours the first engine had,
/// and its points over both.
#[must_use]
pub fn openings(names: &[String; 2], results: &BTreeMap<u32, GameResult>, games: &[Replay]) -> String {
    let by_round: BTreeMap<u32, &Replay> =
        games.iter().filter_map(|replay| Some((replay.round?.checked_sub(1)?, replay))).collect();
    let last_pair = results.keys().chain(by_round.keys()).map(|game| game / 2).max();
    let mut html = format!(
        r#"<table id="openings-table" class="wide"><tr><th>pair</th><th>opening</th><th>first game</th><th>second game</th><th>{} of 2</th></tr>"#,
        escape(&names[0])
    );
    for pair in last_pair.map_or(0..0, |last| 0..last + 1) {
        let [first, second] = [2 * pair, 2 * pair + 1];
        if !results.contains_key(&first) && !results.contains_key(&second) {
            continue;
        }
        let replay = by_round.get(&first).or_else(|| by_round.get(&second)).copied();
        let opening = replay.map_or_else(|| "(no record)".to_string(), opening_of);
        let points = match (results.get(&first), results.get(&second)) {
            (Some(a), Some(b)) => number(a.points() + b.points(), 1),
            _ => "–".to_string(),
        };
        let _ = write!(
            html,
            r#"<tr><td>{}</td><td class="opening">{}</td>{}{}<td class="points">{points}</td></tr>"#,
            pair + 1,
            escape(&opening),
            pair_game(names, first, results.get(&first).copied(), by_round.get(&first).copied()),
            pair_game(names, second, results.get(&second).copied(), by_round.get(&second).copied()),
        );
    }
    html.push_str("</table>");
    html
}

/// The time each engine took per move (book moves aside), from the records' comments.
#[must_use]
pub fn times(games: &[Replay]) -> String {
    let mut by_engine: BTreeMap<&str, Vec<Duration>> = BTreeMap::new();
    for replay in games {
        for (index, mv) in replay.moves.iter().enumerate().filter(|(_, mv)| !mv.note.book) {
            if let Some(time) = mv.note.time {
                by_engine.entry(&replay.players[replay.mover(index).index()]).or_default().push(time);
            }
        }
    }
    if by_engine.is_empty() {
        return r#"<p id="times-table">The records give no times.</p>"#.to_string();
    }
    let seconds = |time: Duration| format!("{:.3} s", time.as_secs_f64());
    let mut html = String::from(
        r#"<table id="times-table" class="wide"><tr><th>engine</th><th>moves</th><th>mean</th><th>median</th><th>longest</th><th>total</th></tr>"#,
    );
    for (engine, mut times) in by_engine {
        times.sort();
        let total: Duration = times.iter().sum();
        let count = times.len() as u32;
        let _ = write!(
            html,
            r#"<tr><td>{}</td><td>{count}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"#,
            escape(engine),
            seconds(total / count),
            seconds(times[times.len() / 2]),
            seconds(times[times.len() - 1]),
            seconds(total)
        );
    }
    html.push_str("</table>");
    html
}
