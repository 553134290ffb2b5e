//! Dynamic komi for handicap games (Pachi's "linearly decreasing handicap compensation").
//!
//! In a handicap game nearly every playout ends the same way at first: White, facing several
//! extra black stones, loses almost all of them, and Black wins almost all. A search that sees
//! 2% or 98% everywhere cannot tell good moves from bad ones: as White it plays desperate
//! overplays, as Black it gives points away without noticing. So the playouts judge the result
//! against a higher komi: `HANDICAP_STONE_VALUE` points per handicap stone at the start,
//! shrinking linearly to nothing by a move number that grows with the board. The same shift
//! serves both colours (White then sees a game it can win, Black must keep a margin). Scores
//! reported to the user and the end of the game in the tree use the real komi.

use crate::board::Cell;
use crate::position::Position;

/// Points of komi one handicap stone is worth to the playouts at the start (Pachi uses 7).
pub const HANDICAP_STONE_VALUE: f32 = 7.0;

/// Handicap stones Black received: black stones on the starting board when it holds no white
/// stone, plus black stones White answered only with passes at the start of the move list (a
/// controller without `fixed_handicap` sets handicap stones that way). Fewer than two is none.
#[must_use]
pub fn handicap_stones(position: &Position) -> usize {
    let start = position.start_board();
    let mut black = 0;
    for p in start.points() {
        match start.cell(p) {
            Cell::Black => black += 1,
            Cell::White => return 0,
            _ => {}
        }
    }
    // Moves alternate from the side to move at the start; count black stones until White plays
    // a stone (its passes while Black places stones are the free placement).
    let mut color = start.to_move();
    for mv in position.moves() {
        match (color, mv.is_pass()) {
            (Cell::Black, false) => black += 1,
            (Cell::White, true) | (Cell::Black, true) => {}
            _ => break,
        }
        color = color.opponent();
    }
    if black >= 2 {
        black
    } else {
        0
    }
}

/// Moves after which the compensation is gone: 200 on 19×19 (Pachi's figure), in proportion to
/// the area on other boards.
#[must_use]
pub fn compensation_moves(size: usize) -> usize {
    (size * size * 200).div_ceil(361)
}

/// Extra komi the playouts charge Black at the current move of `position` (0 in even games).
#[must_use]
pub fn extra_komi(position: &Position) -> f32 {
    let stones = handicap_stones(position);
    if stones == 0 {
        return 0.0;
    }
    let end = compensation_moves(position.size());
    let played = position.moves().len().min(end);
    stones as f32 * HANDICAP_STONE_VALUE * (end - played) as f32 / end as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handicap;
    use crate::notation::parse_vertex;
    use crate::rules::Rules;
    use tessera_core::Game;

    #[test]
    fn even_games_get_no_extra_komi() {
        let mut position = Position::new(19, Rules::CHINESE);
        assert_eq!(extra_komi(&position), 0.0);
        for vertex in ["Q16", "D4", "Q3"] {
            position.play(parse_vertex(19, vertex).expect("valid"));
        }
        assert_eq!(extra_komi(&position), 0.0);
    }

    #[test]
    fn handicap_stones_shift_komi_and_the_shift_fades_linearly() {
        let mut board = crate::Board::new(19);
        let points = handicap::fixed_handicap_points(19, 4).expect("4 stones fit on 19x19");
        handicap::place_handicap(&mut board, &points).expect("an empty board takes them");
        let mut position = Position::from_board(board, Rules::CHINESE);
        assert_eq!(position.to_move(), Cell::White);
        assert_eq!(handicap_stones(&position), 4);
        assert_eq!(extra_komi(&position), 28.0);
        // 100 of the 200 moves played: half the compensation left.
        let mut played = 0;
        while played < 100 {
            position.play(crate::Move::PASS);
            played += 1;
        }
        assert_eq!(extra_komi(&position), 14.0);
        while played < 250 {
            position.play(crate::Move::PASS);
            played += 1;
        }
        assert_eq!(extra_komi(&position), 0.0);
    }

    #[test]
    fn stones_placed_while_white_passes_count_as_handicap() {
        let mut position = Position::new(9, Rules::CHINESE);
        for vertex in ["C3", "pass", "G7"] {
            position.play(parse_vertex(9, vertex).expect("valid"));
        }
        assert_eq!(handicap_stones(&position), 2);
        assert!(extra_komi(&position) > 13.0);
        let mut even = Position::new(9, Rules::CHINESE);
        for vertex in ["C3", "G7", "pass"] {
            even.play(parse_vertex(9, vertex).expect("valid"));
        }
        assert_eq!(handicap_stones(&even), 0, "White played a stone: no handicap");
    }
}
