//! A transposition table sized in MiB and shared by all search threads without locks.
//!
//! Each entry is two `AtomicU64`: the packed data and `key ^ data`. A reader accepts an entry
//! only if `stored_key ^ data == key`, so a torn write by another thread reads as a miss rather
//! than as a wrong entry (the "lockless hashing" of Hyatt and Mann).
//!
//! The buckets come from the allocator's zeroed memory, which the system hands out lazily
//! (`zeroed.rs`).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::score::{Bound, MATE_BOUND};
use crate::zeroed::{Zeroable, ZeroedSlice};

const NO_MOVE: u16 = 0xFFFF;
const ENTRIES_PER_BUCKET: usize = 4;

/// What the table remembers about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best or refuting move found, as [`crate::PackedMove::to_bits`].
    pub move_bits: Option<u16>,
    /// The search value, already adjusted back to "mate in plies from this node" (see `store`).
    pub value: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The remaining depth the value was searched to.
    pub depth: i32,
    /// Whether `value` is exact, a lower bound or an upper bound.
    pub bound: Bound,
}

impl TtEntry {
    /// Whether the stored value settles a search with window `(alpha, beta)`.
    #[must_use]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
        }
    }

    /// Whether the stored value is a better estimate than `eval`: exact, or a bound on the side
    /// away from it (a lower bound above it, an upper bound below it), and not a mate score.
    #[must_use]
    pub fn refines(&self, eval: i32) -> bool {
        self.value.abs() < MATE_BOUND
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.value > eval,
                Bound::Upper => self.value < eval,
            }
    }
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

// SAFETY: a bucket is atomics only; all-zero bytes are empty slots.
unsafe impl Zeroable for Bucket {}

type Buckets = ZeroedSlice<Bucket>;

/// The shared table. Resizing and clearing need `&mut self`; probing and storing take `&self`.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    megabytes: usize,
}

impl TranspositionTable {
    /// A table of `megabytes` MiB, or less when the system cannot give that much: the size is
    /// clamped to the available memory ([`crate::memory::clamp_mb`]) and halved until the
    /// allocation succeeds. Never aborts for want of memory; [`Self::megabytes`] says what was had.
    #[must_use]
    pub fn new(megabytes: usize) -> Self {
        let mut megabytes = crate::memory::clamp_mb(megabytes);
        loop {
            let count = (megabytes * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
            if let Some(buckets) = Buckets::new(count) {
                return TranspositionTable { buckets, generation: AtomicU8::new(0), megabytes };
            }
            if megabytes == 1 {
                // Not even one MiB: a single bucket keeps the search working.
                return TranspositionTable { buckets: Buckets::single(), generation: AtomicU8::new(0), megabytes: 0 };
            }
            megabytes /= 2;
        }
    }

    /// The table's size in MiB (0 when the system refused even one).
    #[must_use]
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Replaces the table by an empty one of `megabytes` MiB (or what the system gives, see [`Self::new`]).
    pub fn resize(&mut self, megabytes: usize) {
        // Free the old table first: the new one may need its memory.
        self.buckets = Buckets::single();
        *self = TranspositionTable::new(megabytes);
    }

    /// Forgets every entry. The memory goes back to the system and comes again zeroed on first
    /// touch, so clearing a table of many GiB takes no time and leaves the process small.
    pub fn clear(&mut self) {
        let count = self.buckets.len();
        self.buckets = Buckets::single();
        match Buckets::new(count) {
            Some(buckets) => self.buckets = buckets,
            // Another allocation took the memory meanwhile: take what can be had now.
            None => *self = TranspositionTable::new(self.megabytes),
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 0x3F;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key uniformly onto the bucket range without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the processor to bring `key`'s bucket into cache for a [`TranspositionTable::probe`]
    /// soon after: a hint with no effect on what the table holds.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: a prefetch reads nothing the program sees and cannot fault; the address is
            // a live bucket of this table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(self.bucket(key)).cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any. `ply` is the distance from the root, used to turn
    /// stored mate distances back into distances from the root.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key {
                let mut entry = unpack(data);
                entry.value = value_from_table(entry.value, ply);
                return Some(entry);
            }
        }
        None
    }

