//! Tic-tac-toe (from core's toys) as a UCCI game: a "FEN" is the list of squares played
//! (`0,4,8`), a move is a square number.

use tessera_core::toys::{Numbers, TicTacToe};
use tessera_core::{AlphaBeta, EngineOptions, Evaluate, GameExt, Identity, IllegalMove, Player, Score};
use tessera_ucci_protocol::{Dialect, Verdict, Verdicts};

/// Tic-tac-toe over UCCI.
#[derive(Clone)]
pub struct Toy;

impl Player for Toy {
    type Game = TicTacToe;
    type Searcher = AlphaBeta<TicTacToe>;
    type Notation = Numbers<TicTacToe>;

    fn identity(&self) -> Identity {
        Identity { name: "Toy".into(), version: String::new(), author: "tests".into(), ..Identity::tessera("") }
    }

    fn new_searcher(&self, options: &EngineOptions) -> AlphaBeta<TicTacToe> {
        AlphaBeta::new(options, 5)
    }
}

impl Dialect for Toy {
    type FenError = IllegalMove;
    type Verdicts = Accepting;

    fn start_position(&self) -> TicTacToe {
        TicTacToe::new()
    }

    fn parse_fen(&self, fen: &str) -> Result<TicTacToe, IllegalMove> {
        let mut game = TicTacToe::new();
        for text in fen.split(',').filter(|text| !text.is_empty()) {
            let square: u8 = text.trim().parse().map_err(|_| IllegalMove(text.to_owned()))?;
            game.try_play(square)?;
        }
        Ok(game)
    }

    fn static_eval(&self, position: &TicTacToe) -> i32 {
        position.evaluate()
    }
}

/// The toy's draw and resign policy: it accepts every offered draw and never resigns.
#[derive(Default)]
pub struct Accepting;

impl Verdicts for Accepting {
    fn clear(&mut self) {}

    fn decide(&mut self, _score: Score, offered: bool) -> Verdict {
        Verdict { draw: offered, resign: false }
    }
}
