//! Move priors learned from GNU Go's self-play on 19×19: a weight for each 3×3 shape around a
//! point, each line, and each distance from the last move and from the mover's own move before
//! that, fitted so that the product of a point's four weights, against the other legal points'
//! products, predicts where GNU Go played (a Bradley-Terry model, as in CrazyStone). The table is
//! `data/priors.txt`, made by `scripts/go-selfplay.py` and
//! `cargo run -p tessera-go --release --example learn_priors`.

use std::sync::OnceLock;

use crate::board::{coordinates, Board, Cell};

/// Distances are bucketed up to this value; farther points share the last bucket.
pub const MAX_DISTANCE: usize = 17;
/// Lines are counted from 0 (the edge) up to this one; points farther in share it.
pub const MAX_LINE: usize = 5;

/// The learned weights (1.0 = an unlisted shape; the other groups average 1.0 over legal points).
pub struct LearnedPriors {
    /// By 3×3 shape code, colours seen from the side to move (see [`shape_code`]).
    shapes: Vec<f32>,
    /// By [`distance`] from the opponent's last move (bucket 0: no last move).
    last_distance: [f32; MAX_DISTANCE + 1],
    /// By [`distance`] from the mover's own previous move.
    own_distance: [f32; MAX_DISTANCE + 1],
    /// By [`line`].
    lines: [f32; MAX_LINE + 1],
}

/// A line of a priors table that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad priors line: {0}")]
pub struct BadPriorsLine(pub String);

/// The table shipped with the crate.
const TABLE: &str = include_str!("../data/priors.txt");

impl LearnedPriors {
    /// The shipped table, parsed once.
    ///
    /// # Panics
    /// Panics only if `data/priors.txt` were malformed (a unit test parses it).
    #[must_use]
    pub fn shipped() -> &'static LearnedPriors {
        static PRIORS: OnceLock<LearnedPriors> = OnceLock::new();
        PRIORS.get_or_init(|| LearnedPriors::parse(TABLE).expect("data/priors.txt is well formed"))
    }

    /// Parses lines `shape CODE WEIGHT` (canonical codes), `last D WEIGHT`, `own D WEIGHT` and
    /// `line L WEIGHT`;
    /// `#` starts a comment.
    ///
    /// # Errors
    /// The first line that is none of these.
    pub fn parse(text: &str) -> Result<LearnedPriors, BadPriorsLine> {
        let mut priors = LearnedPriors {
            shapes: vec![1.0; 1 << 16],
            last_distance: [1.0; MAX_DISTANCE + 1],
            own_distance: [1.0; MAX_DISTANCE + 1],
            lines: [1.0; MAX_LINE + 1],
        };
        for line in text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                [kind, key, weight] => key.parse::<usize>().ok().zip(weight.parse::<f32>().ok()).map(|kw| (*kind, kw)),
                _ => None,
            };
            match parsed {
                Some(("shape", (code, weight))) if code < 1 << 16 => {
                    for variant in symmetric_codes(code as u16) {
                        priors.shapes[usize::from(variant)] = weight;
                    }
                }
                Some(("last", (d, weight))) if d <= MAX_DISTANCE => priors.last_distance[d] = weight,
                Some(("own", (d, weight))) if d <= MAX_DISTANCE => priors.own_distance[d] = weight,
                Some(("line", (l, weight))) if l <= MAX_LINE => priors.lines[l] = weight,
                _ => return Err(BadPriorsLine(line.to_string())),
            }
        }
        Ok(priors)
    }

    /// The weight of `color` playing the empty point `p`, after the opponent's `last` move and
    /// the mover's own `own_last`.
    #[must_use]
    pub fn weight(&self, board: &Board, p: usize, color: Cell, last: Option<usize>, own_last: Option<usize>) -> f32 {
        self.shapes[usize::from(shape_code(board, p, color))]
            * self.last_distance[distance(p, last)]
            * self.own_distance[distance(p, own_last)]
            * self.lines[line(board, p)]
    }
}

/// The 3×3 code of [`Board::neighborhood`] with the mover's stones as Black (1) and the
/// opponent's as White (2).
#[must_use]
pub fn shape_code(board: &Board, p: usize, color: Cell) -> u16 {
    let code = board.neighborhood(p) as u16;
    if color == Cell::Black {
        return code;
    }
    // Swap 1 and 2 in every 2-bit cell: cells 1 and 2 have exactly one of their bits set.
    let low = code & 0x5555;
    let high = (code >> 1) & 0x5555;
    let swap = low ^ high; // 1 where the cell is 1 or 2
    code ^ (swap | swap << 1)
}

