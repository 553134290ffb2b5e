//! `tessera-ucci-protocol`: UCCI 3.0, the Universal Chinese Chess Protocol.
//!
//! - [`Command`] and [`Response`]: the grammar in both directions (`FromStr` + `Display`).
//! - [`Session`]: the engine side (boot, idle and thinking states, batch mode, pondering,
//!   draw and resign decisions, `probe`, perft) on core's [`tessera_core::Engine`]; [`run`]
//!   serves it on stdin.
//! - [`Dialect`]: what the session needs from the game (start, FEN, move text through the game's
//!   [`Notation`], perft) and the searcher that plays it, implemented by an engine crate.
//!
//! Xiangqi GUIs that speak UCI (Pikafish-style) are served by `tessera-uci-protocol`; an engine
//! binary picks the session from the first line ([`tessera_core::serve_chosen`]).

mod command;
mod options;
mod report;
mod response;
mod session;
mod thinking;

pub use command::{Command, CommandError, Go, PositionSpec, Start};
pub use options::{check_value, OptionEffect, Options, Randomness, UCCI_OPTIONS};
pub use report::{ucci_score, Verdict, VerdictPolicy};
pub use response::{InfoLine, Response, ResponseError, ScoreText};
pub use session::{run, Session};

use tessera_core::tt::TtEntry;
use tessera_core::{EngineOptions, Game, Identity, Notation, Searcher};

/// Options a game adds to the protocol's own (xiangqi: `evalfile`), kept by the session.
pub trait GameOptions<G>: Send + 'static {
    /// The options' boot-answer lines (without the leading `option `), declared after the protocol's.
    fn declarations(&self) -> Vec<String>;

    /// Applies `setoption` if `name` (any case) is one of these options: `None` when it is not,
    /// `Some(Ok(note))` when applied (the note goes out as `info message`), `Some(Err(reason))`
    /// when the value is refused and the option keeps its value.
    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, String>>;

    /// Readies the position a search starts from (e.g. attaches the evaluation).
    fn prepare(&self, position: &mut G);
}

/// No game options.
impl<G> GameOptions<G> for () {
    fn declarations(&self) -> Vec<String> {
        Vec::new()
    }

    fn set(&mut self, _name: &str, _value: Option<&str>) -> Option<Result<Option<String>, String>> {
        None
    }

    fn prepare(&self, _position: &mut G) {}
}

/// The position a search starts from, and what to tell the GUI about it.
#[derive(Clone, Debug)]
pub struct SearchRoot<G> {
    /// The position to search.
    pub position: G,
    /// A note for `info message` (e.g. that the game is over by the game's rules).
    pub note: Option<String>,
}

/// What the session needs from the game and its engine.
pub trait Dialect: Send + Sync + 'static {
    /// The game (xiangqi).
    type Game: Game;
    /// The searcher that plays it, chosen by the engine crate.
    type Searcher: Searcher<Self::Game>;
    /// The game's move text (ICCS `h2e2`): the only place moves are read and written.
    type Notation: Notation<Game = Self::Game> + Default;
    /// Why a FEN was refused.
    type FenError: std::error::Error;
    /// The game's own options.
    type Options: GameOptions<Self::Game>;

    /// The boot answer's identity (`id name`, `copyright`, `author`, `user`).
    fn identity(&self) -> Identity;

    /// A new searcher.
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher;

    /// The game's options at their defaults.
    fn new_options(&self) -> Self::Options;

    /// The standard start position.
    fn start_position(&self) -> Self::Game;

    /// A position from a FEN (all its fields).
    ///
    /// # Errors
    /// What is wrong with the FEN.
    fn parse_fen(&self, fen: &str) -> Result<Self::Game, Self::FenError>;

    /// What `go` searches in `position` (default: `position` itself). A game whose rules end a
    /// game its GUIs play on (xiangqi's repetition verdicts) may search the board as it stands.
    fn search_root(&self, position: &Self::Game) -> SearchRoot<Self::Game> {
        SearchRoot { position: position.clone(), note: None }
    }

    /// The static evaluation `go depth 0` reports (UCCI units: 100 = a horse).
    fn static_eval(&self, position: &Self::Game) -> i32;

    /// What the searcher's table holds for the position with `key` (`probe`); `None` when it
    /// keeps no table.
    fn probe(&self, _searcher: &Self::Searcher, _key: u64) -> Option<TtEntry> {
        None
    }

    /// Perft split by root move.
    fn perft_divide(&self, position: &Self::Game, depth: u32) -> Vec<(<Self::Game as Game>::Move, u64)>;
}
