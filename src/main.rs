//! `tessera`: the workspace's command-line front door.
//!
//! Subcommands grow with the project: `engines` lists the engine binaries and how a GUI starts
//! each; `latency` measures how fast a running search answers `stop`.

mod book;
mod datagen;
mod demo;
mod guide;
mod ladder;
mod latency;
mod matches;
mod train;
mod tune;

use clap::{Parser, Subcommand};

/// One workspace of game engines: chess (UCI), xiangqi (UCCI/UCI), gomoku and renju (pbrain,
/// AGI) and go (GTP), each speaking its game's native protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "tessera", version = env!("TESSERA_VERSION"), about, long_about = None)]
struct Cli {
    /// Log level for messages on stderr (error, warn, info, debug, trace).
    #[arg(long, global = true, default_value = "warn")]
    log_level: String,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play one short game of each game between Tessera's engines, then show how to use them.
    Demo,
    /// List the engine binaries and how to point each game's GUIs at them.
    Engines,
    /// Play two engines against each other through their protocols and measure the result
    /// (cutechess-cli's options are accepted too: `-engine cmd=… -each tc=… -rounds N`).
    Match(Box<matches::MatchArgs>),
    /// Sum the result files of `tessera match --shard I/N` runs into one report with Elo and SPRT.
    MatchMerge(matches::MergeArgs),
    /// Build an opening book (for the engines' `bookfiles`/`BookFile` options) from PGN game records.
    Book(book::BookArgs),
    /// Draw the strength ladder (Elo against each opponent, by game) from the logs in docs/.
    ReportLadder(ladder::LadderArgs),
    /// Play self-play games and store their quiet positions, labelled, for training evaluations.
    Datagen(datagen::DatagenArgs),
    /// Join training-data files (the shards of `tessera datagen --shard I/N`) into one, each position once.
    DatagenMerge(datagen::MergeArgs),
    /// Train a network on training-data files (from `tessera datagen`).
    Train(train::TrainArgs),
    /// Fit the hand-crafted evaluation's weights to training-data files (Texel tuning).
    Tune(tune::TuneArgs),
    /// Measure the time from `stop` to the search's answer (target: a few milliseconds).
    Latency {
        /// How many searches to stop.
        #[arg(long, default_value_t = 50)]
        trials: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}

/// The command line, with the arguments of a `tessera match` in cutechess-cli's form translated
/// into ours (see `matches::cutechess`).
fn arguments() -> Result<Vec<std::ffi::OsString>, matches::cutechess::CutechessError> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let text: Vec<String> = args.iter().map(|arg| arg.to_string_lossy().into_owned()).collect();
    match text.get(1).map(String::as_str) {
        Some("match") if matches::cutechess::is_cutechess_form(&text[2..]) => {
            let ours = matches::cutechess::translate(&text[2..])?;
            Ok(args[..2].iter().cloned().chain(ours.into_iter().map(Into::into)).collect())
        }
        _ => Ok(args),
    }
}

fn main() -> std::process::ExitCode {
    let cli = match arguments() {
        Ok(args) => Cli::parse_from(args),
        Err(error) => {
            eprintln!("tessera match: {error}");
            return std::process::ExitCode::from(2);
        }
    };
    if let Err(error) = tessera_core::io::init_logging(&cli.log_level, None) {
        eprintln!("tessera: {error}");
        return std::process::ExitCode::FAILURE;
    }
    match cli.command {
        Some(Command::Engines) => guide::print_engines(),
        Some(Command::Demo) => {
            if let Err(error) = demo::run() {
                eprintln!("tessera demo: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::Latency { trials, threads }) => latency::measure(trials, threads),
        Some(Command::Datagen(args)) => {
            if let Err(error) = datagen::run(&args) {
                eprintln!("tessera datagen: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::DatagenMerge(args)) => {
            if let Err(error) = datagen::merge(&args) {
                eprintln!("tessera datagen-merge: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::Train(args)) => {
            if let Err(error) = train::run(&args) {
                eprintln!("tessera train: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::Tune(args)) => {
            if let Err(error) = tune::run(&args) {
                eprintln!("tessera tune: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::Match(args)) => {
            if let Err(error) = matches::run(&args) {
                eprintln!("tessera match: {error}");
                return std::process::ExitCode::from(2);
            }
        }
        Some(Command::Book(args)) => {
            if let Err(error) = book::run(&args) {
                eprintln!("tessera book: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::ReportLadder(args)) => {
            if let Err(error) = ladder::run(&args) {
                eprintln!("tessera report-ladder: {error}");
                return std::process::ExitCode::FAILURE;
            }
        }
        Some(Command::MatchMerge(args)) => {
            if let Err(error) = matches::merge_shards(&args) {
                eprintln!("tessera match-merge: {error}");
                return std::process::ExitCode::from(2);
            }
        }
        None => {
            use clap::CommandFactory;
            // No subcommand: show what there is to do.
            let _ = Cli::command().print_help();
        }
    }
    std::process::ExitCode::SUCCESS
}
