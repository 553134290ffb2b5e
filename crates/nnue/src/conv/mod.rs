//! A residual convolutional network over a square board that gives one logit per point, the
//! move-prediction ("policy") network of a board game, and optionally a value (who is winning,
//! [`value`]), with its file format.
//!
//! The network: a 3×3 convolution from `planes` binary input planes to `channels` channels, then
//! `blocks` residual blocks (two 3×3 convolutions, the block's input added before the second
//! ReLU), then a 1×1 convolution to one value per point plus a learned bias per point. Batch
//! normalisation is folded into the convolutions by the trainer (`scripts/train-go-policy.py`).
//! Inference is in `f32`, channels innermost, on boards padded by a ring of zeros; every output
//! is a fixed sequence of fused multiply-adds whichever instruction set runs it
//! ([`kernel`]), so a search that uses the logits is reproducible across machines.
//!
//! File layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `TCPN` |
//! | 4 · 5 | format version (1 or 2), planes, channels, blocks, board size |
//! | 4 · 2 | version 2 only: value channels, value hidden units (0 and 0: no value head) |
//! | 4 · (9 · planes · channels + channels) | input convolution: weights `[tap][input][output]`, biases |
//! | 4 · (9 · channels² + channels) per convolution | the `2 · blocks` tower convolutions, in order |
//! | 4 · (channels + 1 + size²) | head weights, head bias, bias per point (`y · size + x`) |
//! | 4 · … | version 2 with a value head: its weights ([`value`] gives the order) |
//! | 8 | FNV-1a 64-bit checksum of every byte before it |

pub mod kernel;
mod value;

use crate::random::SplitMix;
use value::ValueHead;

const MAGIC: [u8; 4] = *b"TCPN";
/// The newest format version; version 1 (no value head) is read too, and written for a network
/// without one.
const VERSION: u32 = 2;
/// Header bytes by version: the magic and the words of the sizes.
const fn header_bytes(version: u32) -> usize {
    if version == 1 {
        4 + 4 * 5
    } else {
        4 + 4 * 7
    }
}
/// Taps of a 3×3 convolution.
const TAPS: usize = 9;

/// Why a convolutional network could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConvError {
    /// The bytes do not start with the network magic.
    #[error("{0}: not a convolutional network file (no TCPN header)")]
    NotANetwork(String),
    /// Another format version.
    #[error("{path}: convolutional network format version {found}, this program reads versions 1 to {VERSION}")]
    Version {
        /// The file.
        path: String,
        /// The version in the file.
        found: u32,
    },
    /// The sizes in the header are impossible, the file is longer or shorter than they say, or
    /// they are not the ones the caller needs.
    #[error("{path}: {problem}")]
    Shape {
        /// The file.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// The checksum does not match: the file is corrupt.
    #[error("{0}: checksum mismatch (the file is corrupt or truncated)")]
    Checksum(String),
}

/// One 3×3 convolution: weights `[tap][input][output]` and one bias per output channel.
#[derive(Clone, Debug, PartialEq)]
struct Convolution {
    inputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

/// A trained policy network, with or without a value head (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ConvPolicy {
    planes: usize,
    channels: usize,
    size: usize,
    input: Convolution,
    /// The residual blocks' convolutions, two per block.
    tower: Vec<Convolution>,
    head_weights: Vec<f32>,
    head_bias: f32,
    point_bias: Vec<f32>,
    value: Option<ValueHead>,
}

/// The buffers of one evaluation, owned by the caller so that evaluating allocates nothing: the
/// input planes and three activation boards, each padded by a ring of zeros, and the value
/// head's layers.
#[derive(Clone, Debug)]
pub struct ConvScratch {
    size: usize,
    planes: usize,
    input: Vec<f32>,
    boards: [Vec<f32>; 3],
    value_features: Vec<f32>,
    value_units: Vec<f32>,
}

impl ConvScratch {
    /// Sets input plane `plane` at the point `index = y · size + x` to 1.
    ///
    /// # Panics
    /// Panics if the plane or the point is out of range.
    #[inline]
    pub fn set(&mut self, plane: usize, index: usize) {
        assert!(plane < self.planes && index < self.size * self.size, "input bit ({plane}, {index}) out of range");
        let (x, y) = (index % self.size, index / self.size);
        self.input[((y + 1) * (self.size + 2) + x + 1) * self.planes + plane] = 1.0;
    }

    /// Sets every input plane back to 0.
    pub fn clear(&mut self) {
        self.input.fill(0.0);
    }
}

