//! The hand-crafted evaluation: tapered (middlegame/endgame) material and piece-square tables,
//! mobility, pawn structure (passed, isolated, doubled), rooks on open files, king safety and the
//! bishop pair.
//!
//! Every term is a count times a weight pair, so the evaluation is linear in its weights and
//! `tessera tune` fits them all (Texel tuning, [`tuning`]); the fitted values live in the
//! generated [`weights`] module. Values are centipawns from the side to move.

pub mod tuning;
mod weights;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{bit, file_bb, file_of, rank_of, Bitboard, Color, Kind, Square, Squares};
use weights::{
    BISHOP_MOBILITY, BISHOP_PAIR, DOUBLED, ISOLATED, KING_DANGER, KNIGHT_MOBILITY, MATERIAL, PASSED, PAWN_SHIELD,
    PIECE_SQUARE, QUEEN_MOBILITY, ROOK_HALF_OPEN_FILE, ROOK_MOBILITY, ROOK_OPEN_FILE, TEMPO,
};

/// A weight pair: middlegame and endgame centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

/// Game phase weight of each kind (24 = all pieces on the board).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of a full board: all middlegame.
pub const PHASE_MAX: i32 = 24;
/// Penalty weight of each attacker kind on the squares around the king (inside the king-danger term).
const KING_ATTACK_WEIGHT: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Where each weight group starts in the flat list of weights ([`WEIGHTS`]), in file order.
mod at {
    pub const MATERIAL: usize = 0;
    pub const PIECE_SQUARE: usize = MATERIAL + 5;
    pub const PASSED: usize = PIECE_SQUARE + 6 * 64;
    pub const ISOLATED: usize = PASSED + 8;
    pub const DOUBLED: usize = ISOLATED + 1;
    pub const BISHOP_PAIR: usize = DOUBLED + 1;
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    pub const ROOK_HALF_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    /// Knight, bishop, rook and queen mobility tables, by count of reachable squares.
    pub const MOBILITY: [usize; 4] = [KNIGHT_MOBILITY, KNIGHT_MOBILITY + 9, KNIGHT_MOBILITY + 23, KNIGHT_MOBILITY + 38];
    const KNIGHT_MOBILITY: usize = ROOK_HALF_OPEN_FILE + 1;
    pub const KING_DANGER: usize = KNIGHT_MOBILITY + 66;
    pub const PAWN_SHIELD: usize = KING_DANGER + 1;
    pub const TEMPO: usize = PAWN_SHIELD + 1;
    pub const COUNT: usize = TEMPO + 1;
}

/// Every weight pair in one list, in the order of [`at`]: what the tuner fits.
pub const WEIGHTS: [S; at::COUNT] = flatten();

const fn flatten() -> [S; at::COUNT] {
    let mut weights = [S(0, 0); at::COUNT];
    let mut index = 0;
    while index < 5 {
        weights[at::MATERIAL + index] = MATERIAL[index];
        index += 1;
    }
    let mut index = 0;
    while index < 6 * 64 {
        weights[at::PIECE_SQUARE + index] = PIECE_SQUARE[index / 64][index % 64];
        index += 1;
    }
    let mut index = 0;
    while index < 8 {
        weights[at::PASSED + index] = PASSED[index];
        index += 1;
    }
    weights[at::ISOLATED] = ISOLATED;
    weights[at::DOUBLED] = DOUBLED;
    weights[at::BISHOP_PAIR] = BISHOP_PAIR;
    weights[at::ROOK_OPEN_FILE] = ROOK_OPEN_FILE;
    weights[at::ROOK_HALF_OPEN_FILE] = ROOK_HALF_OPEN_FILE;
    let tables: [&[S]; 4] = [&KNIGHT_MOBILITY, &BISHOP_MOBILITY, &ROOK_MOBILITY, &QUEEN_MOBILITY];
    let mut kind = 0;
    while kind < 4 {
        let mut count = 0;
        while count < tables[kind].len() {
            weights[at::MOBILITY[kind] + count] = tables[kind][count];
            count += 1;
        }
        kind += 1;
    }
    weights[at::KING_DANGER] = KING_DANGER;
    weights[at::PAWN_SHIELD] = PAWN_SHIELD;
    weights[at::TEMPO] = TEMPO;
    weights
}

/// Where the evaluation's terms go: summed with the weights, or counted for the tuner.
trait Terms {
    /// Adds `count` times weight `weight` for `color`.
    fn add(&mut self, color: Color, weight: usize, count: i32);
}

/// White-minus-Black sums of weights.
#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Terms for Sum {
    #[inline]
    fn add(&mut self, color: Color, weight: usize, count: i32) {
        let S(mg, eg) = WEIGHTS[weight];
        let count = if color == Color::White { count } else { -count };
        self.mg += mg * count;
        self.eg += eg * count;
    }
}

/// Squares in front of `square` (towards promotion) on its file and the two next to it.
fn front_span(color: Color, square: Square) -> Bitboard {
    let rank = rank_of(square);
    let ahead = match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << (8 * (rank + 1)),
        Color::Black => (1u64 << (8 * rank)) - 1,
    };
    (file_bb(file_of(square)) | adjacent_files(file_of(square))) & ahead
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

