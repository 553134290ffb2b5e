//! `tessera-nnue`: learned evaluation shared by the games, with no knowledge of any game.
//!
//! - [`data`]: the training-data file format (`tessera datagen` writes it, trainers and tuners read
//!   it). A game supplies the packed form of its positions through [`PackedPosition`].

pub mod data;

pub use data::{DataError, DataReader, DataWriter, PackedPosition, Record, WdlResult};
