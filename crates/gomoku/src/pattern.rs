//! Line patterns: what a stone placed on an empty cell makes along one line.
//!
//! A line window is 11 cells centred on the cell, two bits each (0 empty, 1 own, 2 opponent,
//! 3 off the board). The pattern of the centre is classified once per window and per
//! [`WinKind`] and memoised in a lazily filled table, so the board's incremental keys turn into
//! patterns with one load.

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
const TABLE_SIZE: usize = 1 << 20;
static TABLES: [OnceLock<Box<[AtomicU8]>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The pattern for a window key (22 bits, cell `i` at bits `2i`, centre empty), own = code 1.
#[must_use]
pub fn lookup(kind: WinKind, key: u32) -> LinePattern {
    let table = TABLES[kind.index()].get_or_init(|| (0..TABLE_SIZE).map(|_| AtomicU8::new(UNKNOWN)).collect());
    let index = ((key & 0x3FF) | ((key >> 12) << 10)) as usize & (TABLE_SIZE - 1);
    let code = table[index].load(Ordering::Relaxed);
    if code != UNKNOWN {
        return LinePattern::from_code(code);
    }
    let mut cells = [0u8; WINDOW];
    for (i, cell) in cells.iter_mut().enumerate() {
        *cell = ((key >> (2 * i)) & 3) as u8;
    }
    cells[CENTRE] = OWN;
    let pattern = classify(&mut cells, kind);
    // Racing threads compute the same value, so a plain store is enough.
    table[index].store(pattern as u8, Ordering::Relaxed);
    pattern
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
        lookup(kind, key_from_text(text))
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
        // Exactly five: a four whose one end would make six is blocked there.
        assert_eq!(pattern(WinKind::ExactlyFive, "...x.x_x..."), FourBlocked);
    }
}
