//! The fast board: stones, strings (linked lists with a representative), pseudo-liberties with
//! their first four power sums, which tell "exactly one liberty" and "exactly two" and name them
//! in O(1) without walking the string (`moments`), and the 3 × 3 neighbourhood code of every
//! point, which answers shape and eye questions with one load (`neighborhood`).
//!
//! Points live in a fixed 27 × 27 array (one border ring around at most 25 × 25), so a board is a
//! plain value of fixed size: playouts copy it into a reused scratch board without touching the
//! heap, and the position's history keeps whole boards for undo.

use tessera_core::zobrist::zobrist_keys;

mod moments;
mod neighborhood;
mod stones;

use moments::StringInfo;
pub use neighborhood::AROUND;
use neighborhood::{empty_orthogonal, EYES};

/// Largest supported board side.
pub const MAX_SIZE: usize = 25;
/// Smallest supported board side.
pub const MIN_SIZE: usize = 2;
/// Row stride of the point array (the board plus one border column on each side).
pub const STRIDE: usize = MAX_SIZE + 2;
/// Number of slots in the point array.
pub const POINTS: usize = STRIDE * STRIDE;

/// What occupies a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// No stone.
    Empty = 0,
    /// A black stone.
    Black = 1,
    /// A white stone.
    White = 2,
    /// Off the board.
    Border = 3,
}

impl Cell {
    /// The opposing colour (Black ↔ White; Empty and Border stay as they are).
    #[must_use]
    pub const fn opponent(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            other => other,
        }
    }

    /// 0 for Black, 1 for White (per-colour tables); only meaningful for stones.
    #[must_use]
    pub const fn index(self) -> usize {
        (self as usize).wrapping_sub(1) & 1
    }
}

/// Zobrist keys: one per (colour, point), then the key of "White to move".
static KEYS: [u64; 2 * POINTS + 1] = zobrist_keys(0x60_B0A2D);

/// The key of a stone of `color` (Black or White) at `point`.
#[inline]
#[must_use]
pub fn stone_key(color: Cell, point: usize) -> u64 {
    KEYS[color.index() * POINTS + point]
}

/// The key toggled when White is to move.
#[must_use]
pub fn white_to_move_key() -> u64 {
    KEYS[2 * POINTS]
}

/// The point at column `x`, row `y` (0-based from the top-left corner of the array's board area).
#[inline]
#[must_use]
pub const fn point(x: usize, y: usize) -> usize {
    (y + 1) * STRIDE + x + 1
}

/// Column and row of the point `p` (the inverse of [`point`]).
#[inline]
#[must_use]
pub const fn coordinates(p: usize) -> (usize, usize) {
    (p % STRIDE - 1, p / STRIDE - 1)
}

/// A square board from rows of `X` (black), `O` (white) and `.`, top row first (for tests).
#[cfg(test)]
pub(crate) fn board_from_rows(rows: &[&str]) -> Board {
    let mut board = Board::new(rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            match ch {
                'X' => board.place_setup_stone(point(x, y), Cell::Black),
                'O' => board.place_setup_stone(point(x, y), Cell::White),
                _ => {}
            }
        }
    }
    board
}

/// The four orthogonal neighbours of `p`.
#[inline]
#[must_use]
pub const fn neighbors(p: usize) -> [usize; 4] {
    [p - 1, p + 1, p - STRIDE, p + STRIDE]
}

/// The four diagonal neighbours of `p`.
#[inline]
#[must_use]
pub const fn diagonals(p: usize) -> [usize; 4] {
    [p - STRIDE - 1, p - STRIDE + 1, p + STRIDE - 1, p + STRIDE + 1]
}

/// A go board: stones, strings, liberties, the simple-ko point, prisoners and the side to move.
///
/// Only the first `(size + 2) · STRIDE` slots of each point array are ever written (the board and
/// its border ring); the rest keeps what [`Board::new`] put there, the same in every board of one
/// size. [`Board::copy_from`] and `==` therefore look at that prefix alone: a tree descent or a
/// playout copies 41% of the arrays on 9 × 9 instead of all of them.
#[derive(Clone)]
pub struct Board {
    size: usize,
    cells: [Cell; POINTS],
    /// The cells of the 8 points around each point, 2 bits per slot of [`AROUND`] (the cell
    /// codes of [`Cell`]), kept up to date as stones come and go.
    neighborhoods: [u16; POINTS],
    /// Representative stone of the string each stone belongs to.
    head: [u16; POINTS],
    /// Next stone of the same string (a circular list).
    next: [u16; POINTS],
    /// String statistics, valid at representatives.
    strings: [StringInfo; POINTS],
    /// Empty points, in no order, and where each sits in that list.
    empties: [u16; POINTS],
    empty_slot: [u16; POINTS],
    empty_count: usize,
    /// Key of the stones only (no side to move).
    stones_key: u64,
    /// Point the side to move may not play because of simple ko, or 0.
    ko: usize,
    to_move: Cell,
    /// Stones captured by Black and by White.
    prisoners: [u32; 2],
    /// Consecutive passes that ended the move sequence so far.
    passes: u8,
}

