//! A game position: the board, the rules, and the history that undo and superko need.
//! The [`Game`] implementation lives here.

use std::fmt;

use tessera_core::{Game, MoveBuffer, MoveList, Outcome, PackedMove, Side};

use crate::board::{Board, Cell, POINTS};
use crate::rules::{Rules, Superko};
use crate::score::area_score;

/// A move: a point index of the board array, or a pass (code 0, which is never a board point).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// Passing.
    pub const PASS: Move = Move(0);
    /// A code that is never legal (decoded from bits outside the board array).
    const NONE: Move = Move(POINTS as u16);

    /// A stone at point index `p` (see [`crate::board::point`]).
    #[must_use]
    pub const fn at(p: usize) -> Move {
        Move(p as u16)
    }

    /// The point played, or `None` for a pass.
    #[must_use]
    pub const fn point(self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0 as usize)
        }
    }

    /// Whether this is a pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
}

impl PackedMove for Move {
    fn to_bits(self) -> u16 {
        self.0
    }

    fn from_bits(bits: u16) -> Move {
        if usize::from(bits) < POINTS {
            Move(bits)
        } else {
            Move::NONE
        }
    }
}

/// Capacity of a move list: every point of a 25 × 25 board plus a pass.
pub const MAX_MOVES: usize = 25 * 25 + 1;

/// A list of go moves.
pub type Moves = MoveList<Move, MAX_MOVES>;

/// The colour of a side: Black moves first.
#[must_use]
pub const fn color_of(side: Side) -> Cell {
    match side {
        Side::First => Cell::Black,
        Side::Second => Cell::White,
    }
}

/// The side of a stone colour (White for anything but Black).
#[must_use]
pub fn side_of(color: Cell) -> Side {
    if color == Cell::Black {
        Side::First
    } else {
        Side::Second
    }
}

/// A go position with its rules and history.
pub struct Position {
    board: Board,
    rules: Rules,
    /// The board before the first move (setup and handicap stones), for SGF output.
    start: Board,
    /// The board before each move played, then spare boards that undone moves left: a search's
    /// play and undo reuse them ([`Board::copy_from`] copies only the slots in use).
    history: Vec<Board>,
    moves: Vec<Move>,
    /// Superko keys of every position so far, the current one last.
    seen: Vec<u64>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            board: self.board.clone(),
            rules: self.rules,
            start: self.start.clone(),
            history: self.boards_before_moves().to_vec(),
            moves: self.moves.clone(),
            seen: self.seen.clone(),
        }
    }
}

/// Equal positions have the same board, rules, start and history (spare boards aside).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.rules == other.rules
            && self.start == other.start
            && self.boards_before_moves() == other.boards_before_moves()
            && self.moves == other.moves
            && self.seen == other.seen
    }
}

impl Position {
    /// An empty `size` × `size` board under `rules`.
    ///
    /// # Panics
    /// Panics if `size` is outside 2..=25.
    #[must_use]
    pub fn new(size: usize, rules: Rules) -> Position {
        Position::from_board(Board::new(size), rules)
    }

    /// A game starting from `board` (setup stones, side to move) under `rules`.
    #[must_use]
    pub fn from_board(board: Board, rules: Rules) -> Position {
        let mut position =
            Position { start: board.clone(), board, rules, history: Vec::new(), moves: Vec::new(), seen: Vec::new() };
        position.seen.push(position.superko_key_now());
        position
    }

    /// The current board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board before the first move.
    #[must_use]
    pub fn start_board(&self) -> &Board {
        &self.start
    }

    /// The board side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The moves played since the start board.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Changes the komi (GTP `komi` may come at any time); the rest of the position is kept.
    pub fn set_komi(&mut self, komi: f32) {
        self.rules.komi = komi;
    }

    /// Gives the move to `color` without a move being played (GTP lets a colour play twice).
    pub fn set_to_move(&mut self, color: Cell) {
        if color != self.board.to_move() {
            self.board.set_to_move(color);
            let key = self.superko_key_now();
            if let Some(last) = self.seen.last_mut() {
                *last = key;
            }
        }
    }

    /// Lets a game that two passes ended go on; the passes stay in the history for undo.
    pub fn resume(&mut self) {
        self.board.reset_passes();
    }

    /// Changes the rules; superko keys are recomputed for the new repetition rule.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        let situational = rules.superko == Superko::Situational;
        let key = |board: &Board| if situational { board.key() } else { board.stones_key() };
        self.seen = self.boards_before_moves().iter().chain(std::iter::once(&self.board)).map(key).collect();
    }

    /// The board before each move played, the first move's first.
    fn boards_before_moves(&self) -> &[Board] {
        &self.history[..self.moves.len()]
    }

    /// The colour to move.
    #[must_use]
    pub fn to_move(&self) -> Cell {
        self.board.to_move()
    }

    /// Whether the game is over (two consecutive passes).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.board.consecutive_passes() >= 2
    }

    /// Area score of the board as it stands (Black minus White minus komi).
    #[must_use]
    pub fn tromp_taylor_score(&self) -> f32 {
        let (black, white) = area_score(&self.board);
        black as f32 - white as f32 - self.rules.komi
    }

    fn superko_key_now(&self) -> u64 {
        match self.rules.superko {
            Superko::Positional => self.board.stones_key(),
            Superko::Situational => self.board.key(),
        }
    }

    /// Whether a stone at `p` for the side to move is legal: empty point, not simple ko, no
    /// forbidden suicide, no superko repetition.
    #[must_use]
    pub fn is_legal_point(&self, p: usize) -> bool {
        let board = &self.board;
        if !board.on_board(p) || board.cell(p) != Cell::Empty || board.ko_point() == Some(p) || self.is_over() {
            return false;
        }
        let color = board.to_move();
        if !self.rules.suicide_allowed && board.is_suicide(p, color) {
            return false;
        }
        let mut key = board.stones_key_after(p, color);
        if self.rules.superko == Superko::Situational {
            // The key as seen with the opponent to move.
            key ^= if color == Cell::Black { crate::board::white_to_move_key() } else { 0 };
        }
        !self.seen.contains(&key)
    }

    /// The winner by area score of the board as it stands, or a draw on an exact tie.
    #[must_use]
    pub fn area_outcome(&self) -> Outcome {
        outcome_of_score(self.tromp_taylor_score())
    }
}

