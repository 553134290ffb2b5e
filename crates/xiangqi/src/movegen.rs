//! Move generation: pseudo-legal moves per piece, filtered to legal ones with a cheap test that
//! only examines moves able to expose the king.

use tessera_core::{MoveBuffer, MoveList, Side};

use crate::board::{forward, offset, Board, DIAGONAL, HORSE_MOVES, ORTHOGONAL};
use crate::types::{kind_of, on_own_half, side_tag, Kind, Move, Square, IN_PALACE, OFF_BOARD};

/// More than the largest number of legal moves any xiangqi position has (the record is near 120).
pub const MAX_MOVES: usize = 192;

/// A stack-allocated list of moves.
pub type Moves = MoveList<Move, MAX_MOVES>;

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Generate {
    /// Every move.
    All,
    /// Captures only.
    Captures,
}

impl Board {
    /// Appends every pseudo-legal move of `side` (the king may be left in check) to `moves`.
    pub(crate) fn pseudo_legal_moves(&self, side: Side, which: Generate, moves: &mut Moves) {
        let tag = side_tag(side);
        let enemy_tag = side_tag(side.opponent());
        let captures_only = which == Generate::Captures;
        let cells = &self.cells;
        // A target is reachable when empty (unless only captures are wanted) or enemy-held.
        let push = |from: Square, to: Square, moves: &mut Moves| {
            let id = cells[to as usize];
            if (id == 0 && !captures_only) || id & enemy_tag != 0 {
                moves.push(Move::new(from, to));
            }
        };
        // Quiet moves along a line up to the first occupied cell, which is returned.
        let slide = |from: Square, step: i16, moves: &mut Moves| -> Square {
            let mut to = offset(from, step);
            while cells[to as usize] == 0 {
                if !captures_only {
                    moves.push(Move::new(from, to));
                }
                to = offset(to, step);
            }
            to
        };
        for id in tag..tag + 16 {
            let from = self.squares[id as usize];
            if from == 0 {
                continue;
            }
            match kind_of(id) {
                Kind::King => {
                    for step in ORTHOGONAL {
                        let to = offset(from, step);
                        if IN_PALACE[side.index()][to as usize] {
                            push(from, to, moves);
                        }
                    }
                }
                Kind::Advisor => {
                    for step in DIAGONAL {
                        let to = offset(from, step);
                        if IN_PALACE[side.index()][to as usize] {
                            push(from, to, moves);
                        }
                    }
                }
                Kind::Elephant => {
                    for step in DIAGONAL {
                        let eye = offset(from, step);
                        let to = offset(eye, step);
                        if cells[eye as usize] == 0 && cells[to as usize] != OFF_BOARD && on_own_half(side.index(), to)
                        {
                            push(from, to, moves);
                        }
                    }
                }
                Kind::Horse => {
                    for (leg, targets) in HORSE_MOVES {
                        if cells[offset(from, leg) as usize] == 0 {
                            for target in targets {
                                push(from, offset(from, target), moves);
                            }
                        }
                    }
                }
                Kind::Rook => {
                    for step in ORTHOGONAL {
                        let to = slide(from, step, moves);
                        if cells[to as usize] & enemy_tag != 0 {
                            moves.push(Move::new(from, to));
                        }
                    }
                }
                Kind::Cannon => {
                    for step in ORTHOGONAL {
                        let mut to = slide(from, step, moves);
                        if cells[to as usize] == OFF_BOARD {
                            continue;
                        }
                        // Jump the screen to the next piece.
                        to = offset(to, step);
                        while cells[to as usize] == 0 {
                            to = offset(to, step);
                        }
                        if cells[to as usize] & enemy_tag != 0 {
                            moves.push(Move::new(from, to));
                        }
                    }
                }
                Kind::Pawn => {
                    push(from, offset(from, forward(side)), moves);
                    if !on_own_half(side.index(), from) {
                        push(from, offset(from, 1), moves);
                        push(from, offset(from, -1), moves);
                    }
                }
            }
        }
    }

