//! What the AGI session needs from the game and its engine.

use tessera_core::{EngineOptions, Game, Identity, Notation, Score, Searcher};

type MoveOf<D> = <<D as Dialect>::Game as Game>::Move;

/// The game as the AGI session sees it (a 15×15 board), with the searcher that plays it and the
/// player's opening decisions. Points are written as two hex digits by the game's notation.
pub trait Dialect: Send + Sync + 'static {
    /// The game played.
    type Game: Game;
    /// The searcher that plays it, chosen by the engine crate.
    type Searcher: Searcher<Self::Game>;
    /// Point text (`78`): the only place moves are read and written.
    type Notation: Notation<Game = Self::Game> + Default;
    /// Why a stone was refused (logged: the draft has no error reply).
    type Error: std::error::Error + Send + Sync + 'static;

    /// Engine name and author for `ID`.
    fn identity(&self) -> Identity;

    /// A new searcher.
    fn new_searcher(&self, options: &EngineOptions) -> Self::Searcher;

    /// An empty 15×15 board: renju when `forbidden`, else freestyle.
    fn new_game(&self, forbidden: bool) -> Self::Game;

    /// Places a stone for the side to move (the GUI is the referee: renju fouls are allowed).
    ///
    /// # Errors
    /// When the point is occupied.
    fn place(&self, game: &mut Self::Game, mv: MoveOf<Self>) -> Result<(), Self::Error>;

    /// Whether black's first stone at `stone` is worth taking over (`FIRSTCHANGE`).
    fn takes_first_stone(&self, game: &Self::Game, stone: MoveOf<Self>) -> bool;

    /// Whether the side to move, with `score` from its search, would rather change colours
    /// (`THIRDCHANGE`).
    fn prefers_change(&self, score: Score) -> bool;
}
