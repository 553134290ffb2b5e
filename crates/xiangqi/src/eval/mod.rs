//! Static evaluation. Units: 100 = a horse (UCCI's convention: "100 = one horse or cannon").
//! The ratios between pieces follow ElephantEye's tables (rook ≈ 2.15 horses, advisor and
//! elephant ≈ 0.22, a pawn 0.1 at home and up to about 0.5 near the enemy palace).
//!
//! Every term is a count times a weight pair (middlegame, endgame), so the evaluation is linear
//! in its weights and `tessera tune --game xiangqi` fits them all (Texel tuning, `crate::tuning`);
//! they live in the generated `weights.rs`. The phase is the attacking force on the board
//! ([`attack_force`] of both sides: [`PHASE_MAX`] at the start, 0 with only kings, guards and
//! pawns). Today's weights are the hand-set values with equal halves, so the phase changes nothing
//! yet.
//!
//! Material and piece-square values are summed incrementally by `play`; mobility, king safety and
//! the phase terms are computed at each evaluation.

mod weights;

use std::ops::{Add, AddAssign, Sub, SubAssign};

use tessera_core::Side;
use weights::{
    CANNON_ON_KING_FILE, CANNON_PHASE, HORSE_BLOCKED_LEG, HORSE_MOBILITY, HORSE_PHASE, KING_OFF_BACK_RANK, MATERIAL,
    MISSING_GUARD, MISSING_GUARD_FORCE, PIECE_SQUARE, ROOK_MOBILITY, ROOK_ON_KING_FILE, TEMPO,
};

use crate::board::{offset, Board, HORSE_MOVES, ORTHOGONAL};
use crate::types::{file_of, kind_of, rank_of, side_of, side_tag, Kind, PieceId, Square, FILES, RANKS};

/// Material values by kind (king, advisor, elephant, horse, rook, cannon, pawn) for move ordering
/// and exchanges; the evaluation's own values are its weights.
pub const VALUES: [i32; 7] = [1000, 22, 22, 100, 215, 100, 20];

/// A weight pair: middlegame and endgame values (100 = a horse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    fn add(self, other: S) -> S {
        S(self.0 + other.0, self.1 + other.1)
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, other: S) -> S {
        S(self.0 - other.0, self.1 - other.1)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, other: S) {
        *self = *self + other;
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, other: S) {
        *self = *self - other;
    }
}

/// The phase of a full board (both sides' [`attack_force`]), where only middlegame weights count.
pub const PHASE_MAX: i32 = 16;

/// Files a piece-square table keeps: a–e; files f–i mirror d–a.
pub(crate) const TABLE_FILES: usize = 5;

/// Where each weight group starts in the flat list of weights ([`WEIGHTS`]), in file order.
pub(crate) mod at {
    use super::TABLE_FILES;
    use crate::types::RANKS;

    /// By kind (king … pawn); the king's never counts, as both sides always have one.
    pub const MATERIAL: usize = 0;
    /// By kind, the owner's rank (0 = its back rank) and the file folded onto a–e.
    pub const PIECE_SQUARE: usize = MATERIAL + 7;
    /// Per empty point a rook sees.
    pub const ROOK_MOBILITY: usize = PIECE_SQUARE + 7 * RANKS * TABLE_FILES;
    /// Per point a horse reaches over a free leg (empty or enemy).
    pub const HORSE_MOBILITY: usize = ROOK_MOBILITY + 1;
    /// Per blocked horse leg.
    pub const HORSE_BLOCKED_LEG: usize = HORSE_MOBILITY + 1;
    /// A rook on the enemy king's file, by pieces between (0, 1).
    pub const ROOK_ON_KING_FILE: usize = HORSE_BLOCKED_LEG + 1;
    /// A cannon on the enemy king's file, by pieces between (0, 1).
    pub const CANNON_ON_KING_FILE: usize = ROOK_ON_KING_FILE + 2;
    /// Per missing enemy advisor or elephant, once we have an attack force of 2.
    pub const MISSING_GUARD: usize = CANNON_ON_KING_FILE + 2;
    /// Per missing enemy guard times our attack force, once it is 2.
    pub const MISSING_GUARD_FORCE: usize = MISSING_GUARD + 1;
    /// The enemy king on its own rank 1 or 2, once we have an attack force of 2.
    pub const KING_OFF_BACK_RANK: usize = MISSING_GUARD_FORCE + 1;
    /// Per cannon times (phase − 8).
    pub const CANNON_PHASE: usize = KING_OFF_BACK_RANK + 2;
    /// Per unit of horses × (phase − 8) / 2 (rounded towards zero).
    pub const HORSE_PHASE: usize = CANNON_PHASE + 1;
    /// The side to move.
    pub const TEMPO: usize = HORSE_PHASE + 1;
    /// Weight pairs in all.
    pub const COUNT: usize = TEMPO + 1;
}