impl Board {
    /// An empty `size` × `size` board with Black to move.
    ///
    /// # Panics
    /// Panics if `size` is outside `MIN_SIZE..=MAX_SIZE`.
    #[must_use]
    pub fn new(size: usize) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        let mut board = Board {
            size,
            cells: [Cell::Border; POINTS],
            neighborhoods: [0; POINTS],
            head: [0; POINTS],
            next: [0; POINTS],
            strings: [StringInfo::default(); POINTS],
            empties: [0; POINTS],
            empty_slot: [0; POINTS],
            empty_count: 0,
            stones_key: 0,
            ko: 0,
            to_move: Cell::Black,
            prisoners: [0; 2],
            passes: 0,
        };
        for y in 0..size {
            for x in 0..size {
                let p = point(x, y);
                board.cells[p] = Cell::Empty;
                board.push_empty(p);
            }
        }
        // Only board points are ever asked for their code; the border ring's codes stay partial.
        for y in 0..size {
            for x in 0..size {
                let p = point(x, y);
                board.neighborhoods[p] = AROUND.iter().enumerate().fold(0, |code, (slot, offset)| {
                    code | (board.cells[p.wrapping_add_signed(*offset)] as u16) << (2 * slot)
                });
            }
        }
        board
    }

    /// The side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The point slots this size uses: every board point and its border ring lie below.
    fn used(&self) -> usize {
        (self.size + 2) * STRIDE
    }

    /// Makes this board equal to `source`, copying only the slots in use when both have the same
    /// size (the rest is equal already); a reused board is refilled this way in the hot paths.
    pub fn copy_from(&mut self, source: &Board) {
        // Every field named: a new one fails to compile here until it is copied.
        let Board {
            size,
            cells,
            neighborhoods,
            head,
            next,
            strings,
            empties,
            empty_slot,
            empty_count,
            stones_key,
            ko,
            to_move,
            prisoners,
            passes,
        } = source;
        if self.size != *size {
            *self = source.clone();
            return;
        }
        let used = self.used();
        self.cells[..used].copy_from_slice(&cells[..used]);
        self.neighborhoods[..used].copy_from_slice(&neighborhoods[..used]);
        self.head[..used].copy_from_slice(&head[..used]);
        self.next[..used].copy_from_slice(&next[..used]);
        self.strings[..used].copy_from_slice(&strings[..used]);
        self.empty_slot[..used].copy_from_slice(&empty_slot[..used]);
        self.empties[..*empty_count].copy_from_slice(&empties[..*empty_count]);
        (self.empty_count, self.stones_key, self.ko, self.to_move, self.prisoners, self.passes) =
            (*empty_count, *stones_key, *ko, *to_move, *prisoners, *passes);
    }

    /// What is at `p` (any index below `POINTS`).
    #[inline]
    #[must_use]
    pub fn cell(&self, p: usize) -> Cell {
        self.cells[p]
    }

    /// Whether `p` is a point of this board.
    #[must_use]
    pub fn on_board(&self, p: usize) -> bool {
        p < POINTS && self.cells[p] != Cell::Border
    }

    /// The colour to move.
    #[must_use]
    pub fn to_move(&self) -> Cell {
        self.to_move
    }

    /// Sets the colour to move (setup positions, handicap, SGF `PL`).
    pub fn set_to_move(&mut self, color: Cell) {
        self.to_move = color;
        self.ko = 0;
    }

    /// The simple-ko point forbidden to the side to move, if any.
    #[must_use]
    pub fn ko_point(&self) -> Option<usize> {
        (self.ko != 0).then_some(self.ko)
    }

    /// Stones captured so far by `color`.
    #[must_use]
    pub fn prisoners(&self, color: Cell) -> u32 {
        self.prisoners[color.index()]
    }

    /// Consecutive passes just played (2 ends the game).
    #[must_use]
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// The Zobrist key of the stones alone.
    #[must_use]
    pub fn stones_key(&self) -> u64 {
        self.stones_key
    }

    /// The key of stones plus side to move.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.stones_key ^ if self.to_move == Cell::White { white_to_move_key() } else { 0 }
    }

    /// The key recomputed from the stones.
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = if self.to_move == Cell::White { white_to_move_key() } else { 0 };
        for p in self.points() {
            if matches!(self.cells[p], Cell::Black | Cell::White) {
                key ^= stone_key(self.cells[p], p);
            }
        }
        key
    }

    /// Every point of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| point(x, y)))
    }

    /// The empty points, in no particular order.
    #[must_use]
    pub fn empty_points(&self) -> &[u16] {
        &self.empties[..self.empty_count]
    }

    /// The cells of the 8 points around the board point `p` as a 16-bit code: 2 bits per slot
    /// of [`AROUND`] (0 empty, 1 black, 2 white, 3 off the board), the first slot lowest.
    #[inline]
    #[must_use]
    pub fn neighborhood(&self, p: usize) -> usize {
        usize::from(self.neighborhoods[p])
    }

    /// How many of the four orthogonal neighbours of the board point `p` are empty (one load).
    #[inline]
    #[must_use]
    pub fn empty_neighbors(&self, p: usize) -> u32 {
        empty_orthogonal(self.neighborhood(p))
    }

    /// Representative stone of the string at `p` (a stone).
    #[inline]
    #[must_use]
    pub fn string_head(&self, p: usize) -> usize {
        usize::from(self.head[p])
    }

    /// Stones in the string at `p`.
    #[must_use]
    pub fn string_stones(&self, p: usize) -> u32 {
        u32::from(self.strings[self.string_head(p)].stones)
    }

    /// Whether the string at `p` has exactly one liberty.
    #[inline]
    #[must_use]
    pub fn in_atari(&self, p: usize) -> bool {
        self.strings[self.string_head(p)].in_atari()
    }

    /// The only liberty of the string at `p`, which must be in atari.
    #[inline]
    #[must_use]
    pub fn atari_liberty(&self, p: usize) -> usize {
        self.strings[self.string_head(p)].only_liberty()
    }

    /// The liberties of the string at `p` (a stone), smaller first, when it has one or two; a
    /// single liberty (atari) fills both entries. `None` with three or more.
    #[inline]
    #[must_use]
    pub fn liberties_up_to_two(&self, p: usize) -> Option<[usize; 2]> {
        self.strings[self.string_head(p)].liberties_up_to_two()
    }

    /// The stones of the string at `p`.
    pub fn string_members(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let start = p;
        let mut current = Some(p);
        std::iter::from_fn(move || {
            let stone = current?;
            let next = usize::from(self.next[stone]);
            current = (next != start).then_some(next);
            Some(stone)
        })
    }

    /// Writes up to `out.len()` distinct liberties of the string at `p` into `out`; returns how many.
    pub fn liberties(&self, p: usize, out: &mut [usize]) -> usize {
        let mut found = 0;
        for stone in self.string_members(p) {
            for n in neighbors(stone) {
                if self.cells[n] == Cell::Empty && !out[..found].contains(&n) {
                    if found == out.len() {
                        return found;
                    }
                    out[found] = n;
                    found += 1;
                }
            }
        }
        found
    }

    /// Whether `color` playing at the empty point `p` captures something.
    #[inline]
    #[must_use]
    pub fn captures_at(&self, p: usize, color: Cell) -> bool {
        let enemy = color.opponent();
        neighbors(p).into_iter().any(|n| self.cells[n] == enemy && self.in_atari(n))
    }

    /// Whether `color` playing at the empty point `p` leaves its own stone without liberties
    /// (and captures nothing).
    #[inline]
    #[must_use]
    pub fn is_suicide(&self, p: usize, color: Cell) -> bool {
        for n in neighbors(p) {
            match self.cells[n] {
                Cell::Empty => return false,
                Cell::Border => {}
                c if c == color => {
                    if !self.in_atari(n) {
                        return false;
                    }
                }
                _ => {
                    if self.in_atari(n) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether `p` is an eye-like point of `color`: every neighbour is `color` or off the board,
    /// and the diagonals do not make it a false eye.
    #[inline]
    #[must_use]
    pub fn is_eye(&self, p: usize, color: Cell) -> bool {
        EYES[self.neighborhood(p)] >> color.index() & 1 != 0
    }

    /// Plays `color` at the empty point `p` by the board rules alone (captures, suicide removal,
    /// simple ko); the caller checked legality. Returns the number of stones captured.
    pub fn play(&mut self, p: usize, color: Cell) -> u32 {
        debug_assert_eq!(self.cells[p], Cell::Empty);
        let enemy = color.opponent();
        self.add_stone(p, color);
        let mut captured = 0;
        let mut captured_point = 0;
        for n in neighbors(p) {
            if self.cells[n] == enemy && self.strings[self.string_head(n)].pseudo == 0 {
                captured += self.remove_string(n);
                captured_point = n;
            }
        }
        self.prisoners[color.index()] += captured;
        let own = self.strings[self.string_head(p)];
        if own.pseudo == 0 {
            // Suicide (only reached when the rules allow it).
            let lost = self.remove_string(p);
            self.prisoners[enemy.index()] += lost;
        }
        self.ko = if captured == 1 && own.stones == 1 && own.in_atari() { captured_point } else { 0 };
        self.to_move = enemy;
        self.passes = 0;
        captured
    }

    /// Forgets the passes just played (ownership playouts continue a finished game).
    pub fn reset_passes(&mut self) {
        self.passes = 0;
    }

    /// The side to move passes.
    pub fn pass(&mut self) {
        self.ko = 0;
        self.to_move = self.to_move.opponent();
        self.passes = self.passes.saturating_add(1);
    }

    /// Puts a setup stone (handicap, SGF `AB`/`AW`) without changing the side to move; a stone
    /// that would have no liberty captures like a move would. `p` must be empty.
    pub fn place_setup_stone(&mut self, p: usize, color: Cell) {
        let to_move = self.to_move;
        let passes = self.passes;
        self.play(p, color);
        self.to_move = to_move;
        self.passes = passes;
        self.ko = 0;
    }

    /// The key of the stones after `color` plays at the empty point `p` (captures included).
    #[must_use]
    pub fn stones_key_after(&self, p: usize, color: Cell) -> u64 {
        let enemy = color.opponent();
        let mut key = self.stones_key ^ stone_key(color, p);
        let mut captures = false;
        for stone in self.adjacent_strings(p, enemy).filter(|&stone| self.in_atari(stone)) {
            captures = true;
            key ^= self.string_stones_key(stone);
        }
        if !captures && self.is_suicide(p, color) {
            // The new stone and its whole string disappear.
            key ^= stone_key(color, p);
            for stone in self.adjacent_strings(p, color) {
                key ^= self.string_stones_key(stone);
            }
        }
        key
    }

    /// One stone of each distinct `color` string next to `p` (at most four), in neighbour order.
    fn adjacent_strings(&self, p: usize, color: Cell) -> impl Iterator<Item = usize> {
        let mut heads = [0usize; 4];
        let mut stones = [0usize; 4];
        let mut count = 0;
        for n in neighbors(p) {
            if self.cells[n] == color {
                let head = self.string_head(n);
                if !heads[..count].contains(&head) {
                    heads[count] = head;
                    stones[count] = n;
                    count += 1;
                }
            }
        }
        stones.into_iter().take(count)
    }

    /// The XOR of the stone keys of the string at `p`.
    fn string_stones_key(&self, p: usize) -> u64 {
        let color = self.cells[p];
        self.string_members(p).fold(0, |key, stone| key ^ stone_key(color, stone))
    }
}

/// Equal boards have the same state in every slot in use (stones, strings, the order of the
/// empty points), side to move, ko, prisoners and passes.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        let used = self.used();
        self.size == other.size
            && self.cells[..used] == other.cells[..used]
            && self.neighborhoods[..used] == other.neighborhoods[..used]
            && self.head[..used] == other.head[..used]
            && self.next[..used] == other.next[..used]
            && self.strings[..used] == other.strings[..used]
            && self.empty_slot[..used] == other.empty_slot[..used]
            && self.empty_points() == other.empty_points()
            && (self.stones_key, self.ko, self.to_move, self.prisoners, self.passes)
                == (other.stones_key, other.ko, other.to_move, other.prisoners, other.passes)
    }
}

impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {}x{}, {:?} to move, ko {:?}", self.size, self.size, self.to_move, self.ko_point())?;
        for y in 0..self.size {
            for x in 0..self.size {
                let symbol = match self.cells[point(x, y)] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                write!(f, "{symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
