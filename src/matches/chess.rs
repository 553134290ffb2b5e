//! `tessera match --game chess`: UCI engines (or xboard ones, `proto=xboard`), refereed by our rules, recorded as PGN with SAN.

use tessera_arena::clients::uci::UciContestant;
use tessera_arena::clients::xboard::XboardContestant;
use tessera_arena::openings::random_openings;
use tessera_arena::{Contestant, Standings};
use tessera_chess::{Chess, Rules};

use super::{opening_text, play, MatchArgs, MatchError, OpeningSource};

/// The shipped balanced suite (`scripts/openings-chess.py` builds it): the default openings.
const SUITE: &str = include_str!("../../data/openings/chess.epd");

/// Runs a chess match.
///
/// # Errors
/// On bad arguments or an unreadable opening file.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    let common = args.common()?;
    let openings = match args.opening_source(Some(SUITE), 0, 0x0C4E_5500)? {
        OpeningSource::Lines(lines) => lines.iter().map(|line| parse_opening(line)).collect::<Result<Vec<_>, _>>()?,
        OpeningSource::Random { plies, seed } => {
            let pairs = common.settings.games.div_ceil(2) as usize;
            random_openings(&Chess::new(Rules::STANDARD), pairs, plies, seed)
        }
    };
    let make = |engine: usize| -> Result<Box<dyn Contestant<Chess>>, tessera_arena::ClientError> {
        let spec = &common.engines[engine];
        let log = common.log_path(engine);
        Ok(if spec.protocol.as_deref() == Some("xboard") {
            Box::new(XboardContestant::<Chess>::start(spec, log.as_ref())?)
        } else {
            Box::new(UciContestant::start(spec, log.as_ref())?)
        })
    };
    play(&common, &openings, &make, None, tessera_arena::record::pgn::chess)
}

/// An EPD or FEN line (operations after the fourth field are ignored when the FEN has no clocks).
/// Shredder or X-FEN castling letters other than `KQkq` make it a Chess960 position.
fn parse_opening(line: &str) -> Result<Chess, MatchError> {
    let fields: Vec<&str> = opening_text(line).split_whitespace().collect();
    let fen = match fields.len() {
        0..=3 => return Err(MatchError::Usage(format!("opening `{line}` is not a FEN"))),
        4 => format!("{} 0 1", fields.join(" ")),
        5 => format!("{} 1", fields.join(" ")),
        _ if fields[4].parse::<u32>().is_ok() => fields[..6].join(" "),
        _ => format!("{} 0 1", fields[..4].join(" ")),
    };
    let chess960 = fields[2].chars().any(|c| c != '-' && !"KQkq".contains(c));
    let rules = if chess960 { Rules::CHESS960 } else { Rules::STANDARD };
    Chess::from_fen(&fen, rules).map_err(|error| MatchError::Usage(format!("opening `{line}`: {error}")))
}

#[cfg(test)]
mod tests {
    use super::{parse_opening, SUITE};
    use crate::matches::suite_lines;
    use tessera_chess::{parse_san, Chess, Rules};
    use tessera_core::Game;

    /// The EPD operation `name "value"` of a suite line.
    fn operation<'a>(line: &'a str, name: &str) -> &'a str {
        let start = line.find(&format!(" {name} \"")).unwrap_or_else(|| panic!("no {name} in {line}")) + name.len() + 3;
        &line[start..start + line[start..].find('"').unwrap()]
    }

    #[test]
    fn the_shipped_suite_is_named_balanced_and_reached_by_its_moves() {
        let lines = suite_lines(SUITE);
        assert!(lines.len() >= 100, "{} openings", lines.len());
        let mut positions = std::collections::HashSet::new();
        for line in &lines {
            let opening = parse_opening(line).unwrap();
            let name = operation(line, "id");
            assert!(name.len() > 4 && name.as_bytes()[0].is_ascii_uppercase(), "ECO code and name: {name}");
            let mut played = Chess::new(Rules::STANDARD);
            let moves: Vec<&str> = operation(line, "c0").split_whitespace().collect();
            assert!((6..=10).contains(&moves.len()), "{line}");
            for san in moves {
                let mv = parse_san(&played, san).unwrap_or_else(|error| panic!("{san} in {line}: {error}"));
                played.play(mv);
            }
            assert_eq!(opening.hash(), played.hash(), "{line}");
            let score: i32 = operation(line, "c1").rsplit(' ').next().unwrap().parse().unwrap();
            assert!(score.abs() <= 60, "{line}");
            assert!(positions.insert(opening.hash()), "a repeated position: {line}");
        }
    }
}
