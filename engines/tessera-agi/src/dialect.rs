//! The gomoku crate seen through the AGI protocol: the 15×15 board, the hex-point notation, the
//! searcher and the colour-change decisions all come from `tessera-gomoku`.

use std::sync::Arc;

use tessera_agi_protocol::Dialect;
use tessera_core::{EngineOptions, Identity, Player, Score};
use tessera_gomoku::nnue::Network;
use tessera_gomoku::notation::Agi;
use tessera_gomoku::{openings, Board, GomokuSearcher, PlaceError, Point, Rules, Style};

/// The 15×15 gomoku board for AGI, in a playing style.
#[derive(Clone, Debug)]
pub struct Gomoku {
    /// Full strength, or one of the reference opponents.
    pub style: Style,
    /// The evaluation network (`--eval-file`), or `None` for the pattern evaluation (`--patterns`).
    pub network: Option<Arc<Network>>,
}

impl Player for Gomoku {
    type Game = Board;
    type Searcher = GomokuSearcher;
    type Notation = Agi;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> GomokuSearcher {
        GomokuSearcher::new(options, self.style)
    }
}

impl Dialect for Gomoku {
    type Error = PlaceError;

    fn new_game(&self, forbidden: bool) -> Board {
        let mut board = Board::new(if forbidden { Rules::RENJU_15 } else { Rules::FREESTYLE_15 });
        board.set_network(self.network.clone());
        board
    }

    fn place(&self, game: &mut Board, mv: Point) -> Result<(), PlaceError> {
        game.place(mv)
    }

    fn takes_first_stone(&self, _game: &Board, stone: Point) -> bool {
        openings::first_stone_worth_taking(stone)
    }

    fn prefers_change(&self, score: Score) -> bool {
        openings::prefers_other_side(score)
    }
}