    /// Stores what a search learnt about `key`. Keeps a previous move when the new entry has none.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&self, key: u64, ply: usize, move_bits: Option<u16>, value: i32, eval: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let same = data != 0 && slot.check.load(Ordering::Relaxed) ^ data == key;
            if data == 0 || same {
                victim = slot;
                if same && move_bits.is_none() {
                    let old = unpack(data);
                    if bound != Bound::Exact && old.depth > depth + 2 {
                        return; // a much deeper result is worth more than this bound
                    }
                    let data = pack(old.move_bits, value_to_table(value, ply), eval, depth, bound, generation);
                    slot.data.store(data, Ordering::Relaxed);
                    slot.check.store(key ^ data, Ordering::Relaxed);
                    return;
                }
                break;
            }
            // Prefer to overwrite shallow entries from old searches.
            let age = i32::from(generation.wrapping_sub(generation_of(data)) & 0x3F);
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(move_bits, value_to_table(value, ply), eval, depth, bound, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille fill of the table by entries of the current search (sampled, as UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for bucket in &self.buckets[..sample] {
            for slot in &bucket.0 {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

// Layout of `data`: move 16 | value 16 | eval 16 | depth 8 | bound 2 | generation 6.
fn pack(move_bits: Option<u16>, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let bound_bits: u64 = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(move_bits.unwrap_or(NO_MOVE))
        | (u64::from(value.clamp(-32_767, 32_767) as i16 as u16) << 16)
        | (u64::from(eval.clamp(-32_767, 32_767) as i16 as u16) << 32)
        | (u64::from(depth.clamp(-1, 254) as i8 as u8) << 48)
        | (bound_bits << 56)
        | (u64::from(generation & 0x3F) << 58)
}

fn unpack(data: u64) -> TtEntry {
    let move_bits = data as u16;
    TtEntry {
        move_bits: (move_bits != NO_MOVE).then_some(move_bits),
        value: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: i32::from((data >> 48) as u8 as i8),
        bound: match (data >> 56) & 3 {
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::Exact,
        },
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & 0x3F
}

/// Mate values are stored as distance from the node, so they stay right when found via another path.
fn value_to_table(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn value_from_table(value: i32, ply: usize) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::mate_in;

    #[test]
    fn tables_have_their_size_and_clear_to_empty() {
        let mut table = TranspositionTable::new(2);
        assert_eq!(table.megabytes(), 2);
        table.store(42, 0, Some(7), 10, 5, 3, Bound::Exact);
        assert!(table.probe(42, 0).is_some());
        table.clear();
        assert!(table.probe(42, 0).is_none());
        assert_eq!(table.megabytes(), 2);
    }

    /// Resident memory of this process in MiB (Linux), for checking that tables are lazy.
    fn resident_mb() -> Option<usize> {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * 4096 / (1024 * 1024))
    }

    #[test]
    fn large_tables_cost_memory_only_where_touched() {
        if crate::memory::available_mb().is_none_or(|available| available < 4096) {
            // Logged, not printed: library code writes nothing itself (stdout belongs to the protocol).
            return tracing::warn!(
                "SKIPPED large_tables_cost_memory_only_where_touched: needs /proc and 4 GiB available"
            );
        }
        let before = resident_mb().unwrap_or(0);
        let mut table = TranspositionTable::new(1024);
        assert_eq!(table.megabytes(), 1024);
        table.store(1, 0, Some(3), 0, 0, 1, Bound::Exact);
        table.clear();
        table.store(2, 0, Some(3), 0, 0, 1, Bound::Exact);
        assert!(table.probe(1, 0).is_none() && table.probe(2, 0).is_some());
        let grown = resident_mb().unwrap_or(0).saturating_sub(before);
        // Other tests run in this process at the same time: a generous bound, far below 1 GiB.
        assert!(grown < 256, "a fresh 1 GiB table made the process {grown} MiB larger");
    }

    #[test]
    fn stores_and_finds_entries() {
        let table = TranspositionTable::new(1);
        table.store(0xDEAD_BEEF, 0, Some(42), -123, 17, 7, Bound::Lower);
        let entry = table.probe(0xDEAD_BEEF, 0).unwrap();
        assert_eq!(entry, TtEntry { move_bits: Some(42), value: -123, eval: 17, depth: 7, bound: Bound::Lower });
        assert!(table.probe(0xDEAD_BEEE, 0).is_none());
        table.store(0xDEAD_BEEF, 0, None, 5, 17, 9, Bound::Exact);
        assert_eq!(table.probe(0xDEAD_BEEF, 0).unwrap().move_bits, Some(42), "keeps the old move");
    }

    #[test]
    fn mate_distances_are_relative_to_the_node() {
        let table = TranspositionTable::new(1);
        // Found at ply 3: mate in 5 plies from the root = mate in 2 plies from the node.
        table.store(7, 3, None, mate_in(5), 0, 4, Bound::Exact);
        assert_eq!(table.probe(7, 1).unwrap().value, mate_in(3));
    }

    #[test]
    fn hashfull_counts_the_current_search_only() {
        let mut table = TranspositionTable::new(1);
        for key in 1..=4000u64 {
            table.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0, None, 0, 0, 1, Bound::Exact);
        }
        assert!(table.hashfull() > 0);
        table.new_search();
        assert_eq!(table.hashfull(), 0);
        table.clear();
        assert!(table.probe(0x9E37_79B9_7F4A_7C15, 0).is_none());
    }
}
