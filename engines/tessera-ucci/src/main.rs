//! `tessera-ucci`: Tessera's xiangqi engine. Speaks UCCI, or Pikafish-style UCI when the first
//! command is `uci` (the first line chooses the session); `bench`, `perft` and `judge`
//! subcommands for figures and scripts.

mod dialect;
#[path = "../../evaluation.rs"]
mod evaluation;
#[path = "../../limiter.rs"]
mod limiter;
#[cfg(test)]
mod transcripts;
mod verdicts;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tessera_core::io::Output;
use tessera_core::perft::perft_lines;
use tessera_core::{report, serve_chosen, LineSession};
use tessera_xiangqi::{bench, judge_report, position_after, Iccs};

#[derive(Parser, Debug)]
#[command(name = "tessera-ucci", version = env!("TESSERA_VERSION"), about)]
struct Cli {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Log level (error, warn, info, debug, trace); logs never go to stdout.
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
        #[arg(default_value_t = bench::DEPTH)]
        depth: u32,
    },
    /// Count the legal move tree: per-move counts, the total and nodes/s.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Start position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
    },
    /// Referee for scripts: our rules' verdict after `moves` (ICCS) and the legal moves.
    Judge {
        /// Start position (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from it.
        moves: Vec<String>,
    },
}

/// A UCI session when the first line is `uci`, else UCCI (a GUI that skips the handshake too).
fn session(first: &str, cli: &Cli) -> Box<dyn LineSession> {
    let output = Output::stdout();
    if first.split_whitespace().next() == Some("uci") {
        let settings = tessera_uci_protocol::Settings { hash_mb: cli.hash.max(1), threads: cli.threads.max(1) };
        Box::new(tessera_uci_protocol::Session::new(dialect::Xiangqi, output, settings))
    } else {
        let options = tessera_ucci_protocol::Options {
            threads: cli.threads.max(1),
            hash_mb: cli.hash.max(1),
            ..tessera_ucci_protocol::Options::default()
        };
        Box::new(tessera_ucci_protocol::Session::new(dialect::Xiangqi, output, options))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(error) = tessera_core::io::init_logging(&cli.log_level, cli.log_file.as_deref()) {
        eprintln!("tessera-ucci: {error}");
        return ExitCode::FAILURE;
    }
    let lines = match &cli.command {
        Some(Command::Bench { depth }) => Ok(dialect::bench_report(*depth, cli.threads).lines()),
        Some(Command::Perft { depth, fen }) => {
            position_after(fen.as_deref(), &[]).map(|p| perft_lines(&p, *depth, &Iccs))
        }
        Some(Command::Judge { fen, moves }) => position_after(fen.as_deref(), moves).map(|p| judge_report(&p)),
        None => {
            serve_chosen(std::io::stdin(), |first| session(first, &cli));
            Ok(Vec::new())
        }
    };
    match lines {
        Ok(lines) => report::print_lines(lines),
        Err(error) => {
            eprintln!("tessera-ucci: {error}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
