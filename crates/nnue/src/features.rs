//! What training needs from a game: the active features of a stored position.

use crate::data::PackedPosition;

/// A game position type whose stored form yields network features, for trainers.
pub trait TrainingFeatures: PackedPosition {
    /// The feature set's name, written into network files (at most 16 bytes).
    const FEATURE_SET: &'static str;
    /// Inputs per perspective.
    const INPUTS: usize;

    /// Writes the active features of a packed position (see [`PackedPosition::pack`]): the side to
    /// move's perspective into `us`, the other player's into `them`. Both are cleared first.
    fn features(packed: &[u8], us: &mut Vec<usize>, them: &mut Vec<usize>);
}
