//! Tiny complete games used to test the generic searchers and the invariant harness before any
//! real game relies on them.

mod connect_four;
mod tic_tac_toe;

pub use connect_four::ConnectFour;
pub use tic_tac_toe::TicTacToe;

use crate::game::PackedMove;

/// Square or column indices of the toy games.
impl PackedMove for u8 {
    fn to_bits(self) -> u16 {
        u16::from(self)
    }
    fn from_bits(bits: u16) -> u8 {
        bits as u8
    }
}
