//! Points of a board game's grid, typed: the coordinates a protocol's grammar names (GTP vertices,
//! AGI and pbrain points) handed to the game's notation as numbers, never written as text to be
//! read back. The text forms two games share with their protocols live here too, written once:
//! [`LetteredPoint`] (go's `D4`, for GTP) and [`HexPoint`] (AGI's `78`, for gomoku).

mod hex;
mod lettered;

pub use hex::{HexPoint, HEX_BOARD_SIZE};
pub use lettered::{LetteredPoint, MAX_LETTERED_SIZE};

use crate::game::{Game, Notation};

/// A text that is not a point in the form asked for; it holds the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a point: {0:?}")]
pub struct GridTextError(pub String);

/// A point of a grid: its column from the left and its row from the top, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GridPoint {
    /// Column from the left, from 0.
    pub column: u32,
    /// Row from the top, from 0.
    pub row: u32,
}

/// The notation of a game whose moves put one stone on a grid point (or pass): the move at a
/// point and the point of a move, for protocols whose grammar names points.
pub trait GridNotation: Notation {
    /// The move putting a stone on `point` in `position`. Legality is the caller's to check.
    ///
    /// # Errors
    /// When this notation cannot name `point` (beyond the largest board it writes).
    fn move_at(&self, position: &Self::Game, point: GridPoint) -> Result<<Self::Game as Game>::Move, Self::Error>;

    /// The point `mv` puts its stone on in `position`; `None` for a move that puts none (a pass).
    fn point_of(&self, position: &Self::Game, mv: <Self::Game as Game>::Move) -> Option<GridPoint>;

    /// The move that passes in `position`, for games that have one (go); none by default.
    fn pass_move(&self, _position: &Self::Game) -> Option<<Self::Game as Game>::Move> {
        None
    }
}
