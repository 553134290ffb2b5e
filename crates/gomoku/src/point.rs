//! A point of the board: the move type of gomoku.

use std::fmt;

use tessera_core::PackedMove;

/// A board point `(x, y)`, 0-based from the top-left, packed as `y * 32 + x` (10 bits).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point at column `x`, row `y` (both below 32).
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Point {
        Point(((y as u16 & 31) << 5) | (x as u16 & 31))
    }

    /// Column, from the left.
    #[must_use]
    pub const fn x(self) -> u8 {
        (self.0 & 31) as u8
    }

    /// Row, from the top.
    #[must_use]
    pub const fn y(self) -> u8 {
        // Codes from `from_bits` may exceed 10 bits; such rows are off every board.
        let row = self.0 >> 5;
        if row > 31 {
            255
        } else {
            row as u8
        }
    }
}

impl PackedMove for Point {
    fn to_bits(self) -> u16 {
        self.0
    }
    fn from_bits(bits: u16) -> Point {
        Point(bits)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}
