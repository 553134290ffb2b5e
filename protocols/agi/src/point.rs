//! AGI points: row digit `0`–`E` from the top, column digit `1`–`F` from the left.

use std::fmt;

use tessera_core::GridPoint;

/// A point as `(x, y)`: column and row, 0-based from the top-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AgiPoint {
    /// Column, 0–14.
    pub x: u8,
    /// Row, 0–14.
    pub y: u8,
}

impl AgiPoint {
    /// Reads two hex digits (case-insensitive).
    #[must_use]
    pub fn parse(text: &str) -> Option<AgiPoint> {
        let mut chars = text.chars();
        let (row, column) = (chars.next()?.to_digit(16)?, chars.next()?.to_digit(16)?);
        if chars.next().is_some() || row > 14 || column == 0 {
            return None;
        }
        // Both digits are below 16.
        Some(AgiPoint { x: (column - 1) as u8, y: row as u8 })
    }

    /// The point of the 15×15 board at `grid`, or `None` beyond it.
    #[must_use]
    pub fn from_grid(grid: GridPoint) -> Option<AgiPoint> {
        // Both are at most 14, so the casts cannot truncate.
        (grid.column <= 14 && grid.row <= 14).then_some(AgiPoint { x: grid.column as u8, y: grid.row as u8 })
    }
}

impl From<AgiPoint> for GridPoint {
    fn from(point: AgiPoint) -> GridPoint {
        GridPoint { column: u32::from(point.x), row: u32::from(point.y) }
    }
}

impl fmt::Display for AgiPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}{:X}", self.y, u32::from(self.x) + 1)
    }
}

/// Reads packed points (`786869`).
#[must_use]
pub fn parse_points(text: &str) -> Option<Vec<AgiPoint>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|at| AgiPoint::parse(&text[at..at + 2])).collect()
}

/// Writes packed points.
#[must_use]
pub fn format_points(points: &[AgiPoint]) -> String {
    points.iter().map(ToString::to_string).collect()
}
