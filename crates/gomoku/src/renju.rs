//! Renju forbidden points for black: overline, double four (also two fours on one line) and
//! double three, where a three counts only if it can become a straight four on a point that is
//! itself not forbidden (judged recursively). A point that makes exactly five is never forbidden.

use crate::board::Board;
use crate::pattern::LinePattern;
use crate::point::Point;

/// Deeper than this, a three is taken as real (positions needing more are unheard of in play).
const MAX_RECURSION: usize = 6;

impl Board {
    /// Whether black may not play on empty on-board `cell` (renju only; false in other variants).
    pub(crate) fn is_forbidden_cell(&self, cell: usize) -> bool {
        // Only a cell whose black shape is `Forbidden` (the lines alone say overline, double four or
        // double three) can be forbidden; the recursive test settles the threes.
        self.rules.variant == crate::rules::Variant::Renju
            && self.shape(tessera_core::Side::First, cell) == crate::shape::Shape::Forbidden
            && self.forbidden_with(cell, &mut Vec::new())
    }

    /// Whether black may not play `point` under renju rules (false when occupied or off the board).
    #[must_use]
    pub fn is_forbidden(&self, point: Point) -> bool {
        self.contains(point) && self.is_empty_cell(self.cell(point)) && self.is_forbidden_cell(self.cell(point))
    }

    /// Every forbidden point for black, row by row.
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<Point> {
        self.board_cells()
            .filter(|&cell| self.is_empty_cell(cell) && self.is_forbidden_cell(cell))
            .map(|cell| self.point(cell))
            .collect()
    }

    /// The forbidden test with the hypothetical black stones `extra` already placed.
    fn forbidden_with(&self, cell: usize, extra: &mut Vec<usize>) -> bool {
        let lines: [LinePattern; 4] = std::array::from_fn(|dir| self.black_pattern_with(cell, dir, extra));
        if lines.contains(&LinePattern::Five) {
            return false;
        }
        if lines.contains(&LinePattern::Overline) {
            return true;
        }
        if lines.iter().map(|line| line.fours()).sum::<u32>() >= 2 {
            return true;
        }
        let three_lines = lines.iter().filter(|&&line| line == LinePattern::ThreeOpen).count();
        if three_lines < 2 || extra.len() >= MAX_RECURSION {
            return false;
        }
        extra.push(cell);
        let mut real_threes = 0;
        for (dir, &line) in lines.iter().enumerate() {
            if line == LinePattern::ThreeOpen && self.three_is_real(dir, cell, extra) {
                real_threes += 1;
                if real_threes >= 2 {
                    break;
                }
            }
        }
        extra.pop();
        real_threes >= 2
    }

    /// Whether the three through `cell` on `dir` (with `extra`, which holds `cell`) can become a
    /// straight four on a point that is not forbidden.
    fn three_is_real(&self, dir: usize, cell: usize, extra: &mut Vec<usize>) -> bool {
        let step = self.step(dir);
        for k in -4..=4 {
            let other = (cell as i32 + k * step) as usize;
            if k == 0 || !self.is_empty_cell(other) || extra.contains(&other) {
                continue;
            }
            if self.black_pattern_with(other, dir, extra) == LinePattern::Four && !self.forbidden_with(other, extra) {
                return true;
            }
        }
        false
    }
}
