//! The trainer on a toy game whose value is a known function of its features.

use std::ops::ControlFlow;

use super::*;
use crate::data::{encode_record, DataWriter, PackedPosition};

/// A "position" of 16 binary features; the side to move sees them as they are, the other side
/// sees them shifted by 8.
#[derive(Debug)]
struct Toy(u16);

#[derive(Debug, thiserror::Error)]
#[error("bad toy")]
struct BadToy;

impl PackedPosition for Toy {
    const GAME: &'static str = "toy";
    const BYTES: usize = 2;
    type Error = BadToy;
    fn pack(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes());
    }
    fn unpack(bytes: &[u8]) -> Result<Toy, BadToy> {
        Ok(Toy(u16::from_le_bytes(bytes.try_into().map_err(|_| BadToy)?)))
    }
}

impl TrainingFeatures for Toy {
    const FEATURE_SET: &'static str = "toy-16";
    const INPUTS: usize = 16;
    fn features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>) {
        let bits = u16::from_le_bytes([packed[0], packed[1]]);
        us.clear();
        them.clear();
        for feature in 0..16 {
            if bits & (1 << feature) != 0 {
                us.push(feature);
                them.push((feature + 8) % 16);
            }
        }
    }
}

/// The true value of a toy position, in score units: features 0–3 are good, 8–11 bad.
fn value(bits: u16) -> i16 {
    let good = (bits & 0x000F).count_ones() as i16;
    let bad = (bits & 0x0F00).count_ones() as i16;
    (good - bad) * 150
}

fn write_toy_data(path: &Path, games: u64) {
    let _ = std::fs::remove_file(path);
    let (mut writer, _) = DataWriter::append::<Toy>(path).unwrap();
    let mut rng = SplitMix(5);
    for _ in 0..games {
        let mut bytes = Vec::new();
        for index in 0..20 {
            let bits = rng.next_u64() as u16;
            let score = value(bits);
            let result = match score {
                s if s > 0 => WdlResult::Win,
                0 => WdlResult::Draw,
                _ => WdlResult::Loss,
            };
            encode_record(&bits.to_le_bytes(), score, result, index == 0, &mut bytes);
        }
        writer.write_game(&bytes).unwrap();
    }
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tessera-train-{}-{name}", std::process::id()))
}

fn settings() -> TrainSettings {
    TrainSettings { hidden: 16, epochs: 6, batch_size: 256, learning_rate: 0.01, ..TrainSettings::default() }
}

