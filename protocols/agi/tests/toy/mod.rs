//! Tic-tac-toe (from core's toys) as an AGI game: the top-left 3×3 corner of the 15×15 board,
//! point (x, y) is square `3y + x`. The searcher is core's alpha-beta.

use tessera_agi_protocol::{AgiPoint, Dialect};
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

    fn parse_move(&self, _position: &TicTacToe, text: &str) -> Result<u8, IllegalMove> {
        match AgiPoint::parse(text) {
            Some(point) if point.x < 3 && point.y < 3 => Ok(3 * point.y + point.x),
            _ => Err(IllegalMove(text.to_owned())),
        }
    }

    fn format_move(&self, _position: &TicTacToe, mv: u8) -> String {
        AgiPoint { x: mv % 3, y: mv / 3 }.to_string()
    }
}

impl GridNotation for Corner {
    fn move_at(&self, _position: &TicTacToe, point: GridPoint) -> Result<u8, IllegalMove> {
        match AgiPoint::from_grid(point) {
            Some(point) if point.x < 3 && point.y < 3 => Ok(3 * point.y + point.x),
            _ => Err(IllegalMove(format!("{point:?}"))),
        }
    }

    fn point_of(&self, _position: &TicTacToe, mv: u8) -> Option<GridPoint> {
        Some(AgiPoint { x: mv % 3, y: mv / 3 }.into())
    }
}

/// The square of `point`, if it is in the corner.
pub fn square(point: AgiPoint) -> Option<u8> {
    Corner.move_at(&TicTacToe::new(), point.into()).ok()
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
