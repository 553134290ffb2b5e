//! Opening books of our own format: position keys with the moves played from them and their
//! weights, read by every protocol whose GUIs expect an engine's own book (UCCI `usebook` and
//! `bookfiles`, UCI `OwnBook` and `BookFile`), and built from game records by `tessera book`.
//!
//! A book names its game and the key of the game's start position, so a book of another game, or
//! one made by a build whose position keys differ, is refused by name instead of playing moves
//! of positions it does not hold. Moves are the game's 16-bit [`PackedMove`] codes; a book move
//! is played only when it matches a legal move and does not end the game by rule against the
//! side that plays it (xiangqi's repetition verdicts), so a book can never make the engine lose
//! a move or a game that a search would not.
//!
//! The file: `TESSBOOK`, version (u32), the game's name (16 bytes, zero-padded), the start key
//! (u64), the entry count (u64), then the entries (key u64, move u16, weight u16), all little
//! endian, sorted by key.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::game::{Game, Outcome, PackedMove};
use crate::rng::Rng;

mod opening;

pub use opening::{BookSetup, OpeningBook};

/// The first bytes of every book.
const MAGIC: &[u8; 8] = b"TESSBOOK";
/// The layout written here.
const VERSION: u32 = 1;
/// Bytes of the game's name in the header.
const NAME_BYTES: usize = 16;
/// Bytes before the first entry.
const HEADER_BYTES: usize = MAGIC.len() + 4 + NAME_BYTES + 8 + 8;
/// Bytes of one entry.
const ENTRY_BYTES: usize = 8 + 2 + 2;

/// What a book must agree with to be read: the game it is for and that game's start key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookFormat {
    /// The game's name (`xiangqi`, `chess`), at most 16 bytes.
    pub game: &'static str,
    /// The key ([`Game::hash`]) of the game's start position.
    pub start_key: u64,
}

impl BookFormat {
    /// The format of `game`'s books, whose start position is `start`.
    pub fn of<G: Game>(game: &'static str, start: &G) -> Self {
        BookFormat { game, start_key: start.hash() }
    }
}

/// One move of a position in a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's key.
    pub key: u64,
    /// The move's [`PackedMove`] code.
    pub code: u16,
    /// How often to play it relative to the position's other moves (never 0).
    pub weight: u16,
}

/// Why a book could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("book {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a book of ours.
    #[error("book {0}: not a Tessera book")]
    NotABook(PathBuf),
    /// A layout this build does not read.
    #[error("book {path}: format version {version}, this build reads {VERSION}")]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it has.
        version: u32,
    },
    /// A book of another game.
    #[error("book {path}: a {found} book, not {expected}")]
    OtherGame {
        /// The file.
        path: PathBuf,
        /// The game it is for.
        found: String,
        /// The game played.
        expected: &'static str,
    },
    /// Made by a build whose position keys are not ours.
    #[error("book {0}: made with other position keys (rebuild it with this version's `tessera book`)")]
    OtherKeys(PathBuf),
    /// Fewer or more bytes than its header says, or entries out of order.
    #[error("book {0}: damaged (cut short or out of order)")]
    Damaged(PathBuf),
}

/// A book, read and checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// Sorted by key.
    entries: Vec<BookEntry>,
}

/// A move chosen from a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookChoice<M> {
    /// The move.
    pub mv: M,
    /// Its weight.
    pub weight: u16,
    /// The weights of all the position's playable book moves.
    pub total: u32,
}

impl Book {
    /// A book of `entries` (any order; weights of 0 dropped).
    #[must_use]
    pub fn new(mut entries: Vec<BookEntry>) -> Self {
        entries.retain(|entry| entry.weight > 0);
        entries.sort_by_key(|entry| (entry.key, std::cmp::Reverse(entry.weight), entry.code));
        Book { entries }
    }

