//! Line patterns: what a stone placed on an empty cell makes along one line.
//!
//! A line window is 11 cells centred on the cell, two bits each (0 empty, 1 own, 2 opponent,
//! 3 off the board). The pattern of the centre is classified once per window and per
//! [`WinKind`] and memoised in a lazily filled table, so the board's incremental keys turn into
//! patterns with one table load (after two small class lookups).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use crate::rules::WinKind;

/// Cell code in a window: empty.
pub const EMPTY: u8 = 0;
/// Cell code in a window: a stone of the side the pattern is for.
pub const OWN: u8 = 1;
/// Cell code in a window: an opponent stone.
pub const OPPONENT: u8 = 2;
/// Cell code in a window: off the board.
pub const WALL: u8 = 3;

/// Window half-width: cells `-5..=5` around the centre.
pub const REACH: i32 = 5;
const WINDOW: usize = 11;
const CENTRE: usize = 5;

/// What playing the centre makes on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum LinePattern {
    /// Nothing worth naming.
    None = 0,
    /// A two that can only become a blocked three.
    TwoBlocked,
    /// A two that can become an open three.
    TwoOpen,
    /// A three that can become a four with one five point.
    ThreeBlocked,
    /// A three that can become a straight four (two five points five apart).
    ThreeOpen,
    /// A four with one five point.
    FourBlocked,
    /// A straight four: two five points.
    Four,
    /// Two separate fours on this one line (renju: a double four).
    FourFour,
    /// Six or more in a row where that does not win.
    Overline,
    /// A win.
    Five,
}

impl LinePattern {
    /// Every pattern, in code order.
    pub(crate) const ALL: [LinePattern; 10] = [
        LinePattern::None,
        LinePattern::TwoBlocked,
        LinePattern::TwoOpen,
        LinePattern::ThreeBlocked,
        LinePattern::ThreeOpen,
        LinePattern::FourBlocked,
        LinePattern::Four,
        LinePattern::FourFour,
        LinePattern::Overline,
        LinePattern::Five,
    ];

    /// The pattern with this code (codes come from `self as u8`).
    #[must_use]
    pub fn from_code(code: u8) -> LinePattern {
        LinePattern::ALL.get(usize::from(code)).copied().unwrap_or(LinePattern::None)
    }

    /// How many fours (five threats) the pattern holds.
    #[must_use]
    pub fn fours(self) -> u32 {
        match self {
            LinePattern::FourBlocked | LinePattern::Four => 1,
            LinePattern::FourFour => 2,
            _ => 0,
        }
    }
}

const UNKNOWN: u8 = 0xFF;
/// One table per pair of win kinds (black's, white's); only the pairs of the rules ever played fill.
static TABLES: [OnceLock<LineTable>; WinKind::COUNT * WinKind::COUNT] =
    [const { OnceLock::new() }; WinKind::COUNT * WinKind::COUNT];

/// Both sides' line patterns of every window, for one rule's pair of win kinds, memoised as they
/// are met: one load per cell and direction gives black's and white's pattern (a nibble each).
/// Windows that no rule can tell apart share an entry ([`HALF_CLASSES`] per half), so the table
/// (80 KB) stays in the second-level cache beside the transposition table.
pub struct LineTable {
    kinds: [WinKind; 2],
    entries: Box<[AtomicU8]>,
}

impl LineTable {
    /// The table for black's win kind `kinds[0]` and white's `kinds[1]`.
    #[must_use]
    pub fn get(kinds: [WinKind; 2]) -> &'static LineTable {
        TABLES[kinds[0].index() * WinKind::COUNT + kinds[1].index()].get_or_init(|| LineTable {
            kinds,
            entries: (0..HALF_CLASSES * HALF_CLASSES).map(|_| AtomicU8::new(UNKNOWN)).collect(),
        })
    }

    /// The patterns `[black, white]` of a window key (22 bits, cell `i` at bits `2i`, centre
    /// empty) written with black's stones as own (code 1).
    #[inline]
    #[must_use]
    pub fn patterns(&self, key: u32) -> [LinePattern; 2] {
        let index =
            HALF_INDEX[0][(key & 0x3FF) as usize] as usize + HALF_INDEX[1][((key >> 12) & 0x3FF) as usize] as usize;
        let code = self.entries[index].load(Ordering::Relaxed);
        if code != UNKNOWN {
            return [LinePattern::from_code(code & 0xF), LinePattern::from_code(code >> 4)];
        }
        let both = [classify_key(self.kinds[0], key), classify_key(self.kinds[1], swap_sides(key))];
        // Racing threads compute the same value, so a plain store is enough. Windows of one class
        // classify alike (a test checks every key), so the first one met speaks for the rest.
        self.entries[index].store(both[0] as u8 | (both[1] as u8) << 4, Ordering::Relaxed);
        both
    }
}

