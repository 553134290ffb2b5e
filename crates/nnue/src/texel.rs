//! Texel tuning: fitting every weight of a hand-crafted evaluation that is linear in pairs of
//! (middlegame, endgame) weights, by gradient descent on labelled positions.
//!
//! The game writes each position's evaluation as coefficients ([`LinearEvaluation`]):
//!
//! ```text
//! eval = Σ cᵢ · (mgᵢ · phase + egᵢ · (max − phase)) / max        (from the side to move)
//! ```
//!
//! and the tuner minimises the mean of `(sigmoid(eval / scale) − target)²`, with the same target
//! as network training: `w · result + (1 − w) · sigmoid(score / scale)`. Adam steps on mini-batches
//! along a cosine learning-rate schedule; one game in [`VALIDATION_EVERY`] is held out to measure
//! the validation loss.

use std::path::PathBuf;

use crate::data::{DataError, DataReader, PackedPosition};
use crate::train::VALIDATION_EVERY;

/// An evaluation linear in weight pairs, as the tuner sees it.
pub trait LinearEvaluation: PackedPosition {
    /// Number of weight pairs.
    const WEIGHTS: usize;
    /// The phase of a full board, where only middlegame weights count.
    const PHASE_MAX: i32;

    /// The evaluation of a packed position ([`PackedPosition::pack`]) as `(weight, count)` pairs
    /// from the side to move's point of view, written into `coefficients` (cleared first), and
    /// its phase. `None` for a position whose evaluation does not take the linear form (a dead
    /// draw scored zero): it is left out of the fit.
    fn coefficients(packed: &[u8], coefficients: &mut Vec<(u32, i32)>) -> Option<i32>;
}

/// How weights are fitted.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSettings {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch_size: usize,
    /// Adam's step size at the start, in evaluation units; it decays along a cosine to 5% of this.
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest is the search score).
    pub result_weight: f64,
    /// Evaluation units of one logistic step.
    pub score_scale: f64,
    /// Use at most this many positions (the first ones of the files).
    pub max_positions: Option<u64>,
    /// The first this many weights keep their starting values: only the rest are fitted (a
    /// table added to an evaluation whose other weights are already fitted and measured).
    pub frozen_weights: usize,
}

impl Default for TuneSettings {
    fn default() -> Self {
        TuneSettings {
            epochs: 30,
            batch_size: 16_384,
            learning_rate: 2.0,
            result_weight: 0.3,
            score_scale: 400.0,
            max_positions: None,
            frozen_weights: 0,
        }
    }
}

/// Why tuning stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A data file could not be read, or belongs to another game.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The starting weights do not match the evaluation.
    #[error("{found} starting weights for an evaluation of {expected}")]
    WeightCount {
        /// Weights given.
        found: usize,
        /// Weights the evaluation has.
        expected: usize,
    },
    /// There are too few positions to fit and validate on.
    #[error("no positions to tune on ({0} read)")]
    TooFewPositions(u64),
}

/// Progress after each epoch (and once before the first, as epoch 0, for the starting weights).
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    /// The epoch just finished, from 1; 0 for the starting weights.
    pub epoch: u32,
    /// All epochs.
    pub epochs: u32,
    /// Training positions.
    pub positions: usize,
    /// Mean loss over this epoch's training positions (measured as they were stepped through;
    /// for epoch 0, under the starting weights).
    pub train_loss: f64,
    /// Mean loss on the held-out positions.
    pub validation_loss: f64,
}

/// Positions as coefficient lists, in flat arrays.
#[derive(Default)]
struct Set {
    /// `starts[i]..starts[i + 1]` are position `i`'s coefficients.
    starts: Vec<u32>,
    weights: Vec<u32>,
    counts: Vec<i32>,
    phases: Vec<f32>,
    targets: Vec<f32>,
}