/// CrazyStone's distance `|dx| + |dy| + max(|dx|, |dy|)` from `p` to `other`, capped at
/// [`MAX_DISTANCE`]; 0 when there is no `other` (a pass or the start).
#[must_use]
pub fn distance(p: usize, other: Option<usize>) -> usize {
    other.map_or(0, |q| {
        let ((x, y), (qx, qy)) = (coordinates(p), coordinates(q));
        let (dx, dy) = (x.abs_diff(qx), y.abs_diff(qy));
        (dx + dy + dx.max(dy)).min(MAX_DISTANCE)
    })
}

/// The line of `p` counted from the nearest edge (0 = the edge), capped at [`MAX_LINE`].
#[must_use]
pub fn line(board: &Board, p: usize) -> usize {
    let (x, y) = coordinates(p);
    let last = board.size() - 1;
    x.min(y).min(last - x).min(last - y).min(MAX_LINE)
}

/// Grid position (column, row in -1..=1) of each slot of a neighbourhood code.
const SLOTS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// The code with its cells moved by `map` (a symmetry of the square).
fn transform(code: u16, map: impl Fn((i32, i32)) -> (i32, i32)) -> u16 {
    let mut out = 0;
    for (slot, &at) in SLOTS.iter().enumerate() {
        let target = SLOTS.iter().position(|&s| s == map(at)).expect("a symmetry maps the ring onto itself");
        out |= ((code >> (2 * slot)) & 3) << (2 * target);
    }
    out
}

/// The eight rotations and reflections of a neighbourhood code.
#[must_use]
pub fn symmetric_codes(code: u16) -> [u16; 8] {
    let mut out = [0; 8];
    let mut current = code;
    for index in 0..4 {
        out[2 * index] = current;
        out[2 * index + 1] = transform(current, |(x, y)| (-x, y));
        current = transform(current, |(x, y)| (y, -x));
    }
    out
}

/// The smallest of the symmetric codes: one name per shape.
#[must_use]
pub fn canonical_code(code: u16) -> u16 {
    symmetric_codes(code).into_iter().min().unwrap_or(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::point;

    #[test]
    fn the_shipped_table_parses_and_shapes_are_symmetric_and_colour_relative() {
        let priors = LearnedPriors::shipped();
        let mut board = Board::new(19);
        board.place_setup_stone(point(5, 5), Cell::Black);
        board.place_setup_stone(point(6, 5), Cell::White);
        // The same shape rotated, and with the colours swapped for the other mover.
        let mut rotated = Board::new(19);
        rotated.place_setup_stone(point(4, 6), Cell::Black);
        rotated.place_setup_stone(point(4, 7), Cell::White);
        let mut swapped = Board::new(19);
        swapped.place_setup_stone(point(5, 5), Cell::White);
        swapped.place_setup_stone(point(6, 5), Cell::Black);
        let here = priors.weight(&board, point(5, 6), Cell::Black, None, None);
        assert_eq!(here, priors.weight(&rotated, point(5, 6), Cell::Black, None, None));
        assert_eq!(here, priors.weight(&swapped, point(5, 6), Cell::White, None, None));
        assert_eq!(
            canonical_code(shape_code(&board, point(5, 6), Cell::Black)),
            canonical_code(shape_code(&rotated, point(5, 6), Cell::Black))
        );
        assert!(LearnedPriors::parse("shape 1 2.0\nlast 3 1.5\n# note").is_ok());
        assert_eq!(LearnedPriors::parse("shape x 2.0").err(), Some(BadPriorsLine("shape x 2.0".into())));
    }

    #[test]
    fn distances_follow_crazystone() {
        assert_eq!(distance(point(3, 3), None), 0);
        assert_eq!(distance(point(3, 3), Some(point(4, 3))), 2);
        assert_eq!(distance(point(3, 3), Some(point(4, 4))), 3);
        assert_eq!(distance(point(3, 3), Some(point(5, 4))), 5);
        assert_eq!(distance(point(0, 0), Some(point(18, 18))), MAX_DISTANCE);
    }
}
