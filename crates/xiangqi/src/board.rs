//! The bare board: a mailbox of piece identities plus the square of every identity, with
//! make/unmake and attack detection. No history, no hash: [`crate::Position`] adds those.

use tessera_core::Side;

use crate::types::{kind_of, side_tag, Kind, Move, PieceId, Square, IN_PALACE, OFF_BOARD, ON_BOARD};

/// Orthogonal steps: up (towards Black), down, right, left.
pub(crate) const ORTHOGONAL: [i16; 4] = [16, -16, 1, -1];
/// Diagonal steps.
pub(crate) const DIAGONAL: [i16; 4] = [17, 15, -15, -17];
/// Horse moves grouped by their leg: `(leg, [targets])`.
pub(crate) const HORSE_MOVES: [(i16, [i16; 2]); 4] =
    [(16, [33, 31]), (-16, [-31, -33]), (1, [18, -14]), (-1, [14, -18])];
/// Squares from which a horse attacks a square, grouped by the diagonal neighbour (of the
/// attacked square) that is the horse's leg: `(leg, [horse squares])`.
pub(crate) const HORSE_ATTACKERS: [(i16, [i16; 2]); 4] =
    [(17, [33, 18]), (15, [31, 14]), (-15, [-31, -14]), (-17, [-33, -18])];

/// `square + offset` (the padding keeps every offset used here inside the 256 cells).
#[inline(always)]
pub(crate) const fn offset(square: Square, offset: i16) -> Square {
    (square as i16 + offset) as Square
}

/// The forward step of `side`'s pawns.
#[inline(always)]
pub(crate) const fn forward(side: Side) -> i16 {
    match side {
        Side::First => 16,
        Side::Second => -16,
    }
}

/// Piece placement: cell contents and the square of each piece identity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// Cell contents: 0 empty, 16–47 a piece identity, [`OFF_BOARD`] padding.
    pub(crate) cells: [PieceId; 256],
    /// `squares[id]`: where piece `id` stands, 0 when it is captured or absent.
    pub(crate) squares: [Square; 48],
}

impl Board {
    /// A board with no pieces.
    #[must_use]
    pub(crate) fn empty() -> Board {
        let mut cells = [OFF_BOARD; 256];
        for (cell, &on) in cells.iter_mut().zip(ON_BOARD.iter()) {
            if on {
                *cell = 0;
            }
        }
        Board { cells, squares: [0; 48] }
    }

    /// The piece on `square` (0 when empty).
    #[inline(always)]
    #[must_use]
    pub fn piece_at(&self, square: Square) -> PieceId {
        self.cells[square as usize]
    }

    /// The square of `side`'s king (0 if it has none, which a valid position never shows).
    #[inline(always)]
    #[must_use]
    pub fn king_square(&self, side: Side) -> Square {
        self.squares[side_tag(side) as usize]
    }

    /// Moves a piece; returns the captured identity (0 for none).
    #[inline(always)]
    pub(crate) fn make(&mut self, mv: Move) -> PieceId {
        let moving = self.cells[mv.from as usize];
        let captured = self.cells[mv.to as usize];
        self.cells[mv.to as usize] = moving;
        self.cells[mv.from as usize] = 0;
        self.squares[moving as usize] = mv.to;
        if captured != 0 {
            self.squares[captured as usize] = 0;
        }
        captured
    }

    /// Takes back [`Board::make`].
    #[inline(always)]
    pub(crate) fn unmake(&mut self, mv: Move, captured: PieceId) {
        let moving = self.cells[mv.to as usize];
        self.cells[mv.from as usize] = moving;
        self.squares[moving as usize] = mv.from;
        self.cells[mv.to as usize] = captured;
        if captured != 0 {
            self.squares[captured as usize] = mv.to;
        }
    }

    /// Whether `side`'s king is attacked.
    #[inline]
    #[must_use]
    pub fn in_check(&self, side: Side) -> bool {
        self.king_attacked_after(side, Move::new(0, 0))
    }

    /// Whether `side`'s king would be attacked after `mv` (a move of either side, or the null move
    /// `0 → 0` for "as the board stands"), without changing the board.
    #[inline]
    #[must_use]
    pub(crate) fn king_attacked_after(&self, side: Side, mv: Move) -> bool {
        self.king_attackers_after(side, mv, |_| true)
    }

    /// Visits the points of the enemy pieces that would attack `side`'s king after `mv` (as for
    /// [`Board::king_attacked_after`]) until `counts` accepts one; says whether it did.
    #[inline(always)]
    pub(crate) fn king_attackers_after(&self, side: Side, mv: Move, mut counts: impl FnMut(Square) -> bool) -> bool {
        let cells = &self.cells;
        let moving = cells[mv.from as usize];
        // The board with `mv` played: `to` holds the mover, `from` is empty.
        let cell = |square: Square| -> PieceId {
            if square == mv.to {
                moving
            } else if square == mv.from {
                0
            } else {
                cells[square as usize]
            }
        };
        // The king's id is its side's tag; the other king's move changes only the cells.
        let king = if moving == side_tag(side) { mv.to } else { self.king_square(side) };
        let enemy = side.opponent();
        let enemy_tag = side_tag(enemy);
        let is_enemy = |id: PieceId, kind: Kind| id & enemy_tag != 0 && kind_of(id) == kind;
        for direction in ORTHOGONAL {
            let mut square = offset(king, direction);
            let mut id = cell(square);
            while id == 0 {
                square = offset(square, direction);
                id = cell(square);
            }
            if id == OFF_BOARD {
                continue;
            }
            if id & enemy_tag != 0 {
                let attacks = match kind_of(id) {
                    Kind::Rook => true,
                    Kind::King => direction.abs() == 16, // flying general
                    _ => false,
                };
                if attacks && counts(square) {
                    return true;
                }
            }
            square = offset(square, direction);
            id = cell(square);
            while id == 0 {
                square = offset(square, direction);
                id = cell(square);
            }
            if is_enemy(id, Kind::Cannon) && counts(square) {
                return true;
            }
        }
        for (leg, horses) in HORSE_ATTACKERS {
            if cell(offset(king, leg)) == 0 {
                for horse in horses {
                    let square = offset(king, horse);
                    if is_enemy(cell(square), Kind::Horse) && counts(square) {
                        return true;
                    }
                }
            }
        }
        // Enemy pawns attack from in front of the king (their forward step) and from the sides
        // (a pawn beside a king in its palace has always crossed the river).
        for step in [-forward(enemy), 1, -1] {
            let square = offset(king, step);
            if is_enemy(cell(square), Kind::Pawn) && counts(square) {
                return true;
            }
        }
        false
    }

