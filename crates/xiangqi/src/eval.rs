//! Static evaluation. Units: 100 = a horse (UCCI's convention: "100 = one horse or cannon").
//! The ratios between pieces follow ElephantEye's tables (rook ≈ 2.15 horses, advisor and
//! elephant ≈ 0.22, a pawn 0.1 at home and up to about 0.5 near the enemy palace).
//!
//! Material and piece-square values are summed incrementally by `play`; mobility and king
//! safety are computed at each evaluation.

use tessera_core::Side;

use crate::board::{offset, Board, HORSE_MOVES, ORTHOGONAL};
use crate::position::Position;
use crate::types::{file_of, kind_of, rank_of, side_of, side_tag, Kind, PieceId, Square, FILES, RANKS};

/// Material values by kind (king, advisor, elephant, horse, rook, cannon, pawn): ordering and exchanges.
pub const VALUES: [i32; 7] = [1000, 22, 22, 100, 215, 100, 20];

/// Material plus position value of a piece of `kind` for its owner, on `file` and the owner's `rank`.
const fn value_at(kind: Kind, file: usize, own_rank: usize) -> i32 {
    let centre = file.abs_diff(4) as i32;
    match kind {
        Kind::King => match own_rank {
            0 => 4,
            1 => -4,
            _ => -10,
        },
        Kind::Advisor => 40 + if file == 4 { 4 } else { 0 },
        Kind::Elephant => {
            40 + if file == 4 {
                4
            } else if file == 0 || file == 8 {
                -4
            } else {
                0
            }
        }
        Kind::Horse => {
            const ADVANCE: [i32; 10] = [-6, 0, 4, 6, 10, 14, 16, 18, 14, 4];
            let edge = if file == 0 || file == 8 { -8 } else { 0 };
            100 + ADVANCE[own_rank] + edge + 2 - centre
        }
        Kind::Rook => {
            const ADVANCE: [i32; 10] = [-2, 2, 0, 4, 6, 6, 6, 8, 10, 6];
            let rib = if file == 3 || file == 5 { 3 } else { 0 };
            215 + ADVANCE[own_rank] + rib
        }
        Kind::Cannon => {
            const ADVANCE: [i32; 10] = [2, 2, 4, 2, 2, 2, 2, 0, 0, 4];
            let central = if file == 4 { 6 } else { 0 };
            100 + ADVANCE[own_rank] + central
        }
        Kind::Pawn => {
            // Elephant Eye's scale: a pawn at home is worth little, one near the palace a lot.
            if own_rank <= 4 {
                10 + if file == 4 { 3 } else { 0 }
            } else {
                const ADVANCE: [i32; 10] = [0, 0, 0, 0, 0, 0, 6, 12, 16, 0];
                const CENTRE: [i32; 5] = [10, 8, 4, 0, -2];
                22 + ADVANCE[own_rank] + CENTRE[centre as usize]
            }
        }
    }
}

const fn build_table() -> [[i16; 256]; 14] {
    let mut table = [[0i16; 256]; 14];
    let mut side = 0;
    while side < 2 {
        let mut kind_index = 0;
        while kind_index < 7 {
            let kind = Kind::ALL[kind_index];
            let mut rank = 0;
            while rank < RANKS {
                let mut file = 0;
                while file < FILES {
                    let own_rank = if side == 0 { rank } else { 9 - rank };
                    table[side * 7 + kind_index][crate::types::square(file, rank) as usize] =
                        value_at(kind, file, own_rank) as i16;
                    file += 1;
                }
                rank += 1;
            }
            kind_index += 1;
        }
        side += 1;
    }
    table
}

static PIECE_SQUARE: [[i16; 256]; 14] = build_table();

/// Material plus piece-square value of piece `id` on `square`, for its owner.
#[inline(always)]
#[must_use]
pub fn piece_square(id: PieceId, square: Square) -> i32 {
    i32::from(PIECE_SQUARE[side_of(id).index() * 7 + kind_of(id) as usize][square as usize])
}

/// Counts of attacking pieces (rooks count twice): a side with fewer than 2 can hardly mate.
#[must_use]
pub fn attack_force(board: &Board, side: Side) -> i32 {
    let tag = side_tag(side);
    let mut force = 0;
    for id in tag + 5..tag + 11 {
        if board.squares[id as usize] != 0 {
            force += if kind_of(id) == Kind::Rook { 2 } else { 1 };
        }
    }
    force
}

