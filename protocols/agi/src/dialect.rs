//! What the AGI session needs from the game.

use tessera_core::Game;

use crate::point::AgiPoint;

/// The game as the AGI session sees it (a 15×15 board).
pub trait Dialect: Send + Sync + 'static {
    /// The game played.
    type Game: Game;

    /// An empty 15×15 board: renju when `forbidden`, else freestyle.
    fn new_game(&self, forbidden: bool) -> Self::Game;

    /// Places a stone for the side to move (the GUI is the referee: renju fouls are allowed).
    ///
    /// # Errors
    /// A message when the point is occupied.
    fn place(&self, game: &mut Self::Game, point: AgiPoint) -> Result<(), String>;

    /// The move at `point`.
    fn to_move(&self, point: AgiPoint) -> <Self::Game as Game>::Move;

    /// The point of `mv`.
    fn point(&self, mv: <Self::Game as Game>::Move) -> AgiPoint;

    /// Engine name and author for `ID`.
    fn identity(&self) -> (String, String);
}
