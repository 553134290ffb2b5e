//! Tables of atomics in zeroed memory that the system hands out lazily: the transposition table's
//! buckets and the MCTS tree's arena.
//!
//! A table of many GiB costs nothing until the search touches it, so setting a large `Hash`
//! neither blocks the engine while pages are zeroed nor makes the process resident beyond what it
//! uses.

use std::alloc::Layout;
use std::ptr::NonNull;

/// A type for which the value made of zero bytes is valid.
///
/// # Safety
/// Implement only for types made of integers and atomic integers (or other `Zeroable` types):
/// all-zero bytes must be a valid value of every field.
pub(crate) unsafe trait Zeroable: Send + Sync {}

/// `len` zeroed values of `T`, aligned. `Box<[T]>` cannot hold them: the global allocator zeroes
/// memory of more than 16-byte alignment eagerly (touching every page), while memory of its
/// default alignment comes zeroed from the system on first touch; so the values are placed at the
/// first boundary of `T`'s alignment in such an allocation.
pub(crate) struct ZeroedSlice<T: Zeroable> {
    first: NonNull<T>,
    len: usize,
    allocation: NonNull<u8>,
    layout: Layout,
}

// SAFETY: a `ZeroedSlice<T>` owns its values like a `Box<[T]>`, and `T: Zeroable` is `Send`.
unsafe impl<T: Zeroable> Send for ZeroedSlice<T> {}
// SAFETY: as above; shared access only hands out `&[T]`, and `T: Zeroable` is `Sync`.
unsafe impl<T: Zeroable> Sync for ZeroedSlice<T> {}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` (at least 1) zeroed values, or `None` when the allocator refuses (where `vec!` or
    /// `collect` would abort the process).
    pub(crate) fn new(len: usize) -> Option<Self> {
        let len = len.max(1);
        let align = std::mem::align_of::<T>();
        let size = len.checked_mul(std::mem::size_of::<T>())?.checked_add(align)?;
        let layout = Layout::from_size_align(size, 16).ok()?;
        // SAFETY: `layout` has a non-zero size (`align` at least).
        let allocation = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = allocation.as_ptr().align_offset(align);
        // SAFETY: `offset < align`, and the allocation has `align` spare bytes past the values.
        let first = unsafe { allocation.add(offset) }.cast::<T>();
        Some(ZeroedSlice { first, len, allocation, layout })
    }

    /// One zeroed value; aborts the process (as `Box::new` would) when even that is refused.
    pub(crate) fn single() -> Self {
        Self::new(1).unwrap_or_else(|| std::alloc::handle_alloc_error(Layout::new::<T>()))
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `first` points to `len` values of `T` inside the allocation, aligned for `T`,
        // and all-zero bytes are a valid `T` (`T: Zeroable`); the allocation lives as long as
        // `self`, and nothing hands out `&mut` to it.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout. `T` needs no drop of its own: it is
        // made of integers and atomics (`Zeroable`).
        unsafe { std::alloc::dealloc(self.allocation.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::{Zeroable, ZeroedSlice};

    #[repr(align(64))]
    struct Line([AtomicU64; 8]);

    // SAFETY: atomics only.
    unsafe impl Zeroable for Line {}

    #[test]
    fn values_start_at_zero_aligned_and_hold_what_is_stored() {
        let lines = ZeroedSlice::<Line>::new(1000).expect("a few KiB");
        assert_eq!(lines.len(), 1000);
        assert!(lines.iter().all(|line| line.0.iter().all(|word| word.load(Ordering::Relaxed) == 0)));
        assert_eq!(lines.as_ptr().align_offset(64), 0);
        lines[999].0[7].store(7, Ordering::Relaxed);
        assert_eq!(lines[999].0[7].load(Ordering::Relaxed), 7);
        assert_eq!(ZeroedSlice::<Line>::single().len(), 1);
        assert!(ZeroedSlice::<Line>::new(usize::MAX / 2).is_none(), "an impossible size is refused, not aborted");
    }
}