/// Mobility and king-safety terms of `side` (positive is good for `side`).
fn dynamic_terms(board: &Board, side: Side) -> i32 {
    let tag = side_tag(side);
    let cells = &board.cells;
    let mut score = 0;
    // Rook mobility: squares along open lines.
    for id in tag + 7..tag + 9 {
        let from = board.squares[id as usize];
        if from == 0 {
            continue;
        }
        for step in ORTHOGONAL {
            let mut to = offset(from, step);
            while cells[to as usize] == 0 {
                score += 1;
                to = offset(to, step);
            }
        }
    }
    // Horse mobility: a horse with blocked legs is a poor horse.
    for id in tag + 5..tag + 7 {
        let from = board.squares[id as usize];
        if from == 0 {
            continue;
        }
        for (leg, targets) in HORSE_MOVES {
            if cells[offset(from, leg) as usize] == 0 {
                for target in targets {
                    let id = cells[offset(from, target) as usize];
                    if id == 0 || id & side_tag(side.opponent()) != 0 {
                        score += 3;
                    }
                }
            } else {
                score -= 2;
            }
        }
    }
    score + pressure_on_king(board, side)
}

/// How hard `side`'s rooks and cannons press on the enemy king, less the enemy's missing guards.
fn pressure_on_king(board: &Board, side: Side) -> i32 {
    let enemy = side.opponent();
    let king = board.king_square(enemy);
    let king_file = file_of(king);
    let tag = side_tag(side);
    let mut score = 0;
    for id in tag + 7..tag + 11 {
        let from = board.squares[id as usize];
        if from == 0 || file_of(from) != king_file {
            continue;
        }
        let (low, high) = if from < king { (from, king) } else { (king, from) };
        let between = (low / 16 + 1..high / 16)
            .filter(|&row| board.cells[crate::types::square(king_file, (row - 3) as usize) as usize] != 0)
            .count();
        score += match (kind_of(id), between) {
            (Kind::Rook, 0) => 25,
            (Kind::Cannon, 0) => 30, // the "empty-head cannon": the king can hardly leave its file
            (Kind::Cannon, 1) => 10,
            (Kind::Rook, 1) => 6,
            _ => 0,
        };
    }
    // Missing advisors and elephants count once the attacker has the force to use them.
    let force = attack_force(board, side);
    if force >= 2 {
        let enemy_tag = side_tag(enemy);
        let guards = (enemy_tag + 1..enemy_tag + 5).filter(|&id| board.squares[id as usize] != 0).count() as i32;
        score += (4 - guards) * (4 + 3 * force);
        // A king pushed off its back rank is exposed.
        let own_rank = if enemy == Side::First { rank_of(king) } else { 9 - rank_of(king) };
        score += own_rank as i32 * 6;
    }
    score
}

/// Cannons need screens and are worth more with a full board; horses need room and gain as the
/// board empties. `phase` counts rooks twice and horses and cannons once, both sides (16 at the start).
fn phase_terms(board: &Board, side: Side, phase: i32) -> i32 {
    let tag = side_tag(side);
    let present = |first: u8| (first..first + 2).filter(|&id| board.squares[(tag + id) as usize] != 0).count() as i32;
    let (horses, cannons) = (present(5), present(9));
    cannons * (phase - 8) - horses * (phase - 8) / 2
}

impl Position {
    /// The static evaluation from the side to move.
    #[must_use]
    pub fn static_evaluation(&self) -> i32 {
        let us = self.side;
        let them = us.opponent();
        let material = self.psq[us.index()] - self.psq[them.index()];
        let dynamic = dynamic_terms(&self.board, us) - dynamic_terms(&self.board, them);
        let phase = attack_force(&self.board, us) + attack_force(&self.board, them);
        let phased = phase_terms(&self.board, us, phase) - phase_terms(&self.board, them, phase);
        material + dynamic + phased + TEMPO
    }
}

/// A small bonus for having the move.
const TEMPO: i32 = 4;

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let start = Position::start();
        assert_eq!(start.static_evaluation(), super::TEMPO);
        let no_rook: Position = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".parse().unwrap();
        assert!(no_rook.static_evaluation() > 200, "{}", no_rook.static_evaluation());
    }

    /// The same position with colours swapped (board turned around) must evaluate the same.
    #[test]
    fn evaluation_is_colour_symmetric() {
        let suite = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/xiangqi-perft.epd"));
        for line in suite.lines().filter(|line| !line.trim().is_empty()) {
            let fen = line.split(';').next().unwrap().trim();
            let mut fields = fen.split_whitespace();
            let board = fields.next().unwrap();
            let side = fields.next().unwrap();
            let flipped_board: Vec<String> = board
                .split('/')
                .rev()
                .map(|rank| {
                    rank.chars()
                        .rev()
                        .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                        .collect()
                })
                .collect();
            let flipped = format!("{} {}", flipped_board.join("/"), if side == "w" { "b" } else { "w" });
            let a: Position = fen.parse().unwrap();
            let b: Position = flipped.parse().unwrap();
            assert_eq!(a.static_evaluation(), b.static_evaluation(), "{fen} vs {flipped}");
        }
    }
}
