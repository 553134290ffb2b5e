// Edges out: search and position (a `use crate::{…}` tree and a name the root re-exports).
use crate::{search::ordering::Order, Position as Spot};
use std::fmt; // not the crate: no edge

pub fn cells() -> u8 {
    let text = "crate::position::in_a_string"; // a literal, not a path
    Order::FIRST
}

#[cfg(test)]
use crate::helper::Helper; // a test-only use: no edge

#[cfg(test)]
mod tests;
