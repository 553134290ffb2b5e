//! Squares, colours, piece kinds and bitboards: the vocabulary of the rules.

use tessera_core::Side;

/// A set of squares, bit `i` for square `i` (a1 = 0, b1 = 1, …, h8 = 63).
pub type Bitboard = u64;

/// A square index 0..64 (a1 = 0, h1 = 7, a8 = 56).
pub type Square = u8;

/// The colours; White moves first and maps to [`Side::First`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The core's side for this colour.
    #[must_use]
    pub const fn side(self) -> Side {
        match self {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }

    /// The colour playing `side`.
    #[must_use]
    pub const fn from_side(side: Side) -> Color {
        match side {
            Side::First => Color::White,
            Side::Second => Color::Black,
        }
    }

    /// The rank (0..8) this colour's pieces start on.
    #[inline]
    #[must_use]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

/// The wing a castling rook stands on, seen from its king (Chess960 rooks may start anywhere on
/// the back rank, so the wing, not the square, names a right).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    /// Towards the h-file (`K`, `O-O`).
    King = 0,
    /// Towards the a-file (`Q`, `O-O-O`).
    Queen = 1,
}

impl CastleSide {
    /// Both wings, the king side first.
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// 0 for the king side, 1 for the queen side.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wing of `rook` seen from `king` on the same rank.
    #[must_use]
    pub const fn of(king: Square, rook: Square) -> CastleSide {
        if file_of(rook) > file_of(king) {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Kind {
    /// All kinds, pawn to king.
    pub const ALL: [Kind; 6] = [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen, Kind::King];

    /// 0 for pawns … 5 for kings.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index (0..6); larger indices give a king.
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Kind {
        match index {
            0 => Kind::Pawn,
            1 => Kind::Knight,
            2 => Kind::Bishop,
            3 => Kind::Rook,
            4 => Kind::Queen,
            _ => Kind::King,
        }
    }

    /// The lower-case letter of the kind (`p n b r q k`).
    #[must_use]
    pub const fn letter(self) -> char {
        [b'p', b'n', b'b', b'r', b'q', b'k'][self as usize] as char
    }

    /// The kind named by a letter of either case.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_lowercase() {
            'p' => Kind::Pawn,
            'n' => Kind::Knight,
            'b' => Kind::Bishop,
            'r' => Kind::Rook,
            'q' => Kind::Queen,
            'k' => Kind::King,
            _ => return None,
        })
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// 0..12: colour-major index for tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// The FEN letter: upper case for White.
    #[must_use]
    pub fn letter(self) -> char {
        let letter = self.kind.letter();
        if self.color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        }
    }
}

/// The bitboard of one square.
#[inline]
#[must_use]
pub const fn bit(square: Square) -> Bitboard {
    1u64 << square
}

/// The file (0 = a) of a square.
#[inline]
#[must_use]
pub const fn file_of(square: Square) -> u8 {
    square & 7
}

/// The rank (0 = rank 1) of a square.
#[inline]
#[must_use]
pub const fn rank_of(square: Square) -> u8 {
    square >> 3
}

/// The square on `file` and `rank` (both 0..8).
#[inline]
#[must_use]
pub const fn square_at(file: u8, rank: u8) -> Square {
    rank * 8 + file
}

/// The lowest square of a non-empty set.
#[inline]
#[must_use]
pub const fn lsb(bitboard: Bitboard) -> Square {
    bitboard.trailing_zeros() as Square
}

/// Every square of rank `rank` (0..8).
#[inline]
#[must_use]
pub const fn rank_bb(rank: u8) -> Bitboard {
    0xFFu64 << (8 * rank)
}

/// Every square of file `file` (0..8).
#[inline]
#[must_use]
pub const fn file_bb(file: u8) -> Bitboard {
    0x0101_0101_0101_0101u64 << file
}

/// The name of a square, `a1`…`h8`.
#[must_use]
pub fn square_name(square: Square) -> String {
    let file = (b'a' + file_of(square)) as char;
    let rank = (b'1' + rank_of(square)) as char;
    format!("{file}{rank}")
}

/// Reads a square name such as `e4`.
#[must_use]
pub fn parse_square(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0].wrapping_sub(b'a');
    let rank = bytes[1].wrapping_sub(b'1');
    (file < 8 && rank < 8).then(|| square_at(file, rank))
}

/// Iterates the squares of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = lsb(self.0);
        self.0 &= self.0 - 1;
        Some(square)
    }
}
