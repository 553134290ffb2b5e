//! The board drawing of GTP `showboard`, laid out as GNU Go draws it.

use crate::board::{point, Cell};
use crate::notation::format_vertex;
use crate::position::{Move, Position};

/// Whether (`x`, `y`) is a star point, by GNU Go's rule: 3-3 points on boards up to 11, 4-4 above;
/// the centre on odd boards; side stars on odd boards from 13.
#[must_use]
pub fn is_star_point(size: usize, x: usize, y: usize) -> bool {
    let normalize = |v: usize| if v > size / 2 { size - 1 - v } else { v };
    let (m, n) = (normalize(x), normalize(y));
    match size {
        2 | 4 => false,
        3 => m == 1 && n == 1,
        5 => (m == 1 && n == 1) || (m == 2 && n == 2),
        _ => {
            let star = if size <= 11 { 2 } else { 3 };
            let middle = size / 2;
            if m == star && n == star {
                return true;
            }
            if size.is_multiple_of(2) {
                return false;
            }
            if size < 12 {
                return m == middle && n == middle;
            }
            (m == star || m == middle) && (n == star || n == middle)
        }
    }
}

/// The `showboard` lines: column letters, rows from the top with their numbers, prisoner counts.
#[must_use]
pub fn showboard(position: &Position) -> Vec<String> {
    let board = position.board();
    let size = board.size();
    let letters: String = (0..size)
        .map(|x| format_vertex(size, Move::at(point(x, 0))).chars().next().unwrap_or('?'))
        .map(|c| format!(" {c}"))
        .collect();
    let mut lines = vec![format!("  {letters}")];
    for y in 0..size {
        let row = size - y;
        let mut line = format!("{row:>2}");
        for x in 0..size {
            let symbol = match board.cell(point(x, y)) {
                Cell::Black => 'X',
                Cell::White => 'O',
                _ if is_star_point(size, x, y) => '+',
                _ => '.',
            };
            line.push(' ');
            line.push(symbol);
        }
        line.push_str(&format!(" {row}"));
        if row == 2 {
            line.push_str(&format!("     WHITE (O) has captured {} stones", board.prisoners(Cell::White)));
        } else if row == 1 {
            line.push_str(&format!("     BLACK (X) has captured {} stones", board.prisoners(Cell::Black)));
        }
        lines.push(line);
    }
    lines.push(format!("  {letters}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_vertex;
    use crate::rules::Rules;
    use tessera_core::Game;

    #[test]
    fn drawing_matches_gnu_go() {
        // The seed's example: boardsize 7, play black D5, white C3, black E3.
        let mut position = Position::new(7, Rules::CHINESE);
        for vertex in ["D5", "C3", "E3"] {
            position.play(parse_vertex(7, vertex).unwrap());
        }
        let expected = [
            "   A B C D E F G",
            " 7 . . . . . . . 7",
            " 6 . . . . . . . 6",
            " 5 . . + X + . . 5",
            " 4 . . . + . . . 4",
            " 3 . . O . X . . 3",
            " 2 . . . . . . . 2     WHITE (O) has captured 0 stones",
            " 1 . . . . . . . 1     BLACK (X) has captured 0 stones",
            "   A B C D E F G",
        ];
        assert_eq!(showboard(&position), expected);
        let stars = (0..19).flat_map(|x| (0..19).map(move |y| (x, y))).filter(|&(x, y)| is_star_point(19, x, y));
        assert_eq!(stars.count(), 9);
    }
}
