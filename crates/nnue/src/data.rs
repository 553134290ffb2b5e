//! Training-data files: a header naming the game, then fixed-size records of packed positions
//! labelled with a search score and the game's final result.
//!
//! Every number is little-endian.
//!
//! | bytes | header (32 bytes) |
//! |---|---|
//! | 8 | magic `TSRDATA\0` |
//! | 2 | format version (1) |
//! | 2 | record size `R` = `P + 4` |
//! | 16 | game name (`chess`, `xiangqi`, …), NUL-padded |
//! | 4 | reserved, zero |
//!
//! | bytes | record (`R` bytes) |
//! |---|---|
//! | `P` | the position, packed by the game ([`PackedPosition::pack`]) |
//! | 2 | score, `i16`, from the side to move (the game's evaluation scale: centipawns in chess) |
//! | 1 | result from the side to move: 0 loss, 1 draw, 2 win |
//! | 1 | flags: bit 0 marks the first record of a game |
//!
//! Writers append whole games with one `write` each, so an interrupted run leaves at most a partial
//! record at the end; [`DataWriter::append`] trims it and carries on.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every training-data file.
pub const MAGIC: [u8; 8] = *b"TSRDATA\0";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 32;
/// Bytes a record adds after the packed position: score, result, flags.
pub const LABEL_BYTES: usize = 4;
const GAME_NAME_BYTES: usize = 16;
/// Flag bit: this record is the first of its game.
const FIRST_OF_GAME: u8 = 1;

/// A position a game can store in training files.
pub trait PackedPosition: Sized {
    /// The game's name in file headers (at most 16 bytes), e.g. `chess`.
    const GAME: &'static str;
    /// Bytes of one packed position.
    const BYTES: usize;
    /// Why bytes are not a position of this game.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Writes the position into `out`, which is exactly [`Self::BYTES`] long.
    fn pack(&self, out: &mut [u8]);

    /// Reads a position written by [`Self::pack`].
    ///
    /// # Errors
    /// When the bytes do not describe a valid position.
    fn unpack(bytes: &[u8]) -> Result<Self, Self::Error>;
}

/// The final result of a game, from the side to move in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WdlResult {
    /// The side to move lost.
    Loss,
    /// The game was drawn.
    Draw,
    /// The side to move won.
    Win,
}

impl WdlResult {
    /// 0 for a loss, 0.5 for a draw, 1 for a win.
    #[must_use]
    pub fn value(self) -> f32 {
        match self {
            WdlResult::Loss => 0.0,
            WdlResult::Draw => 0.5,
            WdlResult::Win => 1.0,
        }
    }

    /// The same result seen from the other side.
    #[must_use]
    pub fn flipped(self) -> WdlResult {
        match self {
            WdlResult::Loss => WdlResult::Win,
            WdlResult::Draw => WdlResult::Draw,
            WdlResult::Win => WdlResult::Loss,
        }
    }

    fn from_byte(byte: u8) -> Option<WdlResult> {
        match byte {
            0 => Some(WdlResult::Loss),
            1 => Some(WdlResult::Draw),
            2 => Some(WdlResult::Win),
            _ => None,
        }
    }

    fn byte(self) -> u8 {
        self as u8
    }
}

/// One labelled position, borrowed from a reader's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The packed position ([`PackedPosition::unpack`] reads it).
    pub position: &'a [u8],
    /// The search score from the side to move.
    pub score: i16,
    /// The game's result from the side to move.
    pub result: WdlResult,
    /// Whether this is the first record of its game.
    pub first_of_game: bool,
}

impl Record<'_> {
    /// Appends this record's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        encode_record(self.position, self.score, self.result, self.first_of_game, out);
    }
}

/// Appends one record (`position` already packed) to `out`.
pub fn encode_record(position: &[u8], score: i16, result: WdlResult, first_of_game: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(position);
    out.extend_from_slice(&score.to_le_bytes());
    out.push(result.byte());
    out.push(if first_of_game { FIRST_OF_GAME } else { 0 });
}

