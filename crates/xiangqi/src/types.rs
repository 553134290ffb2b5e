//! Squares, piece kinds, piece identities and moves.
//!
//! The board is a 16×16 mailbox: square `(rank + 3) * 16 + file + 3`, with three padding rows
//! and columns around the 9×10 playing area, so that every step of every piece (a horse jumps two
//! ranks) lands on a padding cell instead of wrapping around. Rank 0 is Red's back rank.

use tessera_core::{PackedMove, Side};

/// Files on the board (a–i).
pub const FILES: usize = 9;
/// Ranks on the board (0–9).
pub const RANKS: usize = 10;

/// A mailbox square (see the module documentation).
pub type Square = u8;

/// The mailbox square of `file` (0–8) and `rank` (0–9).
#[must_use]
pub const fn square(file: usize, rank: usize) -> Square {
    ((rank + 3) * 16 + file + 3) as Square
}

/// The file (0–8) of an on-board square.
#[must_use]
pub const fn file_of(square: Square) -> usize {
    (square & 15) as usize - 3
}

/// The rank (0–9, from Red's side) of an on-board square.
#[must_use]
pub const fn rank_of(square: Square) -> usize {
    (square >> 4) as usize - 3
}

const fn board_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut rank = 0;
    while rank < RANKS {
        let mut file = 0;
        while file < FILES {
            table[square(file, rank) as usize] = true;
            file += 1;
        }
        rank += 1;
    }
    table
}

/// Whether a mailbox square is on the board.
pub static ON_BOARD: [bool; 256] = board_table();

const fn palace_table(side: usize) -> [bool; 256] {
    let mut table = [false; 256];
    let mut rank = 0;
    while rank < 3 {
        let mut file = 3;
        while file < 6 {
            let rank = if side == 0 { rank } else { 9 - rank };
            table[square(file, rank) as usize] = true;
            file += 1;
        }
        rank += 1;
    }
    table
}

/// Whether a square is in the palace of Red (`[0]`) or Black (`[1]`).
pub static IN_PALACE: [[bool; 256]; 2] = [palace_table(0), palace_table(1)];

/// Whether `square` is on `side`'s half of the board (before the river, seen from `side`).
#[must_use]
pub const fn on_own_half(side: usize, square: Square) -> bool {
    if side == 0 {
        rank_of(square) <= 4
    } else {
        rank_of(square) >= 5
    }
}

/// The kinds of pieces. The order is also the order of the piece identities of each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// General (king, 帅/将).
    King = 0,
    /// Advisor (guard, 仕/士).
    Advisor = 1,
    /// Elephant (minister, 相/象).
    Elephant = 2,
    /// Horse (knight, 马).
    Horse = 3,
    /// Rook (chariot, 车).
    Rook = 4,
    /// Cannon (炮).
    Cannon = 5,
    /// Pawn (soldier, 兵/卒).
    Pawn = 6,
}

impl Kind {
    /// Every kind, in identity order.
    pub const ALL: [Kind; 7] =
        [Kind::King, Kind::Advisor, Kind::Elephant, Kind::Horse, Kind::Rook, Kind::Cannon, Kind::Pawn];

    /// The FEN letter of this kind for Red (upper case); Black uses lower case.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Rook => 'R',
            Kind::Cannon => 'C',
            Kind::Pawn => 'P',
        }
    }

    /// The range of identity offsets (0–15) that pieces of this kind use within one side.
    #[must_use]
    pub const fn slots(self) -> (u8, u8) {
        match self {
            Kind::King => (0, 1),
            Kind::Advisor => (1, 3),
            Kind::Elephant => (3, 5),
            Kind::Horse => (5, 7),
            Kind::Rook => (7, 9),
            Kind::Cannon => (9, 11),
            Kind::Pawn => (11, 16),
        }
    }
}

/// A piece identity: 16–31 are Red's pieces, 32–47 Black's; 0 is an empty cell and
/// [`OFF_BOARD`] a padding cell. Identities stay with a piece for the whole game, which makes a
/// "chased piece" trackable across a repetition cycle.
pub type PieceId = u8;

/// The cell value of padding squares: not empty, belonging to nobody.
pub const OFF_BOARD: PieceId = 64;

/// The identity tag of `side`'s pieces (16 for Red, 32 for Black); `id & tag != 0` tests ownership.
#[must_use]
pub const fn side_tag(side: Side) -> u8 {
    match side {
        Side::First => 16,
        Side::Second => 32,
    }
}

/// The side owning piece `id` (16–47).
#[must_use]
pub const fn side_of(id: PieceId) -> Side {
    if id & 16 != 0 {
        Side::First
    } else {
        Side::Second
    }
}

const KIND_BY_OFFSET: [Kind; 16] = [
    Kind::King,
    Kind::Advisor,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Elephant,
    Kind::Horse,
    Kind::Horse,
    Kind::Rook,
    Kind::Rook,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];

/// The kind of piece `id` (16–47).
#[inline]
#[must_use]
pub const fn kind_of(id: PieceId) -> Kind {
    KIND_BY_OFFSET[(id & 15) as usize]
}

/// A move from one mailbox square to another. Captures are implied by the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece lands on.
    pub to: Square,
}

impl Move {
    /// A move between two squares (not checked).
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl PackedMove for Move {
    fn to_bits(self) -> u16 {
        // Legal moves use on-board squares (below 0xD0), so the code never reaches 0xFFFF.
        u16::from(self.from) | (u16::from(self.to) << 8)
    }

    fn from_bits(bits: u16) -> Self {
        Move { from: (bits & 0xFF) as u8, to: (bits >> 8) as u8 }
    }
}

/// The FEN letter of piece `id`.
#[must_use]
pub fn piece_letter(id: PieceId) -> char {
    let letter = kind_of(id).letter();
    if side_of(id) == Side::First {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_and_padding_holds() {
        for rank in 0..RANKS {
            for file in 0..FILES {
                let sq = square(file, rank);
                assert_eq!((file_of(sq), rank_of(sq)), (file, rank));
                assert!(ON_BOARD[sq as usize]);
            }
        }
        assert_eq!(ON_BOARD.iter().filter(|&&on| on).count(), 90);
        assert_eq!(IN_PALACE[0].iter().filter(|&&on| on).count(), 9);
        assert!(IN_PALACE[1][square(4, 9) as usize]);
        // Every horse jump from every square stays inside the 256 cells.
        for sq in 0..=255u8 {
            if ON_BOARD[sq as usize] {
                for offset in [-33i32, -31, -18, -14, 14, 18, 31, 33] {
                    assert!((0..256).contains(&(i32::from(sq) + offset)));
                }
            }
        }
    }

    #[test]
    fn identities_map_to_kinds_and_sides() {
        assert_eq!(kind_of(16), Kind::King);
        assert_eq!(kind_of(32 + 8), Kind::Rook);
        assert_eq!(kind_of(47), Kind::Pawn);
        assert_eq!(side_of(20), Side::First);
        assert_eq!(side_of(40), Side::Second);
        assert_eq!(OFF_BOARD & 48, 0);
        let mv = Move::new(square(7, 2), square(4, 2));
        assert_eq!(Move::from_bits(mv.to_bits()), mv);
    }
}
