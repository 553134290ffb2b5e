//! Move text: pbrain `x,y` (0-based column, row) and AGI two hex digits (row `0`–`E`, column `1`–`F`).

use tessera_core::{GridNotation, GridPoint, HexPoint, Notation};

use crate::board::Board;
use crate::point::Point;

/// A point text that is not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad point {0:?}")]
pub struct BadPoint(pub String);

/// Reads pbrain `x,y` (spaces around the numbers allowed).
///
/// # Errors
/// [`BadPoint`] when the text is not two numbers below 32 separated by a comma.
pub fn parse_pbrain(text: &str) -> Result<Point, BadPoint> {
    let bad = || BadPoint(text.to_string());
    let (x, y) = text.trim().split_once(',').ok_or_else(bad)?;
    let x: u32 = x.trim().parse().map_err(|_| bad())?;
    let y: u32 = y.trim().parse().map_err(|_| bad())?;
    point_at(GridPoint { column: x, row: y }).ok_or_else(bad)
}

/// The point at `grid` (column `x`, row `y`), if it is within the largest board (32×32).
fn point_at(grid: GridPoint) -> Option<Point> {
    // Both coordinates are below 32, so the casts cannot truncate.
    (grid.column < 32 && grid.row < 32).then(|| Point::new(grid.column as u8, grid.row as u8))
}

/// `point` on the grid.
fn grid_point(point: Point) -> GridPoint {
    GridPoint { column: u32::from(point.x()), row: u32::from(point.y()) }
}

/// Writes pbrain `x,y`.
#[must_use]
pub fn format_pbrain(point: Point) -> String {
    format!("{},{}", point.x(), point.y())
}

/// Reads one AGI point: row digit `0`–`E`, column digit `1`–`F` (case-insensitive).
///
/// # Errors
/// [`BadPoint`] for anything else.
pub fn parse_agi(text: &str) -> Result<Point, BadPoint> {
    let point = text.parse::<HexPoint>().map_err(|_| BadPoint(text.to_string()))?;
    // AGI points lie on 15×15, within every board.
    point_at(point.grid()).ok_or_else(|| BadPoint(text.to_string()))
}

/// Reads packed AGI points (`786869`).
///
/// # Errors
/// [`BadPoint`] on an odd length or a bad point.
pub fn parse_agi_list(text: &str) -> Result<Vec<Point>, BadPoint> {
    let points = HexPoint::parse_list(text).ok_or_else(|| BadPoint(text.to_string()))?;
    points.into_iter().map(|point| point_at(point.grid()).ok_or_else(|| BadPoint(text.to_string()))).collect()
}

/// Writes one AGI point (upper-case hex); a point beyond 15×15, which AGI cannot name, as `??`.
#[must_use]
pub fn format_agi(point: Point) -> String {
    HexPoint::from_grid(grid_point(point)).map_or_else(|| "??".to_string(), |point| point.to_string())
}

/// Writes packed AGI points.
#[must_use]
pub fn format_agi_list(points: &[Point]) -> String {
    points.iter().map(|&point| format_agi(point)).collect()
}

/// The pbrain notation as a core [`Notation`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Pbrain;

impl Notation for Pbrain {
    type Game = Board;
    type Error = BadPoint;
    fn parse_move(&self, _position: &Board, text: &str) -> Result<Point, BadPoint> {
        parse_pbrain(text)
    }
    fn format_move(&self, _position: &Board, mv: Point) -> String {
        format_pbrain(mv)
    }
}

/// pbrain's `x,y` handed over as numbers; the error names the point as pbrain writes it.
impl GridNotation for Pbrain {
    fn move_at(&self, _position: &Board, point: GridPoint) -> Result<Point, BadPoint> {
        point_at(point).ok_or_else(|| BadPoint(format!("{},{}", point.column, point.row)))
    }

    fn point_of(&self, _position: &Board, mv: Point) -> Option<GridPoint> {
        Some(grid_point(mv))
    }
}

/// The AGI notation as a core [`Notation`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Agi;

impl Notation for Agi {
    type Game = Board;
    type Error = BadPoint;
    fn parse_move(&self, _position: &Board, text: &str) -> Result<Point, BadPoint> {
        parse_agi(text)
    }
    fn format_move(&self, _position: &Board, mv: Point) -> String {
        format_agi(mv)
    }
}

/// AGI's points handed over as numbers (column and row from the top-left, from 0).
impl GridNotation for Agi {
    fn move_at(&self, _position: &Board, point: GridPoint) -> Result<Point, BadPoint> {
        point_at(point).ok_or_else(|| BadPoint(format!("column {}, row {}", point.column, point.row)))
    }

    fn point_of(&self, _position: &Board, mv: Point) -> Option<GridPoint> {
        Some(grid_point(mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agi_points_follow_the_draft() {
        assert_eq!(parse_agi("01"), Ok(Point::new(0, 0)));
        assert_eq!(parse_agi("EF"), Ok(Point::new(14, 14)));
        assert_eq!(parse_agi("78"), Ok(Point::new(7, 7)));
        assert_eq!(parse_agi("3c"), parse_agi("3C"));
        assert!(parse_agi("F1").is_err() && parse_agi("70").is_err() && parse_agi("7").is_err());
        assert_eq!(format_agi(Point::new(11, 3)), "3C");
        assert_eq!(format_agi_list(&parse_agi_list("786869").unwrap()), "786869");
        assert_eq!(parse_pbrain(" 10, 3"), Ok(Point::new(10, 3)));
        assert!(parse_pbrain("a,b").is_err() && parse_pbrain("40,1").is_err());
    }
}
