//! Stones coming and going: every change of a point keeps the cells, the neighbourhood codes, the
//! list of empty points, the stones' key and the strings with their liberties in step.

use super::moments::StringInfo;
use super::{neighbors, stone_key, Board, Cell, AROUND};

impl Board {
    /// Adds `p` to the list of empty points.
    pub(super) fn push_empty(&mut self, p: usize) {
        self.empty_slot[p] = self.empty_count as u16;
        self.empties[self.empty_count] = p as u16;
        self.empty_count += 1;
    }

    fn remove_empty(&mut self, p: usize) {
        let slot = usize::from(self.empty_slot[p]);
        self.empty_count -= 1;
        let last = self.empties[self.empty_count];
        self.empties[slot] = last;
        self.empty_slot[usize::from(last)] = slot as u16;
    }

    /// Writes `cell` into the slot of `p` in the codes of the 8 points around it.
    fn set_in_neighborhoods(&mut self, p: usize, cell: Cell) {
        for (slot, offset) in AROUND.iter().enumerate() {
            // `p` sits in the mirrored slot of its neighbour's code.
            let shift = 2 * (7 - slot);
            let code = &mut self.neighborhoods[p.wrapping_add_signed(*offset)];
            *code = *code & !(3 << shift) | (cell as u16) << shift;
        }
    }

    /// Puts a `color` stone on the empty point `p` and joins it to the strings it touches; taking
    /// strings left without liberties is the caller's (`Board::play`).
    pub(super) fn add_stone(&mut self, p: usize, color: Cell) {
        self.cells[p] = color;
        self.set_in_neighborhoods(p, color);
        self.remove_empty(p);
        self.stones_key ^= stone_key(color, p);
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        let mut info = StringInfo::single_stone();
        for n in neighbors(p) {
            match self.cells[n] {
                Cell::Empty => info.add_liberty(n),
                Cell::Border => {}
                _ => {
                    let head = self.string_head(n);
                    self.strings[head].remove_liberty(p);
                }
            }
        }
        self.strings[p] = info;
        for n in neighbors(p) {
            if self.cells[n] == color {
                let (a, b) = (self.string_head(p), self.string_head(n));
                if a != b {
                    self.merge(a, b);
                }
            }
        }
    }

    /// Joins the strings headed by `a` and `b`, relabelling the smaller one.
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.strings[a].stones >= self.strings[b].stones { (a, b) } else { (b, a) };
        let small_info = self.strings[small];
        self.strings[big].absorb(&small_info);
        let mut stone = small;
        loop {
            self.head[stone] = big as u16;
            stone = usize::from(self.next[stone]);
            if stone == small {
                break;
            }
        }
        self.next.swap(big, small);
    }

    /// Removes the string at `p`; returns its size.
    pub(super) fn remove_string(&mut self, p: usize) -> u32 {
        let color = self.cells[p];
        let head = self.string_head(p);
        let stones = self.strings[head].stones;
        let mut stone = head;
        loop {
            self.cells[stone] = Cell::Empty;
            self.set_in_neighborhoods(stone, Cell::Empty);
            self.stones_key ^= stone_key(color, stone);
            self.push_empty(stone);
            stone = usize::from(self.next[stone]);
            if stone == head {
                break;
            }
        }
        loop {
            let following = usize::from(self.next[stone]);
            for n in neighbors(stone) {
                if matches!(self.cells[n], Cell::Black | Cell::White) {
                    let neighbor_head = self.string_head(n);
                    self.strings[neighbor_head].add_liberty(stone);
                }
            }
            stone = following;
            if stone == head {
                break;
            }
        }
        u32::from(stones)
    }
}
