//! What the GTP session needs from a go implementation and its engine. The engine crate
//! implements it with the go crate, so this crate depends on core only.

use tessera_core::{GridNotation, MoveOf, Player, SearchResult, Side};

use crate::command::Status;

/// Which handicap placement to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handicap {
    /// GNU Go's fixed points (`fixed_handicap`).
    Fixed,
    /// The engine's choice (`place_free_handicap`).
    Free,
}

/// What a finished `genmove` search found, for [`Dialect::genmove_answer`].
#[derive(Clone, Copy, Debug)]
pub struct Genmove<'a, M> {
    /// The searcher's result.
    pub result: &'a SearchResult<M>,
    /// `kgs-genmove_cleanup`: never resign.
    pub cleanup: bool,
    /// The fixed playout budget per move, if any.
    pub budget: Option<u64>,
}

/// A go implementation seen by the GTP session beyond core's [`Player`] (the game, its searcher,
/// its vertices through a [`GridNotation`], `name` and `version`): the game's operations GTP commands name, and the
/// player's decisions (passing, resigning, scoring) that the game crate makes.
///
/// Ownership (`kata-analyze … ownership true`, `gogui-ownership`) is the searcher's
/// ([`tessera_core::Limits::ownership`]): the session prints it when the game's cells are the
/// board's `size × size` points row by row from the top-left, and omits it (fails
/// `gogui-ownership`) otherwise.
pub trait Dialect: Player<Notation: GridNotation> {
    /// Why a request was refused; its text is the GTP failure message (`board not empty`).
    type Error: std::error::Error + Send + Sync + 'static;

    /// Whether `size` is a playable board size.
    fn supports_size(&self, size: i64) -> bool;
    /// An empty board of `size` with `komi` and the current rules of `like` (if any).
    fn new_game(&self, size: usize, komi: f32, like: Option<&Self::Game>) -> Self::Game;
    /// The board side length.
    fn size(&self, game: &Self::Game) -> usize;
    /// Sets the komi.
    fn set_komi(&self, game: &mut Self::Game, komi: f32);
    /// Sets named rules (`kgs-rules`).
    ///
    /// # Errors
    /// When the rules are unknown.
    fn set_rules(&self, game: &mut Self::Game, name: &str) -> Result<(), Self::Error>;
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
    ) -> Result<Vec<MoveOf<Self>>, Self::Error>;
    /// Puts black stones on the given points of an empty board (`set_free_handicap`).
    ///
    /// # Errors
    /// `invalid handicap` or `board not empty`.
    fn set_handicap(&self, game: &mut Self::Game, stones: &[MoveOf<Self>]) -> Result<(), Self::Error>;

    /// The board drawing of `showboard` (lines, without the response header).
    fn showboard(&self, game: &Self::Game) -> Vec<String>;
    /// The final score (`B+3.5`, `W+0.5`, `0`) after removing dead stones.
    fn final_score(&self, game: &Self::Game) -> String;
    /// The stones of a `final_status_list` class.
    fn stones_with_status(&self, game: &Self::Game, status: Status) -> Vec<MoveOf<Self>>;
    /// A game read from SGF text, before move `move_number` if given.
    ///
    /// # Errors
    /// Why the text could not be used (logged; the controller is told `cannot load file`).
    fn load_sgf(&self, text: &str, move_number: Option<usize>) -> Result<Self::Game, Self::Error>;
    /// The game as SGF text.
    fn save_sgf(&self, game: &Self::Game) -> String;

    /// The moves a `genmove` search may choose from (empty: any move); `cleanup` for
    /// `kgs-genmove_cleanup`.
    fn root_moves(&self, game: &Self::Game, cleanup: bool) -> Vec<MoveOf<Self>>;
    /// Our answer to `genmove` after `search`: a move (a pass included), or `None` to resign.
    fn genmove_answer(&self, search: &Genmove<'_, MoveOf<Self>>) -> Option<MoveOf<Self>>;
}
