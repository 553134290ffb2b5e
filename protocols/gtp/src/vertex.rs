//! Colours and vertices (`B`, `white`, `D4`, `pass`): the board words of GTP, both ways.

use std::fmt;
use std::str::FromStr;

use tessera_core::{GridPoint, Side};

use crate::error::CommandError;

/// Column letters, `I` skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

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

/// A vertex: a pass or a point given by column (0 = `A`) and row (1 = bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vertex {
    /// Passing.
    Pass,
    /// A point; the session checks it lies on the board.
    Point {
        /// 0-based column (`A` = 0, `J` = 8).
        column: u8,
        /// 1-based row from the bottom.
        row: u8,
    },
}

impl Vertex {
    /// The grid point of this vertex on a board of `size` rows (rows counted from the top), or
    /// `None` for a pass or a row beyond the board.
    #[must_use]
    pub fn grid_point(self, size: usize) -> Option<GridPoint> {
        let Vertex::Point { column, row } = self else { return None };
        let from_top = size.checked_sub(usize::from(row)).filter(|_| row > 0)?;
        Some(GridPoint { column: u32::from(column), row: u32::try_from(from_top).ok()? })
    }
}

impl FromStr for Vertex {
    type Err = CommandError;
    fn from_str(text: &str) -> Result<Vertex, CommandError> {
        let upper = text.to_ascii_uppercase();
        if upper == "PASS" {
            return Ok(Vertex::Pass);
        }
        let bytes = upper.as_bytes();
        let column = bytes.first().and_then(|b| COLUMNS.iter().position(|c| c == b)).ok_or(CommandError::Syntax)?;
        let digits = &upper[1..];
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CommandError::Syntax);
        }
        let row: u8 = digits.parse().map_err(|_| CommandError::Syntax)?;
        if row == 0 || row > 25 {
            return Err(CommandError::Syntax);
        }
        Ok(Vertex::Point { column: column as u8, row })
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Vertex::Pass => f.write_str("pass"),
            Vertex::Point { column, row } => write!(f, "{}{row}", char::from(COLUMNS[usize::from(column.min(24))])),
        }
    }
}
