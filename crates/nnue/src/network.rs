//! A quantised perspective network and its file format.
//!
//! The network: a feature transformer from `inputs` sparse binary features to `hidden` values,
//! applied once from each player's point of view (two accumulators), then the squared clipped ReLU
//! and one output neuron over both halves (the side to move's half first). Integer inference:
//!
//! ```text
//! accumulator = bias + Σ column[feature]                      (i16, scaled by QA)
//! output      = (Σ clip(a)² · w / QA + output_bias) · scale / (QA · QB)
//! ```
//!
//! with `clip(a) = a` clamped to `0..=QA`, `w` the output weights scaled by QB and the output bias
//! scaled by `QA·QB`. Trainers keep the output weights within `±127 / QB` before quantising, so
//! that `clip(a)·w` fits an `i16` (see [`crate::simd::screlu_dot`]).
//!
//! File layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `TSRNNUE\0` |
//! | 4 | format version (1) |
//! | 16 | feature-set name (e.g. `chess-768`), NUL-padded |
//! | 4 | inputs |
//! | 4 | hidden size (a multiple of 16) |
//! | 4 | QA, 4 QB, 4 output scale |
//! | 2 · inputs · hidden | feature-transformer weights, `i16`, input by input |
//! | 2 · hidden | feature-transformer biases, `i16` |
//! | 2 · 2 · hidden | output weights, `i16` (side to move's half first) |
//! | 4 | output bias, `i32` |
//! | 8 | FNV-1a 64-bit checksum of every byte before it |

use std::path::Path;

use crate::random::SplitMix;
use crate::simd;

const MAGIC: [u8; 8] = *b"TSRNNUE\0";
const VERSION: u32 = 1;
const NAME_BYTES: usize = 16;
const HEADER_BYTES: usize = 8 + 4 + NAME_BYTES + 4 * 5;
/// Hidden sizes must be a whole number of SIMD vectors.
pub const HIDDEN_MULTIPLE: usize = 16;

/// Why a network file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The bytes do not start with the network magic.
    #[error("{0}: not a Tessera network file (no TSRNNUE header)")]
    NotANetwork(String),
    /// Another format version.
    #[error("{path}: network format version {found}, this program reads version {VERSION}")]
    Version {
        /// The file.
        path: String,
        /// The version in the file.
        found: u32,
    },
    /// The network was trained for other features (another game, or another feature set).
    #[error("{path}: a network for {found} features, this engine needs {expected}")]
    FeatureSet {
        /// The file.
        path: String,
        /// The feature set named in the file.
        found: String,
        /// The one the caller wants.
        expected: String,
    },
    /// The sizes in the header are impossible, or the file is longer or shorter than they say.
    #[error("{path}: {problem}")]
    Shape {
        /// The file.
        path: String,
        /// What does not fit.
        problem: String,
    },
    /// The checksum does not match: the file is corrupt.
    #[error("{0}: checksum mismatch (the file is corrupt or truncated)")]
    Checksum(String),
}

/// The integer constants of a network's quantisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quantisation {
    /// Scale of the feature transformer (and the clip ceiling of the activation).
    pub qa: i32,
    /// Scale of the output weights.
    pub qb: i32,
    /// The output is multiplied by this to give the game's evaluation unit.
    pub scale: i32,
}

impl Quantisation {
    /// The constants of Tessera networks: `QA = 255`, `QB = 64`, scale 400 (chess centipawns;
    /// `tessera train` writes the score scale of its data: 130 for xiangqi).
    pub const STANDARD: Quantisation = Quantisation { qa: 255, qb: 64, scale: 400 };
}

/// A quantised network, ready for inference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    feature_set: String,
    inputs: usize,
    hidden: usize,
    quantisation: Quantisation,
    feature_weights: Box<[i16]>,
    feature_biases: Box<[i16]>,
    output_weights: Box<[i16]>,
    output_bias: i32,
}

