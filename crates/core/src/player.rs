//! [`Player`]: what every protocol session needs from the engine it serves, whatever its grammar —
//! the game, the searcher that plays it, the game's move text, who the engine is, the position a
//! search starts from and the options the game adds.
//!
//! Each protocol crate's `Dialect` trait extends `Player` with only what its own grammar asks
//! about the game (UCI: FEN and Chess960; GTP: board sizes, handicap and scoring; pbrain: rule
//! numbers and swap2 …). An engine crate implements `Player` once for its game and each
//! protocol's `Dialect` beside it, so an engine that speaks two protocols (`tessera-ucci`) writes
//! the shared part once.

use crate::book::BookSetup;
use crate::game::{Game, Notation};
use crate::limits::EngineOptions;
use crate::options::{GameOptions, NoOptions};
use crate::search::Searcher;
use crate::session::Identity;

/// The position a search starts from, and what to tell the GUI about it.
#[derive(Clone, Debug)]
pub struct SearchRoot<G> {
    /// The position to search.
    pub position: G,
    /// A note for the GUI (e.g. that the game is over by the game's rules).
    pub note: Option<String>,
}

/// A game as an engine plays it, seen by every protocol.
pub trait Player: Send + Sync + 'static {
    /// The game played.
    type Game: Game;
    /// The searcher that plays it, chosen by the engine crate (never by a protocol).
    type Searcher: Searcher<Self::Game>;
    /// The game's move text in the protocol's words (UCI `e2e4`, ICCS `h2e2`, GTP `D4` …): the
    /// one place moves are read and written.
    type Notation: Notation<Game = Self::Game> + Default;

    /// Who the engine says it is.
    fn identity(&self) -> Identity;

    /// A new searcher with `options`.
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher;

    /// The options the game adds to the protocol's own, at their defaults (none by default).
    fn game_options(&self) -> Box<dyn GameOptions<Self::Game>> {
        Box::new(NoOptions)
    }

    /// What a search asked for in `position` searches (default: `position` itself). A game whose
    /// rules end a game its GUIs play on (xiangqi's repetition verdicts) may search the board as
    /// it stands, and say why.
    fn search_root(&self, position: &Self::Game) -> SearchRoot<Self::Game> {
        SearchRoot { position: position.clone(), note: None }
    }

    /// The game's opening books (none by default: the protocol then offers no book options).
    fn opening_book(&self) -> Option<BookSetup> {
        None
    }
}

/// A move of player `P`'s game.
pub type MoveOf<P> = <<P as Player>::Game as Game>::Move;
