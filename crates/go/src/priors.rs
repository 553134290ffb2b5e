//! Tree priors: how much of the search each new move gets before its playouts speak.
//!
//! Captures and atari escapes come first (an escape into a working ladder last), then ataris that
//! start a ladder, 3×3 shapes and the points around the last move, third and fourth lines; first
//! lines and self-ataris last. On boards from 9×9 up, the shape, line and distance weights are
//! the ones learned from GNU Go's games ([`crate::learned`]) instead of the hand-made ones kept
//! for smaller boards. On big boards the opening adds its own shape: light playouts cannot
//! tell a corner enclosure from a second-line crawl in an empty area (and they overrate the
//! centre), so while the board is still mostly empty the tree only plays open areas on the third
//! and fourth lines, corners first.

use crate::atari::self_atari;
use crate::board::{coordinates, diagonals, neighbors, point, Board, Cell};
use crate::ladder;
use crate::learned::LearnedPriors;
use crate::pattern;

/// Smallest board on which the opening shape applies (9×9 openings are all fighting).
const OPENING_MIN_SIZE: usize = 13;
/// Half-width of the square around a point that must hold no stone for it to be "open".
const OPEN_RADIUS: usize = 3;

/// Smallest board on which the learned priors replace the hand-made shape and distance weights
/// (on 9×9 they won 64 of 100 self-play games against the hand-made ones at 1000 playouts a move).
const LEARNED_MIN_SIZE: usize = 9;

/// What the priors of one node share: the board, the side to move, the last two moves and the phase.
pub struct PriorContext<'a> {
    board: &'a Board,
    color: Cell,
    last: Option<usize>,
    /// The mover's own previous move.
    own_last: Option<usize>,
    size: usize,
    /// A big board still mostly empty: the opening shape applies.
    opening: bool,
}

impl<'a> PriorContext<'a> {
    /// The context for the side to move on `board`, whose last move was at `last` and whose own
    /// move before that at `own_last` (`None`: a pass, or no such move).
    #[must_use]
    pub fn new(board: &'a Board, last: Option<usize>, own_last: Option<usize>) -> Self {
        let size = board.size();
        let stones = size * size - board.empty_points().len();
        let opening = size >= OPENING_MIN_SIZE && stones < size * size / 6;
        PriorContext { board, color: board.to_move(), last, own_last, size, opening }
    }

    /// A positive weight for a stone at the empty point `p` (the searcher normalises them).
    #[must_use]
    pub fn point_prior(&self, p: usize) -> f32 {
        let board = self.board;
        let mut weight = self.tactical_weight(p);
        let (atari, stones) = self_atari(board, p, self.color);
        if atari && !board.captures_at(p, self.color) {
            weight *= if stones >= 2 { 0.05 } else { 0.3 };
        }
        if self.size >= LEARNED_MIN_SIZE {
            let learned = LearnedPriors::shipped().weight(board, p, self.color, self.last, self.own_last);
            return weight * learned * self.opening_weight(p);
        }
        if let Some(last) = self.last {
            if neighbors(last).contains(&p) || diagonals(last).contains(&p) {
                weight *= 2.0;
            }
        }
        if pattern::matches(board, p) {
            weight *= 3.0;
        }
        if self.size >= 9 {
            weight *= self.line_weight(p) * self.opening_weight(p);
        }
        weight
    }

    /// Whether the tree searches a stone at `p` at all: in the opening of a big board, a point in
    /// an open area must be on the third or fourth line (light playouts overrate the centre and
    /// cannot see why an open second line is slow).
    #[must_use]
    pub fn tree_allows(&self, p: usize) -> bool {
        if !self.opening {
            return true;
        }
        let (x_line, y_line) = self.edge_distances(p);
        (2..=3).contains(&x_line.min(y_line)) || !self.is_open(p)
    }

    /// 1 plus the bonuses for captures, escapes and ataris that start a ladder; an escape into a
    /// working ladder cuts the weight instead.
    fn tactical_weight(&self, p: usize) -> f32 {
        let board = self.board;
        let (color, enemy) = (self.color, self.color.opponent());
        let mut weight = 1.0;
        let mut runs_into_ladder = false;
        let mut seen = [0usize; 4];
        for (index, n) in neighbors(p).into_iter().enumerate() {
            let cell = board.cell(n);
            if cell != color && cell != enemy {
                continue;
            }
            let head = board.string_head(n);
            if seen[..index].contains(&head) {
                continue;
            }
            seen[index] = head;
            let stones = board.string_stones(n).min(10) as f32;
            if board.in_atari(n) {
                if cell == enemy {
                    weight += 4.0 + stones;
                } else if ladder::escape_fails(board, n) {
                    runs_into_ladder = true;
                } else {
                    weight += 3.0 + stones;
                }
            } else if cell == enemy && ladder::atari_captures(board, p, n) {
                weight += 2.0 + stones;
            }
        }
        if runs_into_ladder {
            weight * 0.1
        } else {
            weight
        }
    }

