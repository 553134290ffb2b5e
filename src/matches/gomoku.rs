//! `tessera match --game gomoku`: pbrain or AGI (`proto=agi`) engines under freestyle, standard, renju or
//! caro rules, refereed by our rules, recorded as SGF (`GM[4]`).

use tessera_arena::clients::agi::AgiContestant;
use tessera_arena::clients::pbrain::PbrainContestant;
use tessera_arena::{Contestant, GameRecord, Standings};
use tessera_core::{Game, Outcome, Rng, Side};
use tessera_gomoku::{notation, Board, Point, Rules, Variant};

use super::{play, MatchArgs, MatchError, OpeningSource};

/// Stones of each random opening (placed near the centre; black then white alternately), played
/// until gomoku has a shipped suite.
const RANDOM_OPENING_STONES: usize = 3;

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
    let openings = match args.opening_source(None, RANDOM_OPENING_STONES)? {
        OpeningSource::Lines(lines) => {
            lines.iter().map(|line| parse_opening(&empty, line)).collect::<Result<Vec<_>, _>>()?
        }
        OpeningSource::Random(stones) => central_openings(&empty, common.settings.games.div_ceil(2) as usize, stones),
    };
    for engine in &common.engines {
        if let Some(protocol) = engine.protocol.as_deref().filter(|&protocol| !matches!(protocol, "pbrain" | "agi")) {
            return Err(MatchError::Usage(format!(
                "{}: gomoku engines speak pbrain or agi, not {protocol}",
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
    play(&common, &openings, &make, None, |_, record| sgf_record(record))
}

/// An opening line of pbrain points (`7,7 8,8 …`), played from the empty board.
fn parse_opening(empty: &Board, line: &str) -> Result<Board, MatchError> {
    let mut board = empty.clone();
    for word in line.split_whitespace() {
        let point = notation::parse_pbrain(word).ok().filter(|&point| board.is_legal(point));
        match point {
            Some(point) => board.play(point),
            None => return Err(MatchError::Usage(format!("opening `{line}`: `{word}` is not a free point"))),
        }
    }
    Ok(board)
}

/// `count` distinct openings of a few stones in the central 5×5 area, fixed by a seed.
fn central_openings(empty: &Board, count: usize, stones: usize) -> Vec<Board> {
    let rules = empty.rules();
    let (width, height) = (i32::from(rules.width), i32::from(rules.height));
    let (centre_x, centre_y) = (width / 2, height / 2);
    // A square around the centre with room for twice the stones (5×5 for the usual three).
    let mut radius = 2;
    while (2 * radius + 1) * (2 * radius + 1) < 2 * stones as i32 && 2 * radius + 1 < width.max(height) {
        radius += 1;
    }
    let mut rng = Rng::new(0x0060_4040);
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

/// The game as SGF for gomoku and renju (`GM[4]`), points as two letters from the top-left.
fn sgf_record(record: &GameRecord<Board>) -> String {
    let rules = record.start.rules();
    let result = match record.outcome {
        Outcome::Win(Side::First) => "B+",
        Outcome::Win(Side::Second) => "W+",
        Outcome::Draw => "0",
    };
    let size =
        if rules.width == rules.height { rules.width.to_string() } else { format!("{}:{}", rules.width, rules.height) };
    let mut text = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[tessera]SZ[{size}]RU[{}]PB[{}]PW[{}]RE[{result}]GC[{}]",
        rules.variant, record.names[0], record.names[1], record.termination
    );
    let opening = (0..record.start.ply()).filter_map(|index| record.start.move_played(index));
    for (index, point) in opening.chain(record.moves.iter().copied()).enumerate() {
        let colour = if index % 2 == 0 { 'B' } else { 'W' };
        let letter = |value: u8| char::from(b'a' + value);
        text.push_str(&format!(";{colour}[{}{}]", letter(point.x()), letter(point.y())));
    }
    text.push_str(")\n");
    text
}
