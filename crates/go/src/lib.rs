//! `tessera-go`: the game of go for Tessera.
//!
//! - [`Board`]: stones, strings and pseudo-liberties with O(1) atari tests, incremental Zobrist keys.
//! - [`Position`]: board + [`Rules`] + history (undo, superko, two passes end the game); implements
//!   core's [`tessera_core::Game`] and, in [`playout`], [`tessera_core::Playout`] for MCTS.
//! - [`score`]: area scoring and seki; [`playout`]: playouts and the owners of the points they end with;
//!   [`atari`]: self-ataris; [`life`]: the referee's dead stones and final score; [`handicap`]: GNU
//!   Go's placement; [`sgf`]: records; [`notation`]: GTP vertices; [`policy`]: what our player
//!   decides beyond the search (rules by name, handicap, scoring for controllers, passing and
//!   resigning).
//!
//! Modules, bottom-up: board → rules → atari → pattern → learned → handicap → ladder → score →
//! position → notation → display → sgf → komi → priors → features → network → playout → life →
//! search → policy.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod atari;
pub mod board;
pub mod display;
pub mod features;
pub mod handicap;
pub mod komi;
pub mod ladder;
pub mod learned;
pub mod life;
pub mod network;
pub mod notation;
pub mod pattern;
pub mod playout;
pub mod policy;
pub mod position;
pub mod priors;
pub mod rules;
pub mod score;
pub mod search;
pub mod sgf;
#[cfg(test)]
mod test_positions;

pub use board::{Board, Cell};
pub use notation::{format_vertex, lettered_point, parse_vertex, GtpNotation};
pub use position::{Move, Moves, Position};
pub use rules::{Rules, Superko};
