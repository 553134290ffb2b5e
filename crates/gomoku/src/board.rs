//! The board: stones on a padded array, incremental line keys and per-cell line patterns for
//! both sides, threat counts, evaluation sums and the Zobrist key, all kept on play and undo.

use std::fmt;
use std::sync::{Arc, LazyLock};

use tessera_core::zobrist::zobrist_keys;
use tessera_core::Side;
use tessera_nnue::Network;

use crate::cells::{CellSet, MAX_CELLS};
use crate::pattern::{LinePattern, LineTable, OWN, REACH, WALL};
use crate::point::Point;
use crate::rules::{Rules, MAX_SIDE};
use crate::shape::{Shape, Threat, SHAPES};

const PAD: i32 = 5;
/// Cell codes on the board: empty, black, white, off the board.
const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;

const POINTS: usize = MAX_SIDE as usize * MAX_SIDE as usize;
static ZOBRIST: [u64; POINTS * 2 + 1] = zobrist_keys(0x676F_6D6F_6B75);

/// One move of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    pub point: Point,
    pub cell: u16,
    /// The mover won with this move.
    pub won: bool,
    /// Renju: black played a forbidden point with it (and loses).
    pub foul: bool,
    /// How many line patterns of empty cells the stone changed (the last entries of `Board::changes`).
    changes: u16,
}

/// A line pattern of an empty cell as it was before a stone changed it: taking the stone back
/// restores it instead of reading the line table again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PatternChange {
    cell: u16,
    dir: u8,
    old: [LinePattern; 2],
}

/// A gomoku/renju position.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    pub(crate) rules: Rules,
    pub(crate) stride: i32,
    pub(crate) cells: [u8; MAX_CELLS],
    pub(crate) keys: [[u32; 4]; MAX_CELLS],
    pub(crate) patterns: [[[LinePattern; 4]; MAX_CELLS]; 2],
    shapes: [[Shape; MAX_CELLS]; 2],
    values: [[i16; MAX_CELLS]; 2],
    totals: [i32; 2],
    shape_counts: [[u16; SHAPES]; 2],
    /// Per side and shape, the empty cells holding it (`Shape::None` is not kept).
    shape_cells: [[CellSet; SHAPES]; 2],
    /// The empty cells with a positional value for either side (a line pattern worth something).
    valued_cells: CellSet,
    pub(crate) history: Vec<Record>,
    /// The patterns the stones of `history` changed, in order (see [`Record`]).
    changes: Vec<PatternChange>,
    hash: u64,
    /// The network that evaluates this board, if any (see [`Board::set_network`]).
    pub(crate) network: Option<Arc<Network>>,
}

/// Positional value of one line pattern (the shapes carry the threats; see `shape.rs`).
const LINE_VALUE: [i16; 10] = [0, 2, 6, 5, 12, 10, 20, 20, 0, 0];

/// Line-pattern codes (`LinePattern as usize` is below this).
const LINE_CODES: usize = LinePattern::ALL.len();
const LINE_COMBINATIONS: usize = LINE_CODES.pow(4);

/// The shape of every combination of four line patterns, for a side without and then with renju's
/// forbidden shapes: [`Shape::of`] computed once (20 KB, to stay in the first-level cache).
static CELL_SHAPES: LazyLock<Box<[Shape]>> = LazyLock::new(|| {
    let combinations = (0..LINE_COMBINATIONS)
        .map(|index| [0, 1, 2, 3].map(|dir| LinePattern::ALL[index / LINE_CODES.pow(dir) % LINE_CODES]));
    [false, true]
        .into_iter()
        .flat_map(|forbidden_rule| combinations.clone().map(move |lines| Shape::of(&lines, forbidden_rule)))
        .collect()
});

