//! A crate with two import circles the check must report, and test code it must not count.
//!
//! Modules, bottom-up: position → board → helper → cells.

mod board;
mod cells;
#[path = "paths/far.rs"]
mod far;
mod helper;
mod position;
mod search;

pub use position::Position;

/// Names `cells::` in the crate root's own item: an edge from `(root)`.
pub fn cell_count() -> u8 {
    cells::count()
}

#[cfg(test)]
mod tests {
    use crate::helper::Helper; // test code: no edge
}
