//! `tessera match --game xiangqi`: UCCI or UCI xiangqi engines, refereed by our Asian rules.

use tessera_arena::clients::ucci::UcciContestant;
use tessera_arena::openings::random_openings;
use tessera_arena::{Contestant, GameRecord, Standings};
use tessera_core::{Game, Outcome, Side};
use tessera_xiangqi::{iccs, Position};

use super::{play, MatchArgs, MatchError, OpeningSource};

/// Plies of the random openings played until xiangqi has a shipped suite.
const RANDOM_OPENING_PLIES: usize = 4;

/// Runs a xiangqi match.
///
/// # Errors
/// On bad arguments or an unreadable opening file.
pub fn run(args: &MatchArgs) -> Result<Standings, MatchError> {
    let common = args.common()?;
    let openings = match args.opening_source(None, RANDOM_OPENING_PLIES)? {
        OpeningSource::Lines(lines) => lines.iter().map(|line| parse_opening(line)).collect::<Result<Vec<_>, _>>()?,
        OpeningSource::Random(plies) => {
            let pairs = common.settings.games.div_ceil(2) as usize;
            random_openings(&Position::start(), pairs, plies, 0x07E5_5E4A)
        }
    };
    let make = |engine: usize| -> Result<Box<dyn Contestant<Position>>, tessera_arena::ClientError> {
        Ok(Box::new(UcciContestant::start(&common.engines[engine], common.log_path(engine).as_ref())?))
    };
    play(&common, &openings, &make, None, pgn_record)
}

/// An opening line: a FEN (EPD operations after `;` are ignored), or ICCS moves from the start.
fn parse_opening(line: &str) -> Result<Position, MatchError> {
    let text = line.split(';').next().unwrap_or_default().trim();
    if let Ok(position) = text.parse::<Position>() {
        return Ok(position);
    }
    let mut position = Position::start();
    for word in text.split_whitespace() {
        let mv = tessera_xiangqi::parse_iccs(word).ok().filter(|&mv| position.is_legal(mv));
        match mv {
            Some(mv) => position.play(mv),
            None => return Err(MatchError::Usage(format!("opening `{line}` is neither a FEN nor legal ICCS moves"))),
        }
    }
    Ok(position)
}

/// A PGN-like record: tags with the start FEN, then numbered ICCS moves.
fn pgn_record(index: u32, record: &GameRecord<Position>) -> String {
    let result = match record.outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    };
    let mut start = record.start.clone();
    while start.ply() > 0 {
        start.undo();
    }
    let mut moves: Vec<_> = (0..record.start.ply()).filter_map(|i| record.start.move_played(i)).collect();
    moves.extend(&record.moves);
    let mut text = format!(
        "[Event \"tessera match\"]\n[Round \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n[FEN \"{}\"]\n[Termination \"{}\"]\n\n",
        index + 1,
        record.names[0],
        record.names[1],
        start.to_fen(),
        record.termination
    );
    for (ply, mv) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&iccs(*mv));
        text.push(' ');
    }
    text.push_str(result);
    text.push_str("\n\n");
    text
}
