//! `tessera-pbrain`: the Gomocup "pbrain" protocol with the Yixin-Board extensions.
//!
//! [`Command`] (manager → engine) and [`Response`] (engine → manager) parse and print both ways;
//! [`Session`] is the engine side: it keeps the board, turns `INFO` limits into search limits,
//! runs the search on the core [`tessera_core::Engine`] and answers. The game is seen through
//! [`Dialect`], which the engine binary implements with the gomoku crate.

mod command;
mod dialect;
mod response;
mod session;
mod time;

pub use command::{Command, Field};
pub use dialect::{Dialect, RuleCode};
pub use response::Response;
pub use session::{Flow, Session};
pub use time::{move_budget, TimeSettings};
