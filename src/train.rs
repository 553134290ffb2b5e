//! `tessera train`: trains a network on training-data files (`tessera datagen`) on the CPU.

use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::Args;
use tessera_nnue::features::TrainingFeatures;
use tessera_nnue::network::Network;
use tessera_nnue::train::{train, TrainError, TrainReport, TrainSettings};

/// The games `tessera train` has features for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TrainGame {
    /// Chess, feature set `chess-768`.
    Chess,
    /// Xiangqi, feature set `xiangqi-kf3`.
    Xiangqi,
    /// Gomoku and renju (every variant and size in one network), feature set `gomoku-shapes`.
    Gomoku,
}

/// Everything `tessera train` accepts.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game whose data and features to use.
    #[arg(long, value_enum)]
    pub game: TrainGame,
    /// Training-data files (from `tessera datagen`).
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The network file to write (after every epoch); `<out>.checkpoint` lets a run resume.
    #[arg(long)]
    pub out: PathBuf,
    /// Accumulator size (a multiple of 16; default 256, or the initial network's).
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Start from this network's weights instead of random ones: fine-tunes it on the data (for
    /// example the default network on its own self-play). Its features and score scale must be
    /// this run's.
    #[arg(long)]
    pub initial_network: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16_384)]
    pub batch_size: usize,
    /// Starting learning rate (cosine decay to 2% of it).
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f32,
    /// Weight of the game result in the target, the rest being the search score.
    #[arg(long, default_value_t = 0.3)]
    pub result_weight: f32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Evaluation units of one logistic step when scores become win chances, which also makes
    /// them the network's output units (default: 400 for chess's centipawns, 130 for xiangqi,
    /// 1000 for gomoku's pattern units).
    #[arg(long)]
    pub score_scale: Option<f32>,
    /// Use only the first N positions of the files.
    #[arg(long)]
    pub max_positions: Option<u64>,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Read every position as stored (by default each epoch reads half of them as their mirror
    /// images where the game has such a symmetry: chess without castling rights, every xiangqi position).
    #[arg(long)]
    pub no_mirror: bool,
}

/// Runs `tessera train`.
///
/// # Errors
/// When the data cannot be read, belongs to another game, or the network cannot be written.
pub fn run(args: &TrainArgs) -> Result<(), TrainError> {
    let network = match args.game {
        TrainGame::Chess => fit::<tessera_chess::Board>(args, TrainSettings::default().score_scale)?,
        TrainGame::Xiangqi => fit::<tessera_xiangqi::Position>(args, crate::tune::XIANGQI_SCORE_SCALE as f32)?,
        TrainGame::Gomoku => fit::<tessera_gomoku::Board>(args, crate::tune::GOMOKU_SCORE_SCALE as f32)?,
    };
    println!(
        "wrote {} ({} features, {} hidden, {} bytes)",
        args.out.display(),
        network.feature_set(),
        network.hidden(),
        network.to_bytes().len()
    );
    Ok(())
}

/// Trains a network of `F`'s features as `args` ask, in units of `default_scale` unless
/// `--score-scale` says otherwise, reporting progress on stderr.
fn fit<F: TrainingFeatures>(args: &TrainArgs, default_scale: f32) -> Result<Network, TrainError> {
    let initial = args.initial_network.as_deref().map(|path| Network::load(path, F::FEATURE_SET)).transpose()?;
    let hidden = args.hidden.or(initial.as_ref().map(Network::hidden)).unwrap_or(TrainSettings::default().hidden);
    let settings = TrainSettings {
        hidden: hidden.div_ceil(16) * 16,
        epochs: args.epochs,
        batch_size: args.batch_size.max(1),
        learning_rate: args.learning_rate,
        result_weight: args.result_weight.clamp(0.0, 1.0),
        threads: args.threads.max(1),
        seed: args.seed,
        max_positions: args.max_positions,
        mirror: !args.no_mirror,
        initial,
        score_scale: args.score_scale.unwrap_or(default_scale),
    };
    let report = |report: &TrainReport| {
        match report.validation_loss {
            Some(validation) => eprintln!(
                "epoch {}/{}: train loss {:.6}, validation loss {validation:.6}, {:.0} positions/s",
                report.epoch, report.epochs, report.train_loss, report.positions_per_second
            ),
            None => eprintln!(
                "epoch {}/{}: {:.0}%, train loss {:.6}, {:.0} positions/s",
                report.epoch,
                report.epochs,
                100.0 * report.done as f64 / report.total.max(1) as f64,
                report.train_loss,
                report.positions_per_second
            ),
        }
        ControlFlow::Continue(())
    };
    train::<F>(&args.data, &args.out, &settings, report)
}