/// Distinct half windows once [`canonical_half`] has merged those no rule tells apart.
const HALF_CLASSES: usize = 283;

/// A half window (five cells, the one next to the centre in bits 0–1) with what cannot change a
/// pattern made equal: cells beyond a wall become walls (no line passes a wall), and the
/// outermost cell counts only when it holds a stone (it can only lengthen a run to six or block
/// a five beside it), so there a wall is written as empty.
const fn canonical_half(half: u32) -> u32 {
    let mut out = 0;
    let mut distance = 0;
    while distance < 5 {
        let cell = (half >> (2 * distance)) & 3;
        if cell == WALL as u32 {
            while distance < 4 {
                out |= (WALL as u32) << (2 * distance);
                distance += 1;
            }
            return out;
        }
        out |= cell << (2 * distance);
        distance += 1;
    }
    out
}

/// The five cells of a half window in the opposite order.
const fn reversed_half(half: u32) -> u32 {
    let mut out = 0;
    let mut slot = 0;
    while slot < 5 {
        out |= ((half >> (2 * slot)) & 3) << (2 * (4 - slot));
        slot += 1;
    }
    out
}

/// Each 10-bit half of a window key's share of the table index: `[1]` the class of cells 6–10
/// (the innermost in bits 0–1), `[0]` the class of cells 0–4 (the outermost in bits 0–1) times
/// [`HALF_CLASSES`], so the index is their sum.
static HALF_INDEX: [[u32; 1024]; 2] = {
    let mut class_of = [u32::MAX; 1024];
    let mut classes = 0;
    let mut half = 0;
    while half < 1024 {
        if canonical_half(half as u32) == half as u32 {
            class_of[half] = classes;
            classes += 1;
        }
        half += 1;
    }
    assert!(classes as usize == HALF_CLASSES);
    let mut index = [[0; 1024]; 2];
    let mut half = 0;
    while half < 1024 {
        index[0][half] = class_of[canonical_half(reversed_half(half as u32)) as usize] * HALF_CLASSES as u32;
        index[1][half] = class_of[canonical_half(half as u32) as usize];
        half += 1;
    }
    index
};

/// The same window key seen from the other side: codes 1 and 2 swapped, 0 and 3 kept.
#[inline]
#[must_use]
pub fn swap_sides(key: u32) -> u32 {
    // Flip both bits of each cell whose two bits differ.
    let differ = (key ^ (key >> 1)) & 0x0055_5555;
    key ^ (differ | (differ << 1))
}

/// The pattern of a window key (own = code 1) by `kind`, computed afresh.
fn classify_key(kind: WinKind, key: u32) -> LinePattern {
    let mut cells = [0u8; WINDOW];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = ((key >> (2 * i)) & 3) as u8;
    }
    cells[CENTRE] = OWN;
    classify(&mut cells, kind)
}

/// Whether the own run through `at` includes the centre and wins by `kind`.
fn wins_through(cells: &[u8; WINDOW], at: usize, kind: WinKind) -> bool {
    let (left, right) = run(cells, at);
    if left > CENTRE || right < CENTRE {
        return false;
    }
    let length = right - left + 1;
    match kind {
        WinKind::FiveOrMore => length >= 5,
        WinKind::ExactlyFive => length == 5,
        // A run of exactly five inside the window always has both neighbours in it.
        WinKind::UnblockedFive => length == 5 && !(cells[left - 1] == OPPONENT && cells[right + 1] == OPPONENT),
        // A longer run may reach the window's edge, where the cell beyond is unseen: counted as
        // open. Through the centre that is exact in any real game: five own stones on one side of
        // the centre, open at the centre before this stone, had already won.
        WinKind::UnblockedFiveOrMore => {
            let blocked_left = left > 0 && cells[left - 1] == OPPONENT;
            let blocked_right = right + 1 < WINDOW && cells[right + 1] == OPPONENT;
            length >= 5 && !(blocked_left && blocked_right)
        }
    }
}