impl Set {
    fn new() -> Set {
        Set { starts: vec![0], ..Set::default() }
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    fn push(&mut self, coefficients: &[(u32, i32)], phase: f32, target: f32) {
        for &(weight, count) in coefficients {
            self.weights.push(weight);
            self.counts.push(count);
        }
        self.starts.push(self.weights.len() as u32);
        self.phases.push(phase);
        self.targets.push(target);
    }

    /// Position `index`'s evaluation under `weights`.
    fn evaluate(&self, weights: &[[f64; 2]], index: usize) -> f64 {
        let (start, end) = (self.starts[index] as usize, self.starts[index + 1] as usize);
        let phase = f64::from(self.phases[index]);
        let (mut mg, mut eg) = (0.0, 0.0);
        for (&weight, &count) in self.weights[start..end].iter().zip(&self.counts[start..end]) {
            let [weight_mg, weight_eg] = weights[weight as usize];
            mg += weight_mg * f64::from(count);
            eg += weight_eg * f64::from(count);
        }
        mg * phase + eg * (1.0 - phase)
    }

    fn loss(&self, weights: &[[f64; 2]], scale: f64, index: usize) -> f64 {
        let error = sigmoid(self.evaluate(weights, index) / scale) - f64::from(self.targets[index]);
        error * error
    }
}

fn sigmoid(value: f64) -> f64 {
    1.0 / (1.0 + (-value).exp())
}

/// Reads the labelled positions of `files` into a training and a validation set.
fn load<E: LinearEvaluation>(files: &[PathBuf], settings: &TuneSettings) -> Result<(Set, Set), TuneError> {
    let (mut training, mut validation) = (Set::new(), Set::new());
    let mut coefficients = Vec::with_capacity(128);
    let (mut read, mut games) = (0u64, 0u64);
    'files: for path in files {
        let mut reader = DataReader::open::<E>(path)?;
        while let Some(record) = reader.next_record()? {
            if settings.max_positions.is_some_and(|limit| read >= limit) {
                break 'files;
            }
            read += 1;
            games += u64::from(record.first_of_game);
            let Some(phase) = E::coefficients(record.position, &mut coefficients) else { continue };
            let score = sigmoid(f64::from(record.score) / settings.score_scale);
            let target =
                settings.result_weight * f64::from(record.result.value()) + (1.0 - settings.result_weight) * score;
            let set = if games % VALIDATION_EVERY == 0 { &mut validation } else { &mut training };
            set.push(&coefficients, phase as f32 / E::PHASE_MAX as f32, target as f32);
        }
    }
    if training.len() == 0 || validation.len() == 0 {
        return Err(TuneError::TooFewPositions(read));
    }
    Ok((training, validation))
}

/// Adam's running moments, one pair per weight pair.
struct Adam {
    first: Vec<[f64; 2]>,
    second: Vec<[f64; 2]>,
    steps: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;

    fn step(&mut self, weights: &mut [[f64; 2]], gradient: &[[f64; 2]], rate: f64) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        for (index, weight) in weights.iter_mut().enumerate() {
            for half in 0..2 {
                let gradient = gradient[index][half];
                let first = &mut self.first[index][half];
                let second = &mut self.second[index][half];
                *first = Self::BETA1 * *first + (1.0 - Self::BETA1) * gradient;
                *second = Self::BETA2 * *second + (1.0 - Self::BETA2) * gradient * gradient;
                weight[half] -= rate * (*first / correction1) / ((*second / correction2).sqrt() + 1e-9);
            }
        }
    }
}

