//! The core `Game` implementation: legal moves (renju black never plays a forbidden point),
//! play/undo, outcomes and keys.

use tessera_core::{Game, MoveBuffer, MoveList, Outcome, Side};

use crate::board::Board;
use crate::point::Point;
use crate::rules::Rules;

/// Capacity of a move list: every point of the largest board.
pub const MAX_MOVES: usize = 484;

/// A move list of gomoku.
pub type Moves = MoveList<Point, MAX_MOVES>;

impl Board {
    /// Whether the game is over by a win (five, or a renju foul) on the last move.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        let last = self.history.last()?;
        let mover = if self.history.len() % 2 == 1 { Side::First } else { Side::Second };
        if last.won {
            Some(mover)
        } else if last.foul {
            Some(mover.opponent())
        } else {
            None
        }
    }

    /// Places a stone for the side to move on an empty on-board point, even a renju-forbidden
    /// one (a manager or GUI is the referee of its own moves; the foul is recorded and loses).
    ///
    /// # Errors
    /// When the point is off the board or occupied.
    pub fn place(&mut self, point: Point) -> Result<(), PlaceError> {
        if !self.contains(point) {
            return Err(PlaceError::OffBoard(point));
        }
        let cell = self.cell(point);
        if !self.is_empty_cell(cell) {
            return Err(PlaceError::Occupied(point));
        }
        self.put(cell, self.to_move());
        Ok(())
    }

    /// The points played so far, in order.
    pub fn moves(&self) -> impl Iterator<Item = Point> + '_ {
        self.history.iter().map(|record| record.point)
    }
}

/// A stone that cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceError {
    /// Outside the board.
    #[error("{0} is off the board")]
    OffBoard(Point),
    /// Already taken.
    #[error("{0} is occupied")]
    Occupied(Point),
}

impl Game for Board {
    type Move = Point;
    type Rules = Rules;
    type Moves = Moves;

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.to_move()
    }

    fn generate_legal_moves(&self, moves: &mut Moves) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        let side = self.to_move();
        let check_forbidden = self.rules.has_forbidden(side);
        for cell in self.board_cells() {
            if self.is_empty_cell(cell) && !(check_forbidden && self.is_forbidden_cell(cell)) {
                moves.push(self.point(cell));
            }
        }
    }

    fn is_legal(&self, mv: Point) -> bool {
        if !self.contains(mv) || self.winner().is_some() {
            return false;
        }
        let cell = self.cell(mv);
        self.is_empty_cell(cell) && !(self.rules.has_forbidden(self.to_move()) && self.is_forbidden_cell(cell))
    }

    fn play(&mut self, mv: Point) {
        let cell = self.cell(mv);
        self.put(cell, self.to_move());
    }

    fn undo(&mut self) {
        self.take_back();
    }

    fn ply(&self) -> usize {
        self.history.len()
    }

    fn move_played(&self, index: usize) -> Option<Point> {
        self.history.get(index).map(|record| record.point)
    }

    fn hash(&self) -> u64 {
        self.key()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.key_from_scratch()
    }

    fn hash_after(&self, mv: Point) -> Option<u64> {
        Some(self.key_after(mv))
    }

    fn rule_outcome(&self, _search_root: Option<usize>) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    fn no_move_outcome(&self) -> Outcome {
        self.winner().map_or(Outcome::Draw, Outcome::Win)
    }
}
