//! Writes training data for the go network (move prediction and value) from 19×19 game records.
//!
//! ```text
//! policy_data OUT RATE SEED [--results INDEX]... FILE...
//! ```
//! Each FILE holds SGF records or lines of the form `ID<TAB>;B[pd];W[dp];…` (the TYGEM and Tom
//! dumps of the `yenw/computer-go-dataset` repository). Every position before a stone is played is
//! kept with probability RATE (positions of one game are alike, so a fraction of many games beats
//! all of a few). A game's winner comes from its SGF `RE` property or, for a dump line, from the
//! INDEX files (the dataset's `TYGEM/index` dumps: tab-separated, the game's ID first and its
//! result ninth). Only games decided on the board count (`B+R`, `B+Resign`, `B+7.5`, …); a win on
//! time or by disconnection says little about the position, so such games keep an unknown outcome.
//!
//! OUT starts with the magic `TGPD`, then the format version (2), the plane count and the board
//! size as little-endian `u32`; then one record per position: each plane's `size²` bits packed
//! most-significant bit first into whole bytes, the point played (`y · size + x`) as a
//! little-endian `u16`, and the outcome for the player to move as one byte (1 won, 0 lost,
//! 2 unknown). `scripts/train-go-policy.py` reads it.

use std::collections::HashMap;
use std::io::{BufWriter, Write};

use tessera_core::{Game, Rng};
use tessera_go::features::{plane_index, planes, PLANES};
use tessera_go::{sgf, Cell, Position, Rules};

const SIZE: usize = 19;
const VERSION: u32 = 2;
/// The outcome byte of a position whose game has no usable result.
const UNKNOWN: u8 = 2;

fn main() -> std::io::Result<()> {
    let mut arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut index_files = Vec::new();
    while let Some(at) = arguments.iter().position(|argument| argument == "--results") {
        if at + 1 >= arguments.len() {
            usage();
        }
        index_files.push(arguments.remove(at + 1));
        arguments.remove(at);
    }
    let [out, rate, seed, files @ ..] = arguments.as_slice() else { usage() };
    let rate: f32 = rate.parse().expect("RATE is a number");
    let mut rng = Rng::new(seed.parse().expect("SEED is a number"));
    let mut results = HashMap::new();
    for file in &index_files {
        read_results(&std::fs::read_to_string(file)?, &mut results);
        eprintln!("{file}: {} game results so far", results.len());
    }
    let mut writer = BufWriter::new(std::fs::File::create(out)?);
    writer.write_all(b"TGPD")?;
    for value in [VERSION, PLANES as u32, SIZE as u32] {
        writer.write_all(&value.to_le_bytes())?;
    }
    let plane_bytes = (SIZE * SIZE).div_ceil(8);
    let mut record = vec![0u8; PLANES * plane_bytes];
    let (mut games, mut decided, mut samples, mut refused) = (0u64, 0u64, 0u64, 0u64);
    for file in files {
        let text = std::fs::read_to_string(file)?;
        for (id, game) in records(&text) {
            let Ok(record_moves) = sgf::parse(&game) else {
                refused += 1;
                continue;
            };
            if record_moves.size != SIZE || !record_moves.setup.is_empty() || record_moves.moves.len() < 30 {
                refused += 1;
                continue;
            }
            games += 1;
            let winner = match id {
                Some(id) => results.get(id).copied(),
                None => record_moves.result.as_deref().and_then(winner),
            };
            decided += u64::from(winner.is_some());
            let mut position = Position::new(SIZE, Rules::CHINESE);
            for &(color, mv) in &record_moves.moves {
                if position.to_move() != color || !position.is_legal(mv) {
                    break;
                }
                if let Some(p) = mv.point().filter(|_| rng.unit() < rate) {
                    record.fill(0);
                    planes(&position, |plane, index| {
                        record[plane * plane_bytes + index / 8] |= 0x80 >> (index % 8);
                    });
                    writer.write_all(&record)?;
                    writer.write_all(&(plane_index(SIZE, p) as u16).to_le_bytes())?;
                    writer.write_all(&[winner.map_or(UNKNOWN, |winner| u8::from(winner == color))])?;
                    samples += 1;
                }
                position.play(mv);
            }
        }
        eprintln!("{file}: {games} games ({decided} with a result), {samples} positions so far ({refused} refused)");
    }
    writer.flush()
}

fn usage() -> ! {
    eprintln!("usage: policy_data OUT RATE SEED [--results INDEX]... FILE...");
    std::process::exit(2);
}

/// Adds the winner of every game of an index dump decided on the board to `results`, by game ID.
fn read_results(text: &str, results: &mut HashMap<String, Cell>) {
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        if let (Some(id), Some(winner)) = (fields.first(), fields.get(8).and_then(|result| winner(result))) {
            results.insert((*id).to_owned(), winner);
        }
    }
}

/// The winner a result says, if the game was decided on the board: by resignation or by the count.
fn winner(result: &str) -> Option<Cell> {
    let (color, how) = result.trim().split_once('+')?;
    let on_the_board = how == "R" || how == "Resign" || how.parse::<f32>().is_ok_and(|margin| margin > 0.0);
    match color {
        "B" if on_the_board => Some(Cell::Black),
        "W" if on_the_board => Some(Cell::White),
        _ => None,
    }
}

/// The games of a file as SGF text, with the dump's game ID where there is one: its records as
/// they are, or each `ID<TAB>;B[..]…` line as one.
fn records(text: &str) -> Vec<(Option<&str>, String)> {
    if text.trim_start().starts_with('(') {
        return text.split("\n(").map(|record| (None, format!("({}", record.trim_start_matches('(')))).collect();
    }
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(id, moves)| (Some(id), format!("(;GM[1]SZ[19]{moves})")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_lines_and_sgf_records_become_one_sgf_game_each() {
        let dump = "885492098\t;B[pd];W[dp]\n885492099\t;B[dd];W[pp];B[pd]\n";
        let games = records(dump);
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].0, Some("885492099"));
        let second = sgf::parse(&games[1].1).unwrap();
        assert_eq!((second.size, second.moves.len()), (19, 3));
        let sgf = "(;GM[1]SZ[19]RE[W+R];B[pd];W[dp])\n(;GM[1]SZ[9];B[ee])\n";
        let games = records(sgf);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].0, None);
        assert_eq!(sgf::parse(&games[0].1).unwrap().result.as_deref().and_then(winner), Some(Cell::White));
        assert_eq!(sgf::parse(&games[1].1).unwrap().size, 9);
    }

    #[test]
    fn only_games_decided_on_the_board_have_a_winner() {
        assert_eq!(winner("B+Resign"), Some(Cell::Black));
        assert_eq!(winner("W+R"), Some(Cell::White));
        assert_eq!(winner("B+9.5"), Some(Cell::Black));
        for result in ["W+Time", "B+Offline", "W+Forfeit", "0", "Draw", "B+", "B+0", "?"] {
            assert_eq!(winner(result), None, "{result}");
        }
        let index = "407331168\tC2011.01.01 00:01\ta\tb\t0\tc\td\t2\tB+9.5\t255\n\
                     407332240\tC2011.01.01 00:08\ta\tb\t2\tc\td\t0\tW+Time\t154\n\
                     407331387\tC2011.01.01 00:03\ta\tb\t0\tc\td\t2\tW+Resign\t161\n";
        let mut results = HashMap::new();
        read_results(index, &mut results);
        assert_eq!(results.len(), 2);
        assert_eq!(results["407331168"], Cell::Black);
        assert_eq!(results["407331387"], Cell::White);
    }
}