    /// Its entries, sorted by key.
    #[must_use]
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// The positions it holds.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.entries.windows(2).filter(|pair| pair[0].key != pair[1].key).count()
            + usize::from(!self.entries.is_empty())
    }

    /// The book in its file form, for `format`'s game.
    #[must_use]
    pub fn to_bytes(&self, format: BookFormat) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + self.entries.len() * ENTRY_BYTES);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let mut name = [0_u8; NAME_BYTES];
        let length = format.game.len().min(NAME_BYTES);
        name[..length].copy_from_slice(&format.game.as_bytes()[..length]);
        bytes.extend_from_slice(&name);
        bytes.extend_from_slice(&format.start_key.to_le_bytes());
        bytes.extend_from_slice(&(self.entries.len() as u64).to_le_bytes());
        for entry in &self.entries {
            bytes.extend_from_slice(&entry.key.to_le_bytes());
            bytes.extend_from_slice(&entry.code.to_le_bytes());
            bytes.extend_from_slice(&entry.weight.to_le_bytes());
        }
        bytes
    }

    /// Reads a book's file form; `path` names it in errors.
    ///
    /// # Errors
    /// [`BookError`] when the bytes are not a book of `format`'s game and keys, or are damaged.
    pub fn from_bytes(bytes: &[u8], format: BookFormat, path: &Path) -> Result<Self, BookError> {
        let path = || path.to_path_buf();
        if bytes.len() < HEADER_BYTES || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::NotABook(path()));
        }
        let field = |at: usize, length: usize| &bytes[at..at + length];
        let version = u32::from_le_bytes(field(8, 4).try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(BookError::Version { path: path(), version });
        }
        let name = field(12, NAME_BYTES);
        let found = String::from_utf8_lossy(name).trim_end_matches('\0').to_owned();
        if found != format.game {
            return Err(BookError::OtherGame { path: path(), found, expected: format.game });
        }
        if u64::from_le_bytes(field(28, 8).try_into().expect("8 bytes")) != format.start_key {
            return Err(BookError::OtherKeys(path()));
        }
        let count = u64::from_le_bytes(field(36, 8).try_into().expect("8 bytes"));
        let body = &bytes[HEADER_BYTES..];
        if usize::try_from(count).ok().and_then(|count| count.checked_mul(ENTRY_BYTES)) != Some(body.len()) {
            return Err(BookError::Damaged(path()));
        }
        let entries: Vec<BookEntry> = body
            .chunks_exact(ENTRY_BYTES)
            .map(|chunk| BookEntry {
                key: u64::from_le_bytes(chunk[..8].try_into().expect("8 bytes")),
                code: u16::from_le_bytes(chunk[8..10].try_into().expect("2 bytes")),
                weight: u16::from_le_bytes(chunk[10..].try_into().expect("2 bytes")),
            })
            .collect();
        if entries.windows(2).any(|pair| pair[0].key > pair[1].key) || entries.iter().any(|entry| entry.weight == 0) {
            return Err(BookError::Damaged(path()));
        }
        Ok(Book { entries })
    }

    /// Reads the book in `path`.
    ///
    /// # Errors
    /// [`BookError`] when the file cannot be read or is not a book of `format`.
    pub fn load(path: &Path, format: BookFormat) -> Result<Self, BookError> {
        let bytes = std::fs::read(path).map_err(|source| BookError::Read { path: path.to_path_buf(), source })?;
        Book::from_bytes(&bytes, format, path)
    }

    /// The book moves of `position` that may be played there, with their weights: legal moves
    /// accepted by `allowed` (a GUI's banned moves) that do not end the game by rule against the
    /// side playing them. The position's moves when it is not in the book: none.
    pub fn moves<G: Game>(&self, position: &G, allowed: impl Fn(G::Move) -> bool) -> Vec<(G::Move, u16)> {
        let key = position.hash();
        let first = self.entries.partition_point(|entry| entry.key < key);
        let entries = self.entries[first..].iter().take_while(|entry| entry.key == key);
        let mut legal = G::Moves::default();
        let mut found = Vec::new();
        for entry in entries {
            if legal.is_empty() {
                position.generate_legal_moves(&mut legal);
            }
            // Matched against the legal moves, never decoded alone: a code from a damaged or
            // colliding entry must not reach the board as a move.
            let Some(&mv) = legal.iter().find(|mv| mv.to_bits() == entry.code) else { continue };
            if allowed(mv) && !loses_by_rule(position, mv) {
                found.push((mv, entry.weight));
            }
        }
        found
    }

    /// One of `position`'s playable book moves (see [`Book::moves`]), drawn with probability
    /// proportional to its weight by `rng`.
    pub fn choose<G: Game>(
        &self,
        position: &G,
        allowed: impl Fn(G::Move) -> bool,
        rng: &mut Rng,
    ) -> Option<BookChoice<G::Move>> {
        let moves = self.moves(position, allowed);
        let total: u32 = moves.iter().map(|&(_, weight)| u32::from(weight)).sum();
        if total == 0 {
            return None;
        }
        let mut draw = rng.below(total as usize) as u32;
        for (mv, weight) in moves {
            if draw < u32::from(weight) {
                return Some(BookChoice { mv, weight, total });
            }
            draw -= u32::from(weight);
        }
        None
    }
}

