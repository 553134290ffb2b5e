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

    /// Writes the features of the position's mirror image under a symmetry of the game that
    /// keeps its value (chess: the files reversed, when no castling right is left), as
    /// [`TrainingFeatures::features`] does, and returns `true`; returns `false` (and writes
    /// nothing useful) when the position has no such twin. Trainers read half of the positions
    /// mirrored each epoch, which doubles what small data sets teach.
    fn mirrored_features(_packed: &[u8], _us: &mut Vec<usize>, _them: &mut Vec<usize>) -> bool {
        false
    }
}
