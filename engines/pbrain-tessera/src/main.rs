//! `pbrain-tessera`: gomoku/renju over the pbrain protocol (Piskvork, Gomocup, Yixin-Board).

mod dialect;
#[cfg(test)]
mod transcripts;

use clap::{Parser, Subcommand};
use tessera_core::io::{init_logging, Output};
use tessera_core::{bench as driver, report, EngineOptions};
use tessera_gomoku::{bench, puzzles, Style};
use tessera_pbrain_protocol::run;

/// Gomoku and renju engine speaking the Gomocup pbrain protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "pbrain-tessera", version = env!("TESSERA_VERSION"), about)]
struct Cli {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table in MiB (INFO max_memory may lower it).
    #[arg(long, default_value_t = 128)]
    hash: usize,
    /// Log level (to stderr or --log-file, never stdout). Off unless asked for: Piskvork reads a
    /// brain's stderr as if it were protocol output.
    #[arg(long, default_value = "off")]
    log_level: String,
    /// Write logs to this file.
    #[arg(long)]
    log_file: Option<std::path::PathBuf>,
    /// Playing style: full, or the reference opponents plain and greedy.
    #[arg(long, default_value = "full", hide = true)]
    style: Style,
    /// Evaluate with this `gomoku-shapes` network (`tessera train --game gomoku`); `<embedded>`:
    /// the built-in one.
    #[arg(long, default_value = tessera_gomoku::nnue::DEFAULT_NETWORK_NAME)]
    eval_file: std::path::PathBuf,
    /// Evaluate with the pattern weights alone, without a network.
    #[arg(long, conflicts_with = "eval_file")]
    patterns: bool,
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Search the bench positions to a fixed depth; prints nodes and nodes/s.
    Bench {
        /// Search depth.
        #[arg(default_value_t = bench::DEPTH)]
        depth: u32,
    },
    /// Solve the VCF/VCT puzzle set; prints the solve rate and median time.
    Puzzles,
}

fn main() {
    let cli = Cli::parse();
    if let Err(error) = init_logging(&cli.log_level, cli.log_file.as_deref()) {
        eprintln!("logging: {error}");
    }
    let network = (!cli.patterns).then(|| tessera_gomoku::nnue::load(&cli.eval_file)).transpose();
    let network = network.unwrap_or_else(|error| {
        eprintln!("pbrain-tessera: {error}");
        std::process::exit(2)
    });
    match cli.command {
        Some(Sub::Bench { depth }) => {
            let bench = bench::GomokuBench { depth, network };
            report::print_lines(driver::run(&bench, &EngineOptions::default()).lines());
        }
        Some(Sub::Puzzles) => report::print_lines([puzzles::report()]),
        None => {
            let options =
                EngineOptions { threads: cli.threads.max(1), hash_mb: cli.hash.max(1), ..EngineOptions::default() };
            run(dialect::Gomoku { style: cli.style, network }, options, std::io::stdin(), Output::stdout());
            // Managers kill the process soon after END: leave at once, the search thread is stopped.
            std::process::exit(0);
        }
    }
}