/// Fits `initial` (one `[mg, eg]` pair per weight) to the positions of `files`; calls `report`
/// after each epoch; returns the fitted weights.
///
/// # Errors
/// When a file cannot be read or belongs to another game, the weights do not match the
/// evaluation, or the files hold too few positions.
pub fn tune<E: LinearEvaluation>(
    files: &[PathBuf],
    initial: &[[f64; 2]],
    settings: &TuneSettings,
    mut report: impl FnMut(&TuneReport),
) -> Result<Vec<[f64; 2]>, TuneError> {
    if initial.len() != E::WEIGHTS {
        return Err(TuneError::WeightCount { found: initial.len(), expected: E::WEIGHTS });
    }
    let (training, validation) = load::<E>(files, settings)?;
    let mut weights = initial.to_vec();
    let mut adam = Adam { first: vec![[0.0; 2]; weights.len()], second: vec![[0.0; 2]; weights.len()], steps: 0 };
    let mut gradient = vec![[0.0; 2]; weights.len()];
    let batch_size = settings.batch_size.max(1);
    let batches = training.len().div_ceil(batch_size);
    let total_steps = (batches * settings.epochs as usize).max(1);
    let scale = settings.score_scale;
    let frozen = settings.frozen_weights.min(weights.len());
    let mean_loss = |set: &Set, weights: &[[f64; 2]]| {
        (0..set.len()).map(|index| set.loss(weights, scale, index)).sum::<f64>() / set.len() as f64
    };
    // Epoch 0: where the weights in force stand.
    report(&TuneReport {
        epoch: 0,
        epochs: settings.epochs,
        positions: training.len(),
        train_loss: mean_loss(&training, &weights),
        validation_loss: mean_loss(&validation, &weights),
    });
    for epoch in 1..=settings.epochs {
        let mut loss = 0.0;
        for batch in 0..batches {
            let progress = ((epoch as usize - 1) * batches + batch) as f64 / total_steps as f64;
            let end = settings.learning_rate * 0.05;
            let rate = end + 0.5 * (settings.learning_rate - end) * (1.0 + (std::f64::consts::PI * progress).cos());
            gradient.fill([0.0; 2]);
            let range = batch * batch_size..((batch + 1) * batch_size).min(training.len());
            let count = range.len() as f64;
            for index in range {
                let predicted = sigmoid(training.evaluate(&weights, index) / scale);
                let error = predicted - f64::from(training.targets[index]);
                loss += error * error;
                // d(error²)/d(eval), averaged over the batch.
                let slope = 2.0 * error * predicted * (1.0 - predicted) / scale / count;
                let phase = f64::from(training.phases[index]);
                let (start, end) = (training.starts[index] as usize, training.starts[index + 1] as usize);
                for (&weight, &coefficient) in training.weights[start..end].iter().zip(&training.counts[start..end]) {
                    let step = slope * f64::from(coefficient);
                    gradient[weight as usize][0] += step * phase;
                    gradient[weight as usize][1] += step * (1.0 - phase);
                }
            }
            // Frozen weights see no gradient, so Adam leaves them exactly as they are.
            gradient[..frozen].fill([0.0; 2]);
            adam.step(&mut weights, &gradient, rate);
        }
        let validation_loss = (0..validation.len()).map(|index| validation.loss(&weights, scale, index)).sum::<f64>()
            / validation.len() as f64;
        report(&TuneReport {
            epoch,
            epochs: settings.epochs,
            positions: training.len(),
            train_loss: loss / training.len() as f64,
            validation_loss,
        });
    }
    Ok(weights)
}

/// Helpers for the games' tests (feature `test-support`).
#[cfg(feature = "test-support")]
pub mod testing {
    use super::{tune, LinearEvaluation, TuneSettings};
    use crate::data::{encode_record, DataWriter, WdlResult};