/// Why a training-data file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The operating system refused.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A merge's output exists (a merge writes a new file).
    #[error("{path} exists: a merge writes a new file")]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// The file does not start with the training-data header.
    #[error("{path}: not a Tessera training-data file (no TSRDATA header)")]
    NotADataFile {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another format version.
    #[error("{path}: training-data format version {found}, this program reads version {VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u16,
    },
    /// The file holds positions of another game.
    #[error("{path}: training data for {found}, not {expected}")]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game named in the file.
        found: String,
        /// The game the caller wanted.
        expected: &'static str,
    },
    /// The header's record size does not fit the game's packed positions.
    #[error("{path}: records of {found} bytes, but {game} records have {expected}")]
    RecordSize {
        /// The file.
        path: PathBuf,
        /// The game.
        game: &'static str,
        /// The size in the file.
        found: u16,
        /// The size the game needs.
        expected: usize,
    },
    /// A record holds a result byte that means nothing.
    #[error("{path}: record {index} has an invalid result byte {byte}")]
    BadRecord {
        /// The file.
        path: PathBuf,
        /// The record's index from 0.
        index: u64,
        /// The byte.
        byte: u8,
    },
}

/// The header fields of a training-data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game named in the file.
    pub game: String,
    /// Bytes per record.
    pub record_bytes: usize,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io { path: path.to_owned(), source }
}

fn header_bytes(game: &str, record_bytes: usize) -> [u8; HEADER_BYTES] {
    assert!(game.len() <= GAME_NAME_BYTES, "game names fit the header (PackedPosition::GAME)");
    let record_bytes = u16::try_from(record_bytes).expect("records are far smaller than 64 KiB");
    let mut header = [0u8; HEADER_BYTES];
    header[..8].copy_from_slice(&MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10..12].copy_from_slice(&record_bytes.to_le_bytes());
    header[12..12 + game.len()].copy_from_slice(game.as_bytes());
    header
}

/// Reads and checks the header of the file at `path` (any game).
///
/// # Errors
/// When the file cannot be read or has no valid header.
pub fn read_header(path: &Path) -> Result<Header, DataError> {
    let mut file = File::open(path).map_err(io_error(path))?;
    read_header_from(&mut file, path)
}

fn read_header_from(file: &mut File, path: &Path) -> Result<Header, DataError> {
    let mut header = [0u8; HEADER_BYTES];
    let mut filled = 0;
    while filled < HEADER_BYTES {
        let read = file.read(&mut header[filled..]).map_err(io_error(path))?;
        if read == 0 {
            return Err(DataError::NotADataFile { path: path.to_owned() });
        }
        filled += read;
    }
    if header[..8] != MAGIC {
        return Err(DataError::NotADataFile { path: path.to_owned() });
    }
    let version = u16::from_le_bytes([header[8], header[9]]);
    if version != VERSION {
        return Err(DataError::Version { path: path.to_owned(), found: version });
    }
    let record_bytes = usize::from(u16::from_le_bytes([header[10], header[11]]));
    let name = &header[12..12 + GAME_NAME_BYTES];
    let end = name.iter().position(|&byte| byte == 0).unwrap_or(GAME_NAME_BYTES);
    let game = String::from_utf8_lossy(&name[..end]).into_owned();
    Ok(Header { game, record_bytes })
}

/// Checks that `header` belongs to game `P`.
fn check_game<P: PackedPosition>(header: &Header, path: &Path) -> Result<(), DataError> {
    if header.game != P::GAME {
        return Err(DataError::WrongGame { path: path.to_owned(), found: header.game.clone(), expected: P::GAME });
    }
    let expected = P::BYTES + LABEL_BYTES;
    if header.record_bytes != expected {
        return Err(DataError::RecordSize {
            path: path.to_owned(),
            game: P::GAME,
            found: header.record_bytes as u16,
            expected,
        });
    }
    Ok(())
}

/// Reads the records of one training-data file in order.
pub struct DataReader {
    path: PathBuf,
    reader: BufReader<File>,
    record_bytes: usize,
    position_bytes: usize,
    records: u64,
    next: u64,
    buffer: Vec<u8>,
}

impl DataReader {
    /// Opens a file of game `P`'s positions.
    ///
    /// # Errors
    /// When the file cannot be read, has no valid header, or belongs to another game.
    pub fn open<P: PackedPosition>(path: &Path) -> Result<DataReader, DataError> {
        let mut file = File::open(path).map_err(io_error(path))?;
        let header = read_header_from(&mut file, path)?;
        check_game::<P>(&header, path)?;
        let length = file.metadata().map_err(io_error(path))?.len();
        let records = length.saturating_sub(HEADER_BYTES as u64) / header.record_bytes as u64;
        Ok(DataReader {
            path: path.to_owned(),
            reader: BufReader::with_capacity(1 << 20, file),
            record_bytes: header.record_bytes,
            position_bytes: P::BYTES,
            records,
            next: 0,
            buffer: vec![0; header.record_bytes],
        })
    }

