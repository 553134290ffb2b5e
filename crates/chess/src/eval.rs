//! The hand-crafted evaluation: tapered (middlegame/endgame) material and piece-square tables,
//! mobility, pawn structure (passed pawns with their path and the kings' distances, connected,
//! backward, isolated, doubled), threats, outposts, rooks on open files, king safety (attacks on
//! the king zone, safe checks, open files by the king, pawn shield) and the bishop pair.
//!
//! Every term is a count times a weight pair, so the evaluation is linear in its weights and
//! `tessera tune` fits them all (Texel tuning, [`tuning`]); the fitted values live in the
//! generated [`weights`] module. Values are centipawns from the side to move.

pub mod tuning;
mod weights;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::Board;
use crate::types::{bit, file_bb, file_of, rank_bb, rank_of, Bitboard, Color, Kind, Square, Squares};
use weights::{
    BACKWARD, BISHOP_MOBILITY, BISHOP_PAIR, CONNECTED, DOUBLED, HANGING, ISOLATED, KING_DANGER, KING_OPEN_FILES,
    KING_ZONE_ATTACKS, KNIGHT_MOBILITY, MATERIAL, MINOR_BEHIND_PAWN, OUTPOST, PASSED, PASSED_BLOCKED, PASSED_OUR_KING,
    PASSED_SAFE_PUSH, PASSED_THEIR_KING, PAWN_SHIELD, PIECE_SQUARE, QUEEN_MOBILITY, ROOK_HALF_OPEN_FILE, ROOK_MOBILITY,
    ROOK_OPEN_FILE, SAFE_CHECK, TEMPO, THREAT_BY_MINOR, THREAT_BY_PAWN, THREAT_BY_ROOK,
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
    pub const PASSED_BLOCKED: usize = TEMPO + 1;
    pub const PASSED_SAFE_PUSH: usize = PASSED_BLOCKED + 8;
    pub const PASSED_OUR_KING: usize = PASSED_SAFE_PUSH + 8;
    pub const PASSED_THEIR_KING: usize = PASSED_OUR_KING + 8;
    pub const CONNECTED: usize = PASSED_THEIR_KING + 8;
    pub const BACKWARD: usize = CONNECTED + 8;
    /// Threats by kind of the piece attacked (pawn … king; the king's entry is never counted).
    pub const THREAT_BY_PAWN: usize = BACKWARD + 1;
    pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
    pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
    pub const HANGING: usize = THREAT_BY_ROOK + 6;
    /// Safe checks by kind of the checking piece (knight … queen at their kind's index).
    pub const SAFE_CHECK: usize = HANGING + 1;
    pub const KING_ZONE_ATTACKS: usize = SAFE_CHECK + 6;
    pub const KING_OPEN_FILES: usize = KING_ZONE_ATTACKS + 1;
    /// Knight and bishop outposts.
    pub const OUTPOST: usize = KING_OPEN_FILES + 4;
    pub const MINOR_BEHIND_PAWN: usize = OUTPOST + 2;
    pub const COUNT: usize = MINOR_BEHIND_PAWN + 1;
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
    let tables: [(usize, &[S]); 14] = [
        (at::PASSED_BLOCKED, &PASSED_BLOCKED),
        (at::PASSED_SAFE_PUSH, &PASSED_SAFE_PUSH),
        (at::PASSED_OUR_KING, &PASSED_OUR_KING),
        (at::PASSED_THEIR_KING, &PASSED_THEIR_KING),
        (at::CONNECTED, &CONNECTED),
        (at::BACKWARD, &[BACKWARD]),
        (at::THREAT_BY_PAWN, &THREAT_BY_PAWN),
        (at::THREAT_BY_MINOR, &THREAT_BY_MINOR),
        (at::THREAT_BY_ROOK, &THREAT_BY_ROOK),
        (at::HANGING, &[HANGING]),
        (at::SAFE_CHECK, &SAFE_CHECK),
        (at::KING_ZONE_ATTACKS, &[KING_ZONE_ATTACKS]),
        (at::KING_OPEN_FILES, &KING_OPEN_FILES),
        (at::OUTPOST, &OUTPOST),
    ];
    let mut table = 0;
    while table < tables.len() {
        let (start, values) = tables[table];
        let mut index = 0;
        while index < values.len() {
            weights[start + index] = values[index];
            index += 1;
        }
        table += 1;
    }
    weights[at::MINOR_BEHIND_PAWN] = MINOR_BEHIND_PAWN;
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

/// The squares one side's pieces attack, gathered once per evaluation for both sides.
#[derive(Clone, Copy, Default)]
struct AttackMap {
    /// By the attacking kind: pawn, knight, bishop, rook, queen, king.
    by_kind: [Bitboard; 6],
    all: Bitboard,
}

impl AttackMap {
    fn of(board: &Board, color: Color) -> AttackMap {
        let occupied = board.occupied();
        let mut map = AttackMap::default();
        for kind in Kind::ALL {
            let mut attacked = 0;
            for square in Squares(board.pieces(color, kind)) {
                attacked |= piece_attacks(kind, color, square, occupied);
            }
            map.by_kind[kind.index()] = attacked;
            map.all |= attacked;
        }
        map
    }
}

fn piece_attacks(kind: Kind, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        Kind::Pawn => pawn_attacks(color, square),
        Kind::Knight => knight_attacks(square),
        Kind::Bishop => bishop_attacks(square, occupied),
        Kind::Rook => rook_attacks(square, occupied),
        Kind::Queen => queen_attacks(square, occupied),
        Kind::King => king_attacks(square),
    }
}

