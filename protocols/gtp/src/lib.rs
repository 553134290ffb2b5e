//! `tessera-gtp-protocol`: the Go Text Protocol, version 2.
//!
//! - [`command`]: input pre-processing and the typed [`Command`] (parsed and printed), with
//!   [`vertex`]'s colours and vertices;
//!   [`response`]: [`Response`] both ways.
//! - [`dialect`]: the [`Dialect`] trait through which the session sees a go implementation, its
//!   searcher, its vertex notation and its decisions (passing, resigning, scoring).
//! - [`session`]: the engine side ([`Session`]): commands; its `thinking` half runs genmove with
//!   time systems, analysis streaming (`lz-analyze`, `kata-analyze`) and pondering; [`analysis`]
//!   formats the lines.

pub mod analysis;
pub mod clock;
pub mod command;
pub mod dialect;
pub mod error;
pub mod response;
pub mod session;
pub mod vertex;

pub use command::Command;
pub use dialect::{Dialect, Genmove, Handicap};
pub use error::CommandError;
pub use response::Response;
pub use session::{run, Config, Session};
pub use tessera_core::Flow;
pub use vertex::{Color, Vertex};
