//! Training checkpoints: the `f32` parameters and the optimiser's moments after an epoch, so that
//! an interrupted run resumes.
//!
//! Layout (little-endian): magic `TSRTRAIN`, version `u32` (1), feature-set name (16 bytes,
//! NUL-padded), inputs `u32`, hidden `u32`, epochs done `u32`, optimiser steps `u64`, then the
//! parameters, first and second moments as `f32` arrays (in [`Parameters::values`] order).

use std::path::{Path, PathBuf};

use super::model::{AdamW, Parameters};
use super::{write_atomically, TrainError};

const MAGIC: [u8; 8] = *b"TSRTRAIN";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 4 + 16 + 4 + 4 + 4 + 8;

/// A saved training state.
pub(super) struct Checkpoint {
    pub parameters: Parameters,
    pub optimiser: AdamW,
    pub epochs_done: u32,
}

/// The checkpoint file of the network written to `out`.
pub(super) fn path_for(out: &Path) -> PathBuf {
    let mut path = out.as_os_str().to_owned();
    path.push(".checkpoint");
    PathBuf::from(path)
}

fn problem(path: &Path, text: impl Into<String>) -> TrainError {
    TrainError::Checkpoint { path: path.to_owned(), problem: text.into() }
}

/// Writes the state after `epochs_done` epochs.
pub(super) fn save(
    path: &Path,
    feature_set: &str,
    epochs_done: u32,
    parameters: &Parameters,
    optimiser: &AdamW,
) -> Result<(), TrainError> {
    let count = parameters.len();
    let mut bytes = Vec::with_capacity(HEADER_BYTES + 12 * count);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 16];
    name[..feature_set.len()].copy_from_slice(feature_set.as_bytes());
    bytes.extend_from_slice(&name);
    for value in [parameters.inputs as u32, parameters.hidden as u32, epochs_done] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&optimiser.steps.to_le_bytes());
    for value in parameters.values().chain(optimiser.first.iter().copied()).chain(optimiser.second.iter().copied()) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    write_atomically(path, &bytes).map_err(|error| problem(path, error.to_string()))
}

/// Reads the checkpoint at `path` if there is one; it must belong to a run with the same features
/// and sizes.
pub(super) fn load(
    path: &Path,
    feature_set: &str,
    inputs: usize,
    hidden: usize,
) -> Result<Option<Checkpoint>, TrainError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(problem(path, error.to_string())),
    };
    if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
        return Err(problem(path, "not a Tessera training checkpoint"));
    }
    let word = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("four bytes"));
    if word(8) != VERSION {
        return Err(problem(path, format!("checkpoint version {}, this program reads {VERSION}", word(8))));
    }
    let name = &bytes[12..28];
    let end = name.iter().position(|&byte| byte == 0).unwrap_or(16);
    let found = String::from_utf8_lossy(&name[..end]);
    let (found_inputs, found_hidden, epochs_done) = (word(28) as usize, word(32) as usize, word(36));
    if found != feature_set || found_inputs != inputs || found_hidden != hidden {
        return Err(problem(
            path,
            format!(
                "a checkpoint of a {found} network with {found_inputs} inputs and {found_hidden} hidden, \
                 not {feature_set} with {inputs} and {hidden}: remove it or train with its settings"
            ),
        ));
    }
    let steps = u64::from_le_bytes(bytes[40..48].try_into().expect("eight bytes"));
    let mut parameters = Parameters::zeros(inputs, hidden);
    let count = parameters.len();
    if bytes.len() != HEADER_BYTES + 12 * count {
        return Err(problem(
            path,
            format!("{} bytes, a complete checkpoint has {}", bytes.len(), HEADER_BYTES + 12 * count),
        ));
    }
    let mut floats =
        bytes[HEADER_BYTES..].chunks_exact(4).map(|chunk| f32::from_le_bytes(chunk.try_into().expect("four bytes")));
    for value in parameters.values_mut() {
        *value = floats.next().expect("the length was checked");
    }
    let first: Vec<f32> = floats.by_ref().take(count).collect();
    let second: Vec<f32> = floats.collect();
    Ok(Some(Checkpoint { parameters, optimiser: AdamW { first, second, steps }, epochs_done }))
}
