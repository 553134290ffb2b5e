//! Syzygy endgame tablebases through Fathom (MIT, the `fathom-syzygy-sys` crate builds its C
//! source): win/draw/loss at search nodes right after a capture or pawn move, and the moves that
//! keep the best result, nearest win first by distance to zeroing (DTZ), at the root.
//!
//! Fathom's tables are process-wide, so these are too: [`load`] replaces them (UCI `SyzygyPath`)
//! under a write lock. Node probes take the read lock without waiting (a node probed during a
//! load or a root probe gets no answer): Fathom locks its own lazy table set-up, so they may run
//! on many search threads at once. Its root probe is not thread-safe, so it holds the write lock.

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, Ordering};

use fathom_syzygy_sys as fathom;
use parking_lot::RwLock;
use tessera_core::TablebaseResult;

use crate::board::Board;
use crate::moves::Move;
use crate::types::{Bitboard, Color, Kind};

/// Fathom's result fields, as its tbprobe.h defines them (the -sys crate's promotion and en
/// passant masks are swapped, so they are written here from the header).
const RESULT_FAILED: u32 = 0xFFFF_FFFF;
const WDL_MASK: u32 = 0x0000_000F;
const TO_MASK: u32 = 0x0000_03F0;
const TO_SHIFT: u32 = 4;
const FROM_MASK: u32 = 0x0000_FC00;
const FROM_SHIFT: u32 = 10;
const PROMOTES_MASK: u32 = 0x0007_0000;
const PROMOTES_SHIFT: u32 = 16;
const DTZ_MASK: u32 = 0xFFF0_0000;
const DTZ_SHIFT: u32 = 20;
/// Fathom's WDL values: loss, loss saved by the fifty-move rule, (2: draw), win spoiled by it, win.
const WDL_LOSS: u32 = 0;
const WDL_BLESSED_LOSS: u32 = 1;
const WDL_CURSED_WIN: u32 = 3;
const WDL_WIN: u32 = 4;
/// Room for every root move and the end marker (Fathom's TB_MAX_MOVES).
const MAX_ROOT_RESULTS: usize = 193;

/// Held (for writing) while Fathom's tables are replaced or its root probe runs, (for reading)
/// by node probes.
static TABLES: RwLock<()> = RwLock::new(());
/// The largest number of pieces the loaded tables cover (0: none loaded), written under the
/// write lock. Read without the lock, most nodes learn from it alone that no probe is due; a
/// probe that read it just before a reload asks Fathom for a table it no longer has, and Fathom
/// answers that it failed.
static LARGEST: AtomicU32 = AtomicU32::new(0);
/// UCI `SyzygyProbeDepth`: inner nodes with fewer plies left are not probed, unless they have
/// fewer pieces than the largest tables.
static PROBE_DEPTH: AtomicI32 = AtomicI32::new(1);
/// UCI `SyzygyProbeLimit`: positions with more pieces are not probed.
static PROBE_LIMIT: AtomicU32 = AtomicU32::new(7);
/// UCI `Syzygy50MoveRule`: wins and losses the fifty-move rule spoils count as draws.
static FIFTY_MOVE_RULE: AtomicBool = AtomicBool::new(true);

/// Why tablebases could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyzygyError {
    /// A folder of the path does not exist.
    #[error("no such folder: {0}")]
    NoFolder(String),
    /// The path cannot be handed to Fathom (a NUL byte or not UTF-8).
    #[error("unusable path: {0:?}")]
    BadPath(String),
    /// The folders hold no tablebase file Fathom accepts.
    #[error("no Syzygy tables found in {0}")]
    NoTables(String),
    /// A table file is cut short (or is no table): its size is not 16 bytes past a multiple of 64.
    #[error("incomplete tablebase file {0}")]
    Incomplete(String),
}

/// The separator between folders in `SyzygyPath`, as Stockfish reads it.
const PATH_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Loads the tables in `path` (folders separated by `:`, on Windows `;`), replacing any loaded
/// before; an empty path or `<empty>` unloads them. Returns the largest number of pieces the
/// tables cover (0 after unloading).
///
/// # Errors
/// [`SyzygyError`] when a folder is missing or holds no tables: no tables are loaded then.
pub fn load(path: &str) -> Result<u32, SyzygyError> {
    let path = path.trim();
    let unload = path.is_empty() || path == "<empty>";
    if !unload {
        if let Err(error) = path.split(PATH_SEPARATOR).try_for_each(check_folder) {
            init("")?;
            return Err(error);
        }
    }
    let largest = init(if unload { "" } else { path })?;
    if !unload && largest == 0 {
        return Err(SyzygyError::NoTables(path.to_string()));
    }
    Ok(largest)
}

