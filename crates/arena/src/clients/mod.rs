//! The client side of each protocol: an engine process seen as a [`crate::Contestant`] of its game.

pub mod agi;
pub mod gtp;
pub mod pbrain;
pub mod ucci;
pub mod uci;
pub mod xboard;
