//! Accumulators kept incrementally: one pair (one per player) for each ply of the line a search is
//! on, so that a move costs a few column additions instead of a full refresh, and an undo costs
//! nothing.

use std::sync::Arc;

use crate::network::Network;
use crate::simd;

/// Features entering and leaving one player's accumulator when a move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change<'a> {
    /// Add these features' columns, remove those.
    Update {
        /// Features that become active.
        added: &'a [usize],
        /// Features that stop being active.
        removed: &'a [usize],
    },
    /// Recompute from scratch with these active features (e.g. a king-bucket change).
    Refresh(&'a [usize]),
}

/// Most features one move may add or remove for one player.
pub const MAX_CHANGED: usize = 4;

/// A network and a stack of its accumulator pairs for the positions of the current line, the last
/// one on top: what a game position keeps while a network evaluates it.
///
/// Player 0 is the first player (White in chess), player 1 the second.
pub struct AccumulatorStack {
    network: Arc<Network>,
    hidden: usize,
    /// `depth` pairs, each `2 × hidden` values: player 0's accumulator, then player 1's.
    values: Vec<i16>,
    depth: usize,
    /// Room reserved, in pairs: a search pushes at most this many before a reallocation.
    reserved: usize,
}

impl Clone for AccumulatorStack {
    /// Copies the pairs in use and reserves the same room, so the copy does not reallocate in search.
    fn clone(&self) -> Self {
        let mut values = Vec::with_capacity(self.reserved * 2 * self.hidden);
        values.extend_from_slice(&self.values);
        AccumulatorStack {
            network: Arc::clone(&self.network),
            hidden: self.hidden,
            values,
            depth: self.depth,
            reserved: self.reserved,
        }
    }
}

impl std::fmt::Debug for AccumulatorStack {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "AccumulatorStack({}, {} plies)", self.network.feature_set(), self.depth)
    }
}

impl AccumulatorStack {
    /// A stack of `network`'s accumulators holding one pair, computed from each player's active
    /// features, with room for `reserved` pairs.
    #[must_use]
    pub fn new(network: Arc<Network>, active: [&[usize]; 2], reserved: usize) -> Self {
        let hidden = network.hidden();
        let reserved = reserved.max(1);
        let values = Vec::with_capacity(reserved * 2 * hidden);
        let mut stack = AccumulatorStack { network, hidden, values, depth: 0, reserved };
        stack.values.resize(2 * hidden, 0);
        stack.depth = 1;
        for (player, features) in active.into_iter().enumerate() {
            stack.refresh_top(player, features);
        }
        stack
    }

    /// The network whose accumulators these are.
    #[must_use]
    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// Pairs on the stack (at least one).
    #[must_use]
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Player `player`'s accumulator in the top position.
    #[inline]
    #[must_use]
    pub fn top(&self, player: usize) -> &[i16] {
        let start = ((self.depth - 1) * 2 + player) * self.hidden;
        &self.values[start..start + self.hidden]
    }

