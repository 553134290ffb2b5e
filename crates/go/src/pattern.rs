//! 3×3 shape patterns around a point (MoGo's hane, cut, and edge shapes, as in Michi), expanded
//! over rotations, reflections, colour swaps and wildcards into one lookup table of the 8
//! neighbours' cells. Playouts prefer matching points near the last move; tree priors favour them.

use std::sync::OnceLock;

use crate::board::Board;

/// The source shapes, rows from the top; the centre is the empty candidate point.
/// `X`/`O`: stones of either colour (the table holds both colourings); `.`: empty; ` `: off the
/// board; `?`: anything; `x`: not `X`; `o`: not `O`.
const SHAPES: [&str; 13] = [
    "XOX...???", // hane: enclosing hane
    "XO....?.?", // hane: non-cutting hane
    "XO?X..x.?", // hane: magari
    ".O.X.....", // katatsuke or diagonal attachment
    "XO?O.o?o?", // cut 1: unprotected cut
    "XO?O.X???", // cut 1: peeped cut
    "?X?O.Oooo", // cut 2
    "OX?o.O???", // cut keima
    "X.?O.?   ", // side: chase
    "OX?X.O   ", // side: block side cut
    "?X?x.O   ", // side: block side connection
    "?XOx.x   ", // side: sagari
    "?OXX.O   ", // side: cut
];

fn rotate(shape: &[u8; 9]) -> [u8; 9] {
    let mut out = [0; 9];
    for row in 0..3 {
        for column in 0..3 {
            out[column * 3 + (2 - row)] = shape[row * 3 + column];
        }
    }
    out
}

fn flip(shape: &[u8; 9]) -> [u8; 9] {
    let mut out = *shape;
    for row in 0..3 {
        out.swap(row * 3, row * 3 + 2);
    }
    out
}

fn swap_colors(shape: &[u8; 9]) -> [u8; 9] {
    shape.map(|c| match c {
        b'X' => b'O',
        b'O' => b'X',
        b'x' => b'o',
        b'o' => b'x',
        other => other,
    })
}

/// Cell codes a shape character stands for (the slots of a code are [`crate::board::AROUND`]'s,
/// the shapes' cells in reading order without the centre): 0 empty, 1 black, 2 white, 3 off the board.
fn codes(c: u8) -> &'static [u16] {
    match c {
        b'.' => &[0],
        b'X' => &[1],
        b'O' => &[2],
        b' ' => &[3],
        b'x' => &[0, 2, 3],
        b'o' => &[0, 1, 3],
        _ => &[0, 1, 2, 3],
    }
}

fn expand(shape: &[u8; 9], index: usize, code: u32, table: &mut [bool]) {
    if index == 9 {
        table[code as usize] = true;
        return;
    }
    if index == 4 {
        return expand(shape, 5, code, table);
    }
    let slot = if index < 4 { index } else { index - 1 };
    for &value in codes(shape[index]) {
        expand(shape, index + 1, code | u32::from(value) << (2 * slot), table);
    }
}

fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for source in SHAPES {
            let mut shape = [0u8; 9];
            shape.copy_from_slice(source.as_bytes());
            for _ in 0..4 {
                shape = rotate(&shape);
                for flipped in [shape, flip(&shape)] {
                    for colored in [flipped, swap_colors(&flipped)] {
                        expand(&colored, 0, 0, &mut table);
                    }
                }
            }
        }
        table
    })
}

/// Whether the empty point `p` sits in one of the shapes.
#[inline]
#[must_use]
pub fn matches(board: &Board, p: usize) -> bool {
    table()[board.neighborhood(p)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{point, Cell};

    #[test]
    fn hane_and_edge_shapes_match_in_every_orientation() {
        // Enclosing hane: X O X above an empty row, centre below the O.
        for (black, white) in [(Cell::Black, Cell::White), (Cell::White, Cell::Black)] {
            let mut board = Board::new(9);
            board.place_setup_stone(point(3, 3), black);
            board.place_setup_stone(point(4, 3), white);
            board.place_setup_stone(point(5, 3), black);
            assert!(matches(&board, point(4, 4)));
            // The same shape seen from the side (rotated).
            let mut rotated = Board::new(9);
            rotated.place_setup_stone(point(3, 3), black);
            rotated.place_setup_stone(point(3, 4), white);
            rotated.place_setup_stone(point(3, 5), black);
            assert!(matches(&rotated, point(4, 4)));
        }
        let empty = Board::new(9);
        assert!(!matches(&empty, point(4, 4)));
        assert!(!matches(&empty, point(0, 0)));
    }
}
