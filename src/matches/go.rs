//! `tessera match --game go`: GTP engines, scored by our area rules or by a GTP referee.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;
use tessera_arena::clients::gtp::{GtpContestant, GtpReferee};

use tessera_arena::{Contestant, EngineSpec, Standings, TimeControl};
use tessera_core::{GameExt, Outcome};
use tessera_go::{parse_vertex, Position, Rules};

use super::{opening_text, play, MatchArgs, MatchError, OpeningSource};

/// The shipped balanced suites (written and checked by `scripts/openings-go.py`): 9×9 openings
/// of 2–4 moves anywhere on the third to fifth lines, 19×19 ones of 2–4 corner moves. Other board
/// sizes start from the empty board unless `--openings` or `--random-openings` says otherwise.
const SUITE_9X9: &str = include_str!("../../data/openings/go-9x9.txt");
const SUITE_19X19: &str = include_str!("../../data/openings/go-19x19.txt");

/// The shipped suite of a board size, if it has one.
fn shipped_suite(size: usize) -> Option<&'static str> {
    match size {
        9 => Some(SUITE_9X9),
        19 => Some(SUITE_19X19),
        _ => None,
    }
}

/// Runs a go match.
///
/// # Errors
/// On bad arguments, unreadable openings, or a referee that does not start.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    let mut common = args.common()?;
    if let TimeControl::MoveTime(time) = common.settings.game.time_control {
        // GTP speaks whole seconds only: a shorter time per move would be unfair to the engines.
        let whole = Duration::from_secs(time.as_secs_f64().round().max(1.0) as u64);
        if whole != time {
            eprintln!("tessera match: GTP counts whole seconds; using st={}", whole.as_secs());
            common.settings.game.time_control = TimeControl::MoveTime(whole);
        }
    }
    let size = args.size.unwrap_or(9);
    if !(2..=25).contains(&size) {
        return Err(MatchError::Usage(format!("go boards are 2 to 25 points wide, not {size}")));
    }
    let start = Position::new(size, Rules::CHINESE.with_komi(args.komi));
    let openings = match args.opening_source(shipped_suite(size), 0, 0x0060_5EED)? {
        OpeningSource::Lines(lines) => lines
            .iter()
            .map(|line| opening_from_moves(&start, line).map_err(MatchError::Usage))
            .collect::<Result<Vec<_>, _>>()?,
        OpeningSource::Random { plies, seed } => {
            let pairs = common.settings.games.div_ceil(2) as usize;
            tessera_arena::openings::random_openings(&start, pairs, plies, seed)
        }
    };
    let referee = match &args.referee {
        Some(text) => {
            let spec: EngineSpec = text
                .parse()
                .map_err(|error: tessera_arena::process::EngineSpecError| MatchError::Usage(error.to_string()))?;
            Some(Mutex::new(GtpReferee::start(&spec).map_err(|error| MatchError::Usage(error.to_string()))?))
        }
        None => None,
    };
    let score = |position: &Position| -> Result<(Outcome, String), tessera_arena::ClientError> {
        let referee = referee.as_ref().expect("only called with a referee");
        referee.lock().unwrap_or_else(PoisonError::into_inner).score(position)
    };
    let make = |engine: usize| -> Result<Box<dyn Contestant<Position>>, tessera_arena::ClientError> {
        let spec = &common.engines[engine];
        Ok(Box::new(GtpContestant::start(spec, common.log_path(engine).as_ref())?))
    };
    play(&common, &openings, &make, referee.as_ref().map(|_| &score as _), tessera_arena::record::sgf::go)
}

/// A position after GTP vertices such as `D4 Q16` from `start`; text after a `;` is a note.
fn opening_from_moves(start: &Position, line: &str) -> Result<Position, String> {
    let mut position = start.clone();
    for text in opening_text(line).split_whitespace() {
        let mv = parse_vertex(position.size(), text).map_err(|error| format!("opening `{line}`: {}", error.0))?;
        position.try_play(mv).map_err(|_| format!("opening `{line}`: illegal move {text}"))?;
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::{opening_from_moves, shipped_suite};
    use crate::matches::suite_lines;
    use std::collections::HashSet;
    use tessera_core::Game;
    use tessera_go::{Position, Rules};

    #[test]
    fn the_shipped_suites_are_named_balanced_and_legal() {
        for (size, least) in [(9, 60), (19, 30)] {
            let suite = shipped_suite(size).expect("9×9 and 19×19 ship a suite");
            suite_is_named_balanced_and_legal(size, suite, least);
        }
        assert!(shipped_suite(13).is_none());
    }

    fn suite_is_named_balanced_and_legal(size: usize, suite: &str, least: usize) {
        let start = Position::new(size, Rules::CHINESE.with_komi(7.5));
        let lines = suite_lines(suite);
        assert!(lines.len() >= least, "{size}×{size}: {} openings", lines.len());
        let mut positions = HashSet::new();
        for line in &lines {
            let opening = opening_from_moves(&start, line).unwrap_or_else(|error| panic!("{error}"));
            assert!((2..=4).contains(&opening.ply()), "2 to 4 moves: {line}");
            let notes: Vec<&str> = line.split(';').skip(1).map(str::trim).collect();
            assert!(notes.first().is_some_and(|name| name.starts_with('N')), "named: {line}");
            // Each rating reads `ENGINE PLAYOUTS B NN%`: black's chance within 40–60%.
            assert!(notes.len() >= 2, "rated: {line}");
            for rating in &notes[1..] {
                let percent = rating.rsplit(' ').next().and_then(|word| word.strip_suffix('%'));
                let percent: u32 = percent.and_then(|digits| digits.parse().ok()).unwrap_or_else(|| panic!("{line}"));
                assert!((40..=60).contains(&percent), "{line}");
            }
            assert!(positions.insert(opening.hash()), "a repeated opening: {line}");
        }
    }

    #[test]
    fn notes_after_a_semicolon_are_not_moves() {
        let start = Position::new(9, Rules::CHINESE);
        let with_notes = opening_from_moves(&start, "E5 G5 ; N01 ; tessera 50000 B 51%").unwrap();
        assert_eq!(with_notes.hash(), opening_from_moves(&start, "E5 G5").unwrap().hash());
        assert!(opening_from_moves(&start, "E5 E5").is_err(), "an occupied point");
    }
}
