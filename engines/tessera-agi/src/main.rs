//! `tessera-agi`: gomoku/renju (15×15) over the AGI protocol.

mod cli_texts;
mod dialect;
#[path = "../../gomoku_cli.rs"]
mod gomoku_cli;
#[cfg(test)]
mod transcripts;

use clap::{Parser, Subcommand};
use gomoku_cli::{print_bench, BenchDepth, Cli};
use tessera_agi_protocol::run;
use tessera_core::io::Output;

/// The subcommands of `tessera-agi` (its flags are both gomoku engines').
#[derive(Subcommand, Debug)]
enum Sub {
    /// Search the bench positions to a fixed depth; prints nodes and nodes/s.
    Bench(BenchDepth),
}

fn main() {
    let cli = Cli::<Sub>::parse();
    let network = cli.flags.start("tessera-agi");
    if let Some(Sub::Bench(depth)) = cli.command {
        print_bench(&depth, network);
        return;
    }
    let gomoku = dialect::Gomoku { style: cli.flags.style, network };
    run(gomoku, cli.flags.engine_options(), std::io::stdin(), Output::stdout());
    // GUIs kill the process soon after QUIT: leave at once, the search thread is stopped.
    std::process::exit(0);
}
