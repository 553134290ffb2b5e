//! Legal move generation: checks, pins, en passant discovered checks and Chess960 castling are
//! resolved here, so every generated move is legal and no move is tried and taken back.

use crate::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks};
use crate::board::{Board, NO_SQUARE};
use crate::moves::{Move, MoveKind};
use crate::types::{bit, lsb, rank_bb, Bitboard, CastleSide, Color, Kind, Square, Squares};

/// Where generated moves go: a move list, or a counter for perft's bulk counting.
pub(crate) trait MoveSink {
    /// One move.
    fn push(&mut self, mv: Move);

    /// Plain moves from `from` to each square of `targets`.
    #[inline]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        for to in Squares(targets) {
            self.push(Move::normal(from, to));
        }
    }

    /// The four promotions of a pawn moving from `from` to `to`.
    #[inline]
    fn push_promotions(&mut self, from: Square, to: Square) {
        for kind in [Kind::Queen, Kind::Knight, Kind::Rook, Kind::Bishop] {
            self.push(Move::new(from, to, MoveKind::Promotion(kind)));
        }
    }
}

/// Counts moves without storing them.
pub(crate) struct Counter(pub u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_targets(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }

    #[inline]
    fn push_promotions(&mut self, _from: Square, _to: Square) {
        self.0 += 4;
    }
}

impl<const N: usize> MoveSink for tessera_core::MoveList<Move, N> {
    #[inline]
    fn push(&mut self, mv: Move) {
        tessera_core::MoveList::push(self, mv);
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Every legal move.
    All,
    /// Captures and promotions only (quiescence); every legal move when in check.
    Tactical,
}

impl Board {
    /// Enemy sliders' pinned pieces of the side to move (pieces of ours alone between them and our king).
    #[inline]
    fn pinned(&self, king: Square, us: Color) -> Bitboard {
        let them = self.color(us.flip());
        let occupied = self.occupied();
        let queens = self.kind(Kind::Queen);
        let snipers = (rook_attacks(king, 0) & (self.kind(Kind::Rook) | queens) & them)
            | (bishop_attacks(king, 0) & (self.kind(Kind::Bishop) | queens) & them);
        let mut pinned = 0;
        for sniper in Squares(snipers) {
            let blockers = between(king, sniper) & occupied;
            if blockers.count_ones() == 1 {
                pinned |= blockers & self.color(us);
            }
        }
        pinned
    }