/// Every weight pair in one list, in the order of `at`: what the tuner fits.
pub const WEIGHTS: [S; at::COUNT] = flatten();

const fn flatten() -> [S; at::COUNT] {
    let mut weights = [S(0, 0); at::COUNT];
    let mut kind = 0;
    while kind < 7 {
        weights[at::MATERIAL + kind] = MATERIAL[kind];
        let mut rank = 0;
        while rank < RANKS {
            let mut file = 0;
            while file < TABLE_FILES {
                weights[at::PIECE_SQUARE + (kind * RANKS + rank) * TABLE_FILES + file] = PIECE_SQUARE[kind][rank][file];
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    weights[at::ROOK_MOBILITY] = ROOK_MOBILITY;
    weights[at::HORSE_MOBILITY] = HORSE_MOBILITY;
    weights[at::HORSE_BLOCKED_LEG] = HORSE_BLOCKED_LEG;
    weights[at::ROOK_ON_KING_FILE] = ROOK_ON_KING_FILE[0];
    weights[at::ROOK_ON_KING_FILE + 1] = ROOK_ON_KING_FILE[1];
    weights[at::CANNON_ON_KING_FILE] = CANNON_ON_KING_FILE[0];
    weights[at::CANNON_ON_KING_FILE + 1] = CANNON_ON_KING_FILE[1];
    weights[at::MISSING_GUARD] = MISSING_GUARD;
    weights[at::MISSING_GUARD_FORCE] = MISSING_GUARD_FORCE;
    weights[at::KING_OFF_BACK_RANK] = KING_OFF_BACK_RANK[0];
    weights[at::KING_OFF_BACK_RANK + 1] = KING_OFF_BACK_RANK[1];
    weights[at::CANNON_PHASE] = CANNON_PHASE;
    weights[at::HORSE_PHASE] = HORSE_PHASE;
    weights[at::TEMPO] = TEMPO;
    weights
}

/// The piece-square weight of a piece of `kind` on `file` and its owner's rank `own_rank`.
const fn table_weight(kind: Kind, file: usize, own_rank: usize) -> usize {
    let folded = if file < TABLE_FILES { file } else { FILES - 1 - file };
    at::PIECE_SQUARE + (kind as usize * RANKS + own_rank) * TABLE_FILES + folded
}

/// The rank of `square` seen from `side` (0 = its back rank).
const fn own_rank(side: Side, square: Square) -> usize {
    match side {
        Side::First => rank_of(square),
        Side::Second => RANKS - 1 - rank_of(square),
    }
}

/// Material plus piece-square weights by side and kind (`side × 7 + kind`) and mailbox square,
/// built from [`WEIGHTS`] for the sums `play` keeps.
const fn build_table() -> [[[i16; 2]; 256]; 14] {
    let mut table = [[[0i16; 2]; 256]; 14];
    let mut side_index = 0;
    while side_index < 2 {
        let side = if side_index == 0 { Side::First } else { Side::Second };
        let mut kind_index = 0;
        while kind_index < 7 {
            let kind = Kind::ALL[kind_index];
            let mut rank = 0;
            while rank < RANKS {
                let mut file = 0;
                while file < FILES {
                    let square = crate::types::square(file, rank);
                    let material = WEIGHTS[at::MATERIAL + kind_index];
                    let place = WEIGHTS[table_weight(kind, file, own_rank(side, square))];
                    let (mg, eg) = (material.0 + place.0, material.1 + place.1);
                    assert!(mg.abs() <= i16::MAX as i32 && eg.abs() <= i16::MAX as i32, "piece values fit an i16");
                    table[side_index * 7 + kind_index][square as usize] = [mg as i16, eg as i16];
                    file += 1;
                }
                rank += 1;
            }
            kind_index += 1;
        }
        side_index += 1;
    }
    table
}

static PIECE_SQUARE_TABLE: [[[i16; 2]; 256]; 14] = build_table();

/// Material plus piece-square weights of piece `id` on `square`, for its owner.
#[inline(always)]
#[must_use]
pub fn piece_square(id: PieceId, square: Square) -> S {
    let [mg, eg] = PIECE_SQUARE_TABLE[side_of(id).index() * 7 + kind_of(id) as usize][square as usize];
    S(i32::from(mg), i32::from(eg))
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

/// Where the evaluation's terms go: summed with the weights, or counted for the tuner.
pub(crate) trait Terms {
    /// Adds `count` times weight `weight` for `side`.
    fn add(&mut self, side: Side, weight: usize, count: i32);
}

/// The weights summed from one side's point of view.
struct Sum {
    us: Side,
    total: S,
}

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, side: Side, weight: usize, count: i32) {
        let count = if side == self.us { count } else { -count };
        let S(mg, eg) = WEIGHTS[weight];
        self.total.0 += mg * count;
        self.total.1 += eg * count;
    }
}

/// Material and piece-square terms of every piece (what `play` sums incrementally).
pub(crate) fn piece_terms(board: &Board, terms: &mut impl Terms) {
    for id in 16..48u8 {
        let square = board.squares[id as usize];
        if square != 0 {
            let (side, kind) = (side_of(id), kind_of(id));
            terms.add(side, at::MATERIAL + kind as usize, 1);
            terms.add(side, table_weight(kind, file_of(square), own_rank(side, square)), 1);
        }
    }
}

/// Every term but material and piece-square values, both sides, seen from `us`, and the tempo
/// of `us` (the side to move). Returns the phase.
pub(crate) fn dynamic_terms(board: &Board, us: Side, terms: &mut impl Terms) -> i32 {
    let force = [attack_force(board, Side::First), attack_force(board, Side::Second)];
    let phase = force[0] + force[1];
    for side in [us, us.opponent()] {
        mobility(board, side, terms);
        pressure_on_king(board, side, force[side.index()], terms);
        phase_terms(board, side, phase, terms);
    }
    terms.add(us, at::TEMPO, 1);
    phase
}

/// Rook mobility (points along open lines) and horse mobility (a horse with blocked legs is a
/// poor horse) of `side`.
fn mobility(board: &Board, side: Side, terms: &mut impl Terms) {
    let tag = side_tag(side);
    let cells = &board.cells;
    let mut rook_points = 0;
    for id in tag + 7..tag + 9 {
        let from = board.squares[id as usize];
        if from == 0 {
            continue;
        }
        for step in ORTHOGONAL {
            let mut to = offset(from, step);
            while cells[to as usize] == 0 {
                rook_points += 1;
                to = offset(to, step);
            }
        }
    }
    terms.add(side, at::ROOK_MOBILITY, rook_points);
    let enemy = side_tag(side.opponent());
    let (mut reached, mut blocked) = (0, 0);
    for id in tag + 5..tag + 7 {
        let from = board.squares[id as usize];
        if from == 0 {
            continue;
        }
        for (leg, targets) in HORSE_MOVES {
            if cells[offset(from, leg) as usize] == 0 {
                for target in targets {
                    let id = cells[offset(from, target) as usize];
                    if id == 0 || id & enemy != 0 {
                        reached += 1;
                    }
                }
            } else {
                blocked += 1;
            }
        }
    }
    terms.add(side, at::HORSE_MOBILITY, reached);
    terms.add(side, at::HORSE_BLOCKED_LEG, blocked);
}

/// How hard `side`'s rooks and cannons press on the enemy king, and the enemy's missing guards
/// and exposed king once `side`'s attack force (`force`) can use them.
fn pressure_on_king(board: &Board, side: Side, force: i32, terms: &mut impl Terms) {
    let enemy = side.opponent();
    let king = board.king_square(enemy);
    let king_file = file_of(king);
    let tag = side_tag(side);
    for id in tag + 7..tag + 11 {
        let from = board.squares[id as usize];
        if from == 0 || file_of(from) != king_file {
            continue;
        }
        let (low, high) = if from < king { (from, king) } else { (king, from) };
        let between = (low / 16 + 1..high / 16)
            .filter(|&row| board.cells[crate::types::square(king_file, (row - 3) as usize) as usize] != 0)
            .count();
        // The open cannon is the "empty-head cannon": the king can hardly leave its file.
        let weight = match (kind_of(id), between) {
            (Kind::Rook, 0 | 1) => at::ROOK_ON_KING_FILE + between,
            (Kind::Cannon, 0 | 1) => at::CANNON_ON_KING_FILE + between,
            _ => continue,
        };
        terms.add(side, weight, 1);
    }
    if force >= 2 {
        let enemy_tag = side_tag(enemy);
        let guards = (enemy_tag + 1..enemy_tag + 5).filter(|&id| board.squares[id as usize] != 0).count() as i32;
        terms.add(side, at::MISSING_GUARD, 4 - guards);
        terms.add(side, at::MISSING_GUARD_FORCE, (4 - guards) * force);
        // A king pushed off its back rank is exposed (the palace keeps it within rank 2).
        let rank = own_rank(enemy, king);
        if rank > 0 {
            terms.add(side, at::KING_OFF_BACK_RANK + rank - 1, 1);
        }
    }
}

/// Cannons need screens and are worth more with a full board; horses need room and gain as the
/// board empties.
fn phase_terms(board: &Board, side: Side, phase: i32, terms: &mut impl Terms) {
    let tag = side_tag(side);
    let present = |first: u8| (first..first + 2).filter(|&id| board.squares[(tag + id) as usize] != 0).count() as i32;
    let (horses, cannons) = (present(5), present(9));
    terms.add(side, at::CANNON_PHASE, cannons * (phase - 8));
    terms.add(side, at::HORSE_PHASE, horses * (phase - 8) / 2);
}

/// The middlegame and endgame halves of `value` blended by `phase` (0..=[`PHASE_MAX`]).
pub(crate) fn taper(value: S, phase: i32) -> i32 {
    (value.0 * phase + value.1 * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The static evaluation from the side to move `us` of `board`, whose material and piece-square
/// sums by side (kept by `play`) are `psq`. It takes the position's parts rather than a
/// `Position`, which keeps those sums and so sits above this module.
#[must_use]
pub(crate) fn static_evaluation(board: &Board, us: Side, psq: &[S; 2]) -> i32 {
    let mut sum = Sum { us, total: psq[us.index()] - psq[us.opponent().index()] };
    let phase = dynamic_terms(board, us, &mut sum);
    taper(sum.total, phase)
}

#[cfg(test)]
pub(crate) mod tests {
    use tessera_core::{Game, Rng};

    use super::*;
    use crate::{Moves, Position};

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        let start = Position::start();
        assert_eq!(start.static_evaluation(), taper(TEMPO, PHASE_MAX));
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

    /// Random playouts from the start and from the perft suite: a few thousand positions.
    pub(crate) fn playout_positions() -> Vec<Position> {
        let suite = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/xiangqi-perft.epd"));
        let starts: Vec<Position> = suite
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| line.split(';').next().unwrap().trim().parse().unwrap())
            .collect();
        let mut rng = Rng::new(0x07E5_5E7A);
        let mut moves = Moves::new();
        let mut positions = starts.clone();
        for round in 0..40 {
            let mut position = starts[round % starts.len()].clone();
            for _ in 0..200 {
                position.generate_legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play(moves[rng.below(moves.len())]);
                positions.push(position.clone());
            }
        }
        positions
    }

    /// The material and piece-square sums `play` keeps are the sums from scratch.
    #[test]
    fn incremental_sums_are_the_sums_from_scratch() {
        let positions = playout_positions();
        assert!(positions.len() > 3000, "{}", positions.len());
        for position in &positions {
            assert_eq!(position.psq, position.psq_from_scratch(), "{}", position.to_fen());
        }
    }
}
