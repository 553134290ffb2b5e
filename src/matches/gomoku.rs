//! `tessera match --game gomoku`: pbrain or AGI (`proto=agi`) engines under freestyle, standard, renju or
//! caro rules, refereed by our rules, recorded as SGF (`GM[4]`).

use tessera_arena::clients::agi::AgiContestant;
use tessera_arena::clients::pbrain::PbrainContestant;
use tessera_arena::{Contestant, Standings, TimeControl};
use tessera_core::{Game, Rng};
use tessera_gomoku::{notation, Board, Point, Rules, Variant};

use super::{opening_text, play, MatchArgs, MatchError, OpeningSource};

/// Stones of each random opening (placed near the centre; black then white alternately): the
/// openings of a rule without a shipped suite (caro), or of `--random-openings`.
const RANDOM_OPENING_STONES: usize = 3;

/// The balanced freestyle suite (`scripts/openings-gomoku.py generate`), 15×15: the default for
/// freestyle and standard.
const FREESTYLE_SUITE: &str = include_str!("../../data/openings/gomoku-freestyle.txt");

/// The 26 standard renju openings, 15×15: the default for renju.
const RENJU_SUITE: &str = include_str!("../../data/openings/renju.txt");

/// The side of the board the shipped suites are written for; on other sizes they are moved so that
/// their centre stays the board's centre.
const SUITE_SIDE: i32 = 15;

/// The shipped suite of a rule, if it has one (caro has none: it plays random openings).
fn shipped_suite(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::Freestyle | Variant::Standard => Some(FREESTYLE_SUITE),
        Variant::Renju => Some(RENJU_SUITE),
        Variant::Caro | Variant::CaroOverlines => None,
    }
}

/// Runs a gomoku or renju match.
///
/// # Errors
/// On bad arguments or an unreadable opening file.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    let common = args.common()?;
    let variant: Variant =
        args.rule.parse().map_err(|error: tessera_gomoku::RulesError| MatchError::Usage(error.to_string()))?;
    let size = u32::try_from(args.size.unwrap_or(15)).unwrap_or(u32::MAX);
    let rules = Rules::new(variant, size, size).map_err(|error| MatchError::Usage(error.to_string()))?;
    let empty = Board::new(rules);
    let suite = if args.openings.is_none() { shipped_suite(variant) } else { None };
    // Shipped suites are centred on a 15×15 board; an `--openings` file is taken as written.
    let shift = if suite.is_some() {
        (i32::from(rules.width) / 2 - SUITE_SIDE / 2, i32::from(rules.height) / 2 - SUITE_SIDE / 2)
    } else {
        (0, 0)
    };
    let openings = match args.opening_source(suite, RANDOM_OPENING_STONES, 0x0060_4040)? {
        OpeningSource::Lines(lines) => {
            lines.iter().map(|line| parse_opening(&empty, line, shift)).collect::<Result<Vec<_>, _>>()?
        }
        OpeningSource::Random { plies: stones, seed } => {
            central_openings(&empty, common.settings.games.div_ceil(2) as usize, stones, seed)
        }
    };
    for engine in &common.engines {
        if let Some(protocol) = engine.protocol.as_deref().filter(|&protocol| !matches!(protocol, "pbrain" | "agi")) {
            return Err(MatchError::Usage(format!(
                "{}: gomoku engines speak pbrain or agi, not {protocol}",
                engine.name
            )));
        }
        if engine.protocol.as_deref() == Some("agi")
            && matches!(common.settings.game.time_control, TimeControl::Gomocup { .. })
        {
            return Err(MatchError::Usage(format!(
                "{}: a Gomocup clock is pbrain's (AGI has no per-move cap beside the game's time)",
                engine.name
            )));
        }
    }
    let make = |engine: usize| -> Result<Box<dyn Contestant<Board>>, tessera_arena::ClientError> {
        let spec = &common.engines[engine];
        let log = common.log_path(engine);
        Ok(if spec.protocol.as_deref() == Some("agi") {
            Box::new(AgiContestant::start(spec, log.as_ref())?)
        } else {
            Box::new(PbrainContestant::start(spec, log.as_ref())?)
        })
    };
    play(&common, &openings, &make, None, tessera_arena::record::sgf::gomoku)
}

/// An opening line: pbrain points (`7,7 7,6 7,5`, black first, alternating), then optionally `;`
/// and notes (a name, balance figures), played from the empty board with every point moved by
/// `shift`. Each stone must be legal: free, on the board, and not forbidden to black in renju.
fn parse_opening(empty: &Board, line: &str, shift: (i32, i32)) -> Result<Board, MatchError> {
    let bad = |word: &str, why: &str| MatchError::Usage(format!("opening `{line}`: `{word}` {why}"));
    let points = opening_text(line);
    let mut board = empty.clone();
    for word in points.split_whitespace() {
        let point = notation::parse_pbrain(word).map_err(|_| bad(word, "is not a point x,y"))?;
        let (x, y) = (i32::from(point.x()) + shift.0, i32::from(point.y()) + shift.1);
        let point = u8::try_from(x).ok().zip(u8::try_from(y).ok()).map(|(x, y)| Point::new(x, y));
        match point.filter(|&point| board.contains(point) && board.is_legal(point)) {
            Some(point) => board.play(point),
            None => return Err(bad(word, "is not a legal move there (off the board, taken or forbidden)")),
        }
        if board.outcome().is_some() {
            return Err(bad(word, "ends the game"));
        }
    }
    if board.ply() == 0 {
        return Err(MatchError::Usage(format!("opening `{line}` has no stones")));
    }
    Ok(board)
}