#[test]
fn training_learns_the_toy_value_and_writes_a_usable_network() {
    let data = temp("learn.data");
    let out = temp("learn.nnue");
    write_toy_data(&data, 800);
    let mut reports = Vec::new();
    let network = train::<Toy>(std::slice::from_ref(&data), &out, &settings(), |report| {
        reports.push(report.clone());
        ControlFlow::Continue(())
    })
    .unwrap();
    let losses: Vec<f64> = reports.iter().filter_map(|report| report.validation_loss).collect();
    assert_eq!(losses.len(), 6);
    assert!(losses[5] < losses[0] * 0.5, "validation loss should fall: {losses:?}");
    assert_eq!(Network::load(&out, "toy-16").unwrap(), network);
    // The quantised network ranks positions like the true value.
    let evaluate = |bits: u16| {
        let (mut us, mut them) = (Vec::new(), Vec::new());
        Toy::features(&bits.to_le_bytes(), &mut us, &mut them);
        let sum = |features: &[usize]| -> Vec<i16> {
            let mut values = network.biases().to_vec();
            for &feature in features {
                for (value, weight) in values.iter_mut().zip(network.column(feature)) {
                    *value += weight;
                }
            }
            values
        };
        network.evaluate(&sum(&us), &sum(&them))
    };
    assert!(evaluate(0x000F) > evaluate(0x0000) + 100, "{} vs {}", evaluate(0x000F), evaluate(0x0000));
    assert!(evaluate(0x0F00) < evaluate(0x0000) - 100);
    for path in [&data, &out, &checkpoint::path_for(&out)] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn an_interrupted_run_resumes_from_its_checkpoint() {
    let data = temp("resume.data");
    let out = temp("resume.nnue");
    write_toy_data(&data, 200);
    let _ = std::fs::remove_file(checkpoint::path_for(&out));
    // Stopped after three epochs, then resumed: the same network as six epochs in one run.
    let stop_after_third = |report: &TrainReport| {
        if report.epoch == 3 && report.validation_loss.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    train::<Toy>(std::slice::from_ref(&data), &out, &settings(), stop_after_third).unwrap();
    let mut epochs = Vec::new();
    let resumed = train::<Toy>(std::slice::from_ref(&data), &out, &settings(), |report| {
        epochs.push(report.epoch);
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(epochs.iter().all(|&epoch| epoch > 3), "resumed after epoch 3: {epochs:?}");
    std::fs::remove_file(checkpoint::path_for(&out)).unwrap();
    let whole = train::<Toy>(std::slice::from_ref(&data), &out, &settings(), |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(resumed, whole);

    // A checkpoint of another shape is refused by name, not overwritten.
    let other = TrainSettings { hidden: 32, ..settings() };
    let error = train::<Toy>(std::slice::from_ref(&data), &out, &other, |_| ControlFlow::Continue(())).unwrap_err();
    assert!(error.to_string().contains("checkpoint") && error.to_string().contains("16 hidden"), "{error}");
    for path in [&data, &out, &checkpoint::path_for(&out)] {
        std::fs::remove_file(path).unwrap();
    }
}

#[test]
fn data_of_another_game_is_refused_by_name() {
    #[derive(Debug)]
    struct Other;
    impl PackedPosition for Other {
        const GAME: &'static str = "other";
        const BYTES: usize = 2;
        type Error = BadToy;
        fn pack(&self, _out: &mut [u8]) {}
        fn unpack(_bytes: &[u8]) -> Result<Other, BadToy> {
            Ok(Other)
        }
    }
    let data = temp("other.data");
    let _ = std::fs::remove_file(&data);
    drop(DataWriter::append::<Other>(&data).unwrap());
    let error =
        train::<Toy>(std::slice::from_ref(&data), &temp("other.nnue"), &settings(), |_| ControlFlow::Continue(()))
            .unwrap_err();
    assert!(error.to_string().contains("training data for other, not toy"), "{error}");
    std::fs::remove_file(&data).unwrap();
}

#[test]
fn a_run_started_from_a_network_begins_where_that_network_is() {
    let data = temp("initial.data");
    let (trained, out) = (temp("initial-trained.nnue"), temp("initial-out.nnue"));
    write_toy_data(&data, 400);
    let files = std::slice::from_ref(&data);
    let last_validation_loss = |out: &Path, settings: &TrainSettings| {
        let _ = std::fs::remove_file(checkpoint::path_for(out));
        let mut loss = None;
        train::<Toy>(files, out, settings, |report| {
            loss = report.validation_loss.or(loss);
            ControlFlow::Continue(())
        })
        .map(|_| loss.expect("one epoch ends"))
    };
    let learned = last_validation_loss(&trained, &settings()).unwrap();
    // One epoch at a learning rate too small to move the weights: the loss is the start's.
    let still = TrainSettings { epochs: 1, learning_rate: 1e-7, ..settings() };
    let from_random = last_validation_loss(&out, &still).unwrap();
    let initial = Some(Network::load(&trained, "toy-16").unwrap());
    let from_network = last_validation_loss(&out, &TrainSettings { initial, ..still.clone() }).unwrap();
    assert!((from_network - learned).abs() < learned * 0.05, "{from_network} vs {learned}");
    assert!(from_random > learned * 2.0, "{from_random} vs {learned}");

    // A network of another shape is refused, saying what it has and what the run needs.
    let initial = Some(Network::random("toy-16", 16, 32, 1));
    let error = last_validation_loss(&out, &TrainSettings { initial, ..still }).unwrap_err();
    assert!(error.to_string().contains("32 hidden") && error.to_string().contains("16 hidden"), "{error}");
    for path in [&data, &trained, &out, &checkpoint::path_for(&trained), &checkpoint::path_for(&out)] {
        let _ = std::fs::remove_file(path);
    }
}
