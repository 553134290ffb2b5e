//! `tessera-nnue`: learned evaluation shared by the games, with no knowledge of any game.
//!
//! - [`data`]: the training-data file format (`tessera datagen` writes it, trainers and tuners read
//!   it). A game supplies the packed form of its positions through [`PackedPosition`]. [`merge`]:
//!   the files of a sharded datagen in one, each position once (`tessera datagen-merge`).
//! - [`network`]: a quantised perspective network (feature transformer, squared clipped ReLU, one
//!   output) and its file format; [`accumulator`]: its accumulators, updated incrementally as a
//!   search plays and takes back moves; [`simd`]: the inner loops, AVX2 with a portable twin.
//! - [`embedded`]: an engine's built-in network and the choice its options make.
//! - [`conv`]: a residual convolutional network over a square board with one logit per point
//!   (a move-prediction network), its file format and its SIMD inner loops.
//! - [`features`]: what a trainer needs from a game ([`TrainingFeatures`]); [`train`]: the CPU
//!   trainer (`tessera train`).
//! - [`texel`]: the tuner of hand-crafted evaluations linear in their weights (`tessera tune`).
//!
//! Modules, bottom-up: simd → random → data → merge → features → network → accumulator → embedded → conv →
//! train → texel.
//! Each uses only modules before it: no import circle (checked by scripts/check-module-circles.py).

pub mod accumulator;
pub mod conv;
pub mod data;
pub mod embedded;
pub mod features;
pub mod merge;
pub mod network;
pub mod random;
pub mod simd;
pub mod texel;
pub mod train;

pub use accumulator::{AccumulatorStack, Change};
pub use data::{DataError, DataReader, DataWriter, PackedPosition, Record, WdlResult};
pub use embedded::{EmbeddedNetwork, NetworkChoice, EMBEDDED_NAME};
pub use features::TrainingFeatures;
pub use network::{Network, NetworkError, Quantisation};
