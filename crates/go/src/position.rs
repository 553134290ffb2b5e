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
    /// The board before move `checkpoint_plies[i]` is `checkpoints[i]`; boards past the plies'
    /// count are spares that undone checkpoints left ([`Board::copy_from`] reuses them). Ply 0 is
    /// always saved; so is the ply a clone was made at, a board changed between moves, and a move
    /// [`CHECKPOINT_INTERVAL`] plies after the last checkpoint. Undo restores the last checkpoint
    /// and replays the moves after it, so a search's descent from a cloned root saves no board.
    checkpoints: Vec<Board>,
    checkpoint_plies: Vec<usize>,
    moves: Vec<Move>,
    /// Superko keys of every position so far, the current one last.
    seen: Vec<u64>,
}

/// Most moves between saved boards: undoing replays at most this many moves less one.
const CHECKPOINT_INTERVAL: usize = 16;

impl Clone for Position {
    fn clone(&self) -> Position {
        let saved = self.checkpoint_plies.len();
        let mut clone = Position {
            board: self.board.clone(),
            rules: self.rules,
            start: self.start.clone(),
            checkpoints: self.checkpoints[..saved].to_vec(),
            checkpoint_plies: self.checkpoint_plies.clone(),
            moves: self.moves.clone(),
            seen: self.seen.clone(),
        };
        // A search clones its root and returns to it after every descent: one copy then.
        clone.save_checkpoint();
        clone
    }
}

/// Equal positions have the same board, rules, start, moves and superko keys (the saved boards
/// follow from those; which plies are saved does not matter).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.rules == other.rules
            && self.start == other.start
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
        let mut position = Position {
            start: board.clone(),
            checkpoints: vec![board.clone()],
            checkpoint_plies: vec![0],
            board,
            rules,
            moves: Vec::new(),
            seen: Vec::new(),
        };
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
            self.save_checkpoint(); // replaying the moves before would not give this board
            let key = self.superko_key_now();
            if let Some(last) = self.seen.last_mut() {
                *last = key;
            }
        }
    }

    /// Lets a game that two passes ended go on; the passes stay in the history for undo.
    pub fn resume(&mut self) {
        self.board.reset_passes();
        self.save_checkpoint();
    }

    /// Changes the rules; superko keys are recomputed for the new repetition rule.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        let situational = rules.superko == Superko::Situational;
        let key = |board: &Board| if situational { board.key() } else { board.stones_key() };
        // Replay the game from each saved board up to the next, keying the board before each move.
        let mut board = self.board.clone();
        self.seen.clear();
        for (index, &from) in self.checkpoint_plies.iter().enumerate() {
            let to = self.checkpoint_plies.get(index + 1).copied().unwrap_or(self.moves.len());
            board.copy_from(&self.checkpoints[index]);
            for &mv in &self.moves[from..to] {
                self.seen.push(key(&board));
                replay(&mut board, mv);
            }
        }
        self.seen.push(key(&self.board));
    }

    /// Saves the board as it stands as the board before the next move (replacing a checkpoint
    /// of this ply).
    fn save_checkpoint(&mut self) {
        let ply = self.moves.len();
        if self.checkpoint_plies.last() != Some(&ply) {
            self.checkpoint_plies.push(ply);
        }
        let index = self.checkpoint_plies.len() - 1;
        match self.checkpoints.get_mut(index) {
            Some(board) => board.copy_from(&self.board),
            None => self.checkpoints.push(self.board.clone()),
        }
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

/// Plays `mv` for the side to move of `board`, as [`Position`]'s moves are played.
fn replay(board: &mut Board, mv: Move) {
    match mv.point() {
        None => board.pass(),
        Some(p) => {
            board.play(p, board.to_move());
        }
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
        // Counted from the last checkpoint, not from ply 0: a search's descent starts at the
        // checkpoint of its cloned root and so saves no board before this many moves.
        if self.checkpoint_plies.last().is_some_and(|&saved| self.moves.len() >= saved + CHECKPOINT_INTERVAL) {
            self.save_checkpoint();
        }
        replay(&mut self.board, mv);
        self.moves.push(mv);
        self.seen.push(self.superko_key_now());
    }

    fn undo(&mut self) {
        let ply = self.moves.len().checked_sub(1).expect("undo needs a move played");
        self.undo_to(ply);
    }

    /// Restores the last board saved at or before move `ply` and replays the moves after it.
    fn undo_to(&mut self, ply: usize) {
        if ply < self.moves.len() {
            while self.checkpoint_plies.last().is_some_and(|&saved| saved > ply) {
                self.checkpoint_plies.pop();
            }
            // Ply 0 is never dropped, so a checkpoint at or before `ply` remains.
            let index = self.checkpoint_plies.len() - 1;
            self.board.copy_from(&self.checkpoints[index]);
            for &mv in &self.moves[self.checkpoint_plies[index]..ply] {
                replay(&mut self.board, mv);
            }
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

    /// Undo replays moves from the saved boards: it must give back every board exactly, also across
    /// a colour playing twice and a game resumed after two passes, which no move replays.
    #[test]
    fn undo_replays_to_the_exact_board_across_changes_between_moves() {
        let mut position = Position::new(9, Rules::CHINESE);
        let mut boards = vec![(position.board().clone(), position.seen.clone())];
        let mut moves = Moves::new();
        for ply in 0..70 {
            match ply {
                17 => position.set_to_move(position.to_move().opponent()),
                40 => position.resume(),
                _ => {}
            }
            *boards.last_mut().expect("the start is saved") = (position.board().clone(), position.seen.clone());
            let mv = if (38..40).contains(&ply) {
                Move::PASS
            } else {
                position.generate_legal_moves(&mut moves);
                moves[(ply * 7 + 3) % moves.len()]
            };
            position.play(mv);
            boards.push((position.board().clone(), position.seen.clone()));
        }
        let copy = position.clone();
        // A search's descent from a cloned root saves no board: the clone's ply is a checkpoint.
        let mut descent = position.clone();
        let saved = descent.checkpoint_plies.len();
        for _ in 0..CHECKPOINT_INTERVAL - 1 {
            descent.generate_legal_moves(&mut moves);
            descent.play(moves[0]);
        }
        assert_eq!(descent.checkpoint_plies.len(), saved, "no board saved in the descent");
        descent.undo_to(70);
        assert!(descent == copy);
        for ply in [69, 55, 41, 40, 39, 33, 18, 17, 16, 15, 1, 0] {
            position.undo_to(ply);
            assert_eq!(position.board(), &boards[ply].0, "the board before move {ply}");
            assert_eq!(position.seen, boards[ply].1, "the superko keys before move {ply}");
        }
        // Re-keying for another superko rule replays the game too.
        let mut rekeyed = copy.clone();
        rekeyed.set_rules(Rules { superko: Superko::Situational, ..Rules::CHINESE });
        assert_ne!(rekeyed.seen, copy.seen);
        rekeyed.set_rules(Rules::CHINESE);
        assert_eq!(rekeyed.seen, copy.seen);
    }
}
