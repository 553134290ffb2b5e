//! Handicap stones: GNU Go's fixed placement (`fixed_handicap`) and a free placement that spreads
//! stones out (`place_free_handicap`).

use crate::board::{point, Board, Cell};

/// Why handicap stones could not be placed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// The number of stones is not possible on this board.
    #[error("invalid handicap")]
    Invalid,
    /// Stones are already on the board.
    #[error("board not empty")]
    BoardNotEmpty,
}

/// The most fixed handicap stones a `size` board takes (as GNU Go: 9 on odd boards from 9×9, 4 on
/// other boards from 7×7, none below).
#[must_use]
pub fn max_fixed_handicap(size: usize) -> usize {
    if size % 2 == 1 && size >= 9 {
        9
    } else if size >= 7 {
        4
    } else {
        0
    }
}

/// The points of GNU Go's fixed handicap of `stones` on a `size` board, row by row from the top.
///
/// # Errors
/// [`HandicapError::Invalid`] for fewer than 2 or more than [`max_fixed_handicap`] stones.
pub fn fixed_handicap_points(size: usize, stones: usize) -> Result<Vec<usize>, HandicapError> {
    if stones < 2 || stones > max_fixed_handicap(size) {
        return Err(HandicapError::Invalid);
    }
    let three = if size > 11 { 3 } else { 2 };
    let mid = size / 2;
    let far = size - three - 1;
    // GNU Go's order (row, column): corners, then sides for 6–9, then the centre.
    let places =
        [(three, far), (far, three), (three, three), (far, far), (mid, three), (mid, far), (three, mid), (far, mid)];
    let mut points = Vec::with_capacity(stones);
    let mut remaining = stones;
    if stones % 2 == 1 && stones >= 5 {
        points.push(point(mid, mid));
        remaining -= 1;
    }
    points.extend(places[..remaining].iter().map(|&(row, column)| point(column, row)));
    points.sort_unstable();
    Ok(points)
}

/// Points for a free handicap of `stones`: the fixed pattern where it exists, else spread out by
/// taking, one at a time, the point on the third or fourth line farthest from the stones so far.
///
/// # Errors
/// [`HandicapError::Invalid`] for fewer than 2 stones or more than the board can hold minus one.
pub fn free_handicap_points(board: &Board, stones: usize) -> Result<Vec<usize>, HandicapError> {
    let size = board.size();
    if stones < 2 || stones >= size * size {
        return Err(HandicapError::Invalid);
    }
    if let Ok(points) = fixed_handicap_points(size, stones) {
        return Ok(points);
    }
    let line = |p: usize| {
        let (x, y) = (p % crate::board::STRIDE - 1, p / crate::board::STRIDE - 1);
        x.min(y).min(size - 1 - x).min(size - 1 - y)
    };
    let mut chosen: Vec<usize> = Vec::with_capacity(stones);
    while chosen.len() < stones {
        let best = board.points().filter(|p| !chosen.contains(p) && board.cell(*p) == Cell::Empty).max_by_key(|&p| {
            let distance = chosen
                .iter()
                .map(|&q| {
                    let (dx, dy) = ((p % 27).abs_diff(q % 27), (p / 27).abs_diff(q / 27));
                    dx + dy
                })
                .min()
                .unwrap_or(usize::MAX);
            let good_line = usize::from(line(p) >= 2 && line(p) <= 3);
            (distance.min(size), good_line, usize::MAX - p)
        });
        match best {
            Some(p) => chosen.push(p),
            None => return Err(HandicapError::Invalid),
        }
    }
    chosen.sort_unstable();
    Ok(chosen)
}

/// Puts black stones on `points` of an empty board and gives White the move.
///
/// # Errors
/// [`HandicapError::BoardNotEmpty`] when the board has stones.
pub fn place_handicap(board: &mut Board, points: &[usize]) -> Result<(), HandicapError> {
    if board.points().any(|p| board.cell(p) != Cell::Empty) {
        return Err(HandicapError::BoardNotEmpty);
    }
    for &p in points {
        if board.cell(p) == Cell::Empty {
            board.place_setup_stone(p, Cell::Black);
        }
    }
    board.set_to_move(Cell::White);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::format_vertex;
    use crate::position::Move;

    fn names(size: usize, points: &[usize]) -> String {
        points.iter().map(|&p| format_vertex(size, Move::at(p))).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn fixed_handicap_matches_gnu_go() {
        // GNU Go 3.8: `boardsize 19`, `fixed_handicap 9` answers these, row by row from the top.
        assert_eq!(names(19, &fixed_handicap_points(19, 9).unwrap()), "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4");
        assert_eq!(names(19, &fixed_handicap_points(19, 2).unwrap()), "Q16 D4");
        assert_eq!(names(19, &fixed_handicap_points(19, 5).unwrap()), "D16 Q16 K10 D4 Q4");
        assert_eq!(names(9, &fixed_handicap_points(9, 3).unwrap()), "C7 G7 C3");
        assert_eq!(names(9, &fixed_handicap_points(9, 5).unwrap()), "C7 G7 E5 C3 G3");
        assert_eq!(names(19, &fixed_handicap_points(19, 7).unwrap()), "D16 Q16 D10 K10 Q10 D4 Q4");
        assert_eq!(names(7, &fixed_handicap_points(7, 4).unwrap()), "C5 E5 C3 E3");
        assert_eq!(fixed_handicap_points(19, 10), Err(HandicapError::Invalid));
        assert_eq!(fixed_handicap_points(8, 5), Err(HandicapError::Invalid));
        assert_eq!(fixed_handicap_points(5, 2), Err(HandicapError::Invalid));
    }

    #[test]
    fn free_handicap_spreads_stones() {
        let board = Board::new(19);
        let points = free_handicap_points(&board, 12).unwrap();
        assert_eq!(points.len(), 12);
        let mut board = board;
        place_handicap(&mut board, &points).unwrap();
        assert_eq!(board.to_move(), Cell::White);
        assert_eq!(place_handicap(&mut board, &points), Err(HandicapError::BoardNotEmpty));
    }
}
