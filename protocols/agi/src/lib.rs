//! `tessera-agi-protocol`: the AGI protocol (Amoyman Gobang Interface,
//! a 2016 draft modelled on UCI) for 15×15 gomoku and renju.
//!
//! Points are two hex digits (row `0`–`E`, column `1`–`F`: core's [`HexPoint`]); [`Command`] and [`Response`] parse
//! and print both ways; [`Session`] is the engine side with the project's decisions on the
//! draft's open points (see `docs/gomoku.md`).

mod command;
mod dialect;
mod response;
mod session;

pub use command::{Change, Command, Fifth, GoParams};
pub use dialect::Dialect;
pub use response::{Best, InfoLine, Response};
pub use session::{run, Session};
pub use tessera_core::{Flow, HexPoint};