    /// Writes `positions` as 60 games of 8 (drawn, scored by `score`) to a temporary file named
    /// after `name`, runs one epoch of the tuner from `start` on it and removes the file; returns
    /// the fitted weights and the number of reports (2: before and after the epoch).
    ///
    /// # Panics
    /// When the file cannot be written or the tuner fails: what the calling test checks.
    pub fn one_epoch<E: LinearEvaluation>(
        name: &str,
        positions: &[E],
        score: impl Fn(&E) -> i16,
        start: &[[f64; 2]],
    ) -> (Vec<[f64; 2]>, usize) {
        let path = std::env::temp_dir().join(format!("tessera-{name}-tune-{}.data", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut writer, _) = DataWriter::append::<E>(&path).expect("a temporary data file");
        let mut packed = vec![0u8; E::BYTES];
        // 60 "games" of a few positions each: enough for the validation set (one game in 50).
        for game in positions.chunks(8).take(60) {
            let mut records = Vec::new();
            for (index, position) in game.iter().enumerate() {
                position.pack(&mut packed);
                encode_record(&packed, score(position), WdlResult::Draw, index == 0, &mut records);
            }
            writer.write_game(&records).expect("writing a temporary data file");
        }
        drop(writer);
        let settings = TuneSettings { epochs: 1, batch_size: 64, ..TuneSettings::default() };
        let mut reports = 0;
        let fitted = tune::<E>(std::slice::from_ref(&path), start, &settings, |_| reports += 1);
        std::fs::remove_file(&path).expect("removing a temporary data file");
        (fitted.expect("the tuner runs"), reports)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataWriter, WdlResult};

    /// A toy game whose "position" is one byte `n`: its evaluation is `n × weight 0` in the
    /// middlegame half and `n × weight 1` in the endgame half, at phase 1 of 2.
    #[derive(Debug)]
    struct Toy;

    impl PackedPosition for Toy {
        const GAME: &'static str = "texel-toy";
        const BYTES: usize = 1;
        type Error = std::convert::Infallible;

        fn pack(&self, _out: &mut [u8]) {}

        fn unpack(_bytes: &[u8]) -> Result<Toy, Self::Error> {
            Ok(Toy)
        }
    }

    impl LinearEvaluation for Toy {
        const WEIGHTS: usize = 2;
        const PHASE_MAX: i32 = 2;

        fn coefficients(packed: &[u8], coefficients: &mut Vec<(u32, i32)>) -> Option<i32> {
            coefficients.clear();
            let n = i32::from(packed[0]) - 8;
            (n != 0).then(|| {
                coefficients.push((0, n));
                coefficients.push((1, 2 * n));
                1
            })
        }
    }

    #[test]
    fn recovers_the_weights_that_made_the_scores() {
        let path = std::env::temp_dir().join(format!("tessera-texel-{}.data", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (mut writer, _) = DataWriter::append::<Toy>(&path).unwrap();
        // Every game scores position n at 25·(n − 8): the evaluation the weights must learn.
        for _ in 0..200 {
            let mut records = Vec::new();
            for n in 0..16u8 {
                let score = 25 * (i16::from(n) - 8);
                crate::data::encode_record(&[n], score, WdlResult::Draw, n == 0, &mut records);
            }
            writer.write_game(&records).unwrap();
        }
        drop(writer);
        let settings = TuneSettings {
            epochs: 200,
            batch_size: 256,
            learning_rate: 2.0,
            result_weight: 0.0,
            ..TuneSettings::default()
        };
        let mut last = None;
        let fitted =
            tune::<Toy>(std::slice::from_ref(&path), &[[0.0, 0.0]; 2], &settings, |report| last = Some(report.clone()))
                .unwrap();
        // Many weight sets give the same evaluation (only their blend is identified): check it.
        let eval = |fitted: &[[f64; 2]], n: f64| {
            0.5 * n * (fitted[0][0] + 2.0 * fitted[1][0] + fitted[0][1] + 2.0 * fitted[1][1])
        };
        assert!((eval(&fitted, 4.0) - 100.0).abs() < 2.0, "{fitted:?}");
        assert!(last.unwrap().validation_loss < 1e-5);
        // A frozen first weight keeps its value to the bit; the other one learns the rest.
        let frozen = TuneSettings { frozen_weights: 1, ..settings.clone() };
        let fitted = tune::<Toy>(std::slice::from_ref(&path), &[[3.0, 3.0], [0.0, 0.0]], &frozen, |_| {}).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(fitted[0], [3.0, 3.0]);
        assert!((eval(&fitted, 4.0) - 100.0).abs() < 2.0, "{fitted:?}");
        let wrong = tune::<Toy>(&[path], &[[0.0, 0.0]; 3], &settings, |_| {});
        assert!(matches!(wrong, Err(TuneError::WeightCount { found: 3, expected: 2 })));
    }
}