/// Whether playing `mv` ends the game by rule with anything but a win for its side (a
/// repetition the rules forbid or draw): a book move is for playing on.
fn loses_by_rule<G: Game>(position: &G, mv: G::Move) -> bool {
    let mover = position.side_to_move();
    let mut after = position.clone();
    after.play(mv);
    match after.rule_outcome(None) {
        Some(Outcome::Win(side)) => side != mover,
        Some(Outcome::Draw) => true,
        None => false,
    }
}

/// Counts moves of game records into a book: how often each was played in each position and
/// what it scored for the side that played it.
#[derive(Clone, Debug, Default)]
pub struct BookBuilder {
    /// (key, code) → (games, half points: 2 a win, 1 a draw).
    moves: HashMap<(u64, u16), (u32, u32)>,
    games: u64,
}

/// Which of a builder's moves go into the book.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookFilter {
    /// Games a move needs in its position.
    pub min_count: u32,
    /// The least score (0–1) the side playing it made with it.
    pub min_score: f64,
}

impl BookBuilder {
    /// Adds the first `plies` moves of a game from `start` that ended in `outcome` (none: no
    /// result, the game is skipped). Stops at the first illegal move, which it returns.
    pub fn add_game<G: Game>(
        &mut self,
        start: &G,
        moves: &[G::Move],
        outcome: Option<Outcome>,
        plies: usize,
    ) -> Result<(), usize> {
        let Some(outcome) = outcome else { return Ok(()) };
        self.games += 1;
        let mut position = start.clone();
        for (index, &mv) in moves.iter().take(plies).enumerate() {
            if !position.is_legal(mv) {
                return Err(index);
            }
            let half_points = match outcome {
                Outcome::Win(side) if side == position.side_to_move() => 2,
                Outcome::Win(_) => 0,
                Outcome::Draw => 1,
            };
            let tally = self.moves.entry((position.hash(), mv.to_bits())).or_default();
            tally.0 += 1;
            tally.1 += half_points;
            position.play(mv);
        }
        Ok(())
    }

    /// Games added.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The book of the moves `filter` keeps, each weighted by its half points (2 a win, 1 a
    /// draw): the more often and the better a move was played, the more often it is chosen.
    #[must_use]
    pub fn build(&self, filter: BookFilter) -> Book {
        let entries = self
            .moves
            .iter()
            .filter(|(_, &(count, half_points))| {
                count >= filter.min_count && f64::from(half_points) / f64::from(2 * count) >= filter.min_score
            })
            .map(|(&(key, code), &(_, half_points))| BookEntry {
                key,
                code,
                weight: u16::try_from(half_points).unwrap_or(u16::MAX),
            })
            .collect();
        Book::new(entries)
    }
}

#[cfg(test)]
mod tests;