impl ConvPolicy {
    /// Reads a network from `bytes` (a file's content; `name` names it in errors).
    ///
    /// # Errors
    /// [`ConvError`] when the bytes are not a whole, uncorrupted network of this format.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<ConvPolicy, ConvError> {
        let shape = |problem: String| ConvError::Shape { path: name.to_owned(), problem };
        if bytes.len() < header_bytes(1) + 8 || bytes[..4] != MAGIC {
            return Err(ConvError::NotANetwork(name.to_owned()));
        }
        let word = |offset: usize| u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("four bytes"));
        let version = word(4);
        if !(1..=VERSION).contains(&version) {
            return Err(ConvError::Version { path: name.to_owned(), found: version });
        }
        let header = header_bytes(version);
        if bytes.len() < header + 8 {
            return Err(shape(format!("{} bytes, shorter than a header", bytes.len())));
        }
        let [planes, channels, blocks, size] = [8, 12, 16, 20].map(|offset| word(offset) as usize);
        let (value_channels, value_hidden) = if version == 1 { (0, 0) } else { (word(24) as usize, word(28) as usize) };
        if (value_channels == 0) != (value_hidden == 0) || value_channels > 32 || value_hidden > 1024 {
            return Err(shape(format!(
                "impossible value head: {value_channels} channels, {value_hidden} hidden units"
            )));
        }
        if !(1..=64).contains(&planes)
            || !(8..=256).contains(&channels)
            || channels % kernel::LANES != 0
            || blocks > 64
            || !(2..=32).contains(&size)
        {
            return Err(shape(format!(
                "impossible sizes: {planes} planes, {channels} channels, {blocks} blocks, board {size}"
            )));
        }
        let floats = TAPS * planes * channels
            + channels
            + 2 * blocks * (TAPS * channels * channels + channels)
            + channels
            + 1
            + size * size
            + if value_channels > 0 {
                ValueHead::floats(channels, value_channels, value_hidden, size * size)
            } else {
                0
            };
        let expected = header + 4 * floats + 8;
        if bytes.len() != expected {
            return Err(shape(format!("{} bytes, the header's sizes make {expected}", bytes.len())));
        }
        let (body, stored) = bytes.split_at(expected - 8);
        if fnv1a(body) != u64::from_le_bytes(stored.try_into().expect("eight bytes")) {
            return Err(ConvError::Checksum(name.to_owned()));
        }
        let mut values =
            body[header..].chunks_exact(4).map(|chunk| f32::from_le_bytes(chunk.try_into().expect("four bytes")));
        let mut take = |count: usize| values.by_ref().take(count).collect::<Vec<f32>>();
        let mut convolution =
            |inputs: usize| Convolution { inputs, weights: take(TAPS * inputs * channels), bias: take(channels) };
        let input = convolution(planes);
        let tower = (0..2 * blocks).map(|_| convolution(channels)).collect();
        let head_weights = take(channels);
        let head_bias = take(1)[0];
        let point_bias = take(size * size);
        let value = (value_channels > 0)
            .then(|| ValueHead::read(&mut take, channels, value_channels, value_hidden, size * size));
        Ok(ConvPolicy { planes, channels, size, input, tower, head_weights, head_bias, point_bias, value })
    }

    /// The file form of the network (what [`ConvPolicy::from_bytes`] reads): version 1 without
    /// a value head, version 2 with one.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        let blocks = self.tower.len() / 2;
        let mut header = vec![1, self.planes, self.channels, blocks, self.size];
        if let Some(value) = &self.value {
            header[0] = 2;
            header.extend([value.channels, value.hidden]);
        }
        for word in header {
            bytes.extend_from_slice(&(word as u32).to_le_bytes());
        }
        let mut floats = Vec::new();
        for convolution in std::iter::once(&self.input).chain(&self.tower) {
            floats.extend_from_slice(&convolution.weights);
            floats.extend_from_slice(&convolution.bias);
        }
        floats.extend_from_slice(&self.head_weights);
        floats.push(self.head_bias);
        floats.extend_from_slice(&self.point_bias);
        if let Some(value) = &self.value {
            value.write(&mut floats);
        }
        for value in floats {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// A network of the given shape with weights drawn from `seed` (for tests and benchmarks).
    #[must_use]
    pub fn random(planes: usize, channels: usize, blocks: usize, size: usize, seed: u64) -> ConvPolicy {
        let mut rng = SplitMix(seed);
        let mut next = |scale: f32| rng.symmetric() * scale;
        let mut convolution = |inputs: usize| {
            let scale = (2.0 / (TAPS * inputs) as f32).sqrt();
            Convolution {
                inputs,
                weights: (0..TAPS * inputs * channels).map(|_| next(scale)).collect(),
                bias: (0..channels).map(|_| next(0.1)).collect(),
            }
        };
        let input = convolution(planes);
        let tower = (0..2 * blocks).map(|_| convolution(channels)).collect();
        ConvPolicy {
            planes,
            channels,
            size,
            input,
            tower,
            head_weights: (0..channels).map(|_| next(0.5)).collect(),
            head_bias: next(0.1),
            point_bias: (0..size * size).map(|_| next(0.1)).collect(),
            value: None,
        }
    }

    /// [`ConvPolicy::random`] with a value head of `value_channels` channels and `hidden` units.
    #[must_use]
    pub fn random_with_value(shape: [usize; 4], value_channels: usize, hidden: usize, seed: u64) -> ConvPolicy {
        let [planes, channels, blocks, size] = shape;
        let mut network = ConvPolicy::random(planes, channels, blocks, size, seed);
        let mut rng = SplitMix(seed ^ 0x5EED);
        network.value = Some(ValueHead::random(&mut rng, channels, value_channels, hidden, size * size));
        network
    }

    /// This network for a board of `size`. The convolutions slide over any board, so they stay;
    /// each point takes the bias of the trained board's point as far from its two nearest edges
    /// (on a larger board, the middle's bias fills the centre). The value head reads every point
    /// of the board it was trained on, so another size drops it.
    #[must_use]
    pub fn for_board(&self, size: usize) -> ConvPolicy {
        if size == self.size {
            return self.clone();
        }
        let trained = self.size;
        let point_bias = (0..size * size)
            .map(|index| {
                let [x, y] = [index % size, index / size].map(|c| edge_matched(c, size, trained));
                self.point_bias[y * trained + x]
            })
            .collect();
        ConvPolicy { size, point_bias, value: None, ..self.clone() }
    }

    /// Input planes the network reads.
    #[must_use]
    pub fn planes(&self) -> usize {
        self.planes
    }

    /// The board size it was trained for.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// Buffers for evaluating this network, inputs all 0.
    #[must_use]
    pub fn scratch(&self) -> ConvScratch {
        let padded = (self.size + 2) * (self.size + 2);
        let (value_channels, value_hidden) = self.value.as_ref().map_or((0, 0), |value| (value.channels, value.hidden));
        ConvScratch {
            size: self.size,
            planes: self.planes,
            input: vec![0.0; padded * self.planes],
            boards: std::array::from_fn(|_| vec![0.0; padded * self.channels]),
            value_features: vec![0.0; value_channels * self.size * self.size],
            value_units: vec![0.0; value_hidden],
        }
    }

    /// The logit of every point (`y · size + x`) for the inputs set in `scratch`, written to
    /// `logits`. The same inputs give the same bits on every machine.
    ///
    /// # Panics
    /// Panics if `scratch` belongs to a network of another shape or `logits` does not hold one
    /// value per point.
    pub fn logits(&self, scratch: &mut ConvScratch, logits: &mut [f32]) {
        self.check_buffers(scratch, logits);
        self.tower_and_logits(&scratch.input, &mut scratch.boards, logits);
    }

    /// [`ConvPolicy::logits`], and the value logit (the log-odds that the player to move wins)
    /// if the network has a value head, from the same tower. The same inputs give the same bits
    /// on every machine.
    ///
    /// # Panics
    /// As [`ConvPolicy::logits`].
    pub fn logits_and_value(&self, scratch: &mut ConvScratch, logits: &mut [f32]) -> Option<f32> {
        self.check_buffers(scratch, logits);
        let ConvScratch { input, boards, value_features, value_units, .. } = scratch;
        let tower = self.tower_and_logits(input, boards, logits);
        let value = self.value.as_ref()?;
        assert_eq!(value_units.len(), value.hidden, "scratch of another network");
        Some(value.logit(tower, self.size, self.channels, value_features, value_units))
    }

    fn check_buffers(&self, scratch: &ConvScratch, logits: &[f32]) {
        assert_eq!((scratch.size, scratch.planes), (self.size, self.planes), "scratch of another network");
        assert_eq!(logits.len(), self.size * self.size, "one logit per point");
    }

    /// Runs the tower on `input` through the three `boards` and the policy head into `logits`;
    /// returns the board that holds the tower's output.
    fn tower_and_logits<'a>(&self, input: &[f32], boards: &'a mut [Vec<f32>; 3], logits: &mut [f32]) -> &'a [f32] {
        let [first, second, third] = boards;
        let shape = kernel::Shape { size: self.size, channels: self.channels };
        kernel::convolve_sparse(shape, input, self.planes, &self.input.weights, &self.input.bias, first);
        // `first` holds the block's input, `second` its middle; the output goes to `third`,
        // which then becomes the next block's input.
        let (mut current, middle, mut output) = (first, second, third);
        for pair in self.tower.chunks_exact(2) {
            kernel::convolve(shape, current, &pair[0].weights, &pair[0].bias, None, middle);
            kernel::convolve(shape, middle, &pair[1].weights, &pair[1].bias, Some(current), output);
            std::mem::swap(&mut current, &mut output);
        }
        let padded = self.size + 2;
        for y in 0..self.size {
            for x in 0..self.size {
                let at = ((y + 1) * padded + x + 1) * self.channels;
                let values = &current[at..at + self.channels];
                let sum = values.iter().zip(&self.head_weights).fold(self.head_bias, |sum, (v, w)| v.mul_add(*w, sum));
                logits[y * self.size + x] = sum + self.point_bias[y * self.size + x];
            }
        }
        current
    }
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

/// The coordinate of a board of `trained` points a side that lies as far from its nearer edge as
/// `coordinate` does on a board of `size`, at most the trained board's middle.
fn edge_matched(coordinate: usize, size: usize, trained: usize) -> usize {
    let middle = (trained - 1) / 2;
    let from_high = size - 1 - coordinate;
    if coordinate <= from_high {
        coordinate.min(middle)
    } else {
        trained - 1 - from_high.min(middle)
    }
}

#[cfg(test)]
mod tests;
