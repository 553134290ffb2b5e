//! The `Game` trait: one position of one game, its rules, and the history that led to it.

use std::fmt;
use std::hash::Hash;
use std::ops::{Deref, DerefMut};

use crate::moves::MoveBuffer;

/// The two players. `First` moves first: White in chess, Red in xiangqi, Black in gomoku and go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first from the initial position.
    First,
    /// The player who moves second.
    Second,
}

impl Side {
    /// Both sides, `First` then `Second`.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The result as a score in `[0, 1]` for `side`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn value_for(self, side: Side) -> f32 {
        match self {
            Outcome::Win(winner) if winner == side => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A move that fits in 16 bits, so that transposition-table entries stay small.
///
/// `to_bits` never returns `0xFFFF` (the table's "no move" marker). `from_bits` accepts every
/// `u16` and returns *some* move; it need not be legal anywhere, which is why every user of a
/// decoded move checks it against a legal move list or [`Game::is_legal`] first.
pub trait PackedMove: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static {
    /// The move's 16-bit code, below `0xFFFF`.
    fn to_bits(self) -> u16;
    /// The move with this code; any code decodes to some (possibly illegal) move.
    fn from_bits(bits: u16) -> Self;
}

/// A position of one two-player, perfect-information game, with its rules and move history.
///
/// Implementations keep the history inside the position so that `undo` needs no argument and
/// repetition rules can be judged. Moves are small `Copy` values; generating them writes into a
/// caller-owned fixed-capacity buffer, so the search allocates nothing per node.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// One move of this game.
    type Move: PackedMove;
    /// The rules in force: a value type with named presets (chess960 or not, renju or freestyle, komi…).
    type Rules: Clone + fmt::Debug + PartialEq + Send + Sync + 'static;
    /// A fixed-capacity buffer large enough for every legal move list of this game.
    type Moves: MoveBuffer<Self::Move>;

    /// The rules this position is played under.
    fn rules(&self) -> &Self::Rules;

    /// The player to move.
    fn side_to_move(&self) -> Side;

    /// Clears `moves` and fills it with every legal move, each once.
    ///
    /// After a decisive result by rule (five in a row, two passes in go) there are none. Draws that
    /// a player may claim (fifty moves, repetition) do not empty the list: see [`Game::outcome`].
    fn generate_legal_moves(&self, moves: &mut Self::Moves);

    /// Whether `mv` is legal here. Accepts any value, including codes that decode to nonsense.
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays `mv` and pushes it on the history.
    ///
    /// # Panics
    /// May panic, or leave the position inconsistent, if `mv` is not legal: check with
    /// [`Game::is_legal`] or use [`GameExt::try_play`] for moves from outside the program.
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last move played on this position.
    ///
    /// # Panics
    /// Panics if no move was played ([`Game::ply`] is 0).
    fn undo(&mut self);

    /// Takes back every move played after ply `ply` (at most [`Game::ply`]), as repeated
    /// [`Game::undo`] would; a game whose undo restores a saved state overrides it to restore once.
    fn undo_to(&mut self, ply: usize) {
        while self.ply() > ply {
            self.undo();
        }
    }

    /// How many moves were played on this position object (undoable moves), 0 for a fresh one.
    fn ply(&self) -> usize;

    /// The `index`-th move played on this object (0 = the first), or `None` past the end.
    fn move_played(&self, index: usize) -> Option<Self::Move>;

    /// The 64-bit Zobrist key of the position (side to move included), maintained incrementally.
    fn hash(&self) -> u64;

    /// The same key computed from the board alone; the invariant harness checks both agree.
    fn hash_from_scratch(&self) -> u64;

    /// The key [`Game::hash`] will have once `mv` is played, where the game can tell it cheaply
    /// without playing it (the searcher then fetches the table's entry while the move is made);
    /// `None` (the default) where it cannot. The invariant harness checks every `Some`.
    fn hash_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// A result decided by rule without looking at the move list: a five in gomoku, a repetition,
    /// a move-count rule, two passes in go.
    ///
    /// `search_root` is `None` to judge by the game's exact rules. Searchers pass the ply of their
    /// root: a position repeated after it may then count as a draw at its first repetition, which
    /// is what a search wants and is sound because the opponent can always repeat again.
    fn rule_outcome(&self, search_root: Option<usize>) -> Option<Outcome>;

    /// The result when the side to move has no legal move (checkmate, stalemate, a full board).
    fn no_move_outcome(&self) -> Outcome;

    /// The result by the exact rules, or `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.rule_outcome(None) {
            return Some(outcome);
        }
        let mut moves = Self::Moves::default();
        self.generate_legal_moves(&mut moves);
        moves.is_empty().then(|| self.no_move_outcome())
    }
}

/// A move offered from outside the program was not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub String);

/// Conveniences every [`Game`] gets: checked play and a scoped play/undo guard.
pub trait GameExt: Game {
    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] (and the position is unchanged) if `mv` is not legal here.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play(mv);
            Ok(())
        } else {
            Err(IllegalMove(format!("{mv:?}")))
        }
    }

    /// Plays a legal `mv` and returns a guard that undoes it when dropped.
    ///
    /// # Examples
    /// ```
    /// use tessera_core::{Game, GameExt, toys::TicTacToe};
    /// let mut game = TicTacToe::new();
    /// {
    ///     let after = game.play_scoped(4);
    ///     assert_eq!(after.ply(), 1);
    /// }
    /// assert_eq!(game.ply(), 0);
    /// ```
    fn play_scoped(&mut self, mv: Self::Move) -> Played<'_, Self> {
        self.play(mv);
        Played { game: self }
    }
}

impl<G: Game> GameExt for G {}

/// A position with one move played on it; the move is taken back when the guard drops.
pub struct Played<'a, G: Game> {
    game: &'a mut G,
}

impl<G: Game> Deref for Played<'_, G> {
    type Target = G;
    fn deref(&self) -> &G {
        self.game
    }
}

impl<G: Game> DerefMut for Played<'_, G> {
    fn deref_mut(&mut self) -> &mut G {
        self.game
    }
}

impl<G: Game> Drop for Played<'_, G> {
    fn drop(&mut self) {
        self.game.undo();
    }
}

/// Move and position text for one protocol: UCI `e2e4`, ICCS `h2e2`, pbrain `7,7`, AGI `78`, GTP `D4`.
///
/// Lives in the game crate; each protocol picks the notation it speaks.
pub trait Notation {
    /// The game this notation writes.
    type Game: Game;
    /// Why a text was not understood.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Reads a move in `position`. Checks the syntax; legality is checked by the caller.
    ///
    /// # Errors
    /// When the text is not a move in this notation.
    fn parse_move(&self, position: &Self::Game, text: &str) -> Result<<Self::Game as Game>::Move, Self::Error>;

    /// Writes `mv`, a move of `position`.
    fn format_move(&self, position: &Self::Game, mv: <Self::Game as Game>::Move) -> String;

    /// Writes `line`, moves played one after another from `position` (a principal variation),
    /// stopping before the first move that is not legal where it would be played.
    fn format_line(&self, position: &Self::Game, line: &[<Self::Game as Game>::Move]) -> Vec<String> {
        let mut position = position.clone();
        let mut texts = Vec::with_capacity(line.len());
        for &mv in line {
            if !position.is_legal(mv) {
                break;
            }
            texts.push(self.format_move(&position, mv));
            position.play(mv);
        }
        texts
    }
}