    /// The evaluation of the top position with `side_to_move` (0 or 1) to play.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, side_to_move: usize) -> i32 {
        self.network.evaluate(self.top(side_to_move), self.top(1 - side_to_move))
    }

    /// Pushes the pair of the position after a move, from the top pair and each player's change.
    pub fn push(&mut self, changes: [Change<'_>; 2]) {
        let network = &*self.network;
        let hidden = self.hidden;
        self.values.resize((self.depth + 1) * 2 * hidden, 0);
        self.depth += 1;
        let (below, top) = self.values.split_at_mut((self.depth - 1) * 2 * hidden);
        let parent = &below[(self.depth - 2) * 2 * hidden..];
        for (player, change) in changes.into_iter().enumerate() {
            let destination = &mut top[player * hidden..(player + 1) * hidden];
            match change {
                Change::Update { added, removed } => {
                    debug_assert!(added.len() <= MAX_CHANGED && removed.len() <= MAX_CHANGED);
                    let mut added_columns = [&[][..]; MAX_CHANGED];
                    let mut removed_columns = [&[][..]; MAX_CHANGED];
                    for (slot, &feature) in added_columns.iter_mut().zip(added) {
                        *slot = network.column(feature);
                    }
                    for (slot, &feature) in removed_columns.iter_mut().zip(removed) {
                        *slot = network.column(feature);
                    }
                    let source = &parent[player * hidden..(player + 1) * hidden];
                    simd::update(destination, source, &added_columns[..added.len()], &removed_columns[..removed.len()]);
                }
                Change::Refresh(features) => refresh(network, destination, features),
            }
        }
    }

    /// Pushes a copy of the top pair (a null move changes no feature).
    pub fn push_copy(&mut self) {
        let pair = 2 * self.hidden;
        let start = (self.depth - 1) * pair;
        self.values.extend_from_within(start..start + pair);
        self.depth += 1;
    }

    /// Removes the top pair. The last pair is never removed: the caller recomputes it instead
    /// (with [`Self::refresh_top`]) when it undoes a move played before the stack was built.
    ///
    /// Returns whether a pair was removed.
    pub fn pop(&mut self) -> bool {
        if self.depth == 1 {
            return false;
        }
        self.depth -= 1;
        self.values.truncate(self.depth * 2 * self.hidden);
        true
    }

    /// Recomputes player `player`'s accumulator of the top position from its active features.
    pub fn refresh_top(&mut self, player: usize, features: &[usize]) {
        let start = ((self.depth - 1) * 2 + player) * self.hidden;
        refresh(&self.network, &mut self.values[start..start + self.hidden], features);
    }
}

/// `destination = biases + Σ columns of features`, in chunks of at most [`MAX_CHANGED`] columns.
fn refresh(network: &Network, destination: &mut [i16], features: &[usize]) {
    destination.copy_from_slice(network.biases());
    for chunk in features.chunks(MAX_CHANGED) {
        let mut columns = [&[][..]; MAX_CHANGED];
        for (slot, &feature) in columns.iter_mut().zip(chunk) {
            *slot = network.column(feature);
        }
        simd::add_in_place(destination, &columns[..chunk.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::Quantisation;

    fn network() -> Arc<Network> {
        let hidden = 32;
        let inputs = 10;
        let weights = (0..inputs * hidden).map(|index| ((index * 37) % 61) as i16 - 30).collect();
        let biases = (0..hidden).map(|index| index as i16).collect();
        let output = (0..2 * hidden).map(|index| ((index * 11) % 9) as i16 - 4).collect();
        Arc::new(Network::from_parts("toy-10", Quantisation::STANDARD, weights, biases, output, 3))
    }

    fn fresh(network: &Arc<Network>, active: [&[usize]; 2]) -> AccumulatorStack {
        AccumulatorStack::new(Arc::clone(network), active, 8)
    }

    #[test]
    fn updates_equal_refreshes_and_pops_restore() {
        let network = network();
        let mut stack = fresh(&network, [&[1, 2, 3], &[4]]);
        let first = (stack.top(0).to_vec(), stack.top(1).to_vec());
        stack.push([Change::Update { added: &[7, 8], removed: &[2] }, Change::Refresh(&[4, 5, 6, 7, 8, 9])]);
        let expected = fresh(&network, [&[1, 3, 7, 8], &[4, 5, 6, 7, 8, 9]]);
        assert_eq!(stack.top(0), expected.top(0));
        assert_eq!(stack.top(1), expected.top(1));
        assert_eq!(stack.evaluate(1), expected.evaluate(1));
        stack.push_copy();
        assert_eq!(stack.depth(), 3);
        assert_eq!(stack.top(1), expected.top(1));
        assert!(stack.pop() && stack.pop());
        assert_eq!((stack.top(0).to_vec(), stack.top(1).to_vec()), first);
        assert!(!stack.pop(), "the root pair stays");
    }

    #[test]
    fn clones_keep_their_room() {
        let network = network();
        let stack = fresh(&network, [&[1], &[2]]);
        let copy = stack.clone();
        assert!(copy.values.capacity() >= 8 * 2 * 32);
        assert_eq!(copy.top(0), stack.top(0));
    }
}
