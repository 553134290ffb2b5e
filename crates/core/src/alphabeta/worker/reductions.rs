//! Late-move reductions: how many plies a late quiet move is searched shallower.

/// Plies to reduce a late quiet move by, `[depth][move_index]` up to 63 each: 0.75 + ln depth ×
/// ln index / divisor, the divisor being the game's
/// [`crate::search::Pruning::late_move_reduction_divisor`] (in hundredths).
pub(super) struct ReductionTable(Box<[[u8; 64]; 64]>);

impl ReductionTable {
    pub(super) fn new(divisor_hundredths: i32) -> Self {
        let divisor = f64::from(divisor_hundredths.max(1)) / 100.0;
        let mut table = Box::new([[0u8; 64]; 64]);
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (index, cell) in row.iter_mut().enumerate().skip(1) {
                *cell = (0.75 + (depth as f64).ln() * (index as f64).ln() / divisor) as u8;
            }
        }
        ReductionTable(table)
    }

    pub(super) fn get(&self, depth: i32, index: usize) -> i32 {
        i32::from(self.0[depth.clamp(0, 63) as usize][index.min(63)])
    }
}

#[cfg(test)]
mod tests {
    use super::ReductionTable;

    #[test]
    fn a_smaller_divisor_reduces_as_much_or_more_and_first_moves_not_at_all() {
        let (usual, deeper) = (ReductionTable::new(225), ReductionTable::new(200));
        for depth in 0..70 {
            for index in 0..70 {
                assert!(deeper.get(depth, index) >= usual.get(depth, index), "depth {depth}, move {index}");
            }
            assert_eq!(usual.get(depth, 1), 0, "the first move is never reduced");
        }
        assert_eq!((usual.get(20, 40), deeper.get(20, 40)), (5, 6));
    }
}
