//! A fixed array in memory that the system zeroes lazily: the
//! transposition table's clusters ([`crate::Table`]) and a game's own
//! caches (Hex's verdict cache) are such arrays.
//!
//! The block is asked of the allocator with 16-byte alignment only and its
//! elements are aligned inside it. Asked with a larger alignment (a cache
//! line's 64), the system allocator does not hand out fresh, lazily zeroed
//! pages (calloc) but writes every byte: a process then pays for the whole
//! array at once (a small Hex solve peaked at 69 MiB with a 64 MiB cache,
//! 7 MiB this way). Large blocks are offered huge pages where the kernel
//! allows them: random probes over a large table otherwise miss the TLB.

use std::alloc::{alloc_zeroed, dealloc, Layout};

/// Huge pages are asked for in blocks of at least this size.
const HUGE_PAGE: usize = 2 << 20;

/// Why a block could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockError {
    /// The size overflows the address space.
    TooLarge,
    /// The allocator refused it.
    NoMemory,
}

/// `len` values of `T`, all zero bytes to begin with, aligned to `T`'s
/// alignment, owned and freed on drop.
pub struct ZeroedBlock<T> {
    /// The allocation as made (for `dealloc`).
    raw: *mut u8,
    /// The first element, aligned inside the allocation.
    ptr: *mut T,
    len: usize,
}

// SAFETY: the block owns its elements as a `Box<[T]>` would.
unsafe impl<T: Send> Send for ZeroedBlock<T> {}
unsafe impl<T: Sync> Sync for ZeroedBlock<T> {}

impl<T> ZeroedBlock<T> {
    /// A block of `len` (at least one) zeroed values.
    ///
    /// # Safety
    ///
    /// All-zero bytes must be a valid `T` (atomics, integers, arrays of
    /// them).
    pub unsafe fn new(len: usize) -> Result<Self, BlockError> {
        let len = len.max(1);
        let layout = Self::layout(len).ok_or(BlockError::TooLarge)?;
        // SAFETY: non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        if raw.is_null() {
            return Err(BlockError::NoMemory);
        }
        let ptr = raw.wrapping_add(raw.align_offset(std::mem::align_of::<T>())) as *mut T;
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // Advice only: harmless where huge pages are off.
            // SAFETY: advice on memory we own.
            unsafe {
                let start = raw.wrapping_add(raw.align_offset(HUGE_PAGE));
                let len = (layout.size() - (start as usize - raw as usize)) & !(HUGE_PAGE - 1);
                libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
        Ok(ZeroedBlock { raw, ptr, len })
    }

    /// The elements and room to align them, asked with 16-byte alignment
    /// (see the module documentation).
    fn layout(len: usize) -> Option<Layout> {
        let size = len
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|s| s.checked_add(std::mem::align_of::<T>()))?;
        Layout::from_size_align(size, 16).ok()
    }

    /// The first element.
    #[inline(always)]
    pub fn as_ptr(&self) -> *mut T {
        self.ptr
    }

    /// How many elements.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never empty (at least one element).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The first `n` elements (`n ≤ len`).
    #[inline(always)]
    pub fn prefix(&self, n: usize) -> &[T] {
        debug_assert!(n <= self.len);
        // SAFETY: `n ≤ len` elements, all within the allocation and
        // initialised (zero bytes are a valid `T`, by `new`'s contract).
        unsafe { std::slice::from_raw_parts(self.ptr, n.min(self.len)) }
    }

    /// All the elements.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        self.prefix(self.len)
    }

    /// Has the system map every page of the block now, its contents
    /// unchanged (Linux 5.14's `MADV_POPULATE_WRITE`): the first touch of
    /// each page, with its zeroing, is then not paid during a search.
    /// Returns whether the system did it (elsewhere, or on an older
    /// kernel, it does nothing).
    pub fn populate(&self) -> bool {
        #[cfg(target_os = "linux")]
        {
            let size = Self::layout(self.len).map_or(0, |l| l.size());
            // Whole pages only: `raw` is not page-aligned in general.
            let page = 4096;
            let start = (self.raw as usize).div_ceil(page) * page;
            let end = (self.raw as usize + size) / page * page;
            if end <= start {
                return false;
            }
            // SAFETY: advice on memory we own; populating keeps contents.
            unsafe {
                libc::madvise(
                    start as *mut libc::c_void,
                    end - start,
                    libc::MADV_POPULATE_WRITE,
                ) == 0
            }
        }
        #[cfg(not(target_os = "linux"))]
        false
    }
}

impl<T> Drop for ZeroedBlock<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe {
            dealloc(
                self.raw,
                Self::layout(self.len).expect("the layout it was made with"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[repr(C, align(64))]
    struct Line([AtomicU64; 8]);

    #[test]
    fn populating_keeps_the_contents() {
        // SAFETY: zero bytes are valid atomics.
        let b = unsafe { ZeroedBlock::<Line>::new(100_000) }.unwrap();
        b.as_slice()[7].0[3].store(42, Relaxed);
        b.populate();
        assert_eq!(b.as_slice()[7].0[3].load(Relaxed), 42);
        assert!(b.as_slice()[99_999].0.iter().all(|w| w.load(Relaxed) == 0));
    }

    #[test]
    fn a_block_is_zeroed_aligned_and_writable() {
        // SAFETY: zero bytes are valid atomics.
        let b = unsafe { ZeroedBlock::<Line>::new(1000) }.unwrap();
        assert_eq!(b.len(), 1000);
        assert_eq!(b.as_ptr() as usize % 64, 0);
        assert!(b
            .as_slice()
            .iter()
            .all(|l| l.0.iter().all(|w| w.load(Relaxed) == 0)));
        b.as_slice()[999].0[7].store(5, Relaxed);
        assert_eq!(b.prefix(1000)[999].0[7].load(Relaxed), 5);
        // A size past the address space is refused, not allocated.
        assert_eq!(
            unsafe { ZeroedBlock::<Line>::new(usize::MAX / 32) }.err(),
            Some(BlockError::TooLarge)
        );
    }
}
