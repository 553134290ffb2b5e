//! Static evaluation: tapered (middlegame/endgame) material and piece-square tables, mobility,
//! pawn structure (passed, isolated, doubled), king safety and the bishop pair.
//!
//! Values are centipawns from the side to move. The tables are the well-known "simplified
//! evaluation function" shapes with PeSTO-like material; they are hand-set, not tuned.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{bit, file_bb, file_of, rank_of, Bitboard, Color, Kind, Square, Squares};

/// Middlegame and endgame material of pawn, knight, bishop, rook, queen, king.
pub const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
/// See [`MATERIAL_MG`].
pub const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];
/// Game phase weight of each kind (24 = all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

// Tables are written as seen from White with rank 8 on top; index with `square ^ 56` for White.
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
     5,  5, 10, 25, 25, 10,  5,  5,
     0,  0,  0, 20, 20,  0,  0,  0,
     5, -5,-10,  0,  0,-10, -5,  5,
     5, 10, 10,-20,-20, 10, 10,  5,
     0,  0,  0,  0,  0,  0,  0,  0];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
    80, 80, 80, 80, 80, 80, 80, 80,
    50, 50, 50, 50, 50, 50, 50, 50,
    30, 30, 30, 30, 30, 30, 30, 30,
    15, 15, 15, 15, 15, 15, 15, 15,
     5,  5,  5,  5,  5,  5,  5,  5,
     0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0];
#[rustfmt::skip]
const KNIGHT: [i32; 64] = [
   -50,-40,-30,-30,-30,-30,-40,-50,
   -40,-20,  0,  0,  0,  0,-20,-40,
   -30,  0, 10, 15, 15, 10,  0,-30,
   -30,  5, 15, 20, 20, 15,  5,-30,
   -30,  0, 15, 20, 20, 15,  0,-30,
   -30,  5, 10, 15, 15, 10,  5,-30,
   -40,-20,  0,  5,  5,  0,-20,-40,
   -50,-40,-30,-30,-30,-30,-40,-50];
#[rustfmt::skip]
const BISHOP: [i32; 64] = [
   -20,-10,-10,-10,-10,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5, 10, 10,  5,  0,-10,
   -10,  5,  5, 10, 10,  5,  5,-10,
   -10,  0, 10, 10, 10, 10,  0,-10,
   -10, 10, 10, 10, 10, 10, 10,-10,
   -10,  5,  0,  0,  0,  0,  5,-10,
   -20,-10,-10,-10,-10,-10,-10,-20];
#[rustfmt::skip]
const ROOK: [i32; 64] = [
     0,  0,  0,  0,  0,  0,  0,  0,
     5, 10, 10, 10, 10, 10, 10,  5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
    -5,  0,  0,  0,  0,  0,  0, -5,
     0,  0,  0,  5,  5,  0,  0,  0];
#[rustfmt::skip]
const QUEEN: [i32; 64] = [
   -20,-10,-10, -5, -5,-10,-10,-20,
   -10,  0,  0,  0,  0,  0,  0,-10,
   -10,  0,  5,  5,  5,  5,  0,-10,
    -5,  0,  5,  5,  5,  5,  0, -5,
     0,  0,  5,  5,  5,  5,  0, -5,
   -10,  5,  5,  5,  5,  5,  0,-10,
   -10,  0,  5,  0,  0,  0,  0,-10,
   -20,-10,-10, -5, -5,-10,-10,-20];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -30,-40,-40,-50,-50,-40,-40,-30,
   -20,-30,-30,-40,-40,-30,-30,-20,
   -10,-20,-20,-20,-20,-20,-20,-10,
    20, 20,  0,  0,  0,  0, 20, 20,
    20, 30, 10,  0,  0, 10, 30, 20];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
   -50,-40,-30,-20,-20,-30,-40,-50,
   -30,-20,-10,  0,  0,-10,-20,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 30, 40, 40, 30,-10,-30,
   -30,-10, 20, 30, 30, 20,-10,-30,
   -30,-30,  0,  0,  0,  0,-30,-30,
   -50,-30,-30,-30,-30,-30,-30,-50];

const PST_MG: [&[i32; 64]; 6] = [&PAWN_MG, &KNIGHT, &BISHOP, &ROOK, &QUEEN, &KING_MG];
const PST_EG: [&[i32; 64]; 6] = [&PAWN_EG, &KNIGHT, &BISHOP, &ROOK, &QUEEN, &KING_EG];

/// Passed pawn bonus by relative rank (middlegame, endgame).
const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 30, 50, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 75, 120, 0];
const ISOLATED: (i32, i32) = (-10, -15);
const DOUBLED: (i32, i32) = (-10, -20);
const BISHOP_PAIR: (i32, i32) = (30, 50);
/// Rooks on files without pawns (open) or without our pawns (half-open).
const ROOK_OPEN_FILE: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN_FILE: (i32, i32) = (12, 6);
/// Mobility per reachable square above a typical count, for knight, bishop, rook, queen.
const MOBILITY: [(i32, i32, i32); 4] = [(4, 4, 4), (5, 5, 6), (2, 4, 6), (1, 2, 12)];
/// Penalty per weighted attack on the squares around the king (middlegame only).
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];
const PAWN_SHIELD: i32 = 12;
const TEMPO: i32 = 10;

/// Middlegame and endgame sums.
#[derive(Clone, Copy, Default)]
struct Terms {
    mg: i32,
    eg: i32,
}