/// Refuses a missing folder, or one with a table file of a size no table has: Fathom would say
/// so on stdout from C, beside the protocol's lines, so such a folder never reaches it.
fn check_folder(folder: &str) -> Result<(), SyzygyError> {
    let entries = std::fs::read_dir(folder).map_err(|_| SyzygyError::NoFolder(folder.to_string()))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_table = name.ends_with(".rtbw") || name.ends_with(".rtbz");
        if is_table && entry.metadata().map_or(true, |metadata| metadata.len() % 64 != 16) {
            return Err(SyzygyError::Incomplete(entry.path().display().to_string()));
        }
    }
    Ok(())
}

/// Hands `path` to Fathom under the write lock; returns the largest table's piece count.
fn init(path: &str) -> Result<u32, SyzygyError> {
    let text = CString::new(path).map_err(|_| SyzygyError::BadPath(path.to_string()))?;
    let _tables = TABLES.write();
    // SAFETY: the write lock keeps every probe out while Fathom frees and rebuilds its tables;
    // `text` is a valid NUL-terminated string for the call's duration.
    let largest = unsafe {
        fathom::tb_init(text.as_ptr());
        fathom::TB_LARGEST
    };
    LARGEST.store(largest, Ordering::Relaxed);
    Ok(largest)
}

/// UCI `SyzygyProbeDepth`.
pub fn set_probe_depth(depth: i32) {
    PROBE_DEPTH.store(depth, Ordering::Relaxed);
}

/// UCI `SyzygyProbeLimit`.
pub fn set_probe_limit(limit: u32) {
    PROBE_LIMIT.store(limit, Ordering::Relaxed);
}

/// UCI `Syzygy50MoveRule`.
pub fn set_fifty_move_rule(on: bool) {
    FIFTY_MOVE_RULE.store(on, Ordering::Relaxed);
}

/// The largest number of pieces the loaded tables cover (0 when none are loaded).
#[must_use]
pub fn largest() -> u32 {
    LARGEST.load(Ordering::Relaxed)
}

/// The board in Fathom's terms, or `None` where it cannot answer: castling rights left, or more
/// pieces than the loaded tables (or the probe limit) cover.
struct FathomPosition {
    /// White's, Black's, the kings', queens', rooks', bishops', knights' and pawns' squares: the
    /// order of Fathom's arguments.
    pieces: [Bitboard; 8],
    rule50: u32,
    en_passant: u32,
    white_to_move: u8,
}

impl FathomPosition {
    fn of(board: &Board) -> Option<FathomPosition> {
        if board.occupied().count_ones() > cardinality() || board.castle_rooks != [[NO_RIGHT; 2]; 2] {
            return None;
        }
        let kind = |kind: Kind| board.kind(kind);
        Some(FathomPosition {
            pieces: [
                board.color(Color::White),
                board.color(Color::Black),
                kind(Kind::King),
                kind(Kind::Queen),
                kind(Kind::Rook),
                kind(Kind::Bishop),
                kind(Kind::Knight),
                kind(Kind::Pawn),
            ],
            rule50: u32::from(board.halfmove_clock()),
            en_passant: board.en_passant().map_or(0, u32::from),
            white_to_move: u8::from(board.side_to_move() == Color::White),
        })
    }
}

/// The most pieces a probe may see: the largest tables', or fewer by `SyzygyProbeLimit`.
fn cardinality() -> u32 {
    LARGEST.load(Ordering::Relaxed).min(PROBE_LIMIT.load(Ordering::Relaxed))
}

/// "No castling right" in [`Board`]'s castling field.
const NO_RIGHT: u8 = crate::board::NO_SQUARE;

