//! Colours and vertices (`B`, `white`, `D4`, `pass`): the board words of GTP, both ways.

use std::fmt;
use std::str::FromStr;

use tessera_core::{GridPoint, LetteredPoint, Side};

use crate::error::CommandError;

/// A player colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Black (moves first).
    Black,
    /// White.
    White,
}

impl FromStr for Color {
    type Err = CommandError;
    fn from_str(text: &str) -> Result<Color, CommandError> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(CommandError::Syntax),
        }
    }
}

impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::First => Color::Black,
            Side::Second => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if *self == Color::Black { "B" } else { "W" })
    }
}

/// A vertex: a pass or a point (`D4`, up to 25 × 25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// Passing.
    Pass,
    /// A point; the session checks it lies on the board.
    Point(LetteredPoint),
}

impl Vertex {
    /// The grid point of this vertex on a `size` × `size` board, or `None` for a pass or a point
    /// beyond the board.
    #[must_use]
    pub fn grid_point(self, size: usize) -> Option<GridPoint> {
        let Vertex::Point(point) = self else { return None };
        point.on_board(u32::try_from(size).ok()?)
    }
}

impl FromStr for Vertex {
    type Err = CommandError;
    fn from_str(text: &str) -> Result<Vertex, CommandError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Vertex::Pass);
        }
        text.parse().map(Vertex::Point).map_err(|_| CommandError::Syntax)
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Point(point) => point.fmt(f),
        }
    }
}
