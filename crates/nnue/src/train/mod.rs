//! Training a perspective network on the CPU from training-data files.
//!
//! Target of each position: `w · result + (1 − w) · sigmoid(score / scale)`, with `w` the
//! [`TrainSettings::result_weight`]; loss: the squared difference to `sigmoid(output)`, where the
//! network's output times [`Quantisation::scale`] is an evaluation in the data's unit. Mini-batches
//! are split over threads, AdamW steps along a cosine learning-rate schedule, and one game in
//! [`VALIDATION_EVERY`] is held out to measure the validation loss. After every epoch the
//! quantised network and a checkpoint are written, so an interrupted run resumes where it stopped.

mod checkpoint;
pub mod model;

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::data::{DataError, DataReader, WdlResult, LABEL_BYTES};
use crate::features::TrainingFeatures;
use crate::network::{Network, NetworkError, Quantisation};
use crate::random::SplitMix;
use model::{AdamW, Parameters};

/// One game in this many goes to the validation set.
pub const VALIDATION_EVERY: u64 = 50;

/// How a network is trained.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// Accumulator size (one perspective), a multiple of 16.
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// Learning rate at the start; it decays along a cosine to 2% of this.
    pub learning_rate: f32,
    /// Weight of the game result in the target (the rest is the search score).
    pub result_weight: f32,
    /// Score units of one logistic step: `sigmoid(score / score_scale)`.
    pub score_scale: f32,
    /// Threads sharing each batch.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// Use at most this many positions (the first ones of the files).
    pub max_positions: Option<u64>,
    /// Whether each epoch reads half of the training positions as their mirror images (see
    /// [`TrainingFeatures::mirrored_features`]).
    pub mirror: bool,
    /// A network to start from instead of random weights (fine-tuning a network on new data);
    /// it must have this run's features, hidden size and score scale. A run resuming from its
    /// checkpoint continues from there instead.
    pub initial: Option<Network>,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            hidden: 256,
            epochs: 10,
            batch_size: 16_384,
            learning_rate: 0.001,
            result_weight: 0.3,
            score_scale: 400.0,
            threads: 2,
            seed: 1,
            max_positions: None,
            mirror: true,
            initial: None,
        }
    }
}

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A data file could not be read, or belongs to another game.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The network could not be written.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// A checkpoint could not be read or written, or belongs to another training run.
    #[error("{path}: {problem}")]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The network to start from does not fit this run.
    #[error("the initial network has {found}, this run trains {expected}")]
    InitialNetwork {
        /// What the network has.
        found: String,
        /// What the run needs.
        expected: String,
    },
    /// There are too few positions to train and validate on.
    #[error("no positions to train on ({0} read)")]
    TooFewPositions(u64),
}

/// What the trainer reports as it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The epoch under way, from 1.
    pub epoch: u32,
    /// All epochs.
    pub epochs: u32,
    /// Positions of this epoch done so far.
    pub done: u64,
    /// Training positions per epoch.
    pub total: u64,
    /// Mean loss over this epoch's positions so far.
    pub train_loss: f64,
    /// Loss on the validation positions (at the end of an epoch, else `None`).
    pub validation_loss: Option<f64>,
    /// Training speed.
    pub positions_per_second: f64,
}

/// The labelled positions of the data files, split into training and validation sets.
struct Positions {
    record_bytes: usize,
    training: Vec<u8>,
    validation: Vec<u8>,
}

impl Positions {
    fn load<F: TrainingFeatures>(files: &[PathBuf], limit: Option<u64>) -> Result<Positions, TrainError> {
        let record_bytes = F::BYTES + LABEL_BYTES;
        let mut positions = Positions { record_bytes, training: Vec::new(), validation: Vec::new() };
        let mut games = 0u64;
        let mut read = 0u64;
        let mut record = Vec::with_capacity(record_bytes);
        'files: for path in files {
            let mut reader = DataReader::open::<F>(path)?;
            let count = usize::try_from(reader.record_count()).unwrap_or(usize::MAX);
            positions.training.reserve(count.saturating_mul(record_bytes));
            while let Some(next) = reader.next_record()? {
                if limit.is_some_and(|limit| read >= limit) {
                    break 'files;
                }
                read += 1;
                games += u64::from(next.first_of_game);
                record.clear();
                next.encode(&mut record);
                let set = if games.is_multiple_of(VALIDATION_EVERY) {
                    &mut positions.validation
                } else {
                    &mut positions.training
                };
                set.extend_from_slice(&record);
            }
        }
        if positions.training.is_empty() || positions.validation.is_empty() {
            return Err(TrainError::TooFewPositions(read));
        }
        Ok(positions)
    }

    fn training_count(&self) -> usize {
        self.training.len() / self.record_bytes
    }
}

/// Per-thread buffers: a gradient and the scratch space of one position.
struct Worker {
    gradient: Parameters,
    accumulators: Vec<f32>,
    scratch: Vec<f32>,
    us: Vec<usize>,
    them: Vec<usize>,
}

