//! Attack tables: leaper attacks, fancy-magic sliding attacks, and the lines between squares.
//!
//! The tables are built once (about a millisecond in release builds) on first use. Magic
//! multipliers are found at start-up from fixed per-rank seeds (the seeds Stockfish uses with the
//! same xorshift generator), so the search for them is short and always finds the same numbers.

use std::sync::OnceLock;

use crate::types::{bit, file_of, rank_of, Bitboard, Color, Square};

/// One square's magic lookup: `table[offset + ((occupied & mask) * magic) >> shift]`.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    sliding: Vec<Bitboard>,
    /// Squares strictly between two squares on a line (empty when not aligned).
    between: Box<[[Bitboard; 64]; 64]>,
    /// The whole line through two aligned squares, edge to edge (empty when not aligned).
    line: Box<[[Bitboard; 64]; 64]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline]
fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

/// Squares a knight on `square` attacks.
#[inline]
#[must_use]
pub fn knight_attacks(square: Square) -> Bitboard {
    tables().knight[square as usize]
}

/// Squares a king on `square` attacks.
#[inline]
#[must_use]
pub fn king_attacks(square: Square) -> Bitboard {
    tables().king[square as usize]
}

/// Squares a pawn of `color` on `square` attacks.
#[inline]
#[must_use]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    tables().pawn[color.index()][square as usize]
}

#[inline]
fn magic_lookup(tables: &Tables, magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied & magic.mask).wrapping_mul(magic.magic) >> magic.shift) as usize;
    // SAFETY-free indexing: `build` sized `sliding` to hold every offset + index it can produce.
    tables.sliding[magic.offset + index]
}

/// Squares a rook on `square` attacks with `occupied` blocking.
#[inline]
#[must_use]
pub fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    let tables = tables();
    magic_lookup(tables, &tables.rook_magics[square as usize], occupied)
}

/// Squares a bishop on `square` attacks with `occupied` blocking.
#[inline]
#[must_use]
pub fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    let tables = tables();
    magic_lookup(tables, &tables.bishop_magics[square as usize], occupied)
}

/// Squares a queen on `square` attacks with `occupied` blocking.
#[inline]
#[must_use]
pub fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(square, occupied) | bishop_attacks(square, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    tables().between[a as usize][b as usize]
}

/// The full line through `a` and `b` when aligned (including both); else empty.
#[inline]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    tables().line[a as usize][b as usize]
}

const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn offset_square(square: Square, file_step: i8, rank_step: i8) -> Option<Square> {
    let file = file_of(square) as i8 + file_step;
    let rank = rank_of(square) as i8 + rank_step;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as Square)
}

fn slide(square: Square, occupied: Bitboard, directions: &[(i8, i8); 4]) -> Bitboard {
    let mut attacks = 0;
    for &(file_step, rank_step) in directions {
        let mut current = square;
        while let Some(next) = offset_square(current, file_step, rank_step) {
            attacks |= bit(next);
            if occupied & bit(next) != 0 {
                break;
            }
            current = next;
        }
    }
    attacks
}

fn leaper(square: Square, steps: &[(i8, i8)]) -> Bitboard {
    steps.iter().filter_map(|&(f, r)| offset_square(square, f, r)).fold(0, |acc, s| acc | bit(s))
}

/// Stockfish's xorshift64* generator: the fixed seeds below find every magic quickly.
struct MagicRng(u64);

impl MagicRng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(2_685_821_657_736_338_717)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

const MAGIC_SEEDS: [u64; 8] = [728, 10316, 55013, 32803, 12281, 15100, 16645, 255];

