//! The gomoku crate seen through the AGI protocol's `Dialect`.

use tessera_agi::{AgiPoint, Dialect};
use tessera_gomoku::{Board, Point, Rules};

/// The 15×15 gomoku board for AGI.
pub struct Gomoku;

impl Dialect for Gomoku {
    type Game = Board;
    fn new_game(&self, forbidden: bool) -> Board {
        Board::new(if forbidden { Rules::RENJU_15 } else { Rules::FREESTYLE_15 })
    }
    fn place(&self, game: &mut Board, point: AgiPoint) -> Result<(), String> {
        game.place(Point::new(point.x, point.y)).map_err(|error| error.to_string())
    }
    fn to_move(&self, point: AgiPoint) -> Point {
        Point::new(point.x, point.y)
    }
    fn point(&self, mv: Point) -> AgiPoint {
        AgiPoint { x: mv.x(), y: mv.y() }
    }
    fn identity(&self) -> (String, String) {
        (format!("Tessera {}", env!("CARGO_PKG_VERSION")), "The Tessera developers".into())
    }
}
