//! `tessera-uci-protocol`: the Universal Chess Interface, for chess and for every game whose GUIs
//! speak UCI (xiangqi, as Pikafish does).
//!
//! - [`Command`] and [`Response`] are the grammar in both directions (`FromStr` + `Display`).
//! - [`Dialect`] is what the protocol needs from a game (positions, move text through the game's
//!   [`Notation`], perft, bench) and the searcher that plays it; an engine crate implements it.
//! - [`Session`] is the engine side: it owns the position and an [`tessera_core::Engine`], and
//!   answers `isready`, `stop` and `quit` while a search runs. [`run`] serves it on stdin.
//! - [`Limited`] wraps any searcher with the `UCI_LimitStrength` / `UCI_Elo` strength limiter.

mod command;
mod limiter;
mod options;
mod response;
mod session;
mod thinking;

pub use command::{Command, CommandError, Go, Start};
pub use limiter::{Limited, ELO_MAX, ELO_MIN};
pub use options::{check_value, OptionError, Options};
pub use response::{BoundText, InfoLine, OptionDecl, OptionKind, Response, ResponseError, ScoreText};
pub use session::{run, Session, Settings};
pub use tessera_core::Flow;

use tessera_core::{EngineOptions, Game, Identity, Notation, Searcher};

/// Options a game adds to the protocol's own (chess: `EvalFile`, `Use NNUE`), kept by the session.
pub trait GameOptions<G>: Send + 'static {
    /// The options' `option` lines, declared after the protocol's.
    fn declarations(&self) -> Vec<OptionDecl>;

    /// Applies `setoption` if `name` (any case) is one of these options: `None` when it is not,
    /// `Some(Ok(note))` when applied (the note goes out as `info string`), `Some(Err(_))` when the
    /// value is refused.
    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, OptionError>>;

    /// Readies a copy of the session's position for a search (e.g. attaches the evaluation).
    fn prepare(&self, position: &mut G);
}

/// No game options.
impl<G> GameOptions<G> for () {
    fn declarations(&self) -> Vec<OptionDecl> {
        Vec::new()
    }

    fn set(&mut self, _name: &str, _value: Option<&str>) -> Option<Result<Option<String>, OptionError>> {
        None
    }

    fn prepare(&self, _position: &mut G) {}
}

/// The position a search starts from, and what to tell the GUI about it.
#[derive(Clone, Debug)]
pub struct SearchRoot<G> {
    /// The position to search.
    pub position: G,
    /// A note for `info string` (e.g. that the game is over by the game's rules).
    pub note: Option<String>,
}

/// Move text of dialect `D`'s game.
pub type NotationOf<D> = <D as Dialect>::Notation;

/// What the UCI session needs from a game and its engine.
pub trait Dialect: Send + Sync + 'static {
    /// The game played.
    type Game: Game;
    /// The searcher that plays it, chosen by the engine crate.
    type Searcher: Searcher<Self::Game>;
    /// The game's move text (UCI `e2e4`, ICCS `h2e2`): the only place moves are read and written.
    /// Chess writes castling as the position's rules say (king takes rook in Chess960).
    type Notation: Notation<Game = Self::Game> + Default;
    /// The game's own options (`()` for none).
    type Options: GameOptions<Self::Game>;
    /// Why a FEN was refused.
    type FenError: std::error::Error;

    /// Whether the game has a Chess960 form: `UCI_Chess960` is offered only then.
    const CHESS960: bool = false;
    /// `bestmove` with no legal move: `0000` (Stockfish's null move) or `(none)` (Pikafish).
    const NO_MOVE: &'static str = "0000";

    /// `id name` and `id author`.
    fn identity(&self) -> Identity;

    /// A new searcher.
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher;

    /// The game's options with their defaults.
    fn new_options(&self) -> Self::Options;

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

    /// Leaves below each legal move at `depth` (≥ 1), for `go perft`.
    fn perft_divide(&self, position: &Self::Game, depth: u32) -> Vec<(<Self::Game as Game>::Move, u64)>;

    /// Runs the fixed bench and returns (nodes, elapsed time).
    fn bench(&self, depth: Option<u32>, options: &EngineOptions) -> (u64, std::time::Duration);

    /// What `go` searches in `position` (default: `position` itself). A game whose rules end a
    /// game its GUIs play on (xiangqi's repetition verdicts) may search the board as it stands.
    fn search_root(&self, position: &Self::Game) -> SearchRoot<Self::Game> {
        SearchRoot { position: position.clone(), note: None }
    }

    /// Win/draw/loss per mille for a centipawn score (for `UCI_ShowWDL`).
    fn wdl(&self, centipawns: i32) -> (u32, u32, u32) {
        let win = |cp: f64| 1000.0 / (1.0 + ((200.0 - cp) / 80.0).exp());
        let w = win(f64::from(centipawns)).round() as u32;
        let l = win(-f64::from(centipawns)).round() as u32;
        (w, 1000u32.saturating_sub(w + l), l)
    }
}
