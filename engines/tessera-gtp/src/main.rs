//! `tessera-gtp`: Tessera's go engine over GTP v2.

mod dialect;

use std::time::Duration;

use clap::{Parser, Subcommand};
use tessera_core::{io, EngineOptions};
use tessera_go::search::{bench, raw_playout_speed, signature};
use tessera_gtp_protocol::{Config, Session};

/// Tessera's go engine (GTP v2 on stdin/stdout).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Tree memory in MiB.
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Seconds per move when the controller sets no time system.
    #[arg(long, default_value_t = 1.0)]
    move_time: f64,
    /// Fixed playouts per move instead of time.
    #[arg(long)]
    playouts: Option<u64>,
    /// Resign below this win rate (0 = never).
    #[arg(long, default_value_t = 0.08)]
    resign_threshold: f32,
    /// Think on the opponent's time.
    #[arg(long)]
    ponder: bool,
    /// Log level (error, warn, info, debug, trace).
    #[arg(long, default_value = "warn")]
    log_level: String,
    /// Log to this file instead of stderr.
    #[arg(long)]
    log_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Searches fixed positions for a fixed number of playouts; prints playouts/s and the signature.
    Bench {
        /// Playouts per position.
        #[arg(default_value_t = 5000)]
        playouts: u64,
    },
}

fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    io::init_logging(&cli.log_level, cli.log_file.as_deref())?;
    if let Some(Command::Bench { playouts }) = cli.command {
        let lines = bench(playouts);
        for line in &lines {
            println!(
                "{0}x{0}: {1} playouts, {2} playouts/s (tree search)",
                line.size,
                line.playouts,
                line.playouts_per_second()
            );
        }
        for size in [9, 19] {
            println!(
                "{size}x{size} empty board: {} playouts/s (bare playouts, 1 thread)",
                raw_playout_speed(size, Duration::from_secs(1))
            );
        }
        println!("Bench: {}", signature(&lines));
        return Ok(());
    }
    let options = EngineOptions { threads: cli.threads.max(1), hash_mb: cli.hash.max(1), ..EngineOptions::default() };
    let config = Config {
        options,
        resign_threshold: cli.resign_threshold,
        move_time: Duration::from_secs_f64(cli.move_time.clamp(0.01, 3600.0)),
        playouts: cli.playouts,
        ponder: cli.ponder,
    };
    let lines = io::spawn_reader(std::io::stdin(), Some, None);
    Session::new(dialect::TesseraGo, config, io::Output::stdout()).run(&lines);
    Ok(())
}
