//! `tessera-gtp`: Tessera's go engine over GTP v2.

mod cli;
mod dialect;

use std::time::Duration;

use clap::Parser;
use cli::{Cli, Command};
use tessera_core::{io, EngineOptions};
use tessera_go::search::bench_report;
use tessera_gtp_protocol::{Config, Session};

fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    io::init_logging(&cli.log_level, cli.log_file.as_deref())?;
    if let Some(Command::Bench { playouts }) = cli.command {
        for line in bench_report(playouts) {
            println!("{line}");
        }
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
