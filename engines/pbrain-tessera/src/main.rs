//! `pbrain-tessera`: gomoku/renju over the pbrain protocol (Piskvork, Gomocup, Yixin-Board).

mod cli_texts;
mod dialect;
#[path = "../../gomoku_cli.rs"]
mod gomoku_cli;
#[cfg(test)]
mod transcripts;

use clap::{Parser, Subcommand};
use gomoku_cli::{print_bench, BenchDepth, Cli};
use tessera_core::io::Output;
use tessera_core::report;
use tessera_gomoku::puzzles;
use tessera_pbrain_protocol::run;

/// The subcommands of `pbrain-tessera` (its flags are both gomoku engines').
#[derive(Subcommand, Debug)]
enum Sub {
    /// Search the bench positions to a fixed depth; prints nodes and nodes/s.
    Bench(BenchDepth),
    /// Solve the VCF/VCT puzzle set; prints the solve rate and median time.
    Puzzles,
}

fn main() {
    let cli = Cli::<Sub>::parse();
    let network = cli.flags.start("pbrain-tessera");
    match cli.command {
        Some(Sub::Bench(depth)) => print_bench(&depth, network),
        Some(Sub::Puzzles) => report::print_lines([puzzles::report()]),
        None => {
            let gomoku = dialect::Gomoku { style: cli.flags.style, network };
            run(gomoku, cli.flags.engine_options(), std::io::stdin(), Output::stdout());
            // Managers kill the process soon after END: leave at once, the search thread is stopped.
            std::process::exit(0);
        }
    }
}
