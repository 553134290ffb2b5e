//! The ownership a search reports ([`crate::Limits::ownership`]): who owned each cell at the end
//! of every playout the search ran ([`crate::Playout::playout_with_ownership`]), summed in one row
//! per thread so that no playout waits for another's or takes a lock, and averaged over the rows
//! when a report is made.

use std::sync::atomic::{AtomicI64, Ordering};

/// Slots in a cache line: rows are kept at least this far apart, so threads never write one line.
const LINE_SLOTS: usize = 64 / std::mem::size_of::<AtomicI64>();

/// Per-thread sums of the cells' final owners (+1 first player, -1 second) and counts of the
/// playouts summed, allocated once per search.
pub(super) struct OwnershipTally {
    cells: usize,
    /// Slots from one thread's row to the next: `cells` sums, the playout count, then padding.
    stride: usize,
    slots: Vec<AtomicI64>,
}

impl OwnershipTally {
    /// A tally of `cells` cells for threads `0..threads`, all at zero.
    pub(super) fn new(cells: usize, threads: usize) -> Self {
        let stride = (cells + 1).next_multiple_of(LINE_SLOTS) + LINE_SLOTS;
        OwnershipTally { cells, stride, slots: (0..stride * threads.max(1)).map(|_| AtomicI64::new(0)).collect() }
    }

    /// Adds one playout's `owners` (one per cell) to the row of `thread`. Only that thread writes
    /// its row, so a plain load and store (no read-modify-write) loses no update.
    pub(super) fn add(&self, thread: usize, owners: &[i8]) {
        let row = &self.slots[thread * self.stride..][..=self.cells];
        let (sums, count) = row.split_at(self.cells);
        for (sum, &owner) in sums.iter().zip(owners) {
            sum.store(sum.load(Ordering::Relaxed) + i64::from(owner), Ordering::Relaxed);
        }
        count[0].store(count[0].load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// Each cell's mean owner over the playouts summed so far, or `None` before the first. Read
    /// while threads go on adding, a row may be one playout ahead in some cells: a difference of
    /// one playout in the thousands a report averages.
    pub(super) fn means(&self) -> Option<Vec<f32>> {
        let rows = self.slots.chunks(self.stride);
        let playouts: i64 = rows.clone().map(|row| row[self.cells].load(Ordering::Relaxed)).sum();
        if playouts == 0 {
            return None;
        }
        let mut sums = vec![0i64; self.cells];
        for row in rows {
            for (total, slot) in sums.iter_mut().zip(row) {
                *total += slot.load(Ordering::Relaxed);
            }
        }
        Some(sums.into_iter().map(|sum| (sum as f64 / playouts as f64).clamp(-1.0, 1.0) as f32).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_average_every_threads_playouts_and_rows_do_not_overlap() {
        let tally = OwnershipTally::new(3, 2);
        assert_eq!(tally.means(), None);
        tally.add(0, &[1, -1, 0]);
        tally.add(1, &[1, 1, 0]);
        tally.add(1, &[-1, 1, 1]);
        let means = tally.means().expect("three playouts");
        let expected = [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0];
        assert!(means.iter().zip(expected).all(|(mean, want)| (mean - want).abs() < 1e-6), "{means:?}");
        assert!(tally.stride * std::mem::size_of::<AtomicI64>() >= 64 + 4 * std::mem::size_of::<AtomicI64>());
    }
}
