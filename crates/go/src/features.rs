//! The input planes of the move-prediction network ([`crate::network`]): what the network sees of
//! a position, one bit per plane and point, from the side to move's point of view.
//!
//! One function, [`planes`], reports the set bits; inference turns them into floats and the
//! training-data writer (`examples/policy_data.rs`) packs them into bytes, so the two can never
//! see different features.

use crate::board::{coordinates, point, Board, Cell, POINTS};
use crate::ladder;
use crate::playout::self_atari;
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

/// The latest [`HISTORY`] stones played in `position`, the last move first (`None` for a pass or
/// before the game's start).
#[must_use]
pub fn recent_moves(position: &Position) -> [Option<usize>; HISTORY] {
    let moves = position.moves();
    std::array::from_fn(|back| moves.len().checked_sub(back + 1).and_then(|index| moves[index].point()))
}

/// Calls `set(plane, index)` for every set bit of the input planes of `board` with the side to
/// move to play, where `index = y · size + x` and `recent` are the latest stones
/// ([`recent_moves`]). `legal(p)` says whether the mover may play at the empty point `p` (superko
/// included where the caller knows it). Each (plane, index) is reported at most once.
pub fn planes(
    board: &Board,
    recent: &[Option<usize>; HISTORY],
    legal: impl Fn(usize) -> bool,
    mut set: impl FnMut(usize, usize),
) {
    let size = board.size();
    let own = board.to_move();
    let index = |p: usize| {
        let (x, y) = coordinates(p);
        y * size + x
    };
    let black = own == Cell::Black;
    let mut liberties = [0usize; 4];
    // Per-string answers are computed at the string's head, once.
    let mut string_done = [false; POINTS];
    let mut string_planes = [(0usize, None::<usize>); POINTS];
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
                if legal(p) && !board.is_eye(p, own) {
                    set(plane::SENSIBLE, i);
                    if self_atari(board, p, own).0 && !board.captures_at(p, own) {
                        set(plane::SELF_ATARI, i);
                    }
                }
                continue;
            }
            let mine = cell == own;
            set(if mine { plane::OWN } else { plane::OPPONENT }, i);
            let head = board.string_head(p);
            if !string_done[head] {
                string_done[head] = true;
                let count = board.liberties(p, &mut liberties);
                let base = if mine { plane::OWN_LIBERTIES } else { plane::OPPONENT_LIBERTIES };
                let laddered = (count == 1 && ladder::escape_fails(board, p)).then_some(if mine {
                    plane::OWN_LADDERED
                } else {
                    plane::OPPONENT_LADDERED
                });
                string_planes[head] = (base + count.clamp(1, 4) - 1, laddered);
                if !mine && count == 2 {
                    for &liberty in &liberties[..2] {
                        if ladder::atari_captures(board, liberty, p) {
                            set(plane::LADDER_ATARI, index(liberty));
                        }
                    }
                }
            }
            let (liberty_plane, laddered) = string_planes[head];
            set(liberty_plane, i);
            if let Some(laddered) = laddered {
                set(laddered, i);
            }
        }
    }
    for (back, stone) in recent.iter().enumerate() {
        if let Some(p) = stone.filter(|&p| board.cell(p) != Cell::Empty) {
            set(plane::HISTORY + back, index(p));
        }
    }
    if let Some(ko) = board.ko_point() {
        set(plane::KO, index(ko));
    }
}

/// [`planes`] of `position` as it stands, with its own legality test (superko included).
pub fn position_planes(position: &Position, set: impl FnMut(usize, usize)) {
    planes(position.board(), &recent_moves(position), |p| position.is_legal_point(p), set);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use tessera_core::Game;

    fn collect(position: &Position) -> Vec<(usize, usize)> {
        let mut bits = Vec::new();
        position_planes(position, |plane, index| bits.push((plane, index)));
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
        let at = |p: usize| {
            let (x, y) = coordinates(p);
            y * 9 + x
        };
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
        position_planes(&position, |plane, index| {
            if plane == plane::LADDER_ATARI {
                ladder_points.push(index);
            }
        });
        let expected: Vec<usize> = [point(4, 3), point(3, 4)]
            .into_iter()
            .filter(|&p| ladder::atari_captures(&board, p, white))
            .map(|p| {
                let (x, y) = coordinates(p);
                y * 9 + x
            })
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