impl Network {
    /// A network from its parts (a trainer's quantised export).
    ///
    /// # Panics
    /// When the slices do not have the sizes `inputs` and `hidden` imply, or `hidden` is not a
    /// multiple of [`HIDDEN_MULTIPLE`], or the feature-set name is longer than 16 bytes.
    #[must_use]
    pub fn from_parts(
        feature_set: &str,
        quantisation: Quantisation,
        feature_weights: Vec<i16>,
        feature_biases: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Network {
        let hidden = feature_biases.len();
        assert!(hidden > 0 && hidden.is_multiple_of(HIDDEN_MULTIPLE), "hidden size {hidden}");
        assert!(feature_set.len() <= NAME_BYTES, "feature-set names fit 16 bytes");
        assert_eq!(feature_weights.len() % hidden, 0);
        assert_eq!(output_weights.len(), 2 * hidden);
        Network {
            feature_set: feature_set.to_owned(),
            inputs: feature_weights.len() / hidden,
            hidden,
            quantisation,
            feature_weights: feature_weights.into_boxed_slice(),
            feature_biases: feature_biases.into_boxed_slice(),
            output_weights: output_weights.into_boxed_slice(),
            output_bias,
        }
    }

    /// A network of small random integer weights for `feature_set` (`inputs` features, `hidden`
    /// a multiple of 16), the same for the same `seed`: what a game's tests use to check its
    /// features and accumulators, with values large enough that a wrong accumulator shows.
    #[must_use]
    pub fn random(feature_set: &str, inputs: usize, hidden: usize, seed: u64) -> Network {
        let mut rng = SplitMix(seed);
        let mut values = |count: usize, range: usize| -> Vec<i16> {
            (0..count).map(|_| rng.below(2 * range + 1) as i16 - range as i16).collect()
        };
        let weights = values(inputs * hidden, 40);
        let biases = values(hidden, 100);
        let output = values(2 * hidden, 60);
        Network::from_parts(feature_set, Quantisation::STANDARD, weights, biases, output, 25)
    }

    /// The name of the features this network reads.
    #[must_use]
    pub fn feature_set(&self) -> &str {
        &self.feature_set
    }

    /// Number of input features per perspective.
    #[must_use]
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Values per accumulator (one perspective).
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The integer constants, among them the output scale (the unit of the evaluation).
    #[must_use]
    pub fn quantisation(&self) -> Quantisation {
        self.quantisation
    }

    /// The feature-transformer biases: an empty position's accumulator.
    #[must_use]
    pub fn biases(&self) -> &[i16] {
        &self.feature_biases
    }

    /// The feature-transformer column of `feature`, added to an accumulator when it is active.
    ///
    /// # Panics
    /// When `feature >= self.inputs()`.
    #[inline]
    #[must_use]
    pub fn column(&self, feature: usize) -> &[i16] {
        &self.feature_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// The output weights (`2 × hidden`, the side to move's half first), scaled by QB.
    #[must_use]
    pub fn output_weights(&self) -> &[i16] {
        &self.output_weights
    }

    /// The output bias, scaled by `QA · QB`.
    #[must_use]
    pub fn output_bias(&self) -> i32 {
        self.output_bias
    }

    /// The evaluation, in the game's unit, from the accumulators of the side to move (`us`) and
    /// of the other side (`them`).
    #[must_use]
    pub fn evaluate(&self, us: &[i16], them: &[i16]) -> i32 {
        let Quantisation { qa, qb, scale } = self.quantisation;
        let clip = i16::try_from(qa).unwrap_or(i16::MAX);
        let sum = simd::screlu_dot(us, them, &self.output_weights, clip);
        (i64::from(sum / qa + self.output_bias) * i64::from(scale) / i64::from(qa * qb)) as i32
    }

    /// Reads a network for `feature_set` from `bytes`; `name` (a path) goes into error messages.
    ///
    /// # Errors
    /// When the bytes are not a valid network for these features.
    pub fn from_bytes(bytes: &[u8], name: &str, feature_set: &str) -> Result<Network, NetworkError> {
        let shape = |problem: String| NetworkError::Shape { path: name.to_owned(), problem };
        if bytes.len() < HEADER_BYTES || bytes[..8] != MAGIC {
            return Err(NetworkError::NotANetwork(name.to_owned()));
        }
        let word = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("four bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(NetworkError::Version { path: name.to_owned(), found: version });
        }
        let raw_name = &bytes[12..12 + NAME_BYTES];
        let end = raw_name.iter().position(|&byte| byte == 0).unwrap_or(NAME_BYTES);
        let found = String::from_utf8_lossy(&raw_name[..end]).into_owned();
        if found != feature_set {
            return Err(NetworkError::FeatureSet { path: name.to_owned(), found, expected: feature_set.to_owned() });
        }
        let at = 12 + NAME_BYTES;
        let (inputs, hidden) = (word(at) as usize, word(at + 4) as usize);
        let quantisation =
            Quantisation { qa: word(at + 8) as i32, qb: word(at + 12) as i32, scale: word(at + 16) as i32 };
        if hidden == 0 || hidden % HIDDEN_MULTIPLE != 0 || inputs == 0 || inputs > 1 << 20 || hidden > 1 << 16 {
            return Err(shape(format!("impossible sizes: {inputs} inputs, {hidden} hidden")));
        }
        if !(1..=i32::from(i16::MAX)).contains(&quantisation.qa) || quantisation.qb <= 0 {
            return Err(shape(format!("impossible quantisation {quantisation:?}")));
        }
        let values = inputs * hidden + hidden + 2 * hidden;
        let expected = HEADER_BYTES + 2 * values + 4 + 8;
        if bytes.len() != expected {
            return Err(shape(format!("{} bytes, but its sizes need {expected}", bytes.len())));
        }
        let body = &bytes[..expected - 8];
        let stored = u64::from_le_bytes(bytes[expected - 8..].try_into().expect("eight bytes"));
        if fnv1a(body) != stored {
            return Err(NetworkError::Checksum(name.to_owned()));
        }
        let mut cursor = HEADER_BYTES;
        let mut take = |count: usize| -> Vec<i16> {
            let slice = &bytes[cursor..cursor + 2 * count];
            cursor += 2 * count;
            slice.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect()
        };
        let feature_weights = take(inputs * hidden);
        let feature_biases = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = i32::from_le_bytes(bytes[expected - 12..expected - 8].try_into().expect("four bytes"));
        Ok(Network::from_parts(feature_set, quantisation, feature_weights, feature_biases, output_weights, output_bias))
    }

    /// Reads the network file at `path`, checking that it is for `feature_set`.
    ///
    /// # Errors
    /// When the file cannot be read or is not a valid network for these features.
    pub fn load(path: &Path, feature_set: &str) -> Result<Network, NetworkError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| NetworkError::Io { path: name.clone(), source })?;
        Network::from_bytes(&bytes, &name, feature_set)
    }