fn build_magics(directions: &[(i8, i8); 4], sliding: &mut Vec<Bitboard>) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occupancies = Vec::with_capacity(4096);
    let mut references = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut attempt = 0u32;
    for square in 0..64u8 {
        let edges = ((rank_of_bb(0) | rank_of_bb(7)) & !rank_of_bb(rank_of(square)))
            | ((file_of_bb(0) | file_of_bb(7)) & !file_of_bb(file_of(square)));
        let mask = slide(square, 0, directions) & !edges;
        let bits = mask.count_ones();
        let shift = 64 - bits;
        // Carry-rippler: every subset of the mask.
        occupancies.clear();
        references.clear();
        let mut subset: Bitboard = 0;
        loop {
            occupancies.push(subset);
            references.push(slide(square, subset, directions));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let size = occupancies.len();
        let offset = sliding.len();
        sliding.resize(offset + size, 0);
        let mut rng = MagicRng(MAGIC_SEEDS[rank_of(square) as usize]);
        loop {
            let magic = loop {
                let candidate = rng.sparse();
                if (candidate.wrapping_mul(mask) >> 56).count_ones() >= 6 {
                    break candidate;
                }
            };
            attempt += 1;
            let mut ok = true;
            for (occupancy, reference) in occupancies.iter().zip(&references) {
                let index = (occupancy.wrapping_mul(magic) >> shift) as usize;
                if epoch[index] < attempt {
                    epoch[index] = attempt;
                    sliding[offset + index] = *reference;
                } else if sliding[offset + index] != *reference {
                    ok = false;
                    break;
                }
            }
            if ok {
                magics[square as usize] = Magic { mask, magic, shift, offset };
                break;
            }
        }
    }
    magics
}

const fn rank_of_bb(rank: u8) -> Bitboard {
    0xFFu64 << (8 * rank)
}

const fn file_of_bb(file: u8) -> Bitboard {
    0x0101_0101_0101_0101u64 << file
}

fn build() -> Tables {
    let mut knight = [0; 64];
    let mut king = [0; 64];
    let mut pawn = [[0; 64]; 2];
    for square in 0..64u8 {
        let s = square as usize;
        knight[s] = leaper(square, &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
        king[s] = leaper(square, &[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
        pawn[0][s] = leaper(square, &[(-1, 1), (1, 1)]);
        pawn[1][s] = leaper(square, &[(-1, -1), (1, -1)]);
    }
    let mut sliding = Vec::with_capacity(102_400 + 5_248);
    let rook_magics = build_magics(&ROOK_DIRECTIONS, &mut sliding);
    let bishop_magics = build_magics(&BISHOP_DIRECTIONS, &mut sliding);
    let mut between = Box::new([[0; 64]; 64]);
    let mut line = Box::new([[0; 64]; 64]);
    for a in 0..64u8 {
        for (directions, _) in [(&ROOK_DIRECTIONS, 0), (&BISHOP_DIRECTIONS, 1)] {
            let from_a = slide(a, 0, directions);
            for b in 0..64u8 {
                if from_a & bit(b) == 0 {
                    continue;
                }
                between[a as usize][b as usize] = slide(a, bit(b), directions) & slide(b, bit(a), directions);
                line[a as usize][b as usize] = (from_a & slide(b, 0, directions)) | bit(a) | bit(b);
            }
        }
    }
    Tables { knight, king, pawn, rook_magics, bishop_magics, sliding, between, line }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_slow_sliding() {
        let mut rng = MagicRng(99);
        for _ in 0..2000 {
            let occupied = rng.sparse() | rng.sparse();
            let square = (rng.next() % 64) as Square;
            assert_eq!(rook_attacks(square, occupied), slide(square, occupied, &ROOK_DIRECTIONS));
            assert_eq!(bishop_attacks(square, occupied), slide(square, occupied, &BISHOP_DIRECTIONS));
        }
    }

    #[test]
    fn lines_and_betweens() {
        // a1 (0) and h8 (63): the long diagonal.
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(line(0, 9).count_ones(), 8);
        assert_eq!(between(0, 17), 0); // a knight's jump is not a line
        assert_eq!(line(0, 17), 0);
        assert_eq!(knight_attacks(0).count_ones(), 2);
        assert_eq!(pawn_attacks(Color::White, 8), bit(17));
    }
}
