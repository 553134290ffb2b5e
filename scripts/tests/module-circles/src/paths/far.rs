// Found through `#[path]`: its edge to position counts.
use crate::position::Position;
