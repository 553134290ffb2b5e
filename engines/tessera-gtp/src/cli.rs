//! Command-line flags of `tessera-gtp`.

use clap::{Parser, Subcommand};
use tessera_core::EngineOptions;

/// Tessera's go engine (GTP v2 on stdin/stdout).
#[derive(Parser)]
#[command(version = env!("TESSERA_VERSION"), about)]
pub struct Cli {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Tree memory in MiB.
    #[arg(long, default_value_t = 256)]
    pub hash: usize,
    /// Seconds per move when the controller sets no time system.
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    pub move_time: f64,
    /// Seconds kept back from every move's time for delays outside the engine: the controller's
    /// reading and a server's network (KataGo's lagBuffer). Raise it on a server or a busy machine.
    #[arg(long, default_value_t = EngineOptions::default().move_overhead.as_secs_f64(), value_parser = seconds)]
    pub lag_buffer: f64,
    /// With --move-time and no time system from the controller: a Canadian clock of this many
    /// moves in as many move times, kept by the engine, so that a settled move leaves its time to
    /// the block's later moves (moves then average the move time).
    #[arg(long)]
    pub move_block: Option<u32>,
    /// Fixed playouts per move instead of time.
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Resign below this win rate (0 = never).
    #[arg(long, default_value_t = 0.08)]
    pub resign_threshold: f32,
    /// Playouts that the network's estimate of who is winning counts as in a busy node's mean
    /// (19×19, where the network runs); 0 leaves the playouts alone.
    #[arg(long, default_value_t = f64::from(tessera_go::search::VALUE_WEIGHT), value_parser = weight)]
    pub value_weight: f64,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Log level (error, warn, info, debug, trace).
    #[arg(long, default_value = "warn")]
    pub log_level: String,
    /// Log to this file instead of stderr.
    #[arg(long)]
    pub log_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Searches fixed positions for a fixed number of playouts; prints playouts/s and the signature.
    Bench {
        /// Playouts per position.
        #[arg(default_value_t = tessera_go::search::BENCH_PLAYOUTS)]
        playouts: u64,
    },
}

/// A weight: a finite number, not negative.
fn weight(text: &str) -> Result<f64, String> {
    not_negative(text, "a weight (a number, 0 or more)")
}

/// A duration in seconds: a finite number, not negative.
fn seconds(text: &str) -> Result<f64, String> {
    not_negative(text, "a number of seconds")
}

/// A finite number, not negative; else an error saying the text is not `what`.
fn not_negative(text: &str, what: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 => Ok(value),
        _ => Err(format!("{text:?} is not {what}")),
    }
}
