//! The input planes of the move-prediction network ([`crate::network`]): what the network sees of
//! a position, one bit per plane and point, from the side to move's point of view.
//!
//! One function, [`planes`], reports the set bits; inference turns them into floats and the
//! training-data writer (`examples/policy_data.rs`) packs them into bytes, so the two can never
//! see different features.

use crate::atari::self_atari;
use crate::board::{coordinates, point, Cell, POINTS};
use crate::ladder;
use crate::position::Position;

/// How many planes [`planes`] reports.
pub const PLANES: usize = 23;

/// Moves of the history shown (the last move first), each in a plane of its own.
pub const HISTORY: usize = 4;

/// The plane numbers, in order.
pub mod plane {
    /// Every point of the board (the network's padding is zero, so this marks the edge).
    pub const ON_BOARD: usize = 0;
    /// The side to move's stones.
    pub const OWN: usize = 1;
    /// The opponent's stones.
    pub const OPPONENT: usize = 2;
    /// Empty points.
    pub const EMPTY: usize = 3;
    /// The mover's strings with 1, 2, 3 and 4 or more liberties (four planes from here).
    pub const OWN_LIBERTIES: usize = 4;
    /// The opponent's strings with 1, 2, 3 and 4 or more liberties (four planes from here).
    pub const OPPONENT_LIBERTIES: usize = 8;
    /// The stones of the last [`super::HISTORY`] moves, the latest first (passes leave a plane empty).
    pub const HISTORY: usize = 12;
    /// The point simple ko forbids.
    pub const KO: usize = 16;
    /// The mover's strings in atari that cannot run: a ladder catches them.
    pub const OWN_LADDERED: usize = 17;
    /// The opponent's strings in atari that cannot run.
    pub const OPPONENT_LADDERED: usize = 18;
    /// Points where the mover's atari on a two-liberty string catches it in a ladder.
    pub const LADDER_ATARI: usize = 19;
    /// Points where the mover may play and that are not its own eyes.
    pub const SENSIBLE: usize = 20;
    /// Points where the mover's stone would be in atari without capturing (self-atari).
    pub const SELF_ATARI: usize = 21;
    /// Every point when Black is to move (komi favours White).
    pub const BLACK_TO_MOVE: usize = 22;
}

/// The network's number for the point `p` of a board of `size`: `y · size + x`, the board
/// without its border, row by row.
#[must_use]
pub fn plane_index(size: usize, p: usize) -> usize {
    let (x, y) = coordinates(p);
    y * size + x
}

