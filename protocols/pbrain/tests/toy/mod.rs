//! Tic-tac-toe (from core's toys) as a pbrain game: `START 3` only, point `x,y` is square
//! `3y + x`. The searcher is core's alpha-beta, keeping the root of every search it is asked for.

use std::sync::{Arc, Mutex};

use tessera_core::harness::Watched;
use tessera_core::toys::TicTacToe;
use tessera_core::{
    AlphaBeta, EngineOptions, GameExt, GridNotation, GridPoint, Identity, IllegalMove, Notation, Player, Score,
};
use tessera_pbrain_protocol::{Dialect, RuleCode};

/// Points `x,y` of the 3×3 board.
#[derive(Clone, Copy, Debug, Default)]
pub struct Points;

impl Notation for Points {
    type Game = TicTacToe;
    type Error = IllegalMove;

    fn parse_move(&self, _position: &TicTacToe, text: &str) -> Result<u8, IllegalMove> {
        let bad = || IllegalMove(text.to_owned());
        let (x, y) = text.split_once(',').ok_or_else(bad)?;
        let (x, y): (u8, u8) = (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
        if x >= 3 || y >= 3 {
            return Err(bad());
        }
        Ok(3 * y + x)
    }

    fn format_move(&self, _position: &TicTacToe, mv: u8) -> String {
        format!("{},{}", mv % 3, mv / 3)
    }
}

impl GridNotation for Points {
    fn move_at(&self, _position: &TicTacToe, point: GridPoint) -> Result<u8, IllegalMove> {
        if point.column >= 3 || point.row >= 3 {
            return Err(IllegalMove(format!("{},{}", point.column, point.row)));
        }
        // Both are below 3.
        Ok(3 * point.row as u8 + point.column as u8)
    }

    fn point_of(&self, _position: &TicTacToe, mv: u8) -> Option<GridPoint> {
        Some(GridPoint { column: u32::from(mv % 3), row: u32::from(mv / 3) })
    }
}

/// Tic-tac-toe over pbrain; `roots` collects the root of every search, `move_times` its time.
#[derive(Default)]
pub struct Toy {
    /// The root of every search started.
    pub roots: Arc<Mutex<Vec<TicTacToe>>>,
    /// The move time every search was given.
    pub move_times: Arc<Mutex<Vec<Option<std::time::Duration>>>>,
}

impl Player for Toy {
    type Game = TicTacToe;
    type Searcher = Watched<TicTacToe, AlphaBeta<TicTacToe>>;
    type Notation = Points;

    fn identity(&self) -> Identity {
        Identity { name: "toy".into(), ..Identity::tessera("1") }
    }
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher {
        let (roots, move_times) = (Arc::clone(&self.roots), Arc::clone(&self.move_times));
        Watched::new(AlphaBeta::new(options, 5), move |root: &TicTacToe, limits: &tessera_core::Limits<u8>| {
            roots.lock().expect("not poisoned").push(root.clone());
            move_times.lock().expect("not poisoned").push(limits.move_time);
        })
    }
}

impl Dialect for Toy {
    type Error = IllegalMove;

    fn new_game(&self, width: u32, height: u32, _rule: RuleCode) -> Result<TicTacToe, IllegalMove> {
        if (width, height) == (3, 3) {
            Ok(TicTacToe::new())
        } else {
            Err(IllegalMove(format!("{width}x{height}: only 3x3")))
        }
    }
    fn place(&self, game: &mut TicTacToe, mv: u8) -> Result<(), IllegalMove> {
        game.try_play(mv)
    }
    fn forbidden_points(&self, _game: &TicTacToe) -> Vec<u8> {
        Vec::new()
    }
    fn swap2_opening(&self, _game: &TicTacToe, _width: u32, _height: u32) -> Vec<u8> {
        vec![4, 8, 2]
    }
    fn prefers_swap(&self, score: Score) -> bool {
        matches!(score, Score::Centipawns(cp) if cp < 0)
    }
}
