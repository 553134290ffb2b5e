//! `tessera-ucci-protocol`: UCCI 3.0 for xiangqi engines, plus the Pikafish-style UCI dialect
//! that the same engine speaks when its first command is `uci`.
//!
//! - [`Command`] and [`Response`]: the grammar in both directions (`FromStr` + `Display`).
//! - [`Session`]: the engine side (boot, idle and thinking states, batch mode, pondering,
//!   draw and resign decisions, `probe`, perft), driving core's [`tessera_core::AlphaBeta`].
//! - [`Dialect`]: what the session needs from the game (start, FEN, move text, perft), implemented
//!   by the engine binary with the game crate's notation.

mod command;
mod options;
mod report;
mod response;
mod session;

pub use command::{Command, CommandError, Go, PositionSpec, Start};
pub use options::{OptionEffect, Options, Randomness, UCCI_OPTIONS, UCI_OPTIONS};
pub use report::{ucci_score, Verdict, VerdictPolicy};
pub use response::{InfoLine, Response, ResponseError, ScoreText};
pub use session::{Mode, Session};

use tessera_core::{Evaluate, Game, NullMove, Tactical};

/// Who the engine says it is in its boot answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    /// `id name`.
    pub name: &'static str,
    /// `id author`.
    pub author: &'static str,
    /// `id copyright` (UCCI).
    pub copyright: &'static str,
    /// `id user` (UCCI).
    pub user: &'static str,
}

/// What the session needs from the game: positions, move text and perft.
pub trait Dialect: Clone + Send + Sync + 'static {
    /// The game (xiangqi), searchable by core's alpha-beta.
    type Game: Evaluate + Tactical + NullMove;

    /// The boot answer's identity.
    fn identity(&self) -> Identity;

    /// The standard start position.
    fn start_position(&self) -> Self::Game;

    /// A position from a FEN (all its fields).
    ///
    /// # Errors
    /// A description of what is wrong with the FEN.
    fn parse_fen(&self, fen: &str) -> Result<Self::Game, String>;

    /// Reads a move's text (syntax only; the session checks legality).
    fn parse_move(&self, position: &Self::Game, text: &str) -> Option<<Self::Game as Game>::Move>;

    /// Writes a move.
    fn format_move(&self, position: &Self::Game, mv: <Self::Game as Game>::Move) -> String;

    /// The same board and side to move without the moves that led there (so no repetition is
    /// seen): what the session searches when our rules end a game the GUI goes on with.
    fn without_history(&self, position: &Self::Game) -> Self::Game;

    /// Perft split by root move.
    fn perft_divide(&self, position: &Self::Game, depth: u32) -> Vec<(<Self::Game as Game>::Move, u64)>;

    /// Estimated moves left in a game, for the time manager.
    fn moves_left(&self) -> u32;
}