/// The tablebase's verdict on `board` for the side to move, asked at a search node with `depth`
/// plies left; `None` unless the last move was a capture or pawn move (where the WDL tables
/// hold) and the tables cover the position.
#[must_use]
pub fn probe_wdl(board: &Board, depth: i32) -> Option<TablebaseResult> {
    // The cheap tests first, without the lock: this runs at every node of every search.
    // Positions as large as the largest tables are probed only with enough depth left: their
    // files are the biggest and the slowest to read.
    let (pieces, cardinality) = (board.occupied().count_ones(), cardinality());
    if board.halfmove_clock() != 0
        || pieces > cardinality
        || (pieces == cardinality && depth < PROBE_DEPTH.load(Ordering::Relaxed))
    {
        return None;
    }
    let _tables = TABLES.try_read()?;
    let position = FathomPosition::of(board)?;
    let [white, black, kings, queens, rooks, bishops, knights, pawns] = position.pieces;
    let (en_passant, turn) = (position.en_passant, position.white_to_move);
    // SAFETY: the read lock keeps the tables from being replaced during the probe; Fathom
    // guards its own lazy set-up of each table, so probes may run on many threads at once.
    let result = unsafe {
        fathom::tb_probe_wdl(white, black, kings, queens, rooks, bishops, knights, pawns, 0, 0, en_passant, turn)
    };
    (result != RESULT_FAILED).then(|| verdict(result & WDL_MASK))
}

/// Fathom's WDL value as a result under the current fifty-move setting.
fn verdict(wdl: u32) -> TablebaseResult {
    let fifty = FIFTY_MOVE_RULE.load(Ordering::Relaxed);
    match wdl {
        WDL_WIN => TablebaseResult::Win,
        WDL_CURSED_WIN if !fifty => TablebaseResult::Win,
        WDL_LOSS => TablebaseResult::Loss,
        WDL_BLESSED_LOSS if !fifty => TablebaseResult::Loss,
        _ => TablebaseResult::Draw,
    }
}

/// The moves of `moves` (legal in `board`) that keep the root's best result: every drawing move
/// when the best is a draw, the winning moves nearest to zeroing when it is a win, the losing
/// moves furthest from it when all lose. `None` where the tables do not cover `board`.
#[must_use]
pub fn root_moves(board: &Board, moves: &[Move]) -> Option<Vec<Move>> {
    // Fathom's root probe is not thread-safe: no other probe may run beside it.
    let _tables = TABLES.write();
    let position = FathomPosition::of(board)?;
    let mut results = [RESULT_FAILED; MAX_ROOT_RESULTS];
    let [white, black, kings, queens, rooks, bishops, knights, pawns] = position.pieces;
    let (rule50, en_passant, turn) = (position.rule50, position.en_passant, position.white_to_move);
    // SAFETY: `results` has the TB_MAX_MOVES entries Fathom may write; the write lock keeps the
    // tables in place and every other probe out.
    let best = unsafe {
        fathom::tb_probe_root(
            white,
            black,
            kings,
            queens,
            rooks,
            bishops,
            knights,
            pawns,
            rule50,
            0,
            en_passant,
            turn,
            results.as_mut_ptr(),
        )
    };
    if best == RESULT_FAILED {
        return None;
    }
    // Rank each move: its result first, then progress (a win: the nearer zeroing, the better;
    // a loss: the further, the better).
    let rank = |result: u32| -> (i32, i64) {
        let dtz = i64::from((result & DTZ_MASK) >> DTZ_SHIFT);
        match verdict(result & WDL_MASK) {
            TablebaseResult::Win => (1, -dtz),
            TablebaseResult::Draw => (0, 0),
            TablebaseResult::Loss => (-1, dtz),
        }
    };
    let ranked: Vec<(Move, (i32, i64))> = results
        .iter()
        .take_while(|&&result| result != RESULT_FAILED)
        .filter_map(|&result| moves.iter().find(|&&mv| matches(mv, result)).map(|&mv| (mv, rank(result))))
        .collect();
    let best_rank = ranked.iter().map(|&(_, rank)| rank).max()?;
    Some(ranked.into_iter().filter(|&(_, rank)| rank == best_rank).map(|(mv, _)| mv).collect())
}

/// Whether Fathom's `result` names `mv` (from, to and promotion piece).
fn matches(mv: Move, result: u32) -> bool {
    let from = (result & FROM_MASK) >> FROM_SHIFT;
    let to = (result & TO_MASK) >> TO_SHIFT;
    let promotes = match (result & PROMOTES_MASK) >> PROMOTES_SHIFT {
        1 => Some(Kind::Queen),
        2 => Some(Kind::Rook),
        3 => Some(Kind::Bishop),
        4 => Some(Kind::Knight),
        _ => None,
    };
    u32::from(mv.from()) == from && u32::from(mv.to()) == to && mv.promotion() == promotes
}
