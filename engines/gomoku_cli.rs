//! The command line both gomoku engines take (pbrain-tessera, tessera-agi): the search flags, the
//! evaluation's choice and the `bench` subcommand. Written once here and included by both mains
//! (`#[path]`, as `evaluation.rs` is for chess and xiangqi); each engine names what differs between
//! them (the table's and the log's help, the log's default) in its `cli_texts` module.

use std::path::PathBuf;
use std::sync::Arc;

use tessera_core::{bench, report, EngineOptions};
use tessera_gomoku::bench::{GomokuBench, DEPTH};
use tessera_gomoku::nnue::{self, Network};
use tessera_gomoku::Style;

use crate::cli_texts::{HASH_HELP, LOG_LEVEL, LOG_LEVEL_HELP};

/// A gomoku engine's command line: the flags both engines take and the engine's own
/// subcommands `S`. Its name, version and about line are the including package's.
#[derive(clap::Parser, Debug)]
#[command(version = env!("TESSERA_VERSION"), about)]
pub struct Cli<S: clap::Subcommand> {
    #[command(flatten)]
    pub flags: Flags,
    #[command(subcommand)]
    pub command: Option<S>,
}

/// The flags of both gomoku engines.
#[derive(clap::Args, Debug)]
pub struct Flags {
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[arg(long, default_value_t = 128, help = HASH_HELP)]
    hash: usize,
    #[arg(long, default_value = LOG_LEVEL, help = LOG_LEVEL_HELP)]
    log_level: String,
    /// Write logs to this file.
    #[arg(long)]
    log_file: Option<PathBuf>,
    /// Playing style: full, or the reference opponents plain and greedy.
    #[arg(long, default_value = "full", hide = true)]
    pub style: Style,
    /// Evaluate with this `gomoku-shapes` network (`tessera train --game gomoku`); `<embedded>`:
    /// the built-in one.
    #[arg(long, default_value = nnue::DEFAULT_NETWORK_NAME)]
    eval_file: PathBuf,
    /// Evaluate with the pattern weights alone, without a network.
    #[arg(long, conflicts_with = "eval_file")]
    patterns: bool,
}

impl Flags {
    /// Starts logging as asked and loads the network the flags choose (`None`: the pattern
    /// weights). A network that cannot be loaded ends `program` with exit code 2, before any
    /// protocol line.
    pub fn start(&self, program: &str) -> Option<Arc<Network>> {
        if let Err(error) = tessera_core::io::init_logging(&self.log_level, self.log_file.as_deref()) {
            eprintln!("logging: {error}");
        }
        let network = (!self.patterns).then(|| nnue::load(&self.eval_file)).transpose();
        network.unwrap_or_else(|error| {
            eprintln!("{program}: {error}");
            std::process::exit(2)
        })
    }

    /// The search options of the flags (at least one thread and one MiB).
    pub fn engine_options(&self) -> EngineOptions {
        EngineOptions { threads: self.threads.max(1), hash_mb: self.hash.max(1), ..EngineOptions::default() }
    }
}

/// The `bench` subcommand's arguments.
#[derive(clap::Args, Debug)]
pub struct BenchDepth {
    /// Search depth.
    #[arg(default_value_t = DEPTH)]
    depth: u32,
}

/// `bench [depth]`: the bench positions searched with `network` on one thread and the default
/// table (not the flags': the signature must not depend on them).
pub fn print_bench(arguments: &BenchDepth, network: Option<Arc<Network>>) {
    let bench = GomokuBench { depth: arguments.depth, network };
    report::print_lines(bench::run(&bench, &EngineOptions::default()).lines());
}
