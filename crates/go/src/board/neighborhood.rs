//! The 3 × 3 neighbourhood of a point as a 16-bit code, and which codes make an eye.

use super::STRIDE;

/// Offsets of the 8 points around a point, row by row (the 3 × 3 square without its centre).
/// Opposite offsets sit at mirrored indices: `AROUND[7 - k] == -AROUND[k]`.
pub const AROUND: [isize; 8] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize),
    -(STRIDE as isize) + 1,
    -1,
    1,
    STRIDE as isize - 1,
    STRIDE as isize,
    STRIDE as isize + 1,
];

/// Slots of [`AROUND`] that are orthogonal neighbours.
const ORTHOGONAL_SLOTS: [usize; 4] = [1, 3, 4, 6];
/// Slots of [`AROUND`] that are diagonal neighbours.
const DIAGONAL_SLOTS: [usize; 4] = [0, 2, 5, 7];

/// How many of the four orthogonal neighbours in the neighbourhood `code` are empty.
#[inline]
pub(super) const fn empty_orthogonal(code: usize) -> u32 {
    // A slot is empty when both its bits are clear; keep the low bit of each such slot, then the
    // orthogonal slots 1, 3, 4 and 6 alone.
    let empty_slots = !(code | code >> 1) & 0x5555;
    (empty_slots & 0x1144).count_ones()
}

/// The cell in slot `slot` of a neighbourhood code.
const fn slot_cell(code: usize, slot: usize) -> usize {
    (code >> (2 * slot)) & 3
}

/// Whether the centre of the neighbourhood `code` is an eye-like point of the stone code `color`
/// (1 Black, 2 White): every orthogonal neighbour is `color` or off the board, and the enemy
/// diagonals (one fewer at the edge) do not make it false.
const fn eye_of(code: usize, color: usize) -> bool {
    let mut edge = 0;
    let mut index = 0;
    while index < 4 {
        let cell = slot_cell(code, ORTHOGONAL_SLOTS[index]);
        if cell == 3 {
            edge = 1;
        } else if cell != color {
            return false;
        }
        index += 1;
    }
    let mut bad = 0;
    index = 0;
    while index < 4 {
        if slot_cell(code, DIAGONAL_SLOTS[index]) == 3 - color {
            bad += 1;
        }
        index += 1;
    }
    bad + edge < 2
}

/// For every neighbourhood code: bit 0 set when the centre is a black eye, bit 1 a white one.
pub(super) static EYES: [u8; 1 << 16] = {
    let mut table = [0u8; 1 << 16];
    let mut code = 0;
    while code < 1 << 16 {
        table[code] = eye_of(code, 1) as u8 | (eye_of(code, 2) as u8) << 1;
        code += 1;
    }
    table
};
