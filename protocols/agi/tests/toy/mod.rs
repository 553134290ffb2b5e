//! Tic-tac-toe (from core's toys) as an AGI game: the top-left 3×3 corner of the 15×15 board,
//! point (x, y) is square `3y + x`. The searcher is core's alpha-beta.

use tessera_agi_protocol::{Dialect, HexPoint};
use tessera_core::toys::TicTacToe;
use tessera_core::{
    AlphaBeta, EngineOptions, GameExt, GridNotation, GridPoint, Identity, IllegalMove, Notation, Player, Score,
};

/// AGI points of the top-left 3×3 corner: point (x, y) is square `3y + x`; any other point of
/// the 15×15 board is refused, as a move no position allows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Corner;

impl Notation for Corner {
    type Game = TicTacToe;
    type Error = IllegalMove;

    fn parse_move(&self, position: &TicTacToe, text: &str) -> Result<u8, IllegalMove> {
        let point = text.parse::<HexPoint>().map_err(|_| IllegalMove(text.to_owned()))?;
        self.move_at(position, point.grid())
    }

    fn format_move(&self, _position: &TicTacToe, mv: u8) -> String {
        HexPoint::from_grid(corner_point(mv)).map_or_else(|| format!("square {mv}"), |point| point.to_string())
    }
}

impl GridNotation for Corner {
    fn move_at(&self, _position: &TicTacToe, point: GridPoint) -> Result<u8, IllegalMove> {
        match (u8::try_from(point.column), u8::try_from(point.row)) {
            (Ok(x @ 0..3), Ok(y @ 0..3)) => Ok(3 * y + x),
            _ => Err(IllegalMove(format!("{point:?}"))),
        }
    }

    fn point_of(&self, _position: &TicTacToe, mv: u8) -> Option<GridPoint> {
        Some(corner_point(mv))
    }
}

/// The grid point of square `mv`.
fn corner_point(mv: u8) -> GridPoint {
    GridPoint { column: u32::from(mv % 3), row: u32::from(mv / 3) }
}

/// The square of `point`, if it is in the corner.
pub fn square(point: HexPoint) -> Option<u8> {
    Corner.move_at(&TicTacToe::new(), point.grid()).ok()
}

/// Tic-tac-toe on the top-left 3×3 corner of the AGI board.
pub struct Toy;

impl Player for Toy {
    type Game = TicTacToe;
    type Searcher = AlphaBeta<TicTacToe>;
    type Notation = Corner;

    fn identity(&self) -> Identity {
        Identity { name: "Toy".into(), version: String::new(), author: "tests".into(), ..Identity::tessera("") }
    }
    fn new_searcher(&self, options: &EngineOptions) -> AlphaBeta<TicTacToe> {
        AlphaBeta::new(options, 5)
    }
}

impl Dialect for Toy {
    type Error = IllegalMove;

    fn new_game(&self, _forbidden: bool) -> TicTacToe {
        TicTacToe::new()
    }
    fn place(&self, game: &mut TicTacToe, mv: u8) -> Result<(), IllegalMove> {
        game.try_play(mv)
    }
    fn takes_first_stone(&self, _game: &TicTacToe, stone: u8) -> bool {
        stone == 4
    }
    fn prefers_change(&self, score: Score) -> bool {
        matches!(score, Score::Centipawns(value) if value < 0)
    }
}