fn run(cells: &[u8; WINDOW], at: usize) -> (usize, usize) {
    let mut left = at;
    while left > 0 && cells[left - 1] == OWN {
        left -= 1;
    }
    let mut right = at;
    while right + 1 < WINDOW && cells[right + 1] == OWN {
        right += 1;
    }
    (left, right)
}

/// The five points (as a bit set over the window) of the current line, for fives through the centre.
fn five_points(cells: &mut [u8; WINDOW], kind: WinKind) -> u16 {
    let mut points = 0u16;
    for at in 0..WINDOW {
        if cells[at] == EMPTY {
            cells[at] = OWN;
            if wins_through(cells, at, kind) {
                points |= 1 << at;
            }
            cells[at] = EMPTY;
        }
    }
    points
}

/// Classifies the four level from a five-point set: straight four, double four, blocked four.
fn four_level(points: u16) -> LinePattern {
    match points.count_ones() {
        0 => LinePattern::None,
        1 => LinePattern::FourBlocked,
        _ => {
            // A straight four has its two five points exactly five cells apart.
            let straight = (0..WINDOW - 5).any(|at| points & (1 << at) != 0 && points & (1 << (at + 5)) != 0);
            if straight && points.count_ones() == 2 {
                LinePattern::Four
            } else {
                LinePattern::FourFour
            }
        }
    }
}

fn classify(cells: &mut [u8; WINDOW], kind: WinKind) -> LinePattern {
    if wins_through(cells, CENTRE, kind) {
        return LinePattern::Five;
    }
    let (left, right) = run(cells, CENTRE);
    if right - left + 1 >= 6 {
        return LinePattern::Overline;
    }
    let four = four_level(five_points(cells, kind));
    if four != LinePattern::None {
        return four;
    }
    let three = best_after_one_more(cells, kind, |cells| match four_level(five_points(cells, kind)) {
        LinePattern::Four => 2,
        LinePattern::FourBlocked | LinePattern::FourFour => 1,
        _ => 0,
    });
    match three {
        2 => return LinePattern::ThreeOpen,
        1 => return LinePattern::ThreeBlocked,
        _ => {}
    }
    let two = best_after_one_more(cells, kind, |cells| {
        best_after_one_more(cells, kind, |cells| match four_level(five_points(cells, kind)) {
            LinePattern::Four => 2,
            LinePattern::FourBlocked | LinePattern::FourFour => 1,
            _ => 0,
        })
    });
    match two {
        2 => LinePattern::TwoOpen,
        1 => LinePattern::TwoBlocked,
        _ => LinePattern::None,
    }
}

/// The best `grade` over every empty cell played by us (a stone that does not make five or overline).
fn best_after_one_more(cells: &mut [u8; WINDOW], kind: WinKind, mut grade: impl FnMut(&mut [u8; WINDOW]) -> u8) -> u8 {
    let mut best = 0;
    for at in 0..WINDOW {
        if cells[at] != EMPTY {
            continue;
        }
        cells[at] = OWN;
        let (left, right) = run(cells, at);
        if !wins_through(cells, at, kind) && right - left + 1 < 6 {
            best = best.max(grade(cells));
        }
        cells[at] = EMPTY;
        if best == 2 {
            break;
        }
    }
    best
}