    /// Generates the legal moves of `mode` into `sink`.
    pub(crate) fn generate<S: MoveSink>(&self, sink: &mut S, mode: Mode) {
        let us = self.side;
        let them = us.flip();
        let ours = self.color(us);
        let theirs = self.color(them);
        let occupied = ours | theirs;
        let king = self.king(us);
        let checkers = self.attackers_to(king, occupied) & theirs;

        // King steps: the king itself must not block the attacker's ray to its new square.
        let without_king = occupied ^ bit(king);
        let mut king_targets = king_attacks(king) & !ours;
        if mode == Mode::Tactical && checkers == 0 {
            king_targets &= theirs;
        }
        for to in Squares(king_targets) {
            if !self.is_attacked(to, them, without_king) {
                sink.push(Move::normal(king, to));
            }
        }
        if checkers.count_ones() > 1 {
            return;
        }
        let mut target = if checkers != 0 { between(king, lsb(checkers)) | checkers } else { !ours };
        if mode == Mode::Tactical && checkers == 0 {
            target &= theirs;
        }
        let pinned = self.pinned(king, us);

        for from in Squares(self.pieces(us, Kind::Knight) & !pinned) {
            sink.push_targets(from, knight_attacks(from) & target);
        }
        let queens = self.pieces(us, Kind::Queen);
        for from in Squares((self.pieces(us, Kind::Bishop) | queens) & !pinned) {
            sink.push_targets(from, bishop_attacks(from, occupied) & target);
        }
        for from in Squares((self.pieces(us, Kind::Rook) | queens) & !pinned) {
            sink.push_targets(from, rook_attacks(from, occupied) & target);
        }
        // Pinned sliders move along the pin line (pinned knights cannot move at all).
        for from in Squares((self.pieces(us, Kind::Bishop) | queens) & pinned) {
            sink.push_targets(from, bishop_attacks(from, occupied) & target & line(king, from));
        }
        for from in Squares((self.pieces(us, Kind::Rook) | queens) & pinned) {
            sink.push_targets(from, rook_attacks(from, occupied) & target & line(king, from));
        }

        self.generate_pawns(sink, mode, king, target, pinned, checkers);

        if checkers == 0 && mode == Mode::All {
            self.generate_castling(sink, king);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn generate_pawns<S: MoveSink>(
        &self,
        sink: &mut S,
        mode: Mode,
        king: Square,
        target: Bitboard,
        pinned: Bitboard,
        checkers: Bitboard,
    ) {
        let us = self.side;
        let them = us.flip();
        let theirs = self.color(them);
        let occupied = self.occupied();
        let empty = !occupied;
        let pawns = self.pieces(us, Kind::Pawn);
        let (last_rank, third_rank, up): (Bitboard, Bitboard, i8) = match us {
            Color::White => (rank_bb(7), rank_bb(2), 8),
            Color::Black => (rank_bb(0), rank_bb(5), -8),
        };
        let shift = |bb: Bitboard, by: i8| if by > 0 { bb << by } else { bb >> -by };
        let quiet_target = if mode == Mode::Tactical && checkers == 0 { last_rank & empty } else { target };

        // Unpinned pawns, set-wise.
        let free = pawns & !pinned;
        let single = shift(free, up) & empty;
        let double = shift(single & third_rank, up) & empty & quiet_target;
        let single = single & (quiet_target | (last_rank & target));
        for to in Squares(single & !last_rank) {
            sink.push(Move::normal((to as i8 - up) as Square, to));
        }
        for to in Squares(single & last_rank) {
            sink.push_promotions((to as i8 - up) as Square, to);
        }
        for to in Squares(double) {
            sink.push(Move::normal((to as i8 - 2 * up) as Square, to));
        }
        let not_a = !0x0101_0101_0101_0101u64;
        let not_h = !0x8080_8080_8080_8080u64;
        // Captures towards the h-file (+1) and the a-file (-1).
        for (step, mask) in [(up + 1, not_a), (up - 1, not_h)] {
            let captures = shift(free, step) & mask & theirs & target;
            for to in Squares(captures & !last_rank) {
                sink.push(Move::normal((to as i8 - step) as Square, to));
            }
            for to in Squares(captures & last_rank) {
                sink.push_promotions((to as i8 - step) as Square, to);
            }
        }

        // Pinned pawns, one by one, along their pin line.
        for from in Squares(pawns & pinned) {
            let pin_line = line(king, from);
            let mut targets = pawn_attacks(us, from) & theirs & target;
            let one = Board::forward(us, from);
            if empty & bit(one) != 0 {
                targets |= bit(one) & quiet_target;
                if Board::relative_rank(us, from) == 1 {
                    let two = Board::forward(us, one);
                    if empty & bit(two) != 0 {
                        targets |= bit(two) & quiet_target;
                    }
                }
            }
            for to in Squares(targets & pin_line) {
                if bit(to) & last_rank != 0 {
                    sink.push_promotions(from, to);
                } else {
                    sink.push(Move::normal(from, to));
                }
            }
        }

        // En passant: rare, so checked exactly by looking at the king's lines after the capture.
        if self.ep != NO_SQUARE {
            let ep = self.ep;
            let captured = ep ^ 8;
            for from in Squares(pawn_attacks(them, ep) & pawns) {
                let after = (occupied ^ bit(from) ^ bit(captured)) | bit(ep);
                let rooks = (self.kind(Kind::Rook) | self.kind(Kind::Queen)) & theirs;
                let bishops = (self.kind(Kind::Bishop) | self.kind(Kind::Queen)) & theirs;
                let exposed = rook_attacks(king, after) & rooks | bishop_attacks(king, after) & bishops;
                let other_checkers = checkers & !bit(captured) & !(rooks | bishops);
                if exposed == 0 && other_checkers == 0 {
                    sink.push(Move::new(from, ep, MoveKind::EnPassant));
                }
            }
        }
    }

    fn generate_castling<S: MoveSink>(&self, sink: &mut S, king: Square) {
        let us = self.side;
        for side in CastleSide::BOTH {
            let rook = self.castle_rooks[us.index()][side.index()];
            if rook == NO_SQUARE {
                continue;
            }
            if self.castling_is_legal(king, rook) {
                sink.push(Move::new(king, rook, MoveKind::Castle));
            }
        }
    }

    /// Whether castling with the king on `king` and the rook on `rook` is legal now (not in check).
    pub(crate) fn castling_is_legal(&self, king: Square, rook: Square) -> bool {
        let us = self.side;
        let (king_to, rook_to) = Board::castle_targets(us, king, rook);
        let movers = bit(king) | bit(rook);
        let occupied = self.occupied() ^ movers;
        // Every square either piece crosses or lands on must be empty (but for the two movers).
        let path = between(king, king_to) | bit(king_to) | between(rook, rook_to) | bit(rook_to);
        if path & occupied != 0 {
            return false;
        }
        // The king may not cross or land on an attacked square; the castling rook, gone from its
        // square, shields nothing (a Chess960 subtlety).
        let crossed = between(king, king_to) | bit(king_to);
        !Squares(crossed).any(|square| self.is_attacked(square, us.flip(), occupied))
    }
}
