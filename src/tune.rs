//! `tessera tune`: fits the hand-crafted evaluation's weights to training-data files (Texel
//! tuning) and writes them as the source of the game's weights module.

use std::path::PathBuf;

use clap::Args;
use tessera_nnue::texel::{tune, LinearEvaluation, TuneError, TuneReport, TuneSettings};

/// The default logistic scale of xiangqi scores: chess's 400 centipawns in xiangqi units.
pub(crate) const XIANGQI_SCORE_SCALE: f64 = 130.0;

/// The default logistic scale of gomoku scores (pattern-evaluation units, an open three about 60),
/// where the static evaluation best predicts self-play results (docs/gomoku.md).
pub(crate) const GOMOKU_SCORE_SCALE: f64 = 1000.0;

/// The games `tessera tune` has a linear evaluation for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TuneGame {
    /// Chess: `crates/chess/src/eval/weights.rs`.
    Chess,
    /// Xiangqi: `crates/xiangqi/src/eval/weights.rs`.
    Xiangqi,
    /// Gomoku and renju: `crates/gomoku/src/eval/weights.rs`.
    Gomoku,
}

/// Everything `tessera tune` accepts.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game whose evaluation to tune.
    #[arg(long, value_enum)]
    pub game: TuneGame,
    /// Training-data files (from `tessera datagen`).
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// The Rust source file to write the fitted weights to (e.g. the game's `eval/weights.rs`).
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: u32,
    /// Adam's starting step, in evaluation units (cosine decay to 5% of it).
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Weight of the game result in the target, the rest being the search score.
    #[arg(long, default_value_t = 0.3)]
    pub result_weight: f64,
    /// Evaluation units of one logistic step when scores become win chances (default: 400 for
    /// chess's centipawns, 130 for xiangqi, where 100 is a horse, about three chess pawns, 1000
    /// for gomoku's pattern units).
    #[arg(long)]
    pub score_scale: Option<f64>,
    /// Use only the first N positions of the files.
    #[arg(long)]
    pub max_positions: Option<u64>,
    /// Keep the first N weights as they are and fit only the rest (gomoku: 30 keeps the shape
    /// and line weights and fits the threat table; docs/gomoku.md).
    #[arg(long, default_value_t = 0)]
    pub frozen_weights: usize,
}

/// Why `tessera tune` stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneCommandError {
    /// The data could not be read or fitted.
    #[error(transparent)]
    Tune(#[from] TuneError),
    /// The source file could not be written.
    #[error("{path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Runs `tessera tune`.
///
/// # Errors
/// When the data cannot be read or belongs to another game, or the source cannot be written.
pub fn run(args: &TuneArgs) -> Result<(), TuneCommandError> {
    let settings = TuneSettings {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        result_weight: args.result_weight.clamp(0.0, 1.0),
        max_positions: args.max_positions,
        frozen_weights: args.frozen_weights,
        score_scale: args.score_scale.unwrap_or(match args.game {
            TuneGame::Chess => TuneSettings::default().score_scale,
            TuneGame::Xiangqi => XIANGQI_SCORE_SCALE,
            TuneGame::Gomoku => GOMOKU_SCORE_SCALE,
        }),
        ..TuneSettings::default()
    };
    let source = match args.game {
        TuneGame::Chess => {
            use tessera_chess::eval::tuning::{current_weights, weights_source};
            weights_source(&fit::<tessera_chess::Board>(args, &settings, &current_weights())?)
        }
        TuneGame::Xiangqi => {
            use tessera_xiangqi::tuning::{current_weights, weights_source};
            weights_source(&fit::<tessera_xiangqi::Position>(args, &settings, &current_weights())?)
        }
        TuneGame::Gomoku => {
            use tessera_gomoku::tuning::{current_weights, weights_source};
            weights_source(&fit::<tessera_gomoku::Board>(args, &settings, &current_weights())?)
        }
    };
    std::fs::write(&args.out, source).map_err(|source| TuneCommandError::Write { path: args.out.clone(), source })?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// Fits game `E`'s weights from `start` on the data files, printing each epoch's losses.
fn fit<E: LinearEvaluation>(
    args: &TuneArgs,
    settings: &TuneSettings,
    start: &[[f64; 2]],
) -> Result<Vec<[f64; 2]>, TuneError> {
    tune::<E>(&args.data, start, settings, |report: &TuneReport| {
        eprintln!(
            "epoch {}/{}: train loss {:.6}, validation loss {:.6} ({} positions)",
            report.epoch, report.epochs, report.train_loss, report.validation_loss, report.positions
        );
    })
}
