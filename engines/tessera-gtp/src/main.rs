//! `tessera-gtp`: Tessera's go engine over GTP v2.

mod cli;
mod dialect;
#[cfg(test)]
mod transcripts;

use std::time::Duration;

use clap::Parser;
use cli::{Cli, Command};
use tessera_core::{bench, io, report, EngineOptions};
use tessera_go::policy::Policy;
use tessera_go::search::GoBench;
use tessera_gtp_protocol::{run, Config};

fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    io::init_logging(&cli.log_level, cli.log_file.as_deref())?;
    if let Some(Command::Bench { playouts }) = cli.command {
        report::print_lines(bench::run(&GoBench { playouts }, &GoBench::OPTIONS).lines());
        return Ok(());
    }
    let options = EngineOptions {
        threads: cli.threads.max(1),
        hash_mb: cli.hash.max(1),
        move_overhead: Duration::from_secs_f64(cli.lag_buffer.min(3600.0)),
        ..EngineOptions::default()
    };
    let config = Config {
        options,
        move_time: Duration::from_secs_f64(cli.move_time.clamp(0.01, 3600.0)),
        move_block: cli.move_block,
        playouts: cli.playouts,
        ponder: cli.ponder,
    };
    let policy = Policy { resign_threshold: cli.resign_threshold };
    let dialect = dialect::TesseraGo { policy, value_weight: cli.value_weight as f32 };
    run(dialect, config, std::io::stdin(), io::Output::stdout());
    Ok(())
}