/// The square in front of `square` for `color`'s pawns (the caller knows it is on the board).
fn push_square(color: Color, square: Square) -> Square {
    if color == Color::White {
        square + 8
    } else {
        square - 8
    }
}

/// King moves between two squares.
fn distance(a: Square, b: Square) -> usize {
    usize::from(file_of(a).abs_diff(file_of(b)).max(rank_of(a).abs_diff(rank_of(b))))
}

fn evaluate_side(board: &Board, us: Color, maps: &[AttackMap; 2], terms: &mut impl Terms) {
    let them = us.flip();
    let (mine, theirs) = (&maps[us.index()], &maps[them.index()]);
    let occupied = board.occupied();
    let ours = board.color(us);
    let our_pawns = board.pieces(us, Kind::Pawn);
    let their_pawns = board.pieces(them, Kind::Pawn);
    let enemy_pawn_attacks = theirs.by_kind[Kind::Pawn.index()];
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
            if matches!(kind, Kind::Pawn | Kind::King) {
                continue;
            }
            let attacks = piece_attacks(kind, us, square, occupied);
            // Mobility: squares not blocked by our pieces nor covered by enemy pawns.
            let mobility = (attacks & !ours & !enemy_pawn_attacks).count_ones() as usize;
            terms.add(us, at::MOBILITY[kind.index() - 1] + mobility, 1);
            let zone_hits = (attacks & king_zone).count_ones() as i32;
            if zone_hits > 0 {
                attackers += 1;
                king_attack += zone_hits * KING_ATTACK_WEIGHT[kind.index()];
            }
            if matches!(kind, Kind::Knight | Kind::Bishop) {
                minor_placement(board, us, kind, square, mine, terms);
            }
        }
    }
    // King safety: attacks on the enemy king zone count more when several pieces join in.
    terms.add(us, at::KING_ZONE_ATTACKS, king_attack);
    if attackers >= 2 && board.pieces(us, Kind::Queen) != 0 {
        terms.add(us, at::KING_DANGER, king_attack * king_attack * attackers / 4);
    }
    // Safe checks: squares from which a piece of ours can check, that it reaches and they do not guard.
    let safe = !ours & !theirs.all;
    let bishop_lines = bishop_attacks(their_king, occupied);
    let rook_lines = rook_attacks(their_king, occupied);
    let checks = [0, knight_attacks(their_king), bishop_lines, rook_lines, bishop_lines | rook_lines, 0];
    for kind in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen] {
        let count = (checks[kind.index()] & mine.by_kind[kind.index()] & safe).count_ones() as i32;
        terms.add(us, at::SAFE_CHECK + kind.index(), count);
    }
    // Our own king: the pawn shield in front of it, and files by it without our pawns.
    let king = board.king(us);
    let ahead_one = king_attacks(king) & front_span(us, king);
    let ahead_two = if us == Color::White { ahead_one << 8 } else { ahead_one >> 8 };
    let shield = our_pawns & (ahead_one | ahead_two);
    if Board::relative_rank(us, king) <= 1 {
        terms.add(us, at::PAWN_SHIELD, shield.count_ones().min(3) as i32);
    }
    let king_files = file_bb(file_of(king)) | adjacent_files(file_of(king));
    let open_files = (0..8).filter(|&file| king_files & file_bb(file) != 0 && our_pawns & file_bb(file) == 0).count();
    terms.add(us, at::KING_OPEN_FILES + open_files, 1);

    threats(board, us, mine, theirs, terms);
    pawn_structure(board, us, mine, theirs, terms);
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

