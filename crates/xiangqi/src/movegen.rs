//! Move generation: pseudo-legal moves per piece, filtered to legal ones by testing only the
//! moves that [`KingSafety`](crate::safety::KingSafety) says may expose the king.

use tessera_core::{MoveBuffer, MoveList, Side};

use crate::board::{forward, offset, Board, DIAGONAL, HORSE_MOVES, ORTHOGONAL};
use crate::types::{kind_of, on_own_half, side_tag, Kind, Move, PieceId, Square, IN_PALACE, OFF_BOARD};

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
    /// Calls `emit` with every target square of piece `id` (of `side`, standing on `from`) in a
    /// fixed order: empty squares (unless `captures_only`) and enemy-held ones.
    #[inline(always)]
    fn piece_targets(&self, side: Side, id: PieceId, from: Square, captures_only: bool, mut emit: impl FnMut(Square)) {
        let cells = &self.cells;
        let enemy_tag = side_tag(side.opponent());
        // A target is reachable when empty (unless only captures are wanted) or enemy-held.
        let mut step_to = |to: Square| {
            let id = cells[to as usize];
            if (id == 0 && !captures_only) || id & enemy_tag != 0 {
                emit(to);
            }
        };
        match kind_of(id) {
            Kind::King => {
                for step in ORTHOGONAL {
                    let to = offset(from, step);
                    if IN_PALACE[side.index()][to as usize] {
                        step_to(to);
                    }
                }
            }
            Kind::Advisor => {
                for step in DIAGONAL {
                    let to = offset(from, step);
                    if IN_PALACE[side.index()][to as usize] {
                        step_to(to);
                    }
                }
            }
            Kind::Elephant => {
                for step in DIAGONAL {
                    let eye = offset(from, step);
                    let to = offset(eye, step);
                    if cells[eye as usize] == 0 && cells[to as usize] != OFF_BOARD && on_own_half(side.index(), to) {
                        step_to(to);
                    }
                }
            }
            Kind::Horse => {
                for (leg, targets) in HORSE_MOVES {
                    if cells[offset(from, leg) as usize] == 0 {
                        for target in targets {
                            step_to(offset(from, target));
                        }
                    }
                }
            }
            Kind::Pawn => {
                step_to(offset(from, forward(side)));
                if !on_own_half(side.index(), from) {
                    step_to(offset(from, 1));
                    step_to(offset(from, -1));
                }
            }
            Kind::Rook | Kind::Cannon => {
                let rook = kind_of(id) == Kind::Rook;
                for step in ORTHOGONAL {
                    // Quiet moves up to the first occupied cell.
                    let mut to = offset(from, step);
                    while cells[to as usize] == 0 {
                        if !captures_only {
                            emit(to);
                        }
                        to = offset(to, step);
                    }
                    if !rook {
                        if cells[to as usize] == OFF_BOARD {
                            continue;
                        }
                        // Jump the screen to the next piece.
                        to = offset(to, step);
                        while cells[to as usize] == 0 {
                            to = offset(to, step);
                        }
                    }
                    if cells[to as usize] & enemy_tag != 0 {
                        emit(to);
                    }
                }
            }
        }
    }

    /// Appends every pseudo-legal move of `side` (the king may be left in check) to `moves`.
    pub(crate) fn pseudo_legal_moves(&self, side: Side, which: Generate, moves: &mut Moves) {
        let tag = side_tag(side);
        for id in tag..tag + 16 {
            let from = self.squares[id as usize];
            if from != 0 {
                self.piece_targets(side, id, from, which == Generate::Captures, |to| moves.push(Move::new(from, to)));
            }
        }
    }

    /// Calls `emit` with every legal move of `side`, in the order of [`Board::pseudo_legal_moves`].
    /// Only the moves [`KingSafety`](crate::safety::KingSafety) flags get the full test.
    #[inline(always)]
    fn legal_targets(&self, side: Side, which: Generate, mut emit: impl FnMut(Move)) {
        let safety = self.king_safety(side);
        let captures_only = which == Generate::Captures;
        let tag = side_tag(side);
        for id in tag..tag + 16 {
            let from = self.squares[id as usize];
            if from == 0 {
                continue;
            }
            let test_all = safety.tests_piece(id);
            if test_all || safety.has_facing_cannon() {
                self.piece_targets(side, id, from, captures_only, |to| {
                    let mv = Move::new(from, to);
                    if !(test_all || safety.tests_landing(to)) || !self.king_attacked_after(side, mv) {
                        emit(mv);
                    }
                });
            } else {
                self.piece_targets(side, id, from, captures_only, |to| emit(Move::new(from, to)));
            }
        }
    }

    /// Writes every legal move of `side` to `moves` (cleared first).
    pub(crate) fn legal_moves(&self, side: Side, which: Generate, moves: &mut Moves) {
        moves.clear();
        self.legal_targets(side, which, |mv| moves.push(mv));
    }

    /// The number of legal moves of `side` (perft's last ply), counted without a move list.
    pub(crate) fn count_legal_moves(&self, side: Side) -> usize {
        let mut count = 0;
        self.legal_targets(side, Generate::All, |_| count += 1);
        count
    }

    /// Appends to `moves` every legal non-capturing move of `side` that checks the enemy king,
    /// direct or discovered; king moves are left out (a king can only check by uncovering, which
    /// quiescence can do without).
    pub(crate) fn quiet_checks(&self, side: Side, moves: &mut Moves) {
        let tag = side_tag(side);
        for id in tag + 1..tag + 16 {
            let from = self.squares[id as usize];
            if from == 0 {
                continue;
            }
            self.piece_targets(side, id, from, false, |to| {
                let mv = Move::new(from, to);
                if self.cells[to as usize] == 0 && self.gives_check(side, mv) && !self.king_attacked_after(side, mv) {
                    moves.push(mv);
                }
            });
        }
    }

    /// Whether the legal move `mv` of `side` checks the enemy king, directly or by discovery.
    pub(crate) fn gives_check(&self, side: Side, mv: Move) -> bool {
        let enemy = side.opponent();
        let mover = kind_of(self.cells[mv.from as usize]);
        Board::move_may_check(self.king_square(enemy), mv, mover) && self.king_attacked_after(enemy, mv)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    const SUITE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/xiangqi-perft.epd"));

    /// Every pseudo-legal move given the full test, in generation order.
    fn fully_tested(board: &Board, side: Side, which: Generate) -> Vec<Move> {
        let mut moves = Moves::new();
        board.pseudo_legal_moves(side, which, &mut moves);
        moves.iter().copied().filter(|&mv| !board.king_attacked_after(side, mv)).collect()
    }

    /// The generator tests only the moves `KingSafety` flags: along random games from every
    /// reference position (they thin out into pins, cannon screens and checks of every kind) its
    /// moves and its count must equal the full test of every pseudo-legal move, `gives_check` must
    /// tell the moves that leave the enemy in check, and the quiet checks must be those of them
    /// that neither capture nor move the king.
    #[test]
    fn legal_moves_equal_the_full_test_along_random_games() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let (mut positions, mut quiet_checks) = (0, 0);
        for line in SUITE.lines().filter(|line| !line.trim().is_empty()) {
            let fen = line.split(';').next().unwrap_or_default().trim();
            let start: Position = fen.parse().unwrap_or_else(|error| panic!("{fen}: {error}"));
            for _ in 0..40 {
                let (mut board, mut side) = (start.board, start.side);
                for _ in 0..160 {
                    let expected = fully_tested(&board, side, Generate::All);
                    let mut moves = Moves::new();
                    board.legal_moves(side, Generate::All, &mut moves);
                    let here = || Position::from_parts(board, side, 0, 1).to_fen();
                    assert_eq!(&moves[..], &expected[..], "{}", here());
                    assert_eq!(board.count_legal_moves(side), expected.len(), "{}", here());
                    board.legal_moves(side, Generate::Captures, &mut moves);
                    assert_eq!(&moves[..], &fully_tested(&board, side, Generate::Captures)[..], "{}", here());
                    let checking: Vec<Move> = expected
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            let mut after = board;
                            after.make(mv);
                            after.in_check(side.opponent())
                        })
                        .collect();
                    for &mv in &expected {
                        assert_eq!(board.gives_check(side, mv), checking.contains(&mv), "{mv:?} in {}", here());
                    }
                    let checks: Vec<Move> = checking
                        .into_iter()
                        .filter(|&mv| kind_of(board.piece_at(mv.from)) != Kind::King && board.piece_at(mv.to) == 0)
                        .collect();
                    moves.clear();
                    board.quiet_checks(side, &mut moves);
                    assert_eq!(&moves[..], &checks[..], "quiet checks in {}", here());
                    quiet_checks += checks.len();
                    positions += 1;
                    if expected.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    board.make(expected[(seed % expected.len() as u64) as usize]);
                    side = side.opponent();
                }
            }
        }
        assert!(positions > 50_000, "only {positions} positions");
        assert!(quiet_checks > 10_000, "only {quiet_checks} quiet checks");
    }
}