impl Board {
    /// An empty board under `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Board {
        let stride = i32::from(rules.width) + PAD;
        let mut board = Board {
            rules,
            stride,
            cells: [WALL; MAX_CELLS],
            keys: [[0; 4]; MAX_CELLS],
            patterns: [[[LinePattern::None; 4]; MAX_CELLS]; 2],
            shapes: [[Shape::None; MAX_CELLS]; 2],
            values: [[0; MAX_CELLS]; 2],
            totals: [0; 2],
            shape_counts: [[0; SHAPES]; 2],
            shape_cells: [[CellSet::EMPTY; SHAPES]; 2],
            valued_cells: CellSet::EMPTY,
            history: Vec::with_capacity(POINTS),
            // A stone changes at most 4 directions × 10 cells; a game's worth grows as needed.
            changes: Vec::with_capacity(1024),
            hash: 0,
            network: None,
        };
        for y in 0..rules.height {
            for x in 0..rules.width {
                let cell = board.cell(Point::new(x, y));
                board.cells[cell] = EMPTY;
            }
        }
        board.compute_tables();
        board
    }

    /// Computes the keys, patterns, shapes and sums from the stones alone (what play and undo keep
    /// incrementally).
    fn compute_tables(&mut self) {
        let limit = self.array_len();
        for cell in 0..limit {
            for dir in 0..4 {
                let step = self.step(dir);
                let mut key = 0;
                for k in -REACH..=REACH {
                    let other = cell as i32 + k * step;
                    let code = if (0..limit as i32).contains(&other) { self.cells[other as usize] } else { WALL };
                    key |= u32::from(code) << (2 * (k + REACH));
                }
                self.keys[cell][dir] = key;
            }
        }
        self.shapes = [[Shape::None; MAX_CELLS]; 2];
        self.values = [[0; MAX_CELLS]; 2];
        self.totals = [0; 2];
        self.shape_counts = [[0; SHAPES]; 2];
        self.shape_cells = [[CellSet::EMPTY; SHAPES]; 2];
        self.valued_cells = CellSet::EMPTY;
        let table = self.line_table();
        for cell in 0..limit {
            if self.cells[cell] == WALL {
                continue;
            }
            if self.cells[cell] == EMPTY {
                for dir in 0..4 {
                    self.refresh_pattern(table, cell, dir);
                }
            }
            self.refresh_cell(cell, [true; 2]);
        }
    }

    /// The rules of this game.
    #[must_use]
    pub fn game_rules(&self) -> &Rules {
        &self.rules
    }

    fn array_len(&self) -> usize {
        ((i32::from(self.rules.height) + 2 * PAD + 1) * self.stride) as usize
    }

    /// The array index of an on-board point.
    #[inline]
    pub(crate) fn cell(&self, point: Point) -> usize {
        ((i32::from(point.y()) + PAD) * self.stride + i32::from(point.x()) + PAD) as usize
    }

    /// The point of an array index (which must be on the board).
    #[inline]
    pub(crate) fn point(&self, cell: usize) -> Point {
        let cell = cell as i32;
        Point::new((cell % self.stride - PAD) as u8, (cell / self.stride - PAD) as u8)
    }

    /// The index step of direction `dir`: horizontal, vertical, diagonal, anti-diagonal.
    #[inline]
    pub(crate) fn step(&self, dir: usize) -> i32 {
        [1, self.stride, self.stride + 1, self.stride - 1][dir]
    }

    /// Whether `point` is on this board.
    #[must_use]
    pub fn contains(&self, point: Point) -> bool {
        point.x() < self.rules.width && point.y() < self.rules.height
    }

    /// The stone on `point`, if any (`point` must be on the board).
    #[must_use]
    pub fn stone(&self, point: Point) -> Option<Side> {
        match self.cells[self.cell(point)] {
            BLACK => Some(Side::First),
            WHITE => Some(Side::Second),
            _ => None,
        }
    }

    /// Whether array cell `cell` is an empty on-board cell.
    #[inline]
    pub(crate) fn is_empty_cell(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }

    /// Every on-board array index, row by row.
    pub(crate) fn board_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let first = self.cell(Point::new(0, 0));
        let last = self.cell(Point::new(self.rules.width - 1, self.rules.height - 1));
        // Row-major like the points: the padding between rows is wall.
        (first..=last).filter(move |&cell| self.cells[cell] != WALL)
    }

    /// Stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// The side to move: black when both have as many stones.
    #[must_use]
    pub fn to_move(&self) -> Side {
        if self.history.len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The pattern `side` makes on line `dir` by playing empty `cell`.
    #[inline]
    #[must_use]
    pub(crate) fn pattern(&self, side: Side, cell: usize, dir: usize) -> LinePattern {
        self.patterns[side.index()][cell][dir]
    }

    /// The threat `side` makes by playing empty `cell`.
    #[inline]
    #[must_use]
    pub(crate) fn threat(&self, side: Side, cell: usize) -> Threat {
        self.shapes[side.index()][cell].threat()
    }

    /// The shape `side` makes by playing empty `cell`.
    #[inline]
    #[must_use]
    pub(crate) fn shape(&self, side: Side, cell: usize) -> Shape {
        self.shapes[side.index()][cell]
    }

    /// How many empty cells give `side` exactly `shape`.
    #[inline]
    #[must_use]
    pub(crate) fn shape_count(&self, side: Side, shape: Shape) -> u32 {
        u32::from(self.shape_counts[side.index()][shape as usize])
    }

    /// Cells per shape of `side` over the empty cells.
    #[inline]
    #[must_use]
    pub(crate) fn shape_counts(&self, side: Side) -> &[u16; SHAPES] {
        &self.shape_counts[side.index()]
    }

    /// The empty cells where `side`'s shape passes `wanted`, in board order (`Shape::None`
    /// cells never: they are not kept).
    #[inline]
    pub(crate) fn cells_with(&self, side: Side, wanted: impl Fn(Shape) -> bool) -> impl Iterator<Item = usize> {
        let sets = &self.shape_cells[side.index()];
        Shape::ALL
            .iter()
            .zip(sets)
            .filter(|(&shape, _)| wanted(shape))
            .fold(CellSet::EMPTY, |cells, (_, set)| cells.union(set))
            .iter()
    }

    /// The empty cells where `side` makes a threat of at least `level` (above `Threat::None`), in
    /// board order.
    #[inline]
    pub(crate) fn threat_cells(&self, side: Side, level: Threat) -> impl Iterator<Item = usize> {
        self.cells_with(side, move |shape| shape.threat() != Threat::None && shape.threat() >= level)
    }

    /// The empty cells with a positional value for either side, in board order.
    #[inline]
    pub(crate) fn valued_cells(&self) -> impl Iterator<Item = usize> {
        self.valued_cells.iter()
    }

    /// How many empty cells give `side` a threat of at least `level` (read off the shape counts).
    #[must_use]
    pub fn threat_count(&self, side: Side, level: Threat) -> u32 {
        Shape::ALL
            .iter()
            .zip(&self.shape_counts[side.index()])
            .filter(|(shape, _)| shape.threat() != Threat::None && shape.threat() >= level)
            .map(|(_, &count)| u32::from(count))
            .sum()
    }

    /// Sum of the cell values of `side` over the empty cells.
    #[must_use]
    pub fn value_total(&self, side: Side) -> i32 {
        self.totals[side.index()]
    }

    /// The evaluation weight of empty `cell` for `side`.
    #[must_use]
    pub(crate) fn cell_value(&self, side: Side, cell: usize) -> i32 {
        i32::from(self.values[side.index()][cell])
    }

    /// The incremental Zobrist key.
    #[must_use]
    pub fn key(&self) -> u64 {
        self.hash
    }

    /// The Zobrist key computed from the stones alone.
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for cell in self.board_cells() {
            let code = self.cells[cell];
            if code == BLACK || code == WHITE {
                hash ^= Self::zobrist(self.point(cell), code);
            }
        }
        if self.to_move() == Side::Second {
            hash ^= ZOBRIST[POINTS * 2];
        }
        hash
    }

    /// The key after the side to move puts a stone on empty `point`.
    #[must_use]
    pub(crate) fn key_after(&self, point: Point) -> u64 {
        self.hash ^ Self::move_key(point, Self::stone_code(self.to_move()))
    }

    /// The cell code of a stone of `side`.
    fn stone_code(side: Side) -> u8 {
        if side == Side::First {
            BLACK
        } else {
            WHITE
        }
    }

    /// What a stone of `code` on `point` changes in the key: the stone and the side to move.
    fn move_key(point: Point, code: u8) -> u64 {
        Self::zobrist(point, code) ^ ZOBRIST[POINTS * 2]
    }

    fn zobrist(point: Point, code: u8) -> u64 {
        ZOBRIST[(usize::from(point.y()) * usize::from(MAX_SIDE) + usize::from(point.x())) * 2 + usize::from(code - 1)]
    }

    /// Both sides' line-pattern table under these rules.
    #[inline]
    fn line_table(&self) -> &'static LineTable {
        LineTable::get([self.rules.win_kind(Side::First), self.rules.win_kind(Side::Second)])
    }

    /// Reads the line patterns of empty `cell` on `dir` from its key; which side's changed.
    #[inline]
    fn refresh_pattern(&mut self, table: &LineTable, cell: usize, dir: usize) -> [bool; 2] {
        self.set_patterns(cell, dir, table.patterns(self.keys[cell][dir]))
    }

    /// Sets both sides' line patterns of `cell` on `dir`; which side's changed.
    #[inline]
    fn set_patterns(&mut self, cell: usize, dir: usize, patterns: [LinePattern; 2]) -> [bool; 2] {
        [0, 1].map(|side| {
            let slot = &mut self.patterns[side][cell][dir];
            let changed = *slot != patterns[side];
            *slot = patterns[side];
            changed
        })
    }

    /// Refreshes the shape and value of `cell` for the sides marked in `sides`.
    fn refresh_cell(&mut self, cell: usize, sides: [bool; 2]) {
        for side in Side::BOTH.into_iter().filter(|side| sides[side.index()]) {
            let s = side.index();
            let (shape, value) = if self.cells[cell] == EMPTY { self.summarise(side, cell) } else { (Shape::None, 0) };
            let old = self.shapes[s][cell];
            if old != shape {
                if old != Shape::None {
                    self.shape_counts[s][old as usize] -= 1;
                    self.shape_cells[s][old as usize].remove(cell);
                }
                if shape != Shape::None {
                    self.shape_counts[s][shape as usize] += 1;
                    self.shape_cells[s][shape as usize].insert(cell);
                }
            }
            self.totals[s] += i32::from(value) - i32::from(self.values[s][cell]);
            self.shapes[s][cell] = shape;
            self.values[s][cell] = value;
        }
        if self.values[0][cell] > 0 || self.values[1][cell] > 0 {
            self.valued_cells.insert(cell);
        } else {
            self.valued_cells.remove(cell);
        }
    }

    /// Combines the four line patterns of `cell` for `side` into a shape and a positional value.
    #[inline]
    fn summarise(&self, side: Side, cell: usize) -> (Shape, i16) {
        let lines = &self.patterns[side.index()][cell];
        let combination = lines.iter().rev().fold(0, |index, &line| index * LINE_CODES + line as usize);
        let shape = CELL_SHAPES[usize::from(self.rules.has_forbidden(side)) * LINE_COMBINATIONS + combination];
        if shape == Shape::Forbidden {
            // Renju black: shapes that are usually forbidden are worth nothing to black.
            return (shape, 0);
        }
        (shape, lines.iter().map(|&line| LINE_VALUE[line as usize]).sum())
    }

    /// Puts a stone of `side` on empty on-board `cell`, updating every table; `won`/`foul` are recorded.
    pub(crate) fn put(&mut self, cell: usize, side: Side) {
        let point = self.point(cell);
        let won = self.pattern(side, cell, 0) == LinePattern::Five
            || (1..4).any(|dir| self.pattern(side, cell, dir) == LinePattern::Five);
        let foul = !won && self.rules.has_forbidden(side) && self.is_forbidden_cell(cell);
        let code = Self::stone_code(side);
        self.cells[cell] = code;
        self.toggle_keys(cell, code);
        self.hash ^= Self::move_key(point, code);
        let logged = self.changes.len();
        self.refresh_lines_through(cell);
        // A stone keeps no shape; its patterns stay as they were (nothing reads them, and nothing
        // on its lines changes them while it stands, so they are right again when it is taken back).
        self.refresh_cell(cell, [true; 2]);
        let changes = (self.changes.len() - logged) as u16;
        self.history.push(Record { point, cell: cell as u16, won, foul, changes });
    }

    /// Takes the last stone back.
    ///
    /// # Panics
    /// Panics when the board is empty.
    pub(crate) fn take_back(&mut self) {
        let record = self.history.pop().expect("undo needs a move to take back");
        let cell = usize::from(record.cell);
        let code = self.cells[cell];
        self.cells[cell] = EMPTY;
        self.toggle_keys(cell, code);
        self.hash ^= Self::move_key(record.point, code);
        for _ in 0..record.changes {
            let change = self.changes.pop().expect("each record's changes are logged");
            let other = usize::from(change.cell);
            let changed = self.set_patterns(other, usize::from(change.dir), change.old);
            self.refresh_cell(other, changed);
        }
        self.refresh_cell(cell, [true; 2]);
    }

    fn toggle_keys(&mut self, cell: usize, code: u8) {
        for dir in 0..4 {
            let step = self.step(dir);
            for k in -REACH..=REACH {
                let other = (cell as i32 - k * step) as usize;
                self.keys[other][dir] ^= u32::from(code) << (2 * (k + REACH));
            }
        }
    }

    /// Refreshes what the stone just put on `cell` changed: the line pattern of each empty cell in
    /// reach on its lines, and that cell's shape where a pattern changed; logs the old patterns.
    fn refresh_lines_through(&mut self, cell: usize) {
        let table = self.line_table();
        for dir in 0..4 {
            let step = self.step(dir);
            for k in (-REACH..=REACH).filter(|&k| k != 0) {
                let other = (cell as i32 + k * step) as usize;
                if self.cells[other] != EMPTY {
                    continue;
                }
                let old = [self.patterns[0][other][dir], self.patterns[1][other][dir]];
                let changed = self.refresh_pattern(table, other, dir);
                // A side whose patterns stay keeps its shape.
                if changed != [false; 2] {
                    self.changes.push(PatternChange { cell: other as u16, dir: dir as u8, old });
                    self.refresh_cell(other, changed);
                }
            }
        }
    }

    /// The renju pattern of black at empty `cell` on `dir`, with extra black stones `extra` added.
    pub(crate) fn black_pattern_with(&self, cell: usize, dir: usize, extra: &[usize]) -> LinePattern {
        let step = self.step(dir);
        let mut key = self.keys[cell][dir];
        for &stone in extra {
            let offset = stone as i32 - cell as i32;
            if offset != 0 && offset % step == 0 && (offset / step).abs() <= REACH {
                key |= u32::from(OWN) << (2 * (offset / step + REACH));
            }
        }
        self.line_table().patterns(key)[Side::First.index()]
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} moves:{:?}", self.rules, self.history.iter().map(|record| record.point).collect::<Vec<_>>())?;
        for y in 0..self.rules.height {
            for x in 0..self.rules.width {
                let ch = match self.stone(Point::new(x, y)) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One side's line patterns, shape and value of an empty cell.
    type SideState = ([LinePattern; 4], Shape, i16);
    /// Per empty cell its keys and both sides' states; the sums; the shape counts; the cell sets.
    type KeptState =
        (Vec<([u32; 4], SideState, SideState)>, [i32; 2], [[u16; SHAPES]; 2], ([[CellSet; SHAPES]; 2], CellSet));

    /// What play and undo keep for the empty cells and the whole board (stones keep stale
    /// patterns, which nothing reads).
    fn kept_state(board: &Board) -> KeptState {
        let cells = board
            .board_cells()
            .filter(|&cell| board.is_empty_cell(cell))
            .map(|cell| {
                let [black, white] =
                    [0, 1].map(|side| (board.patterns[side][cell], board.shapes[side][cell], board.values[side][cell]));
                (board.keys[cell], black, white)
            })
            .collect();
        (cells, board.totals, board.shape_counts, (board.shape_cells, board.valued_cells))
    }

    #[test]
    fn incremental_tables_equal_tables_computed_from_the_stones_along_random_games() {
        use tessera_core::Game;
        let mut rng = tessera_core::Rng::new(29);
        let mut moves = crate::game::Moves::new();
        for rules in [Rules::FREESTYLE_15, Rules::RENJU_15, Rules::new(crate::Variant::Caro, 7, 12).unwrap()] {
            for _ in 0..6 {
                let mut board = Board::new(rules);
                while board.outcome().is_none() && board.ply() < 70 {
                    board.generate_legal_moves(&mut moves);
                    board.play(moves[rng.below(moves.len())]);
                    // Now and then a move taken back and another played instead.
                    if rng.below(4) == 0 && board.outcome().is_none() {
                        board.undo();
                        let mut fresh = board.clone();
                        fresh.compute_tables();
                        assert!(kept_state(&board) == kept_state(&fresh), "{rules} after undo {:?}", board);
                        board.generate_legal_moves(&mut moves);
                        board.play(moves[rng.below(moves.len())]);
                    }
                    let mut fresh = board.clone();
                    fresh.compute_tables();
                    assert!(kept_state(&board) == kept_state(&fresh), "{rules} after {:?}", board);
                }
            }
        }
    }
}
