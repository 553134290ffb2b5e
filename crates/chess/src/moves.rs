//! The chess move: 15 bits of from, to and kind, so the code never reaches `0xFFFF`.

use std::fmt;

use tessera_core::PackedMove;

use crate::types::{square_name, Kind, Square};

/// What a move does besides moving a piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal,
    /// A pawn reaching the last rank, becoming the given piece (knight to queen).
    Promotion(Kind),
    /// A pawn capturing en passant (`to` is the square the pawn moves to).
    EnPassant,
    /// Castling, written king-takes-own-rook: `from` is the king, `to` the castling rook.
    Castle,
}

/// A chess move packed in 15 bits: from (6) | to (6) | kind (3).
///
/// Kind code 7 is never produced; decoded from arbitrary bits it gives a move no position accepts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 5;
const KIND_CASTLE: u16 = 6;

impl Move {
    /// A move of `kind` from `from` to `to`.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let code = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::Promotion(piece) => match piece {
                Kind::Knight => 1,
                Kind::Bishop => 2,
                Kind::Rook => 3,
                _ => 4,
            },
            MoveKind::EnPassant => KIND_EN_PASSANT,
            MoveKind::Castle => KIND_CASTLE,
        };
        Move(from as u16 | (to as u16) << 6 | code << 12)
    }

    /// A plain move.
    #[inline]
    #[must_use]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// The square the moving piece leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        (self.0 & 63) as Square
    }

    /// The destination (for castling: the castling rook's square).
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        ((self.0 >> 6) & 63) as Square
    }

    /// The 3-bit kind code (7 means "no valid kind").
    #[inline]
    const fn code(self) -> u16 {
        (self.0 >> 12) & 7
    }

    /// What the move does; `None` for the unused code 7 (never legal).
    #[inline]
    #[must_use]
    pub const fn kind(self) -> Option<MoveKind> {
        Some(match self.code() {
            KIND_NORMAL => MoveKind::Normal,
            1 => MoveKind::Promotion(Kind::Knight),
            2 => MoveKind::Promotion(Kind::Bishop),
            3 => MoveKind::Promotion(Kind::Rook),
            4 => MoveKind::Promotion(Kind::Queen),
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            _ => return None,
        })
    }

    /// The promotion piece, if any.
    #[inline]
    #[must_use]
    pub const fn promotion(self) -> Option<Kind> {
        match self.kind() {
            Some(MoveKind::Promotion(kind)) => Some(kind),
            _ => None,
        }
    }

    /// Whether this is castling.
    #[inline]
    #[must_use]
    pub const fn is_castle(self) -> bool {
        self.code() == KIND_CASTLE
    }

    /// Whether this is an en passant capture.
    #[inline]
    #[must_use]
    pub const fn is_en_passant(self) -> bool {
        self.code() == KIND_EN_PASSANT
    }
}

impl PackedMove for Move {
    #[inline]
    fn to_bits(self) -> u16 {
        self.0
    }

    #[inline]
    fn from_bits(bits: u16) -> Self {
        Move(bits & 0x7FFF)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from()), square_name(self.to()))?;
        match self.kind() {
            Some(MoveKind::Promotion(kind)) => write!(f, "{}", kind.letter()),
            Some(MoveKind::EnPassant) => write!(f, "(ep)"),
            Some(MoveKind::Castle) => write!(f, "(castle)"),
            Some(MoveKind::Normal) => Ok(()),
            None => write!(f, "(invalid)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_and_never_reach_ffff() {
        for bits in 0..=u16::MAX {
            let mv = Move::from_bits(bits);
            assert_ne!(mv.to_bits(), 0xFFFF);
            assert_eq!(Move::from_bits(mv.to_bits()), mv);
        }
        let mv = Move::new(52, 60, MoveKind::Promotion(Kind::Queen));
        assert_eq!((mv.from(), mv.to(), mv.promotion()), (52, 60, Some(Kind::Queen)));
    }
}
