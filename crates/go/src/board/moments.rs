//! What a string knows of its liberties without walking them: the count and the first four
//! power sums of its pseudo-liberties.

/// Pseudo-liberty statistics of one string, stored at its representative stone: the count and the
/// first four power sums of its liberty points, each liberty counted once per stone it touches.
/// Such a weighted set of points has as many distinct points as the rank of its moments' Hankel
/// matrix, which tells one or two liberties apart from more, and names them, in O(1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct StringInfo {
    /// Stone–empty adjacencies (a liberty touched by two stones counts twice); below 4 · 625.
    pub(super) pseudo: u16,
    /// Stones in the string.
    pub(super) stones: u16,
    /// Sum of the liberty points over those adjacencies.
    sum: u32,
    /// Sum of their squares (below 2500 · 729², which fits).
    sum_squares: u32,
    /// Sum of their cubes.
    sum_cubes: u64,
    /// Sum of their fourth powers.
    sum_fourths: u64,
}

impl StringInfo {
    /// A new stone's string, liberties still to add.
    pub(super) fn single_stone() -> StringInfo {
        StringInfo { stones: 1, ..StringInfo::default() }
    }

    pub(super) fn add_liberty(&mut self, p: usize) {
        let (square, cube) = (p * p, p * p * p);
        self.pseudo += 1;
        self.sum += p as u32;
        self.sum_squares += square as u32;
        self.sum_cubes += cube as u64;
        self.sum_fourths += (square * square) as u64;
    }

    pub(super) fn remove_liberty(&mut self, p: usize) {
        let (square, cube) = (p * p, p * p * p);
        self.pseudo -= 1;
        self.sum -= p as u32;
        self.sum_squares -= square as u32;
        self.sum_cubes -= cube as u64;
        self.sum_fourths -= (square * square) as u64;
    }

    pub(super) fn absorb(&mut self, other: &StringInfo) {
        self.pseudo += other.pseudo;
        self.stones += other.stones;
        self.sum += other.sum;
        self.sum_squares += other.sum_squares;
        self.sum_cubes += other.sum_cubes;
        self.sum_fourths += other.sum_fourths;
    }

    /// Exactly one distinct liberty: all pseudo-liberties are the same point, which holds iff
    /// `sum² = pseudo · sum_squares` (Cauchy–Schwarz is tight only for equal values).
    pub(super) fn in_atari(&self) -> bool {
        self.pseudo > 0
            && u64::from(self.sum) * u64::from(self.sum) == u64::from(self.pseudo) * u64::from(self.sum_squares)
    }

    /// The liberty of a string in atari: every pseudo-liberty is that point.
    pub(super) fn only_liberty(&self) -> usize {
        (self.sum / u32::from(self.pseudo)) as usize
    }

    /// The liberties, smaller first, when there are at most two distinct ones (a single liberty
    /// fills both entries).
    pub(super) fn liberties_up_to_two(&self) -> Option<[usize; 2]> {
        if self.in_atari() {
            return Some([self.only_liberty(); 2]);
        }
        // A liberty touches at most four stones, so nine pseudo-liberties are three points or more.
        if !(2..=8).contains(&self.pseudo) {
            return None;
        }
        let [m0, m1, m2, m3, m4] = [
            i128::from(self.pseudo),
            i128::from(self.sum),
            i128::from(self.sum_squares),
            i128::from(self.sum_cubes),
            i128::from(self.sum_fourths),
        ];
        // The 2 × 2 determinant is the variance (times m0²), not zero: the points are not all one.
        let spread = m0 * m2 - m1 * m1;
        if m0 * (m2 * m4 - m3 * m3) - m1 * (m1 * m4 - m2 * m3) + m2 * (m1 * m3 - m2 * m2) != 0 {
            return None;
        }
        // Two points a, b are the roots of x² − s·x + q; the moments obey m[k+2] = s·m[k+1] − q·m[k].
        // These terms stay below 2⁴⁵ (eight pseudo-liberties of points below 729), so the divisions
        // run on 64 bits, not through the slow 128-bit division.
        let [spread, sum_numerator, product_numerator] =
            [spread, m0 * m3 - m1 * m2, m1 * m3 - m2 * m2].map(|term| term as i64);
        let sum = sum_numerator / spread;
        let product = product_numerator / spread;
        let gap = (sum * sum - 4 * product).isqrt();
        Some([((sum - gap) / 2) as usize, ((sum + gap) / 2) as usize])
    }
}
