//! `tessera-arena`: matches between engines of any of the five protocols, and the statistics
//! that turn their results into Elo differences, error bars, LOS and SPRT decisions.
//!
//! - [`process`] starts engine processes and talks to them with deadlines.
//! - [`game`] plays one game between two [`Contestant`]s, refereed by our own rules, with time
//!   forfeits, illegal moves, crashes and score adjudication.
//! - [`schedule`] runs a whole match over openings with colour alternation and concurrency.
//! - [`shard`] cuts a match into slices for several machines and merges their results.
//! - [`record`] writes games as PGN or SGF, with each move's score and time, and reads them back.
//! - [`stats`] and [`time_control`] hold the numbers.
//!
//! Modules, bottom-up: stats → time_control → openings → process → game → shard → clients →
//! record → schedule → report.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod clients;
pub mod game;
pub mod openings;
pub mod process;
pub mod record;
pub mod report;
pub mod schedule;
pub mod shard;
pub mod stats;
pub mod time_control;

pub use game::{
    play_game, play_game_observed, Adjudication, Contestant, GameRecord, GameSettings, MoveNote, Reply, Termination,
};
pub use process::{ClientError, EngineProcess, EngineSpec};
pub use schedule::{result_of_first, run_match, run_match_shard, ContestantFactory, MatchSettings, Referee};
pub use shard::{GameResult, MergeError, Shard, ShardResults};
pub use stats::{EloEstimate, Pentanomial, Results, ScoreInterval, Sprt, SprtDecision, Standings};
pub use time_control::{GameClocks, TimeControl};