/// A knight or bishop on an outpost (ranks 4–6, guarded by a pawn of ours, out of reach of their
/// pawns), or sheltered right behind a pawn of ours.
fn minor_placement(board: &Board, us: Color, kind: Kind, square: Square, mine: &AttackMap, terms: &mut impl Terms) {
    let them = us.flip();
    let rank = Board::relative_rank(us, square);
    let reachable_by_their_pawns = front_span(us, square) & !file_bb(file_of(square)) & board.pieces(them, Kind::Pawn);
    if (3..=5).contains(&rank) && mine.by_kind[Kind::Pawn.index()] & bit(square) != 0 && reachable_by_their_pawns == 0 {
        terms.add(us, at::OUTPOST + kind.index() - 1, 1);
    }
    if rank < 7 && board.pieces(us, Kind::Pawn) & bit(push_square(us, square)) != 0 {
        terms.add(us, at::MINOR_BEHIND_PAWN, 1);
    }
}

/// Their pieces attacked by our pawns, minor pieces and rooks, and those left undefended.
fn threats(board: &Board, us: Color, mine: &AttackMap, theirs: &AttackMap, terms: &mut impl Terms) {
    let them = us.flip();
    let minors = mine.by_kind[Kind::Knight.index()] | mine.by_kind[Kind::Bishop.index()];
    for kind in [Kind::Pawn, Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen] {
        let targets = board.pieces(them, kind);
        if kind != Kind::Pawn {
            let count = (targets & mine.by_kind[Kind::Pawn.index()]).count_ones() as i32;
            terms.add(us, at::THREAT_BY_PAWN + kind.index(), count);
        }
        terms.add(us, at::THREAT_BY_MINOR + kind.index(), (targets & minors).count_ones() as i32);
        terms.add(
            us,
            at::THREAT_BY_ROOK + kind.index(),
            (targets & mine.by_kind[Kind::Rook.index()]).count_ones() as i32,
        );
    }
    let pieces = board.color(them) & !board.pieces(them, Kind::Pawn) & !board.pieces(them, Kind::King);
    terms.add(us, at::HANGING, (pieces & mine.all & !theirs.all).count_ones() as i32);
}

/// Passed pawns (with their path and the kings' distances to it), connected, backward, isolated
/// and doubled pawns.
fn pawn_structure(board: &Board, us: Color, mine: &AttackMap, theirs: &AttackMap, terms: &mut impl Terms) {
    let them = us.flip();
    let our_pawns = board.pieces(us, Kind::Pawn);
    let their_pawns = board.pieces(them, Kind::Pawn);
    let our_pawn_attacks = mine.by_kind[Kind::Pawn.index()];
    for square in Squares(our_pawns) {
        let file = file_of(square);
        let rank = Board::relative_rank(us, square);
        let span = front_span(us, square);
        if their_pawns & span == 0 && our_pawns & span & file_bb(file) == 0 {
            let rank_index = usize::from(rank);
            terms.add(us, at::PASSED + rank_index, 1);
            // A passed pawn is below its last rank, so the square in front of it exists.
            let stop = push_square(us, square);
            if board.occupied() & bit(stop) != 0 {
                terms.add(us, at::PASSED_BLOCKED + rank_index, 1);
            } else if theirs.all & bit(stop) == 0 {
                terms.add(us, at::PASSED_SAFE_PUSH + rank_index, 1);
            }
            // The kings race to the pawn's path: it matters from the middle of the board on.
            if rank >= 3 {
                terms.add(us, at::PASSED_OUR_KING + distance(board.king(us), stop), 1);
                terms.add(us, at::PASSED_THEIR_KING + distance(board.king(them), stop), 1);
            }
        }
        let neighbours = our_pawns & adjacent_files(file);
        if neighbours == 0 {
            terms.add(us, at::ISOLATED, 1);
        }
        let phalanx = neighbours & rank_bb(rank_of(square));
        if phalanx != 0 || our_pawn_attacks & bit(square) != 0 {
            terms.add(us, at::CONNECTED + usize::from(rank), 1);
        } else if neighbours != 0 && neighbours & !front_span(us, square) == 0 {
            // Backward: every neighbour is ahead, so none can come to its support, and the square
            // in front is held by an enemy pawn.
            if rank < 7 && theirs.by_kind[Kind::Pawn.index()] & bit(push_square(us, square)) != 0 {
                terms.add(us, at::BACKWARD, 1);
            }
        }
    }
    for file in 0..8 {
        let count = (our_pawns & file_bb(file)).count_ones() as i32;
        if count > 1 {
            terms.add(us, at::DOUBLED, count - 1);
        }
    }
}

/// Both sides' attack maps, White's first.
fn attack_maps(board: &Board) -> [AttackMap; 2] {
    [AttackMap::of(board, Color::White), AttackMap::of(board, Color::Black)]
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
    let maps = attack_maps(board);
    evaluate_side(board, Color::White, &maps, &mut sum);
    evaluate_side(board, Color::Black, &maps, &mut sum);
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
