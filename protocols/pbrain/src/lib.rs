//! `tessera-pbrain-protocol`: the Gomocup "pbrain" protocol with the Yixin-Board extensions.
//!
//! [`Command`] (manager → engine) and [`Response`] (engine → manager) parse and print both ways;
//! [`Session`] is the engine side: it keeps the board, turns `INFO` limits into search limits,
//! runs the search on the core [`tessera_core::Engine`] and answers; [`run`] serves it on stdin.
//! The game, its notation, its searcher and its opening decisions are seen through [`Dialect`],
//! which an engine crate implements with the gomoku crate.

mod command;
mod dialect;
mod info;
mod response;
mod session;

pub use command::{Command, Field};
pub use dialect::{Dialect, RuleCode};
pub use info::{move_budget, TimeSettings};
pub use response::Response;
pub use session::{run, Session};
pub use tessera_core::Flow;
