//! Today's evaluation as it was written before it became linear in weights, frozen for the
//! tests: at the starting weights, [`Position::static_evaluation`] must return exactly what
//! this returns. When fitted weights land, the tests comparing against it retire with them.

use tessera_core::Side;

use super::attack_force;
use crate::board::{offset, Board, HORSE_MOVES, ORTHOGONAL};
use crate::position::Position;
use crate::types::{file_of, kind_of, rank_of, side_of, side_tag, Kind};

/// Material plus position value of a piece of `kind` for its owner, on `file` and the owner's `rank`.
pub(super) const fn value_at(kind: Kind, file: usize, own_rank: usize) -> i32 {
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

/// The old static evaluation from the side to move, material and piece-square values summed
/// from scratch.
pub(super) fn evaluation(position: &Position) -> i32 {
    let board = &position.board;
    let mut psq = [0; 2];
    for id in 16..48u8 {
        let square = board.squares[id as usize];
        if square != 0 {
            let side = side_of(id);
            let own_rank = if side == Side::First { rank_of(square) } else { 9 - rank_of(square) };
            psq[side.index()] += value_at(kind_of(id), file_of(square), own_rank);
        }
    }
    let us = position.side;
    let them = us.opponent();
    let material = psq[us.index()] - psq[them.index()];
    let dynamic = dynamic_terms(board, us) - dynamic_terms(board, them);
    let phase = attack_force(board, us) + attack_force(board, them);
    let phased = phase_terms(board, us, phase) - phase_terms(board, them, phase);
    material + dynamic + phased + TEMPO
}

/// A small bonus for having the move.
const TEMPO: i32 = 4;
