//! `tessera-uci-protocol`: the Universal Chess Interface, for chess and for every game whose GUIs
//! speak UCI (xiangqi, as Pikafish does).
//!
//! - [`Command`] and [`Response`] are the grammar in both directions (`FromStr` + `Display`).
//! - [`Dialect`] is what the protocol needs from a game beyond core's [`Player`] (positions as FEN,
//!   Chess960, bench); an engine crate implements both.
//! - [`Session`] is the engine side: it owns the position and an [`tessera_core::Engine`], and
//!   answers `isready`, `stop` and `quit` while a search runs. [`run`] serves it on stdin.
//! - `UCI_LimitStrength` and `UCI_Elo` are options here; how the engine plays weaker is its own
//!   policy, reached through [`Dialect::set_strength`].

mod command;
mod options;
mod response;
mod session;

pub use command::{Command, CommandError, Go, Start};
pub use options::{check_value, OptionError, Options};
pub use response::{BoundText, InfoLine, OptionDecl, OptionKind, Response, ResponseError, ScoreText};
pub use session::{run, Session, Settings};
pub use tessera_core::Flow;

use std::ops::RangeInclusive;

use tessera_core::bench::BenchReport;
use tessera_core::{EngineOptions, Perft, Player};

/// What the UCI session needs from a game and its engine beyond core's [`Player`] (the game, its
/// searcher, its move text through [`tessera_core::Notation`], identity, the search root and the
/// game's own options): positions as FEN, Chess960, the `d` picture, bench, win/draw/loss figures
/// and the strength limiter's switch; `go perft` counts with the game's [`Perft`]. The move text
/// writes castling as the position's rules say (king takes rook in Chess960).
pub trait Dialect: Player<Game: Perft> {
    /// Why a FEN was refused.
    type FenError: std::error::Error;

    /// Whether the game has a Chess960 form: `UCI_Chess960` is offered only then.
    const CHESS960: bool = false;
    /// `bestmove` with no legal move: `0000` (Stockfish's null move) or `(none)` (Pikafish).
    const NO_MOVE: &'static str = "0000";

    /// The starting position (`position startpos`).
    fn start_position(&self, chess960: bool) -> Self::Game;

    /// A position from FEN.
    ///
    /// # Errors
    /// What is wrong with the FEN.
    fn parse_fen(&self, fen: &str, chess960: bool) -> Result<Self::Game, Self::FenError>;

    /// The position as FEN.
    fn fen(&self, position: &Self::Game) -> String;

    /// Switches move notation and rules between standard chess and Chess960.
    fn set_chess960(&self, _position: &mut Self::Game, _chess960: bool) {}

    /// The `d` command's picture of the position (without the FEN line, which the session adds).
    fn diagram(&self, position: &Self::Game) -> Vec<String>;

    /// Runs the game's bench (core's [`tessera_core::bench`]) to `depth`, or its default depth.
    fn bench(&self, depth: Option<u32>, options: &EngineOptions) -> BenchReport;

    /// The Elo range `UCI_Elo` offers: the calibration of the engine's strength limiter.
    fn elo_range(&self) -> RangeInclusive<u32>;

    /// Makes `searcher` play at `elo` (`UCI_LimitStrength` on, `elo` within
    /// [`Dialect::elo_range`]), or at full strength with `None`. How it plays weaker is the
    /// engine's policy; the session only passes the options on before a search.
    fn set_strength(searcher: &mut Self::Searcher, elo: Option<u32>);

    /// Win/draw/loss per mille for a centipawn score (for `UCI_ShowWDL`).
    fn wdl(&self, centipawns: i32) -> (u32, u32, u32) {
        let win = |cp: f64| 1000.0 / (1.0 + ((200.0 - cp) / 80.0).exp());
        let w = win(f64::from(centipawns)).round() as u32;
        let l = win(-f64::from(centipawns)).round() as u32;
        (w, 1000u32.saturating_sub(w + l), l)
    }
}
