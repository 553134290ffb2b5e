//! Tessera's go seen by the GTP session: every answer comes from `tessera-go` (rules, notation,
//! the MCTS searcher, and in `policy` the player's decisions); this file only connects them.

use tessera_core::{EngineOptions, Game, Identity, Mcts, Player, Side};
use tessera_go::policy::{self, Placement, Policy, Refusal};
use tessera_go::position::color_of;
use tessera_go::{display, search, GtpNotation, Move, Position, Rules};
use tessera_gtp_protocol::command::Status;
use tessera_gtp_protocol::{Dialect, Genmove, Handicap};

/// Tessera's go over GTP, with the player's resign threshold and the search's weight of the
/// network's value.
#[derive(Clone, Copy, Debug)]
pub struct TesseraGo {
    /// When to resign.
    pub policy: Policy,
    /// Playouts the network's value counts as (`tessera_core::MctsConfig::value_weight`).
    pub value_weight: f32,
}

impl Player for TesseraGo {
    type Game = Position;
    type Searcher = Mcts<Position>;
    type Notation = GtpNotation;

    fn identity(&self) -> Identity {
        Identity::tessera(env!("CARGO_PKG_VERSION"))
    }

    fn new_searcher(&self, options: &EngineOptions) -> Mcts<Position> {
        search::searcher(options, self.value_weight)
    }
}

impl Dialect for TesseraGo {
    type Error = Refusal;

    fn supports_size(&self, size: i64) -> bool {
        (2..=25).contains(&size)
    }

    fn new_game(&self, size: usize, komi: f32, like: Option<&Position>) -> Position {
        let rules = like.map_or(Rules::CHINESE.with_komi(komi), |game| *game.rules());
        Position::new(size, rules)
    }

    fn size(&self, game: &Position) -> usize {
        game.size()
    }

    fn set_komi(&self, game: &mut Position, komi: f32) {
        game.set_komi(komi);
    }

    fn set_rules(&self, game: &mut Position, name: &str) -> Result<(), Refusal> {
        game.set_rules(policy::rules_named(name, game.rules().komi)?);
        Ok(())
    }

    fn set_side_to_move(&self, game: &mut Position, side: Side) {
        game.set_to_move(color_of(side));
    }

    fn resume(&self, game: &mut Position) {
        game.resume();
    }

    fn place_handicap(&self, game: &mut Position, kind: Handicap, stones: usize) -> Result<Vec<Move>, Refusal> {
        let placement = match kind {
            Handicap::Fixed => Placement::Fixed,
            Handicap::Free => Placement::Free,
        };
        policy::handicap(game, placement, stones)
    }

    fn set_handicap(&self, game: &mut Position, stones: &[Move]) -> Result<(), Refusal> {
        policy::set_handicap(game, stones)
    }

    fn showboard(&self, game: &Position) -> Vec<String> {
        display::showboard(game)
    }

    fn final_score(&self, game: &Position) -> String {
        policy::final_score(game)
    }

    fn stones_with_status(&self, game: &Position, status: Status) -> Vec<Move> {
        let status = match status {
            Status::Alive => policy::Status::Alive,
            Status::Dead => policy::Status::Dead,
            Status::Seki => policy::Status::Seki,
        };
        policy::stones_with_status(game, status)
    }

    fn load_sgf(&self, text: &str, move_number: Option<usize>) -> Result<Position, Refusal> {
        policy::load_sgf(text, move_number)
    }

    fn save_sgf(&self, game: &Position) -> String {
        policy::save_sgf(game, env!("CARGO_PKG_NAME"))
    }

    fn root_moves(&self, game: &Position, cleanup: bool) -> Vec<Move> {
        policy::root_moves(game, cleanup)
    }

    fn genmove_answer(&self, search: &Genmove<'_, Move>) -> Option<Move> {
        let search = policy::Search { result: search.result, cleanup: search.cleanup, budget: search.budget };
        self.policy.answer(&search)
    }
}