impl Terms {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// Squares in front of `square` (towards promotion) on its file and the two next to it.
fn front_span(color: Color, square: Square) -> Bitboard {
    let file = file_of(square);
    let mut files = file_bb(file);
    if file > 0 {
        files |= file_bb(file - 1);
    }
    if file < 7 {
        files |= file_bb(file + 1);
    }
    let rank = rank_of(square);
    let ahead = match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
    };
    files & ahead
}

fn adjacent_files(file: u8) -> Bitboard {
    let mut files = 0;
    if file > 0 {
        files |= file_bb(file - 1);
    }
    if file < 7 {
        files |= file_bb(file + 1);
    }
    files
}

fn evaluate_side(board: &Board, us: Color) -> Terms {
    let them = us.flip();
    let mut terms = Terms::default();
    let occupied = board.occupied();
    let ours = board.color(us);
    let our_pawns = board.pieces(us, Kind::Pawn);
    let their_pawns = board.pieces(them, Kind::Pawn);
    let mut enemy_pawn_attacks = 0;
    for square in Squares(their_pawns) {
        enemy_pawn_attacks |= pawn_attacks(them, square);
    }
    let their_king = board.king(them);
    let king_zone = king_attacks(their_king) | bit(their_king);
    let mut king_attack = 0;
    let mut attackers = 0;

    for kind in Kind::ALL {
        for square in Squares(board.pieces(us, kind)) {
            let index = if us == Color::White { square ^ 56 } else { square } as usize;
            terms.add(
                MATERIAL_MG[kind.index()] + PST_MG[kind.index()][index],
                MATERIAL_EG[kind.index()] + PST_EG[kind.index()][index],
            );
            let attacks = match kind {
                Kind::Knight => knight_attacks(square),
                Kind::Bishop => bishop_attacks(square, occupied),
                Kind::Rook => rook_attacks(square, occupied),
                Kind::Queen => queen_attacks(square, occupied),
                _ => continue,
            };
            let (mg, eg, typical) = MOBILITY[kind.index() - 1];
            let mobility = (attacks & !ours & !enemy_pawn_attacks).count_ones() as i32 - typical;
            terms.add(mg * mobility, eg * mobility);
            let zone_hits = (attacks & king_zone).count_ones() as i32;
            if zone_hits > 0 {
                attackers += 1;
                king_attack += zone_hits * KING_ATTACK_WEIGHT[kind.index()];
            }
        }
    }
    // King safety: attacks on the enemy king zone count more when several pieces join in.
    if attackers >= 2 && board.pieces(us, Kind::Queen) != 0 {
        terms.add(king_attack * king_attack * attackers / 4, 0);
    }
    // Our own pawn shield in front of a castled king.
    let king = board.king(us);
    let ahead_one = king_attacks(king) & front_span(us, king);
    let ahead_two = if us == Color::White { ahead_one << 8 } else { ahead_one >> 8 };
    let shield = our_pawns & (ahead_one | ahead_two);
    if Board::relative_rank(us, king) <= 1 {
        terms.add(PAWN_SHIELD * shield.count_ones().min(3) as i32, 0);
    }

    // Pawn structure.
    for square in Squares(our_pawns) {
        let file = file_of(square);
        if their_pawns & front_span(us, square) == 0 && our_pawns & front_span(us, square) & file_bb(file) == 0 {
            let rank = Board::relative_rank(us, square) as usize;
            terms.add(PASSED_MG[rank], PASSED_EG[rank]);
        }
        if our_pawns & adjacent_files(file) == 0 {
            terms.add(ISOLATED.0, ISOLATED.1);
        }
    }
    for file in 0..8 {
        let count = (our_pawns & file_bb(file)).count_ones() as i32;
        if count > 1 {
            terms.add(DOUBLED.0 * (count - 1), DOUBLED.1 * (count - 1));
        }
    }
    for square in Squares(board.pieces(us, Kind::Rook)) {
        let file = file_bb(file_of(square));
        if file & our_pawns == 0 {
            let bonus = if file & their_pawns == 0 { ROOK_OPEN_FILE } else { ROOK_HALF_OPEN_FILE };
            terms.add(bonus.0, bonus.1);
        }
    }
    if board.pieces(us, Kind::Bishop).count_ones() >= 2 {
        terms.add(BISHOP_PAIR.0, BISHOP_PAIR.1);
    }
    terms
}

/// The evaluation of `board` in centipawns for the side to move.
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    let white = evaluate_side(board, Color::White);
    let black = evaluate_side(board, Color::Black);
    let phase: i32 = Kind::ALL.iter().map(|kind| PHASE[kind.index()] * board.kind(*kind).count_ones() as i32).sum();
    let phase = phase.min(24);
    let mg = white.mg - black.mg;
    let eg = white.eg - black.eg;
    let mut value = (mg * phase + eg * (24 - phase)) / 24;
    if board.insufficient_material() {
        value = 0;
    }
    let value = if board.side_to_move() == Color::White { value } else { -value };
    value + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_score_the_tempo() {
        let board = Board::from_fen(crate::START_FEN).unwrap();
        assert_eq!(evaluate(&board), TEMPO);
        let mirrored = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&mirrored), TEMPO);
    }

    #[test]
    fn material_and_passed_pawns_count() {
        let up_a_rook = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_rook) > 400);
        let passer = Board::from_fen("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1").unwrap();
        let blocked = Board::from_fen("4k3/1p6/1P6/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&passer) > evaluate(&blocked));
    }
}
