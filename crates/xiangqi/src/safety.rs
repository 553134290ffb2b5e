//! King safety of one side, found by one look along its king's four lines and at the king's horse
//! legs: whether the king is in check, which pieces may not move freely, and which king lines an
//! enemy cannon faces with nothing between. Move generation gives only the moves flagged here to
//! the full test ([`Board::king_attacked_after`]); every other pseudo-legal move is legal.
//!
//! Why the others are safe when the king is not in check and the mover is neither the king nor
//! flagged: a pawn check cannot appear (enemy pawns only vanish). A horse check needs a leg
//! emptied, and a piece leaving a leg with an enemy horse behind it is flagged. On a line, a
//! capture replaces a piece with ours and a landing adds one, so only the first three pieces
//! matter: a rook (or, on the file, the enemy king) checks when it becomes first, which needs the
//! piece before it to leave (flagged when that piece is ours and an enemy rook or king stands
//! second); a cannon checks when it becomes second, which needs either a piece of ours to leave
//! one of the first two places with an enemy cannon third (both flagged), or a piece to land
//! between the king and an enemy cannon standing first (the facing lines, whose landings are
//! tested).

use tessera_core::Side;

use crate::board::{forward, offset, Board, HORSE_ATTACKERS, ORTHOGONAL};
use crate::types::{kind_of, side_tag, Kind, PieceId, Square, OFF_BOARD};

/// What a side must respect to keep its king safe (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KingSafety {
    /// Where the king stands.
    king: Square,
    /// Bit `id & 15` set: every move of that piece needs the full test. The king's bit is always
    /// set; in check, every bit.
    tested: u16,
    /// An enemy cannon stands first on the king's file: a landing on that file needs the test.
    facing_file: bool,
    /// An enemy cannon stands first on the king's rank: a landing on that rank needs the test.
    facing_rank: bool,
}

impl KingSafety {
    /// Whether every move of piece `id` needs the full test.
    #[inline(always)]
    pub(crate) fn tests_piece(&self, id: PieceId) -> bool {
        self.tested & (1 << (id & 15)) != 0
    }

    /// Whether some landing squares need the full test (an enemy cannon faces the king).
    #[inline(always)]
    pub(crate) fn has_facing_cannon(&self) -> bool {
        self.facing_file | self.facing_rank
    }

    /// Whether a move landing on `to` needs the full test because of a facing cannon.
    #[inline(always)]
    pub(crate) fn tests_landing(&self, to: Square) -> bool {
        (self.facing_file && (to ^ self.king) & 0x0F == 0) || (self.facing_rank && (to ^ self.king) & 0xF0 == 0)
    }
}

impl Board {
    /// The [`KingSafety`] of `side`'s king as the board stands.
    #[inline]
    pub(crate) fn king_safety(&self, side: Side) -> KingSafety {
        let cells = &self.cells;
        let king = self.king_square(side);
        let tag = side_tag(side);
        let enemy_tag = side_tag(side.opponent());
        let is_enemy = |id: PieceId, kind: Kind| id & enemy_tag != 0 && kind_of(id) == kind;
        // The bit of a piece of ours (none for an enemy piece or the padding).
        let ours = |id: PieceId| if id & tag != 0 { 1u16 << (id & 15) } else { 0 };
        // The next occupied cell (a piece or the padding) after `square` along `step`.
        let next = |mut square: Square, step: i16| -> Square {
            loop {
                square = offset(square, step);
                if cells[square as usize] != 0 {
                    return square;
                }
            }
        };
        let checked = KingSafety { king, tested: u16::MAX, facing_file: false, facing_rank: false };
        let mut safety = KingSafety { king, tested: 1, facing_file: false, facing_rank: false };
        for step in ORTHOGONAL {
            let on_file = step.abs() == 16;
            let first_square = next(king, step);
            let first = cells[first_square as usize];
            if first == OFF_BOARD {
                continue;
            }
            if is_enemy(first, Kind::Rook) || (on_file && is_enemy(first, Kind::King)) {
                return checked;
            }
            if is_enemy(first, Kind::Cannon) {
                if on_file {
                    safety.facing_file = true;
                } else {
                    safety.facing_rank = true;
                }
            }
            let second_square = next(first_square, step);
            let second = cells[second_square as usize];
            if second == OFF_BOARD {
                continue;
            }
            if is_enemy(second, Kind::Cannon) {
                return checked;
            }
            if is_enemy(second, Kind::Rook) || (on_file && is_enemy(second, Kind::King)) {
                safety.tested |= ours(first);
                continue;
            }
            if is_enemy(cells[next(second_square, step) as usize], Kind::Cannon) {
                safety.tested |= ours(first) | ours(second);
            }
        }
        for (leg, horses) in HORSE_ATTACKERS {
            if horses.iter().any(|&horse| is_enemy(cells[offset(king, horse) as usize], Kind::Horse)) {
                let blocker = cells[offset(king, leg) as usize];
                if blocker == 0 {
                    return checked;
                }
                safety.tested |= ours(blocker);
            }
        }
        // Enemy pawns attack from in front of the king (their forward step) and from the sides.
        for step in [-forward(side.opponent()), 1, -1] {
            if is_enemy(cells[offset(king, step) as usize], Kind::Pawn) {
                return checked;
            }
        }
        safety
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::square;
    use crate::Position;

    fn safety(fen: &str) -> KingSafety {
        let position: Position = fen.parse().unwrap_or_else(|error| panic!("{fen}: {error}"));
        position.board.king_safety(position.side)
    }

    #[test]
    fn pins_by_rook_king_cannon_and_horse() {
        // Red: king e0, rook e2 before the black rook on e7: pinned (identity 16 + 7).
        let rook = safety("3k5/9/4r4/9/9/9/9/4R4/9/4K4 w - - 0 1");
        assert!(rook.tested != u16::MAX && rook.tests_piece(16 + 7) && !rook.has_facing_cannon());
        // Red's rook and horse before a black cannon on the king's file: both pinned.
        let cannon = safety("3k5/4c4/9/9/4N4/9/9/4R4/9/4K4 w - - 0 1");
        assert!(cannon.tests_piece(16 + 7) && cannon.tests_piece(16 + 5));
        // Red's rook on d1 is the leg of the black horse on c1 towards the king on e0: pinned.
        let horse = safety("5k3/9/9/9/9/9/9/9/2nR5/4K4 w - - 0 1");
        assert!(horse.tested != u16::MAX && horse.tests_piece(16 + 7));
        // The black cannon stands first on the file: no check, but landings on the file are tested.
        let facing = safety("3k5/4c4/9/9/9/9/9/9/R8/4K4 w - - 0 1");
        assert!(facing.tested == 1 && facing.has_facing_cannon());
        assert!(facing.tests_landing(square(4, 1)) && !facing.tests_landing(square(0, 1)));
        assert!(!facing.tests_piece(16 + 7));
        // Red's horse between the two kings (flying general): pinned.
        let kings = safety("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1");
        assert!(kings.tested != u16::MAX && kings.tests_piece(16 + 5));
    }

    #[test]
    fn checks_by_every_kind_and_the_facing_kings() {
        for fen in [
            "3k5/4c4/9/9/4N4/9/9/9/9/4K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/2n6/4K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/r3K4 w - - 0 1",
        ] {
            let safety = safety(fen);
            assert_eq!(safety.tested, u16::MAX, "{fen}");
        }
    }
}
