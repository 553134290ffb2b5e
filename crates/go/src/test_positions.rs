//! Positions shared by the crate's tests.

use crate::board::point;
use crate::{Board, Cell, Position, Rules};

/// Black holds the first `columns` columns of a `size`×`size` board, filled up to single-point
/// eyes, White the next column and nothing else: on 9×9 with 7 columns Black is 63 - 18 - 7.5 =
/// 37.5 points ahead and no invasion can change that. Black to move.
pub(crate) fn black_holds_columns(size: usize, columns: usize) -> Position {
    let mut board = Board::new(size);
    for y in 0..size {
        for x in 0..columns {
            if x == columns - 1 || x % 2 == 1 || y % 2 == 1 {
                board.place_setup_stone(point(x, y), Cell::Black);
            }
        }
        board.place_setup_stone(point(columns, y), Cell::White);
    }
    Position::from_board(board, Rules::CHINESE)
}
