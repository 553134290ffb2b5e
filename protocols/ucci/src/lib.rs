//! `tessera-ucci-protocol`: UCCI 3.0, the Universal Chinese Chess Protocol.
//!
//! - [`Command`] and [`Response`]: the grammar in both directions (`FromStr` + `Display`).
//! - [`Session`]: the engine side (boot, idle and thinking states, batch mode, pondering,
//!   draw and resign decisions, `probe`, perft) on core's [`tessera_core::Engine`]; [`run`]
//!   serves it on stdin.
//! - [`Dialect`]: what the session needs from the game beyond core's [`Player`] (start, FEN, the
//!   static evaluation), implemented by an engine crate.
//!
//! Xiangqi GUIs that speak UCI (Pikafish-style) are served by `tessera-uci-protocol`; an engine
//! binary picks the session from the first line ([`tessera_core::serve_chosen`]).

mod command;
mod options;
mod report;
mod response;
mod session;

pub use command::{Command, CommandError, Go, PositionSpec, Start};
pub use options::{check_value, OptionEffect, Options, Randomness, ValueError, UCCI_OPTIONS};
pub use report::{ucci_score, Verdict, Verdicts};
pub use response::{InfoLine, Response, ResponseError, ScoreText};
pub use session::{run, Session};

use tessera_core::tt::TtEntry;
use tessera_core::{Perft, Player};

/// What the UCCI session needs from the game and its engine beyond core's [`Player`] (the game, its
/// searcher, its move text through [`tessera_core::Notation`], identity, the search root and the
/// game's own options): positions as FEN, the static evaluation and the searcher's table; `go perft`
/// counts with the game's [`Perft`].
pub trait Dialect: Player<Game: Perft> {
    /// Why a FEN was refused.
    type FenError: std::error::Error;
    /// When to offer or accept a draw and when to resign (the engine's policy).
    type Verdicts: Verdicts;

    /// The standard start position.
    fn start_position(&self) -> Self::Game;

    /// A position from a FEN (all its fields).
    ///
    /// # Errors
    /// What is wrong with the FEN.
    fn parse_fen(&self, fen: &str) -> Result<Self::Game, Self::FenError>;

    /// The static evaluation `go depth 0` reports (UCCI units: 100 = a horse).
    fn static_eval(&self, position: &Self::Game) -> i32;

    /// What the searcher's table holds for the position with `key` (`probe`); `None` when it
    /// keeps no table.
    fn probe(&self, _searcher: &Self::Searcher, _key: u64) -> Option<TtEntry> {
        None
    }
}
