//! What the AGI session needs from the game and its engine.

use tessera_core::{GridNotation, MoveOf, Player, Score};

/// The game as the AGI session sees it (a 15×15 board) beyond core's [`Player`] (the game, its
/// searcher, its points through a [`GridNotation`], the `ID` lines): boards by rule, stones, and the player's opening
/// decisions.
pub trait Dialect: Player<Notation: GridNotation> {
    /// Why a stone was refused (logged: the draft has no error reply).
    type Error: std::error::Error + Send + Sync + 'static;

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