impl Worker {
    fn new(inputs: usize, hidden: usize) -> Worker {
        Worker {
            gradient: Parameters::zeros(inputs, hidden),
            accumulators: vec![0.0; 2 * hidden],
            scratch: vec![0.0; 2 * hidden],
            us: Vec::with_capacity(64),
            them: Vec::with_capacity(64),
        }
    }

    /// Accumulates the loss and (when `gradient_scale` is positive) the gradient of `records`
    /// (index, bytes); returns the loss sum. With a `mirror_salt`, the records [`mirrored`] under it are read as their
    /// mirror images where the game has them.
    fn run<'a, F: TrainingFeatures>(
        &mut self,
        parameters: &Parameters,
        records: impl Iterator<Item = (u32, &'a [u8])>,
        settings: &TrainSettings,
        gradient_scale: f32,
        mirror_salt: Option<u64>,
    ) -> f64 {
        let learn = gradient_scale > 0.0;
        let mut loss = 0.0f64;
        for (index, record) in records {
            let (position, labels) = record.split_at(F::BYTES);
            let mirror = mirror_salt.is_some_and(|salt| mirrored(salt, index));
            if !(mirror && F::mirrored_features(position, &mut self.us, &mut self.them)) {
                F::features(position, &mut self.us, &mut self.them);
            }
            let score = f32::from(i16::from_le_bytes([labels[0], labels[1]]));
            let result = match labels[2] {
                0 => WdlResult::Loss,
                1 => WdlResult::Draw,
                _ => WdlResult::Win,
            };
            let target = settings.result_weight * result.value()
                + (1.0 - settings.result_weight) * sigmoid(score / settings.score_scale);
            let output = parameters.forward(&self.us, &self.them, &mut self.accumulators);
            let predicted = sigmoid(output);
            let error = predicted - target;
            loss += f64::from(error * error);
            if learn {
                let output_gradient = 2.0 * error * predicted * (1.0 - predicted) * gradient_scale;
                parameters.backward(
                    &self.us,
                    &self.them,
                    &self.accumulators,
                    output_gradient,
                    &mut self.gradient,
                    &mut self.scratch,
                );
            }
        }
        loss
    }
}

/// Whether record `index` is read mirrored in the epoch whose salt is `salt`: half of the
/// records, another half each epoch, the same in a resumed run.
fn mirrored(salt: u64, index: u32) -> bool {
    SplitMix(salt ^ u64::from(index)).next_u64() & 1 == 1
}

fn sigmoid(value: f32) -> f32 {
    1.0 / (1.0 + (-value).exp())
}

