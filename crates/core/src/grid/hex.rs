//! Points written as two hexadecimal digits, as the AGI protocol writes them on its 15 × 15 board:
//! the row from the top from `0`, then the column from the left from `1` (`78` is the centre).

use std::fmt;
use std::str::FromStr;

use super::{GridPoint, GridTextError};

/// The board these points name: 15 columns and 15 rows.
pub const HEX_BOARD_SIZE: u32 = 15;

/// A point of the 15 × 15 board as two hex digits. Read case-insensitively, written in upper case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HexPoint(GridPoint);

impl HexPoint {
    /// The point at `grid`, or `None` beyond the 15 × 15 board.
    #[must_use]
    pub fn from_grid(grid: GridPoint) -> Option<HexPoint> {
        (grid.column < HEX_BOARD_SIZE && grid.row < HEX_BOARD_SIZE).then_some(HexPoint(grid))
    }

    /// The grid point, column and row from the top-left, each below 15.
    #[must_use]
    pub fn grid(self) -> GridPoint {
        self.0
    }

    /// Reads packed points (`786869`), or `None` if any pair is not a point.
    #[must_use]
    pub fn parse_list(text: &str) -> Option<Vec<HexPoint>> {
        if !text.len().is_multiple_of(2) || !text.is_ascii() {
            return None;
        }
        (0..text.len()).step_by(2).map(|at| text[at..at + 2].parse().ok()).collect()
    }

    /// Writes packed points.
    #[must_use]
    pub fn format_list(points: &[HexPoint]) -> String {
        points.iter().map(ToString::to_string).collect()
    }
}

impl FromStr for HexPoint {
    type Err = GridTextError;

    fn from_str(text: &str) -> Result<HexPoint, GridTextError> {
        let bad = || GridTextError(text.to_string());
        let mut digits = text.chars().map(|c| c.to_digit(16));
        let (Some(Some(row)), Some(Some(column)), None) = (digits.next(), digits.next(), digits.next()) else {
            return Err(bad());
        };
        if row >= HEX_BOARD_SIZE || column == 0 {
            return Err(bad());
        }
        Ok(HexPoint(GridPoint { column: column - 1, row }))
    }
}

impl fmt::Display for HexPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}{:X}", self.0.row, self.0.column + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_follow_the_draft() {
        let point = |text: &str| text.parse::<HexPoint>().map(HexPoint::grid);
        assert_eq!(point("01"), Ok(GridPoint { column: 0, row: 0 }));
        assert_eq!(point("EF"), Ok(GridPoint { column: 14, row: 14 }));
        assert_eq!(point("78"), Ok(GridPoint { column: 7, row: 7 }));
        assert_eq!(point("3c"), point("3C"));
        for bad in ["F1", "70", "7", "781", "", "g1", "é"] {
            assert!(point(bad).is_err(), "{bad}");
        }
        assert_eq!(HexPoint::from_grid(GridPoint { column: 11, row: 3 }).unwrap().to_string(), "3C");
        assert_eq!(HexPoint::from_grid(GridPoint { column: 15, row: 3 }), None);
        assert_eq!(HexPoint::format_list(&HexPoint::parse_list("786869").unwrap()), "786869");
        assert_eq!(HexPoint::parse_list("78686"), None);
        assert_eq!(HexPoint::parse_list("78F1"), None);
    }

    #[test]
    fn every_point_round_trips() {
        for column in 0..HEX_BOARD_SIZE {
            for row in 0..HEX_BOARD_SIZE {
                let point = HexPoint::from_grid(GridPoint { column, row }).unwrap();
                assert_eq!(point.to_string().parse(), Ok(point));
            }
        }
    }
}
