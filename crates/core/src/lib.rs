//! `tessera-core`: the generic base every Tessera game and protocol stands on.
//!
//! - [`Game`] (with [`Notation`]) describes a position of any two-player game; [`Evaluate`],
//!   [`Tactical`], [`NullMove`] and [`Playout`] are the hooks searchers use; a grid game's
//!   [`GridNotation`] takes and gives its points typed ([`GridPoint`]), for protocols that name them.
//! - [`AlphaBeta`] and [`Mcts`] are the two generic searchers, both behind [`Searcher`].
//! - [`Engine`] runs a searcher on its own thread so a protocol session never blocks.
//! - [`Player`] is what every protocol session needs from the engine it serves (the game, its
//!   searcher and notation, identity, the search root, the [`options`] the game adds); each
//!   protocol crate's `Dialect` extends it with what its own grammar asks.
//! - [`Limits`], [`TimeManager`] and [`SearchControl`] bound a search; [`Score`], [`Info`] and
//!   [`Report`] describe what it found; [`io`] reads and writes protocol lines.
//! - [`book`] holds opening books of our own format, which sessions consult before a search.
//! - [`session`] owns every protocol's read loop ([`serve`]); [`bench`] is the one bench driver,
//!   [`Perft`] counts a game's move tree, and [`report`] writes both figures.
//! - [`harness`] checks the invariants every game must keep; [`toys`] holds tiny games that
//!   test the searchers.
//!
//! Modules, bottom-up: zobrist → rng → memory → zeroed → threads → moves → score → limits → input →
//! game → book → grid → options → info → time → tt → io → report → perft → search → session → player →
//! bench → alphabeta → mcts → engine → harness → toys.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod alphabeta;
pub mod bench;
pub mod book;
pub mod engine;
pub mod game;
pub mod grid;
pub mod harness;
pub mod info;
pub mod input;
pub mod io;
pub mod limits;
pub mod mcts;
pub mod memory;
pub mod moves;
pub mod options;
pub mod perft;
pub mod player;
pub mod report;
pub mod rng;
pub mod score;
pub mod search;
pub mod session;
pub mod threads;
pub mod time;
pub mod toys;
pub mod tt;
mod zeroed;
pub mod zobrist;

pub use alphabeta::AlphaBeta;
pub use book::{Book, BookChoice, BookError, BookFormat, BookSetup, OpeningBook};
pub use engine::Engine;
pub use game::{Game, GameExt, IllegalMove, Notation, Outcome, PackedMove, Played, Side};
pub use grid::{GridNotation, GridPoint, GridTextError, HexPoint, LetteredPoint};
pub use info::{Info, InfoSink, MoveStat, Report, ScoreEstimate, SearchResult, Silent};
pub use input::Input;
pub use limits::{Clock, EngineOptions, Limits};
pub use mcts::{Mcts, MctsConfig, Selection, Widening};
pub use moves::{MoveBuffer, MoveList};
pub use options::{
    EvaluationChoice, EvaluationOptions, GameOption, GameOptions, NoOptions, OptionKind, OptionRefused, OptionValue,
};
pub use perft::Perft;
pub use player::{MoveOf, Player, SearchRoot};
pub use rng::Rng;
pub use score::{Bound, Score};
pub use search::{Evaluate, NullMove, Playout, PlayoutResult, Pruning, Refined, Searcher, TablebaseResult, Tactical};
pub use session::{serve, serve_chosen, Flow, Identity, LineSession};
pub use time::{SearchControl, TimeManager};
pub use tt::TranspositionTable;
