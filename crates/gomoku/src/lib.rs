//! `tessera-gomoku`: gomoku and renju.
//!
//! - [`Rules`]: freestyle, standard, renju and caro on boards from 5×5 to 22×22.
//! - [`Board`]: the position, with incremental line patterns per side, threat counts and a
//!   Zobrist key; it implements [`tessera_core::Game`] with [`Point`] moves.
//! - Renju forbidden points (recursive three test), a threat-space solver (VCF/VCT), the
//!   pattern evaluation and [`GomokuSearcher`], which wraps the core alpha-beta.
//! - [`notation`]: pbrain `x,y` and AGI hex points; [`openings`]: our swap2 and colour-change
//!   decisions.
//!
//! Modules, bottom-up: point → rules → cells → pattern → shape → board → renju → game → notation →
//! openings → packed → nnue → eval → threat → searcher → puzzles → tuning → bench.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod bench;
mod board;
mod cells;
mod eval;
mod game;
pub mod nnue;
pub mod notation;
pub mod openings;
mod packed;
mod pattern;
mod point;
pub mod puzzles;
mod renju;
mod rules;
mod searcher;
mod shape;
mod threat;
pub mod tuning;

pub use board::Board;
pub use cells::MAX_CELLS;
pub use eval::WIN_SOON;
pub use game::{Moves, PlaceError, MAX_MOVES};
pub use packed::UnpackError;
pub use pattern::LinePattern;
pub use point::Point;
pub use rules::{Rules, RulesError, Variant, WinKind, MAX_SIDE, MIN_SIDE};
pub use searcher::{GomokuSearcher, Style, UnknownStyle, PLAIN_DEPTH};
pub use shape::Threat;
pub use threat::{ThreatKind, ThreatSolver};

#[cfg(test)]
mod tests;
