//! Writes training data for the move-prediction network from 19×19 game records.
//!
//! ```text
//! policy_data OUT RATE SEED FILE...
//! ```
//! Each FILE holds SGF records or lines of the form `ID<TAB>;B[pd];W[dp];…` (the TYGEM and Tom
//! dumps of the `yenw/computer-go-dataset` repository). Every position before a stone is played is
//! kept with probability RATE (positions of one game are alike, so a fraction of many games beats
//! all of a few). OUT starts with the magic `TGPD`, then the plane count and the board size as
//! little-endian `u32`; then one record per position: each plane's `size²` bits packed
//! most-significant bit first into whole bytes, then the point played (`y · size + x`) as a
//! little-endian `u16`. `scripts/train-go-policy.py` reads it.

use std::io::{BufWriter, Write};

use tessera_core::{Game, Rng};
use tessera_go::features::{plane_index, planes, PLANES};
use tessera_go::{sgf, Position, Rules};

const SIZE: usize = 19;

fn main() -> std::io::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let [out, rate, seed, files @ ..] = arguments.as_slice() else {
        eprintln!("usage: policy_data OUT RATE SEED FILE...");
        std::process::exit(2);
    };
    let rate: f32 = rate.parse().expect("RATE is a number");
    let mut rng = Rng::new(seed.parse().expect("SEED is a number"));
    let mut writer = BufWriter::new(std::fs::File::create(out)?);
    writer.write_all(b"TGPD")?;
    for value in [PLANES as u32, SIZE as u32] {
        writer.write_all(&value.to_le_bytes())?;
    }
    let plane_bytes = (SIZE * SIZE).div_ceil(8);
    let mut record = vec![0u8; PLANES * plane_bytes];
    let (mut games, mut samples, mut refused) = (0u64, 0u64, 0u64);
    for file in files {
        let text = std::fs::read_to_string(file)?;
        for game in records(&text) {
            let Ok(record_moves) = sgf::parse(&game) else {
                refused += 1;
                continue;
            };
            if record_moves.size != SIZE || !record_moves.setup.is_empty() || record_moves.moves.len() < 30 {
                refused += 1;
                continue;
            }
            games += 1;
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
                    samples += 1;
                }
                position.play(mv);
            }
        }
        eprintln!("{file}: {games} games, {samples} positions so far ({refused} records refused)");
    }
    writer.flush()
}

/// The games of a file as SGF text: its records as they are, or each `ID<TAB>;B[..]…` line as one.
fn records(text: &str) -> Vec<String> {
    if text.trim_start().starts_with('(') {
        return text.split("\n(").map(|record| format!("({}", record.trim_start_matches('('))).collect();
    }
    text.lines().filter_map(|line| line.split_once('\t')).map(|(_, moves)| format!("(;GM[1]SZ[19]{moves})")).collect()
}

#[cfg(test)]
mod tests {
    use super::records;

    #[test]
    fn dump_lines_and_sgf_records_become_one_sgf_game_each() {
        let dump = "885492098\t;B[pd];W[dp]\n885492099\t;B[dd];W[pp];B[pd]\n";
        let games = records(dump);
        assert_eq!(games.len(), 2);
        let second = tessera_go::sgf::parse(&games[1]).unwrap();
        assert_eq!((second.size, second.moves.len()), (19, 3));
        let sgf = "(;GM[1]SZ[19];B[pd];W[dp])\n(;GM[1]SZ[9];B[ee])\n";
        let games = records(sgf);
        assert_eq!(games.len(), 2);
        assert_eq!(tessera_go::sgf::parse(&games[1]).unwrap().size, 9);
    }
}
