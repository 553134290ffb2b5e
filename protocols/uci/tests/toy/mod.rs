//! The tic-tac-toe dialect (from core's toys) the protocol tests drive the session with: a
//! "FEN" is the list of squares played (`0,4,8`), a move is a square number.

use std::time::Duration;

use tessera_core::bench::BenchReport;
use tessera_core::toys::{Numbers, TicTacToe};
use tessera_core::{AlphaBeta, EngineOptions, Game, GameExt, Identity, IllegalMove, Player};
use tessera_uci_protocol::Dialect;

/// Tic-tac-toe as a UCI game.
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

    fn start_position(&self, _chess960: bool) -> TicTacToe {
        TicTacToe::new()
    }

    /// A "FEN" here is the list of squares played, e.g. `0,4,8`.
    fn parse_fen(&self, fen: &str, _chess960: bool) -> Result<TicTacToe, IllegalMove> {
        let mut game = TicTacToe::new();
        for text in fen.split(',').filter(|text| !text.is_empty()) {
            let square: u8 = text.trim().parse().map_err(|_| IllegalMove(text.to_owned()))?;
            game.try_play(square)?;
        }
        Ok(game)
    }

    fn fen(&self, position: &TicTacToe) -> String {
        (0..position.ply())
            .filter_map(|index| position.move_played(index))
            .map(|mv| mv.to_string())
            .collect::<Vec<_>>()
            .join(",")
    }

    fn diagram(&self, position: &TicTacToe) -> Vec<String> {
        vec![format!("{} stones", position.ply())]
    }

    fn elo_range(&self) -> std::ops::RangeInclusive<u32> {
        800..=2800
    }

    /// The toy plays at full strength whatever `UCI_Elo` says.
    fn set_strength(_searcher: &mut AlphaBeta<TicTacToe>, _elo: Option<u32>) {}

    fn bench(&self, _depth: Option<u32>, _options: &EngineOptions) -> BenchReport {
        BenchReport { nodes: 42, time: Duration::from_millis(1), signature: 42, figures: Vec::new() }
    }
}