    /// Third and fourth lines over the second and first.
    fn line_weight(&self, p: usize) -> f32 {
        let (x_line, y_line) = self.edge_distances(p);
        match x_line.min(y_line) {
            0 => 0.3,
            1 => 0.8,
            2 | 3 => 1.3,
            _ => 1.0,
        }
    }

    /// In the opening of a big board, a third- or fourth-line point of an open area doubles, and
    /// the 3-3, 3-4 and 4-4 points double again. (The other points of open areas never reach
    /// here: [`PriorContext::tree_allows`].)
    fn opening_weight(&self, p: usize) -> f32 {
        let (x_line, y_line) = self.edge_distances(p);
        if !(self.opening && (2..=3).contains(&x_line.min(y_line)) && self.is_open(p)) {
            return 1.0;
        }
        let corner_point = (2..=3).contains(&x_line.max(y_line));
        if corner_point {
            4.0
        } else {
            2.0
        }
    }

    /// Distances of `p` from the nearest vertical and horizontal edge (0 on the first line).
    fn edge_distances(&self, p: usize) -> (usize, usize) {
        let (x, y) = coordinates(p);
        (x.min(self.size - 1 - x), y.min(self.size - 1 - y))
    }

    /// Whether no stone stands within [`OPEN_RADIUS`] of `p` (Chebyshev distance).
    fn is_open(&self, p: usize) -> bool {
        let (x, y) = coordinates(p);
        let size = self.size;
        let rows = y.saturating_sub(OPEN_RADIUS)..=(y + OPEN_RADIUS).min(size - 1);
        rows.into_iter().all(|row| {
            let columns = x.saturating_sub(OPEN_RADIUS)..=(x + OPEN_RADIUS).min(size - 1);
            columns.into_iter().all(|column| self.board.cell(point(column, row)) == Cell::Empty)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_big_board_prefers_corner_points_to_edges_and_centre() {
        let board = Board::new(19);
        let context = PriorContext::new(&board, None, None);
        let corner = context.point_prior(point(3, 3)); // D16, the 4-4 point
        let komoku = context.point_prior(point(2, 3)); // C16, a 3-4 point
        let side = context.point_prior(point(9, 3)); // K16, fourth line on the side
        let centre = context.point_prior(point(9, 9));
        let second_line = context.point_prior(point(9, 1));
        assert!(corner > side && komoku > side, "{corner} {komoku} {side}");
        // (Open centre and second-line points are not even searched here: `tree_allows`.)
        assert!(side > centre && side > second_line, "{side} {centre} {second_line}");
    }

    #[test]
    fn the_opening_shape_stays_off_small_boards_and_crowded_areas() {
        let board = Board::new(9);
        let context = PriorContext::new(&board, None, None);
        assert_eq!(context.point_prior(point(2, 2)), context.point_prior(point(2, 4)), "9×9: third lines alike");
        let mut board = Board::new(19);
        board.place_setup_stone(point(4, 4), Cell::Black);
        let context = PriorContext::new(&board, None, None);
        let near = context.point_prior(point(2, 3));
        let far = context.point_prior(point(15, 3));
        assert!(far > near, "an empty corner before an occupied one: {far} {near}");
        assert!(context.tree_allows(point(15, 3)) && context.tree_allows(point(5, 1)), "fourth line; near a stone");
        assert!(
            !context.tree_allows(point(9, 9)) && !context.tree_allows(point(15, 1)),
            "open centre; open second line"
        );
        assert!(PriorContext::new(&Board::new(9), None, None).tree_allows(point(4, 4)), "9×9 keeps every move");
    }

    #[test]
    fn big_boards_answer_near_the_last_move_by_the_learned_weights() {
        let mut board = Board::new(19);
        board.place_setup_stone(point(9, 9), Cell::Black);
        board.place_setup_stone(point(10, 9), Cell::White);
        let context = PriorContext::new(&board, Some(point(10, 9)), Some(point(9, 9)));
        let hane = context.point_prior(point(10, 10));
        let far = context.point_prior(point(5, 5));
        assert!(hane > 3.0 * far, "{hane} {far}");
    }
}