    /// Whether `mv`, a move of a piece of kind `mover`, can put the king on `king` in check
    /// (whether or not it has been made). False means it certainly cannot: only a move from or to
    /// the king's rank or file (lines and cannon screens), from a diagonal neighbour of the king
    /// (a horse's leg), or a horse landing a horse's move away can give check.
    #[inline(always)]
    pub(crate) fn move_may_check(king: Square, mv: Move, mover: Kind) -> bool {
        let same_line = |square: Square| (square ^ king) & 0x0F == 0 || (square ^ king) & 0xF0 == 0;
        let from_leg = matches!(i16::from(mv.from) - i16::from(king), 15 | 17 | -15 | -17);
        if same_line(mv.from) || same_line(mv.to) || from_leg {
            return true;
        }
        let delta = i16::from(mv.to) - i16::from(king);
        mover == Kind::Horse && matches!(delta.abs(), 14 | 18 | 31 | 33)
    }

    /// Whether any piece of `by` attacks `target` (protection and chase tests): every kind counts.
    #[must_use]
    pub(crate) fn attacked_by(&self, target: Square, by: Side) -> bool {
        let cells = &self.cells;
        let tag = side_tag(by);
        let is_ours = |id: PieceId, kind: Kind| id & tag != 0 && kind_of(id) == kind;
        for direction in ORTHOGONAL {
            let mut square = offset(target, direction);
            let mut id = cells[square as usize];
            if is_ours(id, Kind::King) && IN_PALACE[by.index()][target as usize] {
                return true;
            }
            while id == 0 {
                square = offset(square, direction);
                id = cells[square as usize];
            }
            if id == OFF_BOARD {
                continue;
            }
            if is_ours(id, Kind::Rook) {
                return true;
            }
            square = offset(square, direction);
            id = cells[square as usize];
            while id == 0 {
                square = offset(square, direction);
                id = cells[square as usize];
            }
            if is_ours(id, Kind::Cannon) {
                return true;
            }
        }
        for (leg, horses) in HORSE_ATTACKERS {
            if cells[offset(target, leg) as usize] == 0 {
                for horse in horses {
                    if is_ours(cells[offset(target, horse) as usize], Kind::Horse) {
                        return true;
                    }
                }
            }
        }
        if is_ours(cells[offset(target, -forward(by)) as usize], Kind::Pawn) {
            return true;
        }
        if !crate::types::on_own_half(by.index(), target) {
            for step in [1, -1] {
                if is_ours(cells[offset(target, step) as usize], Kind::Pawn) {
                    return true;
                }
            }
        }
        if IN_PALACE[by.index()][target as usize] {
            for step in DIAGONAL {
                if is_ours(cells[offset(target, step) as usize], Kind::Advisor) {
                    return true;
                }
            }
        }
        if crate::types::on_own_half(by.index(), target) {
            for step in DIAGONAL {
                if cells[offset(target, step) as usize] == 0
                    && is_ours(cells[offset(target, 2 * step) as usize], Kind::Elephant)
                {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::types::square;
    use crate::Position;
    use tessera_core::Side;

    #[test]
    fn flying_general_cannon_horse_and_pawn_checks() {
        let apart: Position = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".parse().unwrap_or_else(|_| unreachable_fen());
        assert!(!apart.board().in_check(Side::First));
        let to_d0 = crate::types::Move::new(square(4, 0), square(3, 0));
        assert!(apart.board().king_attacked_after(Side::First, to_d0), "the kings would face each other");
        let cannon: Position = "3k5/9/9/9/9/3N5/9/3C5/9/4K4 b - - 0 1".parse().unwrap_or_else(|_| unreachable_fen());
        assert!(cannon.board().in_check(Side::Second));
        let horse: Position = "3k5/9/4N4/9/9/9/9/9/9/4K4 b - - 0 1".parse().unwrap_or_else(|_| unreachable_fen());
        assert!(horse.board().in_check(Side::Second));
        let pawn: Position = "3k5/3P5/9/9/9/9/9/9/9/4K4 b - - 0 1".parse().unwrap_or_else(|_| unreachable_fen());
        assert!(pawn.board().in_check(Side::Second));
        assert!(pawn.board().attacked_by(square(3, 9), Side::First));
        assert!(!pawn.board().attacked_by(square(3, 7), Side::First));
    }

    fn unreachable_fen() -> Position {
        panic!("test FEN must parse")
    }
}