/// Builds a window key from text (`x` own, `o` opponent, `#` wall, `.` empty; `_` is the centre).
#[cfg(test)]
pub(crate) fn key_from_text(text: &str) -> u32 {
    let centre = text.find('_').expect("a centre");
    let mut key = 0u32;
    for (index, ch) in text.chars().enumerate() {
        let slot = index as i32 - centre as i32 + CENTRE as i32;
        if !(0..WINDOW as i32).contains(&slot) {
            continue;
        }
        let code = match ch {
            'x' => OWN,
            'o' => OPPONENT,
            '#' => WALL,
            _ => EMPTY,
        };
        key |= u32::from(code) << (2 * slot);
    }
    // Cells the text does not cover are off the board.
    let first = CENTRE as i32 - centre as i32;
    let last = first + text.len() as i32;
    for slot in 0..WINDOW as i32 {
        if slot < first || slot >= last {
            key |= u32::from(WALL) << (2 * slot);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(kind: WinKind, text: &str) -> LinePattern {
        LineTable::get([kind, WinKind::FiveOrMore]).patterns(key_from_text(text))[0]
    }

    #[test]
    fn classic_shapes() {
        use LinePattern::*;
        let free = WinKind::FiveOrMore;
        assert_eq!(pattern(free, "...xx_xx..."), Five);
        assert_eq!(pattern(free, "..xxx_xx..."), Five);
        assert_eq!(pattern(WinKind::ExactlyFive, "..xxx_xx..."), Overline);
        assert_eq!(pattern(free, "....x_xx..."), Four);
        assert_eq!(pattern(free, "...ox_xx..."), FourBlocked);
        assert_eq!(pattern(free, "...x.x_x.x."), FourFour);
        assert_eq!(pattern(free, "....._xx..."), ThreeOpen);
        assert_eq!(pattern(free, "....._x.x.."), ThreeOpen);
        assert_eq!(pattern(free, "....o_xx..."), ThreeBlocked);
        assert_eq!(pattern(free, "#_xx...."), ThreeBlocked);
        assert_eq!(pattern(free, "....._x...."), TwoOpen);
        assert_eq!(pattern(free, "...o._x...."), TwoOpen);
        assert_eq!(pattern(free, "....o_x..o."), None);
        assert_eq!(pattern(WinKind::UnblockedFive, "..oxx_xxo.."), None);
        assert_eq!(pattern(WinKind::UnblockedFive, "...xx_xxo.."), Five);
        assert_eq!(pattern(WinKind::UnblockedFive, "#xx_xx#"), Five);
        assert_eq!(pattern(WinKind::UnblockedFiveOrMore, ".oxxx_xxo.."), Overline);
        assert_eq!(pattern(WinKind::UnblockedFiveOrMore, "..xxx_xxo.."), Five);
        assert_eq!(pattern(WinKind::UnblockedFiveOrMore, "#xx_xx#"), Five);
        // Exactly five: a four whose one end would make six is blocked there.
        assert_eq!(pattern(WinKind::ExactlyFive, "...x.x_x..."), FourBlocked);
    }

    /// Random window keys with an empty centre (a small xorshift: the test stays reproducible).
    fn random_keys(count: usize) -> impl Iterator<Item = u32> {
        let mut state = 0x9E37_79B9_u32;
        (0..count).map(move |_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state & 0x003F_F3FF
        })
    }

    #[test]
    fn windows_of_one_class_have_the_same_patterns() {
        // Each half canonicalised beside every class of the other half, for every win kind and
        // both sides: then (left, right) ~ (canonical left, right) ~ (canonical left, canonical
        // right) for all 2^20 windows around an empty centre.
        let classes: Vec<u32> = (0..1024).filter(|&half| canonical_half(half) == half).collect();
        assert_eq!(classes.len(), HALF_CLASSES);
        for half in (0..1024).filter(|&half| canonical_half(half) != half) {
            for &class in &classes {
                let pairs = [
                    (reversed_half(half) | class << 12, reversed_half(canonical_half(half)) | class << 12),
                    (reversed_half(class) | half << 12, reversed_half(class) | canonical_half(half) << 12),
                ];
                for (key, same) in pairs {
                    for kind in [
                        WinKind::FiveOrMore,
                        WinKind::ExactlyFive,
                        WinKind::UnblockedFive,
                        WinKind::UnblockedFiveOrMore,
                    ] {
                        for side_key in [|key| key, swap_sides] {
                            assert_eq!(
                                classify_key(kind, side_key(key)),
                                classify_key(kind, side_key(same)),
                                "{kind:?} key {key:#x} against {same:#x}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tables_give_both_sides_patterns() {
        use WinKind::*;
        for kinds in [
            [FiveOrMore, FiveOrMore],
            [ExactlyFive, ExactlyFive],
            [ExactlyFive, FiveOrMore],
            [UnblockedFive, UnblockedFive],
            [UnblockedFiveOrMore, UnblockedFiveOrMore],
        ] {
            let table = LineTable::get(kinds);
            for key in random_keys(5_000) {
                let expected = [classify_key(kinds[0], key), classify_key(kinds[1], swap_sides(key))];
                // The second read comes from the memo.
                assert_eq!(table.patterns(key), expected, "{kinds:?} key {key:#x}");
                assert_eq!(table.patterns(key), expected, "{kinds:?} key {key:#x} memoised");
            }
        }
    }
}
