//! Ladder reading: whether a string in atari that runs is caught by an unbroken chain of ataris.
//!
//! Light playouts cannot see a ladder: running out of one looks like saving a string, and starting
//! one looks like a plain atari. A short reading fixes both in the tree priors: never run from a
//! working ladder, prefer the atari that starts one. The reader is the usual narrow, linear one on
//! a single scratch board: the defender extends (or escapes if it can capture an attacking string
//! in atari); the attacker answers with the atari on the liberty that leaves the fewest liberties
//! to the next extension, never with a stone that could itself be captured.

use crate::atari::self_atari;
use crate::board::{neighbors, Board, Cell};

/// Defender moves read per question; past it the defender is taken to escape. A ladder across a
/// 25×25 board needs about 50.
const STEP_BUDGET: u32 = 100;

/// Whether the string at `s` (in atari) is lost even if its owner moves first: extending is
/// answered by ataris that hold it until it dies, and no attacking string is in atari.
#[must_use]
pub fn escape_fails(board: &Board, s: usize) -> bool {
    debug_assert!(board.in_atari(s));
    let liberty = board.atari_liberty(s);
    // Most extensions reach open space: settle those without copying the board.
    if can_capture_attacker(board, s) || extension_liberties(board, liberty, liberty, board.cell(s)) >= 3 {
        return false;
    }
    read_ladder(&mut board.clone(), s)
}

/// Whether the attacker playing at `p`, a liberty of the string at `s`, catches that string in a
/// ladder (it is lost even though its owner moves next). False unless `s` has exactly two
/// liberties.
#[must_use]
pub fn atari_captures(board: &Board, p: usize, s: usize) -> bool {
    let defender = board.cell(s);
    let attacker = defender.opponent();
    let Some([first, second]) = board.liberties_up_to_two(s).filter(|[a, b]| a != b) else {
        return false;
    };
    if board.ko_point() == Some(p) || self_atari(board, p, attacker).0 {
        return false;
    }
    let extension = if first == p { second } else { first };
    if extension_liberties(board, extension, p, defender) >= 3 {
        return false;
    }
    let mut after = board.clone();
    after.play(p, attacker);
    after.cell(s) == Cell::Empty || (after.in_atari(s) && read_ladder(&mut after, s))
}

/// Reads the ladder on `board` with the string at `s` in atari and its owner to move; true if the
/// string dies.
fn read_ladder(board: &mut Board, s: usize) -> bool {
    let defender = board.cell(s);
    let attacker = defender.opponent();
    for _ in 0..STEP_BUDGET {
        if can_capture_attacker(board, s) {
            return false;
        }
        let liberty = board.atari_liberty(s);
        if board.ko_point() == Some(liberty) || board.is_suicide(liberty, defender) {
            return true;
        }
        board.play(liberty, defender);
        let mut liberties = [0usize; 3];
        match board.liberties(s, &mut liberties) {
            0 | 1 => return true,
            2 => {}
            _ => return false,
        }
        let Some(atari) = best_atari(board, [liberties[0], liberties[1]], attacker) else {
            return false;
        };
        board.play(atari, attacker);
        if !board.in_atari(s) {
            return false; // the atari captured stones next to the string
        }
    }
    false
}

/// Whether some attacking string next to the string at `s` is in atari (the defender takes it).
fn can_capture_attacker(board: &Board, s: usize) -> bool {
    let attacker = board.cell(s).opponent();
    board
        .string_members(s)
        .any(|stone| neighbors(stone).into_iter().any(|n| board.cell(n) == attacker && board.in_atari(n)))
}

/// Of the two liberties of the defending string, the one the attacker should play: the extension
/// left on the other must reach at most two liberties, and the atari stone must not be capturable.
fn best_atari(board: &Board, liberties: [usize; 2], attacker: Cell) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (atari, extension) in [(liberties[0], liberties[1]), (liberties[1], liberties[0])] {
        if board.ko_point() == Some(atari) || self_atari(board, atari, attacker).0 {
            continue;
        }
        let gained = extension_liberties(board, extension, atari, attacker.opponent());
        if gained <= 2 && best.is_none_or(|(_, fewest)| gained < fewest) {
            best = Some((atari, gained));
        }
    }
    best.map(|(atari, _)| atari)
}

/// Liberties (counted up to 3) of the string `defender` makes by playing `extension` once the
/// attacker holds `atari`: the empty neighbours of `extension` and the liberties of the other
/// defending strings it joins, without `atari` and `extension` themselves.
fn extension_liberties(board: &Board, extension: usize, atari: usize, defender: Cell) -> usize {
    let mut found = [0usize; 3];
    let mut count = 0;
    let mut add = |q: usize| {
        if q != extension && q != atari && !found[..count].contains(&q) && count < 3 {
            found[count] = q;
            count += 1;
        }
    };
    for n in neighbors(extension) {
        match board.cell(n) {
            Cell::Empty => add(n),
            cell if cell == defender => match board.liberties_up_to_two(n) {
                Some(found) => found.into_iter().for_each(&mut add),
                None => {
                    let mut own = [0usize; 4];
                    let own_count = board.liberties(n, &mut own);
                    own[..own_count].iter().for_each(|&q| add(q));
                }
            },
            _ => {}
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{board_from_rows, point};

    /// White at (3, 3) in atari, with a ladder up and to the right as its only way out.
    const LADDER: [&str; 9] = [
        ".........",
        ".........",
        "...X.....",
        "..XO.....",
        "...XX....",
        ".........",
        ".........",
        ".........",
        ".........",
    ];

    #[test]
    fn a_stone_running_across_an_empty_board_is_caught() {
        let board = board_from_rows(&LADDER);
        let stone = point(3, 3);
        assert!(board.in_atari(stone));
        assert!(escape_fails(&board, stone));
    }

    #[test]
    fn a_ladder_breaker_on_the_diagonal_saves_the_stone() {
        let mut board = board_from_rows(&LADDER);
        board.place_setup_stone(point(6, 1), Cell::White);
        assert!(!escape_fails(&board, point(3, 3)));
    }

    #[test]
    fn a_stone_with_open_space_gets_out() {
        // White C3 has one liberty (D3); extending there reaches three liberties.
        let board = board_from_rows(&[".....", "..X..", ".XO..", "..X..", "....."]);
        assert!(board.in_atari(point(2, 2)));
        assert!(!escape_fails(&board, point(2, 2)));
    }

    #[test]
    fn the_atari_that_starts_a_ladder_is_found() {
        // White at (3, 3) has two liberties; either atari drives it into a ladder on an empty board.
        let board = board_from_rows(&[
            ".........",
            ".........",
            "...X.....",
            "..XO.....",
            "....X....",
            ".........",
            ".........",
            ".........",
            ".........",
        ]);
        let stone = point(3, 3);
        assert!(atari_captures(&board, point(3, 4), stone) || atari_captures(&board, point(4, 3), stone));
        assert!(!atari_captures(&board, point(2, 4), stone), "a point that is not a liberty ataris nothing");
    }
}
