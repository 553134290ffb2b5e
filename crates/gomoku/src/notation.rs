//! Move text: pbrain `x,y` (0-based column, row) and AGI two hex digits (row `0`–`E`, column `1`–`F`).

use tessera_core::Notation;

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
    let x: u8 = x.trim().parse().map_err(|_| bad())?;
    let y: u8 = y.trim().parse().map_err(|_| bad())?;
    if x >= 32 || y >= 32 {
        return Err(bad());
    }
    Ok(Point::new(x, y))
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
    let bad = || BadPoint(text.to_string());
    let mut chars = text.chars();
    let (Some(row), Some(column), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(bad());
    };
    let row = row.to_digit(16).filter(|&row| row <= 14).ok_or_else(bad)?;
    let column = column.to_digit(16).filter(|&column| column >= 1).ok_or_else(bad)?;
    // Both digits are below 16, so the casts cannot truncate.
    Ok(Point::new((column - 1) as u8, row as u8))
}

/// Reads packed AGI points (`786869`).
///
/// # Errors
/// [`BadPoint`] on an odd length or a bad point.
pub fn parse_agi_list(text: &str) -> Result<Vec<Point>, BadPoint> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return Err(BadPoint(text.to_string()));
    }
    (0..text.len()).step_by(2).map(|at| parse_agi(&text[at..at + 2])).collect()
}

/// Writes one AGI point (upper-case hex).
#[must_use]
pub fn format_agi(point: Point) -> String {
    format!("{:X}{:X}", point.y(), u32::from(point.x()) + 1)
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