/// Calls `set(plane, index)` for every set bit of the input planes of `position` with its side
/// to move to play, where `index` is [`plane_index`]. Each (plane, index) is reported at most once.
pub fn planes(position: &Position, mut set: impl FnMut(usize, usize)) {
    let board = position.board();
    let size = board.size();
    let own = board.to_move();
    let black = own == Cell::Black;
    let mut liberties = [0usize; 4];
    // Each string's liberty plane and laddered plane, worked out once at its head.
    let mut string_planes = [None::<(usize, Option<usize>)>; POINTS];
    for y in 0..size {
        for x in 0..size {
            let p = point(x, y);
            let i = y * size + x;
            set(plane::ON_BOARD, i);
            if black {
                set(plane::BLACK_TO_MOVE, i);
            }
            let cell = board.cell(p);
            if cell == Cell::Empty {
                set(plane::EMPTY, i);
                if position.is_legal_point(p) && !board.is_eye(p, own) {
                    set(plane::SENSIBLE, i);
                    // A capture counts as liberties there, so this is a self-atari that captures nothing.
                    if self_atari(board, p, own).0 {
                        set(plane::SELF_ATARI, i);
                    }
                }
                continue;
            }
            let mine = cell == own;
            set(if mine { plane::OWN } else { plane::OPPONENT }, i);
            let head = board.string_head(p);
            let (liberty_plane, laddered) = *string_planes[head].get_or_insert_with(|| {
                let count = board.liberties(p, &mut liberties);
                if !mine && count == 2 {
                    for &liberty in &liberties[..2] {
                        if ladder::atari_captures(board, liberty, p) {
                            set(plane::LADDER_ATARI, plane_index(size, liberty));
                        }
                    }
                }
                let base = if mine { plane::OWN_LIBERTIES } else { plane::OPPONENT_LIBERTIES };
                let laddered = (count == 1 && ladder::escape_fails(board, p)).then_some(if mine {
                    plane::OWN_LADDERED
                } else {
                    plane::OPPONENT_LADDERED
                });
                (base + count.clamp(1, 4) - 1, laddered)
            });
            set(liberty_plane, i);
            if let Some(laddered) = laddered {
                set(laddered, i);
            }
        }
    }
    // The latest stones, the last move first: a pass leaves its plane empty.
    let moves = position.moves();
    for (back, mv) in moves.iter().rev().take(HISTORY).enumerate() {
        if let Some(p) = mv.point().filter(|&p| board.cell(p) != Cell::Empty) {
            set(plane::HISTORY + back, plane_index(size, p));
        }
    }
    if let Some(ko) = board.ko_point() {
        set(plane::KO, plane_index(size, ko));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Rules;
    use tessera_core::Game;

    fn collect(position: &Position) -> Vec<(usize, usize)> {
        let mut bits = Vec::new();
        planes(position, |plane, index| bits.push((plane, index)));
        bits
    }

    #[test]
    fn an_empty_board_shows_only_the_board_the_empty_points_and_the_mover() {
        let position = Position::new(9, Rules::CHINESE);
        let bits = collect(&position);
        for plane in [plane::ON_BOARD, plane::EMPTY, plane::SENSIBLE, plane::BLACK_TO_MOVE] {
            assert_eq!(bits.iter().filter(|bit| bit.0 == plane).count(), 81, "plane {plane}");
        }
        assert_eq!(bits.len(), 4 * 81);
    }

    #[test]
    fn stones_liberties_history_and_ladders_are_seen_from_the_mover() {
        // Black C3 (index 2·9+2), White D3 next to it; Black to move.
        let mut position = Position::new(9, Rules::CHINESE);
        let c3 = point(2, 6);
        let d3 = point(3, 6);
        position.play(crate::Move::at(c3));
        position.play(crate::Move::at(d3));
        let bits = collect(&position);
        let at = |p: usize| plane_index(9, p);
        assert!(bits.contains(&(plane::OWN, at(c3))));
        assert!(bits.contains(&(plane::OPPONENT, at(d3))));
        assert!(bits.contains(&(plane::OWN_LIBERTIES + 2, at(c3))), "C3 has three liberties");
        assert!(bits.contains(&(plane::OPPONENT_LIBERTIES + 2, at(d3))));
        assert!(bits.contains(&(plane::HISTORY, at(d3))), "the last move");
        assert!(bits.contains(&(plane::HISTORY + 1, at(c3))), "the move before");
        assert!(!bits.iter().any(|bit| bit.0 == plane::SENSIBLE && bit.1 == at(c3)), "occupied");
        // White to move after a black pass: the planes turn around.
        position.play(crate::Move::PASS);
        let bits = collect(&position);
        assert!(bits.contains(&(plane::OWN, at(d3))));
        assert!(!bits.iter().any(|bit| bit.0 == plane::BLACK_TO_MOVE));
        assert!(bits.contains(&(plane::HISTORY + 1, at(d3))) && !bits.iter().any(|bit| bit.0 == plane::HISTORY));
    }

    #[test]
    fn the_ko_point_and_self_ataris_are_marked() {
        // (x, y from the top-left corner) White's stone at (1, 1) is taken when Black plays
        // (2, 1), and White's stones at (2, 0), (3, 1) and (2, 2) leave the capturing stone one
        // liberty: a ko at (1, 1). A white stone in the far corner (8, 8), beside Black's (7, 8),
        // would have one liberty left.
        let mut board = Board::new(9);
        for black in [point(1, 0), point(0, 1), point(1, 2), point(7, 8)] {
            board.place_setup_stone(black, Cell::Black);
        }
        for white in [point(1, 1), point(2, 0), point(3, 1), point(2, 2)] {
            board.place_setup_stone(white, Cell::White);
        }
        let mut position = Position::from_board(board, Rules::CHINESE);
        position.play(crate::Move::at(point(2, 1)));
        let bits = collect(&position);
        let marked = |plane: usize| bits.iter().filter(|bit| bit.0 == plane).map(|bit| bit.1).collect::<Vec<_>>();
        assert_eq!(marked(plane::KO), [plane_index(9, point(1, 1))]);
        assert!(!marked(plane::SENSIBLE).contains(&plane_index(9, point(1, 1))), "ko forbids it");
        let self_ataris = marked(plane::SELF_ATARI);
        assert!(self_ataris.contains(&plane_index(9, point(8, 8))), "{self_ataris:?}");
        assert!(!self_ataris.contains(&plane_index(9, point(4, 4))));
        // A white stone at (1, 1) would capture, and the ko forbids it anyway: not counted.
        assert!(!self_ataris.contains(&plane_index(9, point(1, 1))));
    }

    #[test]
    fn a_ladder_atari_and_a_laddered_string_are_marked() {
        // A white stone at D6 (x 3, y 3) beside black stones left of it, above it and on its
        // lower right: its two liberties are E6 and D5, and an atari on either starts a ladder
        // with no breaker. The plane marks exactly the ataris the ladder reader says catch it.
        let mut board = Board::new(9);
        let white = point(3, 3);
        board.place_setup_stone(white, Cell::White);
        for black in [point(2, 3), point(3, 2), point(4, 4)] {
            board.place_setup_stone(black, Cell::Black);
        }
        let position = Position::from_board(board.clone(), Rules::CHINESE);
        let mut ladder_points = Vec::new();
        planes(&position, |plane, index| {
            if plane == plane::LADDER_ATARI {
                ladder_points.push(index);
            }
        });
        let expected: Vec<usize> = [point(4, 3), point(3, 4)]
            .into_iter()
            .filter(|&p| ladder::atari_captures(&board, p, white))
            .map(|p| plane_index(9, p))
            .collect();
        assert!(!expected.is_empty(), "some atari catches the stone");
        ladder_points.sort_unstable();
        assert_eq!(ladder_points, expected);
        // After Black's working atari, White's stone is laddered: White to move sees it as its own.
        let mut position = position;
        position.play(crate::Move::at(point(4, 3)));
        let bits = collect(&position);
        let at = |x: usize, y: usize| y * 9 + x;
        assert!(ladder::escape_fails(position.board(), white));
        assert_eq!(
            bits.iter().filter(|bit| bit.0 == plane::OWN_LADDERED).collect::<Vec<_>>(),
            [&(plane::OWN_LADDERED, at(3, 3))]
        );
        assert!(!bits.iter().any(|bit| bit.0 == plane::OPPONENT_LADDERED));
    }
}
