//! Tiny complete games used to test the generic searchers and the invariant harness before any
//! real game relies on them.

mod connect_four;
mod tic_tac_toe;

pub use connect_four::ConnectFour;
pub use tic_tac_toe::TicTacToe;

use crate::game::PackedMove;
use crate::perft::Perft;

/// Square or column indices of the toy games.
impl PackedMove for u8 {
    fn to_bits(self) -> u16 {
        u16::from(self)
    }
    fn from_bits(bits: u16) -> u8 {
        bits as u8
    }
}

/// The toys count their trees by playing every move.
impl Perft for TicTacToe {}
impl Perft for ConnectFour {}

/// A toy move text that is not a number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a move number")]
pub struct NotANumber(pub String);

/// The toys' move text: the square or column number (`4`). Protocol crates test their sessions
/// with it, so that no protocol test needs a real game.
pub struct Numbers<G>(std::marker::PhantomData<fn() -> G>);

impl<G> Default for Numbers<G> {
    fn default() -> Self {
        Numbers(std::marker::PhantomData)
    }
}

impl<G> Clone for Numbers<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Numbers<G> {}

impl<G: crate::game::Game<Move = u8>> crate::game::Notation for Numbers<G> {
    type Game = G;
    type Error = NotANumber;

    fn parse_move(&self, _position: &G, text: &str) -> Result<u8, NotANumber> {
        text.trim().parse().map_err(|_| NotANumber(text.to_owned()))
    }

    fn format_move(&self, _position: &G, mv: u8) -> String {
        mv.to_string()
    }
}
