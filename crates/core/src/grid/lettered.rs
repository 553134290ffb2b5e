//! Points written as go writes them: a column letter `A`–`Z` without `I`, then the row number
//! counted from the bottom (`D4`, `Q16`).

use std::fmt;
use std::str::FromStr;

use super::{GridPoint, GridTextError};

/// Column letters: `I` is skipped (it reads too much like `J` and `1`), so 25 columns at most.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The largest board these points can name: 25 columns and 25 rows.
pub const MAX_LETTERED_SIZE: u32 = 25;

/// A point as `D4`: its column (`A` = 0, `J` = 8) and its row from the bottom, from 1. The text is
/// read case-insensitively and written in upper case; which board it lies on is the reader's to
/// check ([`LetteredPoint::on_board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LetteredPoint {
    column: u8,
    row_from_bottom: u8,
}

impl LetteredPoint {
    /// The point at `grid` on a board of `size` rows, or `None` beyond a `size` × `size` board or
    /// beyond what letters can name.
    #[must_use]
    pub fn from_grid(grid: GridPoint, size: u32) -> Option<LetteredPoint> {
        if size > MAX_LETTERED_SIZE || grid.column >= size || grid.row >= size {
            return None;
        }
        // Both are below 25, so the casts cannot truncate.
        Some(LetteredPoint { column: grid.column as u8, row_from_bottom: (size - grid.row) as u8 })
    }

    /// This point on a `size` × `size` board (rows from the top), or `None` when it lies beyond it.
    #[must_use]
    pub fn on_board(self, size: u32) -> Option<GridPoint> {
        let (column, row_from_bottom) = (u32::from(self.column), u32::from(self.row_from_bottom));
        (column < size && row_from_bottom <= size).then(|| GridPoint { column, row: size - row_from_bottom })
    }
}

impl FromStr for LetteredPoint {
    type Err = GridTextError;

    fn from_str(text: &str) -> Result<LetteredPoint, GridTextError> {
        let bad = || GridTextError(text.to_string());
        let (letter, digits) = text.split_at_checked(1).ok_or_else(bad)?;
        let letter = letter.as_bytes()[0].to_ascii_uppercase();
        let column = COLUMNS.iter().position(|&c| c == letter).ok_or_else(bad)?;
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row_from_bottom: u8 = digits.parse().map_err(|_| bad())?;
        if row_from_bottom == 0 || u32::from(row_from_bottom) > MAX_LETTERED_SIZE {
            return Err(bad());
        }
        // `column` indexes a 25-letter table.
        Ok(LetteredPoint { column: column as u8, row_from_bottom })
    }
}

impl fmt::Display for LetteredPoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every constructor keeps the column below 25.
        write!(f, "{}{}", char::from(COLUMNS[usize::from(self.column)]), self.row_from_bottom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_of_every_board_round_trips() {
        for size in [1, 2, 9, 19, 25] {
            for column in 0..size {
                for row in 0..size {
                    let grid = GridPoint { column, row };
                    let point = LetteredPoint::from_grid(grid, size).unwrap();
                    let read: LetteredPoint = point.to_string().parse().unwrap();
                    assert_eq!(read.on_board(size), Some(grid));
                }
            }
        }
    }

    #[test]
    fn texts_read_as_go_writes_them() {
        let q16: LetteredPoint = "q16".parse().unwrap();
        assert_eq!(q16.to_string(), "Q16");
        assert_eq!(q16.on_board(19), Some(GridPoint { column: 15, row: 3 }));
        assert_eq!(q16.on_board(9), None);
        assert_eq!("J1".parse::<LetteredPoint>().unwrap().on_board(9), Some(GridPoint { column: 8, row: 8 }));
        for bad in ["", "I5", "A0", "A26", "T1x", "A+1", "5A", "A", "é1", "A123"] {
            assert!(bad.parse::<LetteredPoint>().is_err(), "{bad}");
        }
        assert_eq!(LetteredPoint::from_grid(GridPoint { column: 9, row: 0 }, 9), None);
        assert_eq!(LetteredPoint::from_grid(GridPoint { column: 0, row: 0 }, 26), None);
    }
}