/// Trains a network for `F`'s features on the data `files`, writing it (and a checkpoint,
/// `<out>.checkpoint`) to `out` after every epoch; resumes from the checkpoint if one exists.
/// `report` is called every few seconds and after each epoch; returning `Break` after an epoch
/// stops the run there (it resumes later from the checkpoint).
///
/// # Errors
/// When a file cannot be read or written, a data file or checkpoint belongs to another game or
/// run, or the files hold too few positions.
pub fn train<F: TrainingFeatures>(
    files: &[PathBuf],
    out: &Path,
    settings: &TrainSettings,
    mut report: impl FnMut(&TrainReport) -> ControlFlow<()>,
) -> Result<Network, TrainError> {
    let positions = Positions::load::<F>(files, settings.max_positions)?;
    let checkpoint_path = checkpoint::path_for(out);
    let (mut parameters, mut optimiser, first_epoch) =
        match checkpoint::load(&checkpoint_path, F::FEATURE_SET, F::INPUTS, settings.hidden)? {
            Some(saved) => (saved.parameters, saved.optimiser, saved.epochs_done + 1),
            None => {
                let parameters = initial_parameters::<F>(settings)?;
                let optimiser = AdamW::new(parameters.len());
                (parameters, optimiser, 1)
            }
        };
    let threads = settings.threads.max(1);
    let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new(F::INPUTS, settings.hidden)).collect();
    let count = positions.training_count();
    let batches_per_epoch = count.div_ceil(settings.batch_size);
    let total_batches = batches_per_epoch * settings.epochs as usize;
    let mut order: Vec<u32> = vec![0; count];
    // The output times the scale is an evaluation in the data's unit (see the module documentation).
    let quantisation = Quantisation { scale: settings.score_scale.round() as i32, ..Quantisation::STANDARD };
    let mut network = parameters.quantise(F::FEATURE_SET, quantisation);
    for epoch in first_epoch..=settings.epochs {
        // Each epoch's order depends on the epoch alone, so a resumed run replays the same batches.
        let epoch_seed = settings.seed ^ u64::from(epoch).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut rng = SplitMix(epoch_seed);
        let mirror_salt = settings.mirror.then(|| SplitMix(epoch_seed).next_u64() ^ 0x6D69_7272_6F72);
        for (index, slot) in order.iter_mut().enumerate() {
            *slot = index as u32;
        }
        for index in (1..order.len()).rev() {
            order.swap(index, rng.below(index + 1));
        }
        let started = Instant::now();
        let mut last_report = Instant::now();
        let mut loss_sum = 0.0;
        let mut done = 0u64;
        for (batch_index, batch) in order.chunks(settings.batch_size).enumerate() {
            let progress = ((epoch as usize - 1) * batches_per_epoch + batch_index) as f32 / total_batches as f32;
            let rate = learning_rate(settings.learning_rate, progress);
            let gradient_scale = 1.0 / batch.len() as f32;
            loss_sum += run_parallel::<F>(
                &mut workers,
                &parameters,
                &positions.training,
                positions.record_bytes,
                batch,
                settings,
                gradient_scale,
                mirror_salt,
            );
            let (first, rest) = workers.split_first_mut().expect("at least one worker");
            for worker in rest.iter_mut() {
                first.gradient.add(&worker.gradient);
                worker.gradient.clear();
            }
            optimiser.step(&mut parameters, &first.gradient, rate);
            first.gradient.clear();
            done += batch.len() as u64;
            if last_report.elapsed() >= Duration::from_secs(5) {
                last_report = Instant::now();
                // Only an epoch's end can stop the run: a checkpoint is written there.
                let _ = report(&TrainReport {
                    epoch,
                    epochs: settings.epochs,
                    done,
                    total: count as u64,
                    train_loss: loss_sum / done as f64,
                    validation_loss: None,
                    positions_per_second: done as f64 / started.elapsed().as_secs_f64(),
                });
            }
        }
        let validation_count = positions.validation.len() / positions.record_bytes;
        let all: Vec<u32> = (0..validation_count as u32).collect();
        let validation_loss = run_parallel::<F>(
            &mut workers,
            &parameters,
            &positions.validation,
            positions.record_bytes,
            &all,
            settings,
            0.0,
            None,
        ) / validation_count as f64;
        network = parameters.quantise(F::FEATURE_SET, quantisation);
        write_atomically(out, &network.to_bytes())
            .map_err(|source| NetworkError::Io { path: out.display().to_string(), source })?;
        checkpoint::save(&checkpoint_path, F::FEATURE_SET, epoch, &parameters, &optimiser)?;
        let flow = report(&TrainReport {
            epoch,
            epochs: settings.epochs,
            done,
            total: count as u64,
            train_loss: loss_sum / done.max(1) as f64,
            validation_loss: Some(validation_loss),
            positions_per_second: done as f64 / started.elapsed().as_secs_f64(),
        });
        if flow.is_break() {
            break;
        }
    }
    Ok(network)
}

/// The weights a new run starts from: the settings' initial network if it fits, else random ones.
fn initial_parameters<F: TrainingFeatures>(settings: &TrainSettings) -> Result<Parameters, TrainError> {
    let Some(network) = &settings.initial else {
        return Ok(Parameters::random(F::INPUTS, settings.hidden, settings.seed));
    };
    let found = (network.feature_set(), network.inputs(), network.hidden(), network.quantisation().scale);
    let expected = (F::FEATURE_SET, F::INPUTS, settings.hidden, settings.score_scale.round() as i32);
    if found != expected {
        let describe = |(feature_set, inputs, hidden, scale): (&str, usize, usize, i32)| {
            format!("{feature_set} features ({inputs} inputs), {hidden} hidden, score scale {scale}")
        };
        return Err(TrainError::InitialNetwork { found: describe(found), expected: describe(expected) });
    }
    Ok(Parameters::from_network(network))
}

/// Runs the records `indices` of `data` over the workers, each taking an equal share; returns the
/// loss sum. Gradients stay in the workers; a zero `gradient_scale` only measures the loss.
#[allow(clippy::too_many_arguments)]
fn run_parallel<F: TrainingFeatures>(
    workers: &mut [Worker],
    parameters: &Parameters,
    data: &[u8],
    record_bytes: usize,
    indices: &[u32],
    settings: &TrainSettings,
    gradient_scale: f32,
    mirror_salt: Option<u64>,
) -> f64 {
    let share = indices.len().div_ceil(workers.len()).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .zip(indices.chunks(share))
            .map(|(worker, chunk)| {
                scope.spawn(move || {
                    let records = chunk.iter().map(|&index| {
                        let start = index as usize * record_bytes;
                        (index, &data[start..start + record_bytes])
                    });
                    worker.run::<F>(parameters, records, settings, gradient_scale, mirror_salt)
                })
            })
            .collect();
        // A worker only panics on a bug (indices are in range by construction).
        handles.into_iter().map(|handle| handle.join().expect("a training thread panicked")).sum()
    })
}

/// The cosine schedule from `start` down to 2% of it, at `progress` in `[0, 1]`.
fn learning_rate(start: f32, progress: f32) -> f32 {
    let end = start * 0.02;
    end + 0.5 * (start - end) * (1.0 + (std::f32::consts::PI * progress.clamp(0.0, 1.0)).cos())
}

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so that a reader
/// (or an interrupted run) never sees half a file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

#[cfg(test)]
mod tests;
