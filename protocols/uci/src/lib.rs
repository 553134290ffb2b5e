//! `tessera-uci-protocol`: the Universal Chess Interface.
//!
//! - [`Command`] and [`Response`] are the grammar in both directions (`FromStr` + `Display`).
//! - [`Dialect`] is what the protocol needs from a game (positions, move text, perft, bench);
//!   an engine binary implements it with its game crate.
//! - [`Session`] is the engine side: it owns the position and an [`tessera_core::Engine`], and
//!   answers `isready`, `stop` and `quit` while a search runs. [`run`] drives it from stdin.
//! - [`Limited`] wraps any searcher with the `UCI_LimitStrength` / `UCI_Elo` strength limiter.

mod command;
mod limiter;
mod options;
mod response;
mod session;

pub use command::{Command, CommandError, Go, Start};
pub use limiter::{Limited, ELO_MAX, ELO_MIN};
pub use options::Options;
pub use response::{BoundText, InfoLine, OptionDecl, OptionKind, Response, ResponseError, ScoreText};
pub use session::{run, Flow, Session, Settings};

use tessera_core::{EngineOptions, Game, Searcher};

/// Options a game adds to the protocol's own (chess: `EvalFile`, `Use NNUE`), kept by the session.
pub trait GameOptions<G>: Send + 'static {
    /// The options' `option` lines, declared after the protocol's.
    fn declarations(&self) -> Vec<OptionDecl>;

    /// Applies `setoption` if `name` (any case) is one of these options: `None` when it is not,
    /// `Some(Ok(note))` when applied (the note goes out as `info string`), `Some(Err(message))`
    /// when the value is refused (the option keeps its value).
    fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<Option<String>, String>>;

    /// Readies a copy of the session's position for a search (e.g. attaches the evaluation).
    fn prepare(&self, position: &mut G);
}

/// No game options.
impl<G> GameOptions<G> for () {
    fn declarations(&self) -> Vec<OptionDecl> {
        Vec::new()
    }

    fn set(&mut self, _name: &str, _value: Option<&str>) -> Option<Result<Option<String>, String>> {
        None
    }

    fn prepare(&self, _position: &mut G) {}
}

/// What the UCI session needs from a game and its engine.
pub trait Dialect: Send + Sync + 'static {
    /// The game played.
    type Game: Game;
    /// The searcher that plays it.
    type Searcher: Searcher<Self::Game>;
    /// The game's own options (`()` for none).
    type Options: GameOptions<Self::Game>;

    /// `id name`.
    const NAME: &'static str;
    /// `id author`.
    const AUTHOR: &'static str;

    /// The starting position (`position startpos`).
    fn start_position(chess960: bool) -> Self::Game;

    /// A position from FEN.
    ///
    /// # Errors
    /// A message naming what is wrong with the FEN.
    fn from_fen(fen: &str, chess960: bool) -> Result<Self::Game, String>;

    /// The position as FEN.
    fn fen(position: &Self::Game) -> String;

    /// Switches move notation and rules between standard chess and Chess960.
    fn set_chess960(position: &mut Self::Game, chess960: bool);

    /// Reads a move; `None` when the text is not a move at all (legality is checked by the caller).
    fn parse_move(position: &Self::Game, text: &str, chess960: bool) -> Option<<Self::Game as Game>::Move>;

    /// Writes a move of `position`.
    fn format_move(position: &Self::Game, mv: <Self::Game as Game>::Move, chess960: bool) -> String;

    /// The `d` command's picture of the position (without the FEN line, which the session adds).
    fn diagram(position: &Self::Game) -> Vec<String>;

    /// Leaves below each legal move at `depth` (≥ 1), for `go perft`.
    fn perft_divide(position: &Self::Game, depth: u32) -> Vec<(<Self::Game as Game>::Move, u64)>;

    /// A new searcher.
    fn new_searcher(options: &EngineOptions) -> Self::Searcher;

    /// The game's options with their defaults.
    fn new_options() -> Self::Options;

    /// Runs the fixed bench and returns (nodes, elapsed time).
    fn bench(depth: Option<u32>, options: &EngineOptions) -> (u64, std::time::Duration);

    /// Win/draw/loss per mille for a centipawn score (for `UCI_ShowWDL`).
    fn wdl(centipawns: i32) -> (u32, u32, u32) {
        let win = |cp: f64| 1000.0 / (1.0 + ((200.0 - cp) / 80.0).exp());
        let w = win(f64::from(centipawns)).round() as u32;
        let l = win(-f64::from(centipawns)).round() as u32;
        (w, 1000u32.saturating_sub(w + l), l)
    }
}
