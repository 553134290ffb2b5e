//! Training-data files of one game merged into one new file with each position kept once: what
//! the shards of a sharded `tessera datagen` (one file per machine) give a trainer.
//!
//! Games stay whole and in order, file by file; a record whose position was already kept (in any
//! file, any game) is dropped, and a game keeps its first remaining record as its first, so the
//! merged file counts its games as the inputs do (a game none of whose positions is new is gone).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::data::{encode_record, DataError, DataReader, DataWriter, PackedPosition};

/// What a merge read and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeCount {
    /// Records read from all inputs.
    pub read: u64,
    /// Records dropped: their position had been kept before.
    pub duplicates: u64,
    /// Records written.
    pub written: u64,
    /// Games written.
    pub games: u64,
}

/// A position's identity for duplicate checks: 64 bits of a fixed hash of its packed bytes (two
/// different positions agree with a chance of about one in 10^19 per pair: a few collisions in
/// billions of positions cost nothing but a dropped sample).
fn identity(position: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    position.hash(&mut hasher);
    hasher.finish()
}

/// Merges the training data of `inputs`, all of game `P`, into the new file `output`.
///
/// # Errors
/// When `output` exists (a merge never adds to a file it may also read), or an input cannot be
/// read or belongs to another game.
pub fn merge<P: PackedPosition>(inputs: &[PathBuf], output: &Path) -> Result<MergeCount, DataError> {
    if output.exists() {
        return Err(DataError::Exists { path: output.to_owned() });
    }
    // Every input is checked before anything is written.
    let mut readers = inputs.iter().map(|path| DataReader::open::<P>(path)).collect::<Result<Vec<_>, _>>()?;
    let (mut writer, _) = DataWriter::append::<P>(output)?;
    let record_bytes = (P::BYTES + 4) as u64;
    let mut count = MergeCount::default();
    let mut seen = HashSet::new();
    let mut game = Vec::new();
    let mut flush = |game: &mut Vec<u8>, count: &mut MergeCount| -> Result<(), DataError> {
        if !game.is_empty() {
            writer.write_game(game)?;
            count.written += game.len() as u64 / record_bytes;
            count.games += 1;
            game.clear();
        }
        Ok(())
    };
    for reader in &mut readers {
        while let Some(record) = reader.next_record()? {
            count.read += 1;
            if record.first_of_game {
                flush(&mut game, &mut count)?;
            }
            if !seen.insert(identity(record.position)) {
                count.duplicates += 1;
                continue;
            }
            encode_record(record.position, record.score, record.result, game.is_empty(), &mut game);
        }
        flush(&mut game, &mut count)?;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::WdlResult;

    /// A position of one byte.
    #[derive(Debug, PartialEq)]
    struct Cell(u8);

    #[derive(Debug, thiserror::Error)]
    #[error("never")]
    struct Never;

    impl PackedPosition for Cell {
        const BYTES: usize = 1;
        const GAME: &'static str = "cell";
        type Error = Never;
        fn pack(&self, out: &mut [u8]) {
            out[0] = self.0;
        }
        fn unpack(bytes: &[u8]) -> Result<Self, Never> {
            Ok(Cell(bytes[0]))
        }
    }

    /// A file of `games`, each a list of one-byte positions.
    fn file(name: &str, games: &[&[u8]]) -> PathBuf {
        let path = std::env::temp_dir().join(format!("tessera-merge-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut writer, _) = DataWriter::append::<Cell>(&path).unwrap();
        for game in games {
            let mut bytes = Vec::new();
            for (index, &position) in game.iter().enumerate() {
                encode_record(&[position], i16::from(position), WdlResult::Win, index == 0, &mut bytes);
            }
            writer.write_game(&bytes).unwrap();
        }
        path
    }

    /// The games of a file, each a list of positions (a record flagged first starts a game).
    fn games_of(path: &Path) -> Vec<Vec<u8>> {
        let mut reader = DataReader::open::<Cell>(path).unwrap();
        let mut games: Vec<Vec<u8>> = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            assert_eq!(record.score, i16::from(record.position[0]), "labels travel with positions");
            if record.first_of_game {
                games.push(Vec::new());
            }
            games.last_mut().expect("the first record starts a game").push(record.position[0]);
        }
        games
    }

    #[test]
    fn shards_merge_into_one_file_with_each_position_once_and_games_whole() {
        let first = file("a", &[&[1, 2, 3], &[4, 5]]);
        let second = file("b", &[&[1, 6], &[2, 4], &[7, 1]]);
        let merged = std::env::temp_dir().join(format!("tessera-merge-{}-merged", std::process::id()));
        let _ = std::fs::remove_file(&merged);
        let count = merge::<Cell>(&[first.clone(), second.clone()], &merged).unwrap();
        assert_eq!(count, MergeCount { read: 11, duplicates: 4, written: 7, games: 4 });
        // [1, 6] lost its first record: 6 starts the game; [2, 4] had nothing new and is gone.
        assert_eq!(games_of(&merged), [vec![1, 2, 3], vec![4, 5], vec![6], vec![7]]);
        let again = merge::<Cell>(std::slice::from_ref(&first), &merged).unwrap_err();
        assert!(again.to_string().contains("exists"), "{again}");
        let missing = merge::<Cell>(&[first.clone(), PathBuf::from("/no/such/file")], &merged);
        assert!(missing.is_err());
        for path in [first, second, merged] {
            std::fs::remove_file(path).unwrap();
        }
    }
}