    /// Whole records in the file (a trailing partial record is not counted and never read).
    #[must_use]
    pub fn record_count(&self) -> u64 {
        self.records
    }

    /// The next record, or `None` after the last whole one.
    ///
    /// # Errors
    /// When reading fails or a record is invalid.
    pub fn next_record(&mut self) -> Result<Option<Record<'_>>, DataError> {
        if self.next >= self.records {
            return Ok(None);
        }
        self.reader.read_exact(&mut self.buffer).map_err(io_error(&self.path))?;
        let index = self.next;
        self.next += 1;
        let labels = &self.buffer[self.position_bytes..self.record_bytes];
        let result = WdlResult::from_byte(labels[2]).ok_or(DataError::BadRecord {
            path: self.path.clone(),
            index,
            byte: labels[2],
        })?;
        Ok(Some(Record {
            position: &self.buffer[..self.position_bytes],
            score: i16::from_le_bytes([labels[0], labels[1]]),
            result,
            first_of_game: labels[3] & FIRST_OF_GAME != 0,
        }))
    }
}

/// What an existing file held when a writer reopened it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// Whole records already in the file.
    pub records: u64,
    /// Games already in the file (records flagged as the first of a game).
    pub games: u64,
    /// Bytes of a partial record cut from the end (an interrupted run).
    pub trimmed_bytes: u64,
}

/// Appends whole games of records to a training-data file.
pub struct DataWriter {
    path: PathBuf,
    file: File,
    record_bytes: usize,
}

impl DataWriter {
    /// Opens `path` for appending positions of game `P`, creating it with a header if it does not
    /// exist. An existing file must hold the same game; a partial record at its end (left by an
    /// interrupted run) is cut off. Returns what the file already held.
    ///
    /// # Errors
    /// When the file cannot be opened, or exists but is not this game's training data.
    pub fn append<P: PackedPosition>(path: &Path) -> Result<(DataWriter, Resume), DataError> {
        let record_bytes = P::BYTES + LABEL_BYTES;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error(path))?;
        let length = file.metadata().map_err(io_error(path))?.len();
        let mut resume = Resume::default();
        if length == 0 {
            file.write_all(&header_bytes(P::GAME, record_bytes)).map_err(io_error(path))?;
        } else {
            let header = read_header_from(&mut file, path)?;
            check_game::<P>(&header, path)?;
            let body = length - HEADER_BYTES as u64;
            resume.records = body / record_bytes as u64;
            resume.trimmed_bytes = body % record_bytes as u64;
            if resume.trimmed_bytes > 0 {
                file.set_len(length - resume.trimmed_bytes).map_err(io_error(path))?;
            }
            resume.games = count_games(&mut file, path, record_bytes, P::BYTES, resume.records)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io_error(path))?;
        Ok((DataWriter { path: path.to_owned(), file, record_bytes }, resume))
    }

    /// Appends the records of one game (encoded with [`encode_record`]) in a single write.
    ///
    /// # Errors
    /// When the write fails.
    pub fn write_game(&mut self, records: &[u8]) -> Result<(), DataError> {
        debug_assert_eq!(records.len() % self.record_bytes, 0, "whole records only");
        self.file.write_all(records).map_err(io_error(&self.path))
    }
}

