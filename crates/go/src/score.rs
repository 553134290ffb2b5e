//! Area scoring (Tromp-Taylor / Chinese) and who owns each point by it, who owns a point after a
//! playout, strings in seki: on the board alone, below the position (which scores a finished game
//! by area). The search averages the playouts' owners ([`crate::playout`]); the referee's judgement
//! of dead stones averages its own playouts' ([`crate::life`]).

use crate::atari::self_atari;
use crate::board::{neighbors, Board, Cell, POINTS};

/// Points of Black and of White by area: stones plus empty regions that reach one colour only.
#[must_use]
pub fn area_score(board: &Board) -> (u32, u32) {
    let mut area = [0u32; 2];
    for p in board.points() {
        if let color @ (Cell::Black | Cell::White) = board.cell(p) {
            area[color.index()] += 1;
        }
    }
    for_each_empty_region(board, |region, owner| match owner {
        1 => area[0] += region.len() as u32,
        -1 => area[1] += region.len() as u32,
        _ => {}
    });
    (area[0], area[1])
}

/// Who owns each point by area, as [`area_score`] counts it: +1 Black, -1 White, 0 neither
/// (an empty region touching both colours or none), indexed by point.
#[must_use]
pub fn area_owners(board: &Board) -> [i8; POINTS] {
    let mut owners = [0i8; POINTS];
    for p in board.points() {
        owners[p] = match board.cell(p) {
            Cell::Black => 1,
            Cell::White => -1,
            _ => 0,
        };
    }
    for_each_empty_region(board, |region, owner| {
        for &q in region {
            owners[usize::from(q)] = owner;
        }
    });
    owners
}

/// Calls `visit` with every empty region of `board` (its points, connected through empty points)
/// and the colour it alone touches: +1 Black, -1 White, 0 both or neither.
fn for_each_empty_region(board: &Board, mut visit: impl FnMut(&[u16], i8)) {
    let mut seen = [false; POINTS];
    // The region found so far, also the queue of points whose neighbours are still to look at.
    let mut region = [0u16; POINTS];
    for p in board.points() {
        if board.cell(p) != Cell::Empty || seen[p] {
            continue;
        }
        let (mut size, mut next, mut touches_black, mut touches_white) = (1, 0, false, false);
        region[0] = p as u16;
        seen[p] = true;
        while next < size {
            let q = usize::from(region[next]);
            next += 1;
            for n in neighbors(q) {
                match board.cell(n) {
                    Cell::Empty if !seen[n] => {
                        seen[n] = true;
                        region[size] = n as u16;
                        size += 1;
                    }
                    Cell::Black => touches_black = true,
                    Cell::White => touches_white = true,
                    _ => {}
                }
            }
        }
        visit(&region[..size], i8::from(touches_black && !touches_white) - i8::from(touches_white && !touches_black));
    }
}

/// Who owns each point at the end of a playout: +1 Black, -1 White, 0 neither. Empty points count
/// for the colour of all their neighbours (after a playout every empty point is an eye or dame).
pub fn playout_owner(board: &Board, p: usize) -> i8 {
    match board.cell(p) {
        Cell::Black => 1,
        Cell::White => -1,
        Cell::Empty => {
            let (mut black, mut white) = (false, false);
            for n in neighbors(p) {
                match board.cell(n) {
                    Cell::Black => black = true,
                    Cell::White => white = true,
                    _ => {}
                }
            }
            i8::from(black && !white) - i8::from(white && !black)
        }
        Cell::Border => 0,
    }
}

/// The strings of `board`, each once: its colour and its stones.
pub(crate) fn strings(board: &Board) -> impl Iterator<Item = (Cell, Vec<usize>)> + '_ {
    let mut done = [false; POINTS];
    board.points().filter_map(move |p| {
        let color = board.cell(p);
        if !matches!(color, Cell::Black | Cell::White) || done[p] {
            return None;
        }
        let members: Vec<usize> = board.string_members(p).collect();
        members.iter().for_each(|&q| done[q] = true);
        Some((color, members))
    })
}

/// The board with `dead` stones taken off (their colour's opponent gets the area by scoring).
#[must_use]
pub fn without_stones(board: &Board, dead: &[usize]) -> Board {
    let mut cleaned = Board::new(board.size());
    for p in board.points() {
        let color = board.cell(p);
        if matches!(color, Cell::Black | Cell::White) && dead.binary_search(&p).is_err() {
            cleaned.place_setup_stone(p, color);
        }
    }
    cleaned.set_to_move(board.to_move());
    cleaned
}

/// Stones alive in seki on `board` (dead stones already taken off): strings with at most one eye
/// whose other liberties are all shared points that neither colour can fill without putting its
/// own string in atari. Sorted.
#[must_use]
pub fn seki_stones(board: &Board) -> Vec<usize> {
    let mut seki = Vec::new();
    for (color, members) in strings(board) {
        let mut liberties = [0usize; 8];
        let count = board.liberties(members[0], &mut liberties);
        if count == liberties.len() {
            continue; // far too many liberties for a seki
        }
        let is_shared = |q: usize| {
            [color, color.opponent()]
                .into_iter()
                .all(|mover| self_atari(board, q, mover).0 && !board.captures_at(q, mover))
        };
        let eyes = liberties[..count].iter().filter(|&&q| board.is_eye(q, color)).count();
        let shared = liberties[..count].iter().filter(|&&q| !board.is_eye(q, color) && is_shared(q)).count();
        if eyes <= 1 && shared > 0 && eyes + shared == count {
            seki.extend(members);
        }
    }
    seki.sort_unstable();
    seki
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{board_from_rows, point};

    #[test]
    fn area_counts_stones_and_single_colour_regions() {
        let mut board = Board::new(5);
        for y in 0..5 {
            board.place_setup_stone(point(2, y), Cell::Black);
        }
        board.place_setup_stone(point(3, 0), Cell::White);
        assert_eq!(area_score(&board), (15, 1));
        let owners = area_owners(&board);
        assert_eq!((owners[point(0, 0)], owners[point(2, 0)], owners[point(4, 4)]), (1, 1, 0));
        assert_eq!((owners[point(3, 0)], owners[point(4, 0)]), (-1, 0), "White's stone; dame beside it");
    }

    #[test]
    fn strings_sharing_liberties_that_neither_side_can_fill_are_in_seki() {
        // Black's upper string and White's string each have one eye and share C5, which either
        // colour fills only by putting itself in atari. Black's lower wall has open liberties.
        let board = board_from_rows(&[".X.O.", "XXXOO", "OOOOO", "XXXXX", "....."]);
        let seki = seki_stones(&board);
        let expected_black = [point(1, 0), point(0, 1), point(1, 1), point(2, 1)];
        assert_eq!(seki.len(), 4 + 8, "{seki:?}");
        assert!(expected_black.iter().all(|p| seki.contains(p)));
        assert!(!seki.contains(&point(0, 3)), "the lower wall is simply alive");
    }
}