    /// Appends every legal move of `side` to `moves` (cleared first); `in_check` must say
    /// whether `side` is in check now.
    pub(crate) fn legal_moves(&self, side: Side, which: Generate, moves: &mut Moves, in_check: bool) {
        moves.clear();
        self.pseudo_legal_moves(side, which, moves);
        let king = self.king_square(side);
        moves.retain(|mv| !self.may_expose_king(king, in_check, mv) || !self.king_attacked_after(side, mv));
    }

    /// The number of legal moves of `side` (perft's last ply).
    pub(crate) fn count_legal_moves(&self, side: Side) -> usize {
        let mut moves = Moves::new();
        self.pseudo_legal_moves(side, Generate::All, &mut moves);
        let king = self.king_square(side);
        let in_check = self.in_check(side);
        moves
            .iter()
            .filter(|&&mv| !self.may_expose_king(king, in_check, mv) || !self.king_attacked_after(side, mv))
            .count()
    }

    /// Whether a pseudo-legal move can leave its own king attacked. When not in check, only a
    /// king move, or a move from or to the king's rank or file (lines of rooks, cannon screens,
    /// the facing kings), or from a diagonal neighbour of the king (a horse's leg) can.
    #[inline(always)]
    fn may_expose_king(&self, king: Square, in_check: bool, mv: Move) -> bool {
        let same_line = |square: Square| (square ^ king) & 0x0F == 0 || (square ^ king) & 0xF0 == 0;
        let diagonal_neighbour = matches!(i16::from(mv.from) - i16::from(king), 15 | 17 | -15 | -17);
        in_check || same_line(mv.from) || same_line(mv.to) || diagonal_neighbour
    }

    /// Whether `mv` is a pseudo-legal move of `side` on this board (any value is accepted).
    pub(crate) fn is_pseudo_legal(&self, side: Side, mv: Move) -> bool {
        let (from, to) = (mv.from, mv.to);
        let id = self.cells[from as usize];
        if id & side_tag(side) == 0 || id == OFF_BOARD {
            return false;
        }
        let target = self.cells[to as usize];
        if target == OFF_BOARD || target & side_tag(side) != 0 {
            return false;
        }
        let delta = i16::from(to) - i16::from(from);
        let cells = &self.cells;
        match kind_of(id) {
            Kind::King => ORTHOGONAL.contains(&delta) && IN_PALACE[side.index()][to as usize],
            Kind::Advisor => DIAGONAL.contains(&delta) && IN_PALACE[side.index()][to as usize],
            Kind::Elephant => {
                DIAGONAL.iter().any(|&step| 2 * step == delta && cells[offset(from, step) as usize] == 0)
                    && on_own_half(side.index(), to)
            }
            Kind::Horse => HORSE_MOVES
                .iter()
                .any(|&(leg, targets)| targets.contains(&delta) && cells[offset(from, leg) as usize] == 0),
            Kind::Rook | Kind::Cannon => {
                let same_file = (from ^ to) & 0x0F == 0;
                let same_rank = (from ^ to) & 0xF0 == 0;
                if !same_file && !same_rank {
                    return false;
                }
                let step: i16 = match (same_file, delta > 0) {
                    (true, true) => 16,
                    (true, false) => -16,
                    (false, true) => 1,
                    (false, false) => -1,
                };
                let mut between = 0;
                let mut square = offset(from, step);
                while square != to {
                    if cells[square as usize] != 0 {
                        between += 1;
                    }
                    square = offset(square, step);
                }
                if kind_of(id) == Kind::Rook {
                    between == 0
                } else {
                    (between == 0 && target == 0) || (between == 1 && target != 0)
                }
            }
            Kind::Pawn => delta == forward(side) || (!on_own_half(side.index(), from) && (delta == 1 || delta == -1)),
        }
    }

    /// Whether `mv` is a legal move of `side` (any value is accepted).
    pub(crate) fn is_legal_move(&self, side: Side, mv: Move) -> bool {
        self.is_pseudo_legal(side, mv) && !self.king_attacked_after(side, mv)
    }
}
