//! `tessera-uci`: Tessera's chess engine. With no subcommand it speaks UCI on stdin/stdout.

mod dialect;
#[path = "../../evaluation.rs"]
mod evaluation;
#[path = "../../limiter.rs"]
mod limiter;
mod tablebases;
#[cfg(test)]
mod transcripts;

use clap::{Parser, Subcommand};
use tessera_core::io::{init_logging, Output};
use tessera_uci_protocol::{run, Settings};

/// Tessera's chess engine (UCI). Point a GUI at this program; `bench` and `perft` are for testing.
#[derive(Parser, Debug)]
#[command(name = "tessera-uci", version = env!("TESSERA_VERSION"), about)]
struct Cli {
    /// Transposition table size in MiB (the `Hash` option's initial value).
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search threads (the `Threads` option's initial value).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Log level on stderr (error, warn, info, debug, trace).
    #[arg(long, default_value = "warn")]
    log_level: String,
    /// Write logs to this file instead of stderr.
    #[arg(long)]
    log_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Search the bench positions to a fixed depth; prints total nodes and nodes/s.
    Bench {
        /// Search depth.
        depth: Option<u32>,
    },
    /// Count the legal move tree: per-move counts, total and nodes/s.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position (default: the start position); Shredder-FEN castling works too.
        #[arg(long)]
        fen: Option<String>,
    },
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Err(error) = init_logging(&cli.log_level, cli.log_file.as_deref()) {
        eprintln!("tessera-uci: {error}");
        return std::process::ExitCode::FAILURE;
    }
    let settings = Settings { hash_mb: cli.hash, threads: cli.threads };
    match cli.command {
        None => run(dialect::Chess, std::io::stdin(), Output::stdout(), settings),
        Some(Command::Bench { depth }) => dialect::print_bench(depth, settings),
        Some(Command::Perft { depth, fen }) => {
            if let Err(error) = dialect::print_perft(depth, fen.as_deref()) {
                eprintln!("tessera-uci: invalid FEN: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    std::process::ExitCode::SUCCESS
}