fn evaluate_side(board: &Board, us: Color, terms: &mut impl Terms) {
    let them = us.flip();
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
            // Tables are written as seen from White with rank 8 on top.
            let index = usize::from(if us == Color::White { square ^ 56 } else { square });
            if kind != Kind::King {
                terms.add(us, at::MATERIAL + kind.index(), 1);
            }
            terms.add(us, at::PIECE_SQUARE + kind.index() * 64 + index, 1);
            let attacks = match kind {
                Kind::Knight => knight_attacks(square),
                Kind::Bishop => bishop_attacks(square, occupied),
                Kind::Rook => rook_attacks(square, occupied),
                Kind::Queen => queen_attacks(square, occupied),
                _ => continue,
            };
            // Mobility: squares not blocked by our pieces nor covered by enemy pawns.
            let mobility = (attacks & !ours & !enemy_pawn_attacks).count_ones() as usize;
            terms.add(us, at::MOBILITY[kind.index() - 1] + mobility, 1);
            let zone_hits = (attacks & king_zone).count_ones() as i32;
            if zone_hits > 0 {
                attackers += 1;
                king_attack += zone_hits * KING_ATTACK_WEIGHT[kind.index()];
            }
        }
    }
    // King safety: attacks on the enemy king zone count more when several pieces join in.
    if attackers >= 2 && board.pieces(us, Kind::Queen) != 0 {
        terms.add(us, at::KING_DANGER, king_attack * king_attack * attackers / 4);
    }
    // Our own pawn shield in front of a king on its first two ranks.
    let king = board.king(us);
    let ahead_one = king_attacks(king) & front_span(us, king);
    let ahead_two = if us == Color::White { ahead_one << 8 } else { ahead_one >> 8 };
    let shield = our_pawns & (ahead_one | ahead_two);
    if Board::relative_rank(us, king) <= 1 {
        terms.add(us, at::PAWN_SHIELD, shield.count_ones().min(3) as i32);
    }

    // Pawn structure.
    for square in Squares(our_pawns) {
        let file = file_of(square);
        if their_pawns & front_span(us, square) == 0 && our_pawns & front_span(us, square) & file_bb(file) == 0 {
            terms.add(us, at::PASSED + usize::from(Board::relative_rank(us, square)), 1);
        }
        if our_pawns & adjacent_files(file) == 0 {
            terms.add(us, at::ISOLATED, 1);
        }
    }
    for file in 0..8 {
        let count = (our_pawns & file_bb(file)).count_ones() as i32;
        if count > 1 {
            terms.add(us, at::DOUBLED, count - 1);
        }
    }
    for square in Squares(board.pieces(us, Kind::Rook)) {
        let file = file_bb(file_of(square));
        if file & our_pawns == 0 {
            let weight = if file & their_pawns == 0 { at::ROOK_OPEN_FILE } else { at::ROOK_HALF_OPEN_FILE };
            terms.add(us, weight, 1);
        }
    }
    if board.pieces(us, Kind::Bishop).count_ones() >= 2 {
        terms.add(us, at::BISHOP_PAIR, 1);
    }
}

/// The game phase of `board`: [`PHASE_MAX`] with every piece on, 0 with pawns and kings only.
fn phase(board: &Board) -> i32 {
    let phase: i32 = Kind::ALL.iter().map(|kind| PHASE[kind.index()] * board.kind(*kind).count_ones() as i32).sum();
    phase.min(PHASE_MAX)
}

/// Blends a middlegame and an endgame value by `phase`.
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The evaluation of `board` in centipawns for the side to move.
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    if board.insufficient_material() {
        return taper(TEMPO.0, TEMPO.1, phase(board));
    }
    let mut sum = Sum::default();
    evaluate_side(board, Color::White, &mut sum);
    evaluate_side(board, Color::Black, &mut sum);
    let phase = phase(board);
    let value = taper(sum.mg, sum.eg, phase);
    let value = if board.side_to_move() == Color::White { value } else { -value };
    value + taper(TEMPO.0, TEMPO.1, phase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_score_the_tempo() {
        let tempo = taper(TEMPO.0, TEMPO.1, PHASE_MAX);
        let board = Board::from_fen(crate::START_FEN).unwrap();
        assert_eq!(evaluate(&board), tempo);
        let mirrored = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&mirrored), tempo);
    }

    #[test]
    fn material_and_passed_pawns_count() {
        let up_a_rook = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_rook) > 400);
        let passer = Board::from_fen("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1").unwrap();
        let blocked = Board::from_fen("4k3/1p6/1P6/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&passer) > evaluate(&blocked));
    }

    /// The position with colours swapped and the board flipped top to bottom.
    fn mirrored(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let swap = |text: &str| -> String {
            text.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        };
        let board: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        format!("{} {side} {} - 0 1", board.join("/"), swap(fields[2]))
    }

    #[test]
    fn colours_mirror() {
        for fen in [
            "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 7",
            "8/5k2/3p4/1p1P4/1P3K2/8/8/8 w - - 0 50",
            "2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N2Q2/PPP2PPP/R1B2RK1 w - - 4 14",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let mirror = Board::from_fen(&mirrored(fen)).unwrap();
            assert_eq!(evaluate(&board), evaluate(&mirror), "{fen}");
        }
    }
}
