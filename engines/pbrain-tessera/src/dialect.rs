//! The gomoku crate seen through the pbrain protocol: rules by Gomocup number, the `x,y`
//! notation, the searcher and the opening decisions all come from `tessera-gomoku`.

use std::sync::Arc;

use tessera_core::{EngineOptions, Identity, Player, Score};
use tessera_gomoku::nnue::Network;
use tessera_gomoku::notation::Pbrain;
use tessera_gomoku::{openings, Board, GomokuSearcher, Point, Rules, RulesError, Style, Variant};
use tessera_pbrain_protocol::{Dialect, RuleCode};

/// Gomoku and renju for pbrain, in a playing style.
#[derive(Clone, Debug)]
pub struct Gomoku {
    /// Full strength, or one of the reference opponents.
    pub style: Style,
    /// The evaluation network (`--eval-file`), or `None` for the pattern evaluation (`--patterns`).
    pub network: Option<Arc<Network>>,
}

/// Why a board or a stone was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// A board size or rule the game does not have.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A stone that cannot go there.
    #[error(transparent)]
    Place(#[from] tessera_gomoku::PlaceError),
}

impl Player for Gomoku {
    type Game = Board;
    type Searcher = GomokuSearcher;
    type Notation = Pbrain;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> GomokuSearcher {
        GomokuSearcher::new(options, self.style)
    }
}

impl Dialect for Gomoku {
    type Error = Refusal;

    fn new_game(&self, width: u32, height: u32, rule: RuleCode) -> Result<Board, Refusal> {
        let variant = match rule {
            RuleCode::Freestyle => Variant::Freestyle,
            RuleCode::Standard => Variant::Standard,
            RuleCode::Renju => Variant::Renju,
            RuleCode::Caro => Variant::Caro,
            RuleCode::CaroOverlines => Variant::CaroOverlines,
        };
        let mut board = Board::new(Rules::new(variant, width, height)?);
        board.set_network(self.network.clone());
        Ok(board)
    }

    fn place(&self, game: &mut Board, mv: Point) -> Result<(), Refusal> {
        Ok(game.place(mv)?)
    }

    fn forbidden_points(&self, game: &Board) -> Vec<Point> {
        game.forbidden_points()
    }

    fn swap2_opening(&self, _game: &Board, width: u32, height: u32) -> Vec<Point> {
        openings::swap2_opening(width, height).to_vec()
    }

    fn prefers_swap(&self, score: Score) -> bool {
        openings::prefers_other_side(score)
    }
}
