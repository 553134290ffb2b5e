//! Sets of board cells as bits: the board keeps, per side, where each shape lies, so the move
//! generators visit only those cells instead of scanning the board.

/// Cells of the largest padded array of a board: (22 + 11) rows × (22 + 5) columns.
pub const MAX_CELLS: usize = 896;

const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of array cells, iterated in cell order (the order of the points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellSet([u64; WORDS]);

impl CellSet {
    /// No cell.
    pub(crate) const EMPTY: CellSet = CellSet([0; WORDS]);

    /// Adds `cell` (below [`MAX_CELLS`]).
    #[inline]
    pub(crate) fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    /// Removes `cell` (below [`MAX_CELLS`]).
    #[inline]
    pub(crate) fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// The cells of either set.
    #[inline]
    #[must_use]
    pub(crate) fn union(mut self, other: &CellSet) -> CellSet {
        for (word, other) in self.0.iter_mut().zip(other.0) {
            *word |= other;
        }
        self
    }

    /// The cells, lowest first.
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(index, mut word)| {
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    index * 64 + bit
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_come_back_in_order_once_each() {
        let mut set = CellSet::EMPTY;
        for cell in [700, 3, 64, 63, 3, 129] {
            set.insert(cell);
        }
        set.remove(129);
        let mut other = CellSet::EMPTY;
        other.insert(MAX_CELLS - 1);
        other.insert(64);
        assert_eq!(set.union(&other).iter().collect::<Vec<_>>(), [3, 63, 64, 700, MAX_CELLS - 1]);
        assert_eq!(CellSet::EMPTY.iter().count(), 0);
    }
}