    /// The network in its file format.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + 2 * self.feature_weights.len() + 4 * self.hidden + 12);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let mut name = [0u8; NAME_BYTES];
        name[..self.feature_set.len()].copy_from_slice(self.feature_set.as_bytes());
        bytes.extend_from_slice(&name);
        let Quantisation { qa, qb, scale } = self.quantisation;
        for value in [self.inputs as u32, self.hidden as u32, qa as u32, qb as u32, scale as u32] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        for value in self.feature_weights.iter().chain(self.feature_biases.iter()).chain(self.output_weights.iter()) {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&self.output_bias.to_le_bytes());
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Writes the network to `path`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetworkError> {
        std::fs::write(path, self.to_bytes())
            .map_err(|source| NetworkError::Io { path: path.display().to_string(), source })
    }
}

/// The 64-bit FNV-1a hash.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_network() -> Network {
        let hidden = 16;
        let weights = (0..3 * hidden).map(|index| (index as i16 % 7) - 3).collect();
        let biases = (0..hidden).map(|index| index as i16 * 4).collect();
        let output = (0..2 * hidden).map(|index| (index as i16 % 5) - 2).collect();
        Network::from_parts("toy-3", Quantisation::STANDARD, weights, biases, output, 17)
    }

    #[test]
    fn files_round_trip() {
        let network = small_network();
        let bytes = network.to_bytes();
        assert_eq!(Network::from_bytes(&bytes, "toy.nnue", "toy-3").unwrap(), network);
    }

    #[test]
    fn bad_files_are_named_and_explained() {
        let bytes = small_network().to_bytes();
        let error = |bytes: &[u8], features: &str| Network::from_bytes(bytes, "x.nnue", features).unwrap_err();
        assert!(matches!(error(b"PK\x03\x04 not a network", "toy-3"), NetworkError::NotANetwork(_)));
        let wrong = error(&bytes, "chess-768");
        assert_eq!(wrong.to_string(), "x.nnue: a network for toy-3 features, this engine needs chess-768");
        let truncated = error(&bytes[..bytes.len() - 10], "toy-3");
        assert!(matches!(truncated, NetworkError::Shape { .. }), "{truncated}");
        assert!(truncated.to_string().starts_with("x.nnue: "));
        let mut corrupt = bytes.clone();
        corrupt[HEADER_BYTES + 5] ^= 0x10;
        assert!(matches!(error(&corrupt, "toy-3"), NetworkError::Checksum(_)));
        let mut future = bytes;
        future[8] = 9;
        assert!(matches!(error(&future, "toy-3"), NetworkError::Version { found: 9, .. }));
    }

    #[test]
    fn evaluation_follows_the_formula() {
        let network = small_network();
        let us: Vec<i16> = (0..16).map(|index| index * 20 - 40).collect();
        let them: Vec<i16> = (0..16).map(|index| 300 - index * 25).collect();
        let mut sum = 0i64;
        for (index, &value) in us.iter().chain(&them).enumerate() {
            let clipped = i64::from(value.clamp(0, 255));
            sum += clipped * clipped * i64::from(network.output_weights[index]);
        }
        let expected = (sum / 255 + 17) * 400 / (255 * 64);
        assert_eq!(i64::from(network.evaluate(&us, &them)), expected);
    }
}
