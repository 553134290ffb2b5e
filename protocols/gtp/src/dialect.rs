//! What the GTP session needs from a go implementation. The engine binary implements it with the
//! go crate, so this crate depends on core only.

use tessera_core::{EngineOptions, Mcts, Playout, Side};

use crate::command::{Status, Vertex};

/// Which handicap placement to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handicap {
    /// GNU Go's fixed points (`fixed_handicap`).
    Fixed,
    /// The engine's choice (`place_free_handicap`).
    Free,
}

/// A go implementation seen by the GTP session.
pub trait Dialect: Clone + Send + Sync + 'static {
    /// The position type.
    type Game: Playout;

    /// `name` answer.
    fn name(&self) -> &str;
    /// `version` answer.
    fn version(&self) -> &str;
    /// Whether `size` is a playable board size.
    fn supports_size(&self, size: i64) -> bool;
    /// An empty board of `size` with `komi` and the current rules of `like` (if any).
    fn new_game(&self, size: usize, komi: f32, like: Option<&Self::Game>) -> Self::Game;
    /// The board side length.
    fn size(&self, game: &Self::Game) -> usize;
    /// Sets the komi.
    fn set_komi(&self, game: &mut Self::Game, komi: f32);
    /// Sets named rules (`kgs-rules`); `Err` with a message when unknown.
    ///
    /// # Errors
    /// The GTP error message.
    fn set_rules(&self, game: &mut Self::Game, name: &str) -> Result<(), String>;
    /// The move for `vertex` on this board (`None` when off the board).
    fn to_move(&self, game: &Self::Game, vertex: Vertex) -> Option<<Self::Game as tessera_core::Game>::Move>;
    /// The vertex of `mv`.
    fn to_vertex(&self, game: &Self::Game, mv: <Self::Game as tessera_core::Game>::Move) -> Vertex;
    /// Gives the move to `side` without a move (GTP lets a colour play twice).
    fn set_side_to_move(&self, game: &mut Self::Game, side: Side);
    /// Lets a game that ended by two passes go on (the passes stay in the history).
    fn resume(&self, game: &mut Self::Game);
    /// Puts `stones` handicap stones on an empty board; returns where.
    ///
    /// # Errors
    /// `invalid handicap` or `board not empty`.
    fn place_handicap(
        &self,
        game: &mut Self::Game,
        kind: Handicap,
        stones: usize,
    ) -> Result<Vec<<Self::Game as tessera_core::Game>::Move>, String>;
    /// Puts black stones on the given points of an empty board (`set_free_handicap`).
    ///
    /// # Errors
    /// `invalid handicap` or `board not empty`.
    fn set_handicap(
        &self,
        game: &mut Self::Game,
        stones: &[<Self::Game as tessera_core::Game>::Move],
    ) -> Result<(), String>;
    /// The board drawing of `showboard` (lines, without the response header).
    fn showboard(&self, game: &Self::Game) -> Vec<String>;
    /// Ownership of every point, row by row from the top-left, +1 = Black, -1 = White.
    fn ownership(&self, game: &Self::Game, playouts: usize) -> Vec<f32>;
    /// The score after removing dead stones (Black minus White minus komi).
    fn final_score(&self, game: &Self::Game) -> f32;
    /// The stones of a `final_status_list` class.
    fn stones_with_status(&self, game: &Self::Game, status: Status) -> Vec<<Self::Game as tessera_core::Game>::Move>;
    /// Whether dead stones remain on the board or the life of some stones is still open: the
    /// engine then plays on instead of passing (free under area scoring), so that the final
    /// position is one every referee scores alike; `kgs-genmove_cleanup` relies on it too.
    fn is_unsettled(&self, game: &Self::Game) -> bool;
    /// A game read from SGF text, before move `move_number` if given.
    ///
    /// # Errors
    /// The reason the text could not be used.
    fn load_sgf(&self, text: &str, move_number: Option<usize>) -> Result<Self::Game, String>;
    /// The game as SGF text.
    fn save_sgf(&self, game: &Self::Game) -> String;
    /// A new searcher.
    fn searcher(&self, options: &EngineOptions) -> Mcts<Self::Game>;
}
