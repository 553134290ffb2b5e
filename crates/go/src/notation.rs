//! GTP vertices: a column letter `A`–`Z` without `I`, then the row from the bottom (`D4`, `Q16`),
//! or `pass`.

use tessera_core::{GridNotation, GridPoint, LetteredPoint, Notation};

use crate::board::{coordinates, point};
use crate::position::{Move, Position};

/// A vertex text was not understood or is off the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid vertex {0:?}")]
pub struct VertexError(pub String);

/// Reads a vertex on a `size` × `size` board (case-insensitive), or `pass`.
///
/// # Errors
/// [`VertexError`] when the text is not a vertex of this board.
pub fn parse_vertex(size: usize, text: &str) -> Result<Move, VertexError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::PASS);
    }
    let grid = text.parse::<LetteredPoint>().ok().and_then(|vertex| vertex.on_board(u32::try_from(size).ok()?));
    let grid = grid.ok_or_else(|| VertexError(text.to_string()))?;
    Ok(Move::at(point(grid.column as usize, grid.row as usize)))
}

/// Writes a move as a GTP vertex (upper case) on a `size` × `size` board.
#[must_use]
pub fn format_vertex(size: usize, mv: Move) -> String {
    lettered_point(size, mv).map_or_else(|| "pass".to_string(), |vertex| vertex.to_string())
}

/// The vertex of `mv` on a `size` × `size` board, `None` for a pass.
#[must_use]
pub fn lettered_point(size: usize, mv: Move) -> Option<LetteredPoint> {
    let (x, y) = coordinates(mv.point()?);
    // Boards are at most 25 × 25, so every coordinate and size fits.
    LetteredPoint::from_grid(GridPoint { column: x as u32, row: y as u32 }, size as u32)
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
