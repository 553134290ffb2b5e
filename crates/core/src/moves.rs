//! Fixed-capacity move buffers: move generation writes into storage the caller owns, never the heap.

use std::fmt;
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// What a searcher needs from a move buffer: a default empty value, push, clear, and slice access.
pub trait MoveBuffer<M>: Default + Deref<Target = [M]> + DerefMut + Send {
    /// Appends a move.
    ///
    /// # Panics
    /// Panics if the buffer is full; each game picks a capacity above its largest legal move count.
    fn push(&mut self, mv: M);
    /// Removes every move.
    fn clear(&mut self);
}

/// A stack-allocated list of at most `N` moves.
pub struct MoveList<M: Copy, const N: usize> {
    len: usize,
    items: [MaybeUninit<M>; N],
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// An empty list.
    #[must_use]
    pub const fn new() -> Self {
        MoveList { len: 0, items: [const { MaybeUninit::uninit() }; N] }
    }

    /// Keeps only the moves for which `keep` returns true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(M) -> bool) {
        let mut kept = 0;
        for index in 0..self.len {
            let mv = self[index];
            if keep(mv) {
                self.items[kept] = MaybeUninit::new(mv);
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Shortens the list to `len` moves (no effect if it is already shorter).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl<M: Copy, const N: usize> Default for MoveList<M, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy, const N: usize> Clone for MoveList<M, N> {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        for &mv in self.iter() {
            copy.push(mv);
        }
        copy
    }
}

impl<M: Copy + Send, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline]
    fn push(&mut self, mv: M) {
        MoveList::push(self, mv);
    }

    #[inline]
    fn clear(&mut self) {
        self.len = 0;
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// Appends a move (same as [`MoveBuffer::push`], usable without the trait in scope).
    ///
    /// # Panics
    /// Panics if the list already holds `N` moves.
    #[inline]
    pub fn push(&mut self, mv: M) {
        assert!(self.len < N, "move list capacity {N} exceeded");
        self.items[self.len] = MaybeUninit::new(mv);
        self.len += 1;
    }
}

impl<M: Copy, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        // SAFETY: the first `len` items were written by `push` (or `retain`) and `M: Copy` has no drop.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<M>(), self.len) }
    }
}

impl<M: Copy, const N: usize> DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        // SAFETY: as in `deref`; the borrow is unique.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<M>(), self.len) }
    }
}

impl<M: Copy + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a, M: Copy, const N: usize> IntoIterator for &'a MoveList<M, N> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_retain_and_slice_access() {
        let mut list: MoveList<u16, 8> = MoveList::new();
        for mv in 0..8 {
            list.push(mv);
        }
        assert_eq!(list.len(), 8);
        list.retain(|mv| mv % 2 == 0);
        assert_eq!(&list[..], &[0, 2, 4, 6]);
        list.swap(0, 3);
        assert_eq!(list[0], 6);
        MoveBuffer::clear(&mut list);
        assert!(list.is_empty());
    }

    #[test]
    #[should_panic(expected = "capacity")]
    fn overflow_is_caught() {
        let mut list: MoveList<u8, 1> = MoveList::new();
        list.push(1);
        list.push(2);
    }
}
