//! `tessera match --game xiangqi`: UCCI or UCI xiangqi engines (or xboard ones, `proto=xboard`),
//! refereed by our Asian rules.

use tessera_arena::clients::ucci::UcciContestant;
use tessera_arena::clients::xboard::XboardContestant;
use tessera_arena::openings::random_openings;
use tessera_arena::{Contestant, Standings};
use tessera_core::Game;
use tessera_xiangqi::Position;

use super::{play, MatchArgs, MatchError, OpeningSource};

/// The shipped balanced suite (`scripts/openings-xiangqi.py` builds it): the default openings.
const SUITE: &str = include_str!("../../data/openings/xiangqi.epd");

/// Runs a xiangqi match.
///
/// # Errors
/// On bad arguments or an unreadable opening file.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    let common = args.common()?;
    let openings = match args.opening_source(Some(SUITE), 0, 0x07E5_5E4A)? {
        OpeningSource::Lines(lines) => lines.iter().map(|line| parse_opening(line)).collect::<Result<Vec<_>, _>>()?,
        OpeningSource::Random { plies, seed } => {
            let pairs = common.settings.games.div_ceil(2) as usize;
            random_openings(&Position::start(), pairs, plies, seed)
        }
    };
    let make = |engine: usize| -> Result<Box<dyn Contestant<Position>>, tessera_arena::ClientError> {
        let spec = &common.engines[engine];
        let log = common.log_path(engine);
        Ok(if spec.protocol.as_deref() == Some("xboard") {
            Box::new(XboardContestant::<Position>::start(spec, log.as_ref())?)
        } else {
            Box::new(UcciContestant::start(spec, log.as_ref())?)
        })
    };
    play(&common, &openings, &make, None, tessera_arena::record::pgn::xiangqi)
}

/// An opening line: a FEN, or ICCS moves from the start. A suite line is both, a FEN followed by
/// EPD operations with the moves (`; … c0 "h2e2 h9g7 …";`): then the moves are played from the
/// start, each checked legal by our rules, and must reach the FEN. Playing the moves rather
/// than setting up the FEN keeps them in the game's history, so engines and records see the
/// whole game and repetitions count from the first move.
fn parse_opening(line: &str) -> Result<Position, MatchError> {
    let bad = |why: String| MatchError::Usage(format!("opening `{line}`: {why}"));
    let (text, operations) = line.split_once(';').unwrap_or((line, ""));
    let text = text.trim();
    let moves = operation(operations, "c0");
    if let Ok(position) = text.parse::<Position>() {
        let Some(moves) = moves else { return Ok(position) };
        let played = play_iccs(moves).map_err(bad)?;
        if played.to_fen().split(' ').take(2).ne(position.to_fen().split(' ').take(2)) {
            return Err(bad(format!("its moves reach {}, not its FEN", played.to_fen())));
        }
        return Ok(played);
    }
    play_iccs(text).map_err(|why| bad(format!("neither a FEN nor legal ICCS moves ({why})")))
}

/// The position after ICCS `moves` from the start, each legal under our rules.
fn play_iccs(moves: &str) -> Result<Position, String> {
    let mut position = Position::start();
    for word in moves.split_whitespace() {
        match tessera_xiangqi::parse_iccs(word).ok().filter(|&mv| position.is_legal(mv)) {
            Some(mv) => position.play(mv),
            None => return Err(format!("{word} is not legal after {} plies", position.ply())),
        }
        if position.outcome().is_some() {
            return Err(format!("the game is over after {word}"));
        }
    }
    Ok(position)
}

/// The value of the EPD operation `name "value"` in `operations`, if present.
fn operation<'a>(operations: &'a str, name: &str) -> Option<&'a str> {
    operations.split(';').find_map(|item| {
        let value = item.trim().strip_prefix(name)?.trim();
        value.strip_prefix('"')?.strip_suffix('"')
    })
}

#[cfg(test)]
mod tests {
    use super::{operation, parse_opening, SUITE};
    use crate::matches::suite_lines;
    use tessera_core::Game;

    #[test]
    fn the_shipped_suite_is_named_balanced_and_reached_by_legal_moves() {
        let lines = suite_lines(SUITE);
        assert!(lines.len() >= 40, "{} openings", lines.len());
        let mut positions = std::collections::HashSet::new();
        for line in &lines {
            let opening = parse_opening(line).unwrap_or_else(|error| panic!("{error}"));
            let operations = line.split_once(';').map_or("", |(_, operations)| operations);
            let name = operation(operations, "id").unwrap_or_else(|| panic!("no name: {line}"));
            // "family: English name Chinese name (WXF moves)".
            assert!(name.contains(": ") && name.contains(" (") && !name.is_ascii(), "{name}");
            let moves = operation(operations, "c0").unwrap_or_else(|| panic!("no moves: {line}"));
            assert_eq!(opening.ply(), moves.split_whitespace().count(), "played from the start: {line}");
            assert!((4..=10).contains(&opening.ply()), "{line}");
            assert!(opening.outcome().is_none(), "{line}");
            let score = operation(operations, "c1").and_then(|text| text.rsplit(' ').next()?.parse::<i32>().ok());
            assert!(score.is_some_and(|score| score.abs() <= 80), "balanced: {line}");
            assert!(positions.insert(opening.hash()), "a repeated position: {line}");
        }
    }

    #[test]
    fn an_opening_whose_moves_miss_its_fen_or_are_illegal_is_refused() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        assert_eq!(parse_opening(&format!("{fen} ; id \"x\"; c0 \"h2e2\";")).unwrap().ply(), 1, "played");
        assert!(parse_opening(&format!("{fen} ; c0 \"b2e2\";")).is_err(), "another position");
        assert!(parse_opening(&format!("{fen} ; c0 \"h2e2 h9h7\";")).is_err(), "illegal");
        assert!(parse_opening("h2e2 h9h7").is_err(), "illegal");
        assert_eq!(parse_opening("h2e2 h9g7").unwrap().ply(), 2);
        assert_eq!(parse_opening(fen).unwrap().ply(), 0);
    }
}
