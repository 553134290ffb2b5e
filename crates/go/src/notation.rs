//! GTP vertices: a column letter `A`–`Z` without `I`, then the row from the bottom (`D4`, `Q16`),
//! or `pass`.

use tessera_core::{GridNotation, GridPoint, Notation};

use crate::board::{coordinates, point};
use crate::position::{Move, Position};

/// Column letters, `I` skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A vertex text was not understood or is off the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid vertex {0:?}")]
pub struct VertexError(pub String);

/// Reads a vertex on a `size` × `size` board (case-insensitive), or `pass`.
///
/// # Errors
/// [`VertexError`] when the text is not a vertex of this board.
pub fn parse_vertex(size: usize, text: &str) -> Result<Move, VertexError> {
    let bad = || VertexError(text.to_string());
    let upper = text.to_ascii_uppercase();
    if upper == "PASS" {
        return Ok(Move::PASS);
    }
    let mut chars = upper.bytes();
    let letter = chars.next().ok_or_else(bad)?;
    let x = COLUMNS.iter().position(|&c| c == letter).ok_or_else(bad)?;
    let digits = &upper[1..];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return Err(bad());
    }
    let row: usize = digits.parse().map_err(|_| bad())?;
    if x >= size || row == 0 || row > size {
        return Err(bad());
    }
    Ok(Move::at(point(x, size - row)))
}

/// Writes a move as a GTP vertex (upper case) on a `size` × `size` board.
#[must_use]
pub fn format_vertex(size: usize, mv: Move) -> String {
    match mv.point() {
        None => "pass".to_string(),
        Some(p) => {
            let (x, y) = coordinates(p);
            format!("{}{}", char::from(COLUMNS[x.min(24)]), size.saturating_sub(y))
        }
    }
}

/// The GTP notation for [`Position`].
#[derive(Clone, Copy, Debug, Default)]
pub struct GtpNotation;

impl Notation for GtpNotation {
    type Game = Position;
    type Error = VertexError;

    fn parse_move(&self, position: &Position, text: &str) -> Result<Move, VertexError> {
        parse_vertex(position.size(), text)
    }

    fn format_move(&self, position: &Position, mv: Move) -> String {
        format_vertex(position.size(), mv)
    }
}

/// Vertices handed over as numbers (column from the left, row from the top).
impl GridNotation for GtpNotation {
    fn move_at(&self, position: &Position, grid: GridPoint) -> Result<Move, VertexError> {
        let size = position.size();
        let (x, y) = (grid.column as usize, grid.row as usize);
        if x >= size || y >= size {
            return Err(VertexError(format!("column {x}, row {y} from the top")));
        }
        Ok(Move::at(point(x, y)))
    }

    fn point_of(&self, _position: &Position, mv: Move) -> Option<GridPoint> {
        let (x, y) = coordinates(mv.point()?);
        // Coordinates of a board of at most 25 × 25.
        Some(GridPoint { column: x as u32, row: y as u32 })
    }

    fn pass_move(&self, _position: &Position) -> Option<Move> {
        Some(Move::PASS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip() {
        for size in [2, 9, 19, 25] {
            for x in 0..size {
                for y in 0..size {
                    let mv = Move::at(point(x, y));
                    assert_eq!(parse_vertex(size, &format_vertex(size, mv)).unwrap(), mv);
                }
            }
        }
        assert_eq!(format_vertex(19, parse_vertex(19, "q16").unwrap()), "Q16");
        assert_eq!(parse_vertex(19, "PASS").unwrap(), Move::PASS);
        for bad in ["", "I5", "A0", "A20", "T1x", "Z1", "A+1", "5A"] {
            assert!(parse_vertex(19, bad).is_err(), "{bad}");
        }
    }
}