/// `count` distinct openings of a few stones in the central 5×5 area, drawn with `seed`.
fn central_openings(empty: &Board, count: usize, stones: usize, seed: u64) -> Vec<Board> {
    let rules = empty.rules();
    let (width, height) = (i32::from(rules.width), i32::from(rules.height));
    let (centre_x, centre_y) = (width / 2, height / 2);
    // A square around the centre with room for twice the stones (5×5 for the usual three).
    let mut radius = 2;
    while (2 * radius + 1) * (2 * radius + 1) < 2 * stones as i32 && 2 * radius + 1 < width.max(height) {
        radius += 1;
    }
    let mut rng = Rng::new(seed);
    let mut openings: Vec<Board> = Vec::with_capacity(count);
    for _ in 0..count * 50 {
        if openings.len() == count {
            break;
        }
        let mut board = empty.clone();
        for _ in 0..stones * 50 {
            if board.ply() >= stones || board.outcome().is_some() {
                break;
            }
            let x = centre_x + rng.below(2 * radius as usize + 1) as i32 - radius;
            let y = centre_y + rng.below(2 * radius as usize + 1) as i32 - radius;
            if (0..width).contains(&x) && (0..height).contains(&y) {
                let point = Point::new(x as u8, y as u8);
                if board.is_legal(point) {
                    board.play(point);
                }
            }
        }
        if board.ply() == stones
            && board.outcome().is_none()
            && openings.iter().all(|other| other.hash() != board.hash())
        {
            openings.push(board);
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::{parse_opening, shipped_suite, FREESTYLE_SUITE, RENJU_SUITE};
    use crate::matches::suite_lines;
    use std::collections::HashSet;
    use tessera_core::{Game, Side};
    use tessera_gomoku::{Board, Point, Rules, Variant};

    /// Every opening of `suite` under `variant` on a `side`×`side` board, after the suite's checks.
    fn openings(suite: &str, variant: Variant, side: u32) -> Vec<(String, Board)> {
        let rules = Rules::new(variant, side, side).unwrap();
        let shift = (i32::try_from(side).unwrap() / 2 - 7, i32::try_from(side).unwrap() / 2 - 7);
        suite_lines(suite)
            .into_iter()
            .map(|line| {
                let board = parse_opening(&Board::new(rules), &line, shift).unwrap_or_else(|error| panic!("{error}"));
                (line, board)
            })
            .collect()
    }

    #[test]
    fn every_shipped_opening_parses_and_is_legal_under_its_rules() {
        for variant in [Variant::Freestyle, Variant::Standard, Variant::Renju] {
            let suite = shipped_suite(variant).unwrap();
            for side in [15, 20] {
                let mut positions = HashSet::new();
                for (line, board) in openings(suite, variant, side) {
                    assert!((3..=5).contains(&board.ply()), "3 to 5 stones: {line}");
                    assert!(board.outcome().is_none(), "{line}");
                    assert!(line.split(';').nth(1).is_some_and(|name| !name.trim().is_empty()), "named: {line}");
                    assert!(positions.insert(board.hash()), "a repeated opening: {line}");
                }
            }
        }
        assert!(suite_lines(FREESTYLE_SUITE).len() >= 60);
        assert!(shipped_suite(Variant::Caro).is_none(), "caro plays random openings");
    }

    #[test]
    fn the_renju_suite_is_the_26_openings_without_a_forbidden_black_stone() {
        let lines = openings(RENJU_SUITE, Variant::Renju, 15);
        assert_eq!(lines.len(), 26);
        let names: HashSet<&str> = lines.iter().map(|(line, _)| line.split(';').nth(1).unwrap().trim()).collect();
        assert_eq!(names.len(), 26);
        for name in ["D1 Kansei", "D4 Kagetsu", "D13 Yusei", "I1 Chosei", "I4 Suigetsu", "I13 Suisei"] {
            assert!(names.iter().any(|named| named.starts_with(name)), "{name}");
        }
        for (line, opening) in &lines {
            // Replay the stones: no black stone may have been forbidden when it was placed.
            let mut board = Board::new(*opening.rules());
            for index in 0..opening.ply() {
                let point = opening.move_played(index).unwrap();
                assert!(board.side_to_move() != Side::First || !board.is_forbidden(point), "{line}");
                board.play(point);
            }
            assert_eq!(opening.move_played(0), Some(Point::new(7, 7)), "black opens on the centre: {line}");
        }
    }

    #[test]
    fn notes_after_a_semicolon_are_ignored_and_bad_stones_refused() {
        let empty = Board::new(Rules::new(Variant::Renju, 15, 15).unwrap());
        let board = parse_opening(&empty, "7,7 7,6 7,5 ; D1 Kansei ; tessera d8 +12", (0, 0)).unwrap();
        assert_eq!(board.ply(), 3);
        assert!(parse_opening(&empty, "7,7 7,7", (0, 0)).is_err(), "taken");
        assert!(parse_opening(&empty, "7,7 15,3", (0, 0)).is_err(), "off the board");
        assert!(parse_opening(&empty, "; a name only", (0, 0)).is_err(), "no stones");
        // Black's double three on 7,7 (open threes 5,7-6,7 and 7,5-7,6 across it) is forbidden in renju.
        let double_three = "5,7 0,0 6,7 0,2 7,5 0,4 7,6 0,6 7,7";
        assert!(parse_opening(&empty, double_three, (0, 0)).is_err(), "forbidden for black");
        let free = Board::new(Rules::new(Variant::Freestyle, 15, 15).unwrap());
        assert!(parse_opening(&free, double_three, (0, 0)).is_ok(), "legal in freestyle");
    }
}
