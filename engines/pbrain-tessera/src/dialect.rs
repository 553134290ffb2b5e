//! The gomoku crate seen through the pbrain protocol's `Dialect`.

use tessera_gomoku::{Board, Point, Rules, Variant};
use tessera_pbrain::{Dialect, RuleCode};

/// Gomoku and renju for pbrain.
pub struct Gomoku;

impl Dialect for Gomoku {
    type Game = Board;

    fn new_game(&self, width: u32, height: u32, rule: RuleCode) -> Result<Board, String> {
        let variant = match rule {
            RuleCode::Freestyle => Variant::Freestyle,
            RuleCode::Standard => Variant::Standard,
            RuleCode::Renju => Variant::Renju,
            RuleCode::Caro => Variant::Caro,
        };
        Rules::new(variant, width, height).map(Board::new).map_err(|error| error.to_string())
    }

    fn place(&self, game: &mut Board, x: u32, y: u32) -> Result<(), String> {
        let (Ok(column), Ok(row)) = (u8::try_from(x), u8::try_from(y)) else {
            return Err(format!("{x},{y} is off the board"));
        };
        if column >= 32 || row >= 32 {
            return Err(format!("{x},{y} is off the board"));
        }
        game.place(Point::new(column, row)).map_err(|error| error.to_string())
    }

    fn coordinates(&self, mv: Point) -> (u32, u32) {
        (u32::from(mv.x()), u32::from(mv.y()))
    }

    fn forbidden_points(&self, game: &Board) -> Vec<(u32, u32)> {
        game.forbidden_points().into_iter().map(|point| self.coordinates(point)).collect()
    }

    fn about(&self) -> String {
        format!(
            "name=\"Tessera\", version=\"{}\", author=\"The Tessera developers\", country=\"-\", www=\"https://example.invalid/tessera\", email=\"-\"",
            env!("CARGO_PKG_VERSION")
        )
    }
}