/// The outcome of a score (Black minus White).
#[must_use]
pub fn outcome_of_score(score: f32) -> Outcome {
    if score > 0.0 {
        Outcome::Win(Side::First)
    } else if score < 0.0 {
        Outcome::Win(Side::Second)
    } else {
        Outcome::Draw
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}{} moves, rules {}", self.board, self.moves.len(), self.rules)
    }
}

impl Game for Position {
    type Move = Move;
    type Rules = Rules;
    type Moves = Moves;

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        side_of(self.board.to_move())
    }

    fn generate_legal_moves(&self, moves: &mut Moves) {
        moves.clear();
        if self.is_over() {
            return;
        }
        for p in self.board.points() {
            if self.is_legal_point(p) {
                moves.push(Move::at(p));
            }
        }
        moves.push(Move::PASS);
    }

    fn is_legal(&self, mv: Move) -> bool {
        match mv.point() {
            None => !self.is_over(),
            Some(p) => self.is_legal_point(p),
        }
    }

    fn play(&mut self, mv: Move) {
        match self.history.get_mut(self.moves.len()) {
            Some(spare) => spare.copy_from(&self.board),
            None => self.history.push(self.board.clone()),
        }
        match mv.point() {
            None => self.board.pass(),
            Some(p) => {
                self.board.play(p, self.board.to_move());
            }
        }
        self.moves.push(mv);
        self.seen.push(self.superko_key_now());
    }

    fn undo(&mut self) {
        let ply = self.moves.len().checked_sub(1).expect("undo needs a move played");
        self.undo_to(ply);
    }

    /// Restores the board saved before move `ply` at once instead of one board per move.
    fn undo_to(&mut self, ply: usize) {
        if ply < self.moves.len() {
            self.board.copy_from(&self.history[ply]);
            self.moves.truncate(ply);
            self.seen.truncate(ply + 1); // the start position's key comes first
        }
    }

    fn ply(&self) -> usize {
        self.moves.len()
    }

    fn move_played(&self, index: usize) -> Option<Move> {
        self.moves.get(index).copied()
    }

    fn hash(&self) -> u64 {
        self.board.key()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.key_from_scratch()
    }

    fn rule_outcome(&self, _search_root: Option<usize>) -> Option<Outcome> {
        self.is_over().then(|| self.area_outcome())
    }

    fn no_move_outcome(&self) -> Outcome {
        self.area_outcome()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point;
    use tessera_core::harness::check_game_invariants;

    #[test]
    fn harness_passes_on_9x9_and_19x19() {
        assert!(check_game_invariants(&Position::new(9, Rules::CHINESE), 12, 200, 1) > 300);
        assert!(check_game_invariants(&Position::new(9, Rules::TROMP_TAYLOR), 6, 200, 2) > 100);
        assert!(check_game_invariants(&Position::new(19, Rules::NEW_ZEALAND), 2, 250, 3) > 100);
    }

    #[test]
    fn two_passes_end_the_game_with_the_area_result() {
        let mut position = Position::new(5, Rules::CHINESE.with_komi(0.5));
        position.play(Move::at(point(2, 2)));
        position.play(Move::PASS);
        assert!(position.rule_outcome(None).is_none());
        position.play(Move::PASS);
        assert_eq!(position.rule_outcome(None), Some(Outcome::Win(Side::First)));
        assert_eq!(position.tromp_taylor_score(), 24.5);
        let mut moves = Moves::new();
        position.generate_legal_moves(&mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn ko_recapture_and_suicide_are_illegal() {
        let mut position = Position::new(5, Rules::CHINESE);
        let line = [(1, 0), (2, 0), (0, 1), (3, 1), (1, 2), (2, 2), (2, 1), (1, 1)];
        for (x, y) in line {
            position.play(Move::at(point(x, y)));
        }
        // Black may not retake the ko at once.
        assert!(!position.is_legal(Move::at(point(2, 1))));
        let mut plain = Position::new(5, Rules::CHINESE);
        for (x, y) in [(1, 0), (4, 4), (0, 1)] {
            plain.play(Move::at(point(x, y)));
        }
        // Suicide: White at (0,0) has no liberty and captures nothing.
        assert!(!plain.is_legal(Move::at(point(0, 0))));
        let mut suicidal = Position::new(5, Rules::TROMP_TAYLOR);
        for (x, y) in [(1, 0), (4, 4), (0, 1), (4, 3), (2, 2)] {
            suicidal.play(Move::at(point(x, y)));
        }
        // A lone stone's suicide recreates the position: positional superko forbids it.
        assert!(!suicidal.is_legal(Move::at(point(0, 0))));
    }
}
