//! Self-ataris: whether a stone leaves its new string with one liberty or none. The playouts refuse
//! big ones, and the ladder reader, the priors, the network's features and the seki test ask too;
//! it sits low, on the board alone, so that all of them can.

use crate::board::{neighbors, Board, Cell};

/// Whether `color` at the empty point `p` leaves the new string with a single liberty or none
/// (captures aside). Also returns the size the string would have.
#[must_use]
pub fn self_atari(board: &Board, p: usize, color: Cell) -> (bool, u32) {
    let (liberties, stones) = new_string_liberties(board, p, color);
    (liberties < 2, stones)
}

/// The distinct liberties, counted up to two, of the string `color` makes by playing at the empty
/// point `p`, and its stones (1 when it has two or more). A capture counts as two liberties: it
/// frees some. So 0 means suicide and 1 a self-atari; one pass over the neighbours answers both.
#[inline]
pub(crate) fn new_string_liberties(board: &Board, p: usize, color: Cell) -> (usize, u32) {
    if board.empty_neighbors(p) >= 2 {
        return (2, 1); // the common case, answered by the 3×3 code alone
    }
    // At most one liberty is new per neighbour: a friendly neighbour's string has `p` among its
    // liberties, so of its two (it has at most two here) only one is not `p`. The count is checked
    // after each neighbour, so it never passes two.
    let mut libs = [0usize; 2];
    let mut count = 0;
    let add = |q: usize, libs: &mut [usize; 2], count: &mut usize| {
        if q != p && !libs[..*count].contains(&q) {
            libs[*count] = q;
            *count += 1;
        }
    };
    for n in neighbors(p) {
        match board.cell(n) {
            Cell::Empty => add(n, &mut libs, &mut count),
            c if c == color => match board.liberties_up_to_two(n) {
                Some(found) => found.into_iter().for_each(|q| add(q, &mut libs, &mut count)),
                None => return (2, 1), // three or more liberties: two stay beside `p`
            },
            Cell::Border => {}
            _ => {
                if board.in_atari(n) {
                    return (2, 1); // a capture frees liberties
                }
            }
        }
        if count == 2 {
            return (2, 1);
        }
    }
    // Summed in place: the board's distinct-strings iterator (as `stones_key_after` uses it) cost
    // about 2% of bare playouts here.
    let mut heads = [0usize; 4];
    let mut head_count = 0;
    let mut stones = 1;
    for n in neighbors(p) {
        if board.cell(n) == color {
            let head = board.string_head(n);
            if !heads[..head_count].contains(&head) {
                heads[head_count] = head;
                head_count += 1;
                stones += board.string_stones(n);
            }
        }
    }
    (count, stones)
}