/// Counts the records flagged as the first of a game.
fn count_games(
    file: &mut File,
    path: &Path,
    record_bytes: usize,
    position_bytes: usize,
    records: u64,
) -> Result<u64, DataError> {
    file.seek(SeekFrom::Start(HEADER_BYTES as u64)).map_err(io_error(path))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut record = vec![0u8; record_bytes];
    let mut games = 0;
    for _ in 0..records {
        reader.read_exact(&mut record).map_err(io_error(path))?;
        if record[position_bytes + 3] & FIRST_OF_GAME != 0 {
            games += 1;
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy "game" whose position is two bytes.
    #[derive(Debug, PartialEq)]
    struct Pair([u8; 2]);

    #[derive(Debug, thiserror::Error)]
    #[error("bad pair")]
    struct BadPair;

    impl PackedPosition for Pair {
        const GAME: &'static str = "pair";
        const BYTES: usize = 2;
        type Error = BadPair;
        fn pack(&self, out: &mut [u8]) {
            out.copy_from_slice(&self.0);
        }
        fn unpack(bytes: &[u8]) -> Result<Self, BadPair> {
            Ok(Pair(bytes.try_into().map_err(|_| BadPair)?))
        }
    }

    struct Other;
    impl PackedPosition for Other {
        const GAME: &'static str = "other";
        const BYTES: usize = 2;
        type Error = BadPair;
        fn pack(&self, _out: &mut [u8]) {}
        fn unpack(_bytes: &[u8]) -> Result<Self, BadPair> {
            Ok(Other)
        }
    }

    fn temp_file(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("tessera-nnue-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn game(values: &[(u8, i16, WdlResult)]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for (index, &(value, score, result)) in values.iter().enumerate() {
            encode_record(&[value, value + 1], score, result, index == 0, &mut bytes);
        }
        bytes
    }

    fn read_all(path: &Path) -> Vec<(Pair, i16, WdlResult, bool)> {
        let mut reader = DataReader::open::<Pair>(path).unwrap();
        let mut out = Vec::new();
        while let Some(record) = reader.next_record().unwrap() {
            out.push((Pair::unpack(record.position).unwrap(), record.score, record.result, record.first_of_game));
        }
        out
    }

    #[test]
    fn records_round_trip_and_appends_resume() {
        let path = temp_file("round-trip");
        let (mut writer, resume) = DataWriter::append::<Pair>(&path).unwrap();
        assert_eq!(resume, Resume::default());
        writer.write_game(&game(&[(1, -5, WdlResult::Win), (3, 7, WdlResult::Loss)])).unwrap();
        drop(writer);
        let (mut writer, resume) = DataWriter::append::<Pair>(&path).unwrap();
        assert_eq!(resume, Resume { records: 2, games: 1, trimmed_bytes: 0 });
        writer.write_game(&game(&[(9, 300, WdlResult::Draw)])).unwrap();
        drop(writer);
        assert_eq!(
            read_all(&path),
            vec![
                (Pair([1, 2]), -5, WdlResult::Win, true),
                (Pair([3, 4]), 7, WdlResult::Loss, false),
                (Pair([9, 10]), 300, WdlResult::Draw, true),
            ]
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn an_interrupted_write_is_trimmed() {
        let path = temp_file("interrupted");
        let (mut writer, _) = DataWriter::append::<Pair>(&path).unwrap();
        writer.write_game(&game(&[(1, 0, WdlResult::Win), (2, 0, WdlResult::Loss)])).unwrap();
        drop(writer);
        // Half a record, as a killed process might leave.
        OpenOptions::new().append(true).open(&path).unwrap().write_all(&[5, 6, 7]).unwrap();
        assert_eq!(DataReader::open::<Pair>(&path).unwrap().record_count(), 2);
        let (_, resume) = DataWriter::append::<Pair>(&path).unwrap();
        assert_eq!(resume, Resume { records: 2, games: 1, trimmed_bytes: 3 });
        assert_eq!(std::fs::metadata(&path).unwrap().len(), (HEADER_BYTES + 2 * 6) as u64);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn other_games_and_foreign_files_are_refused_by_name() {
        let path = temp_file("other-game");
        drop(DataWriter::append::<Other>(&path).unwrap());
        let error = DataWriter::append::<Pair>(&path).err().unwrap();
        assert!(matches!(&error, DataError::WrongGame { found, .. } if found == "other"), "{error}");
        assert!(error.to_string().contains("training data for other, not pair"), "{error}");
        assert!(DataReader::open::<Pair>(&path).is_err());
        std::fs::write(&path, b"[Event \"not data\"]\n").unwrap();
        let error = DataReader::open::<Pair>(&path).err().unwrap();
        assert!(matches!(error, DataError::NotADataFile { .. }), "{error}");
        std::fs::write(&path, b"TSRDATA").unwrap();
        assert!(matches!(DataWriter::append::<Pair>(&path).err().unwrap(), DataError::NotADataFile { .. }));
        assert_eq!(std::fs::read(&path).unwrap(), b"TSRDATA", "a foreign file is left as it was");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn invalid_result_bytes_are_reported() {
        let path = temp_file("bad-result");
        let (mut writer, _) = DataWriter::append::<Pair>(&path).unwrap();
        writer.write_game(&[1, 2, 0, 0, 7, 1]).unwrap();
        drop(writer);
        let mut reader = DataReader::open::<Pair>(&path).unwrap();
        assert!(matches!(reader.next_record(), Err(DataError::BadRecord { index: 0, byte: 7, .. })));
        std::fs::remove_file(&path).unwrap();
    }
}
