//! The transposition table: fixed memory, effort-based replacement, garbage
//! collection when it fills.
//!
//! df-pn is iterative deepening and "the heart of the algorithm is its use
//! of the transposition table" (GHI paper §2.1). The table is allocated once
//! with the size the user gives (`--hash MB`) and never grows.
//!
//! * **Layout.** Clusters of four 32-byte entries (two cache lines). A key
//!   maps to one cluster by multiply-shift range reduction; the full 64-bit
//!   key is stored, so a false hit needs a full 64-bit collision.
//! * **Replacement.** A new entry takes a free slot of its cluster, else the
//!   slot with the least search effort (`amount`, the number of visits its
//!   last searches spent below it). Cheap-to-redo results go first.
//! * **Garbage collection.** When more than [`GC_LOAD`] of the slots are
//!   live, the entries with the least effort (about half of them) are
//!   removed, so that the valuable entries are not lost to chance
//!   collisions.
//! * **Clearing** is O(1): entries carry an 8-bit generation and only
//!   entries of the current generation are live.
//! * **Growth inside the budget.** The whole budget is reserved at once, but
//!   a search starts on a small prefix of it and doubles the prefix (moving
//!   each cluster's entries in place) when it is 3/8 full. A small search
//!   then touches few pages: on machines without huge pages, random probes
//!   over a large table cost a TLB miss each, which made small searches two
//!   times slower with a 256 MiB table than with a 4 MiB one.

use std::alloc::{alloc_zeroed, dealloc, Layout};

use crate::numbers::Pn;

/// Entry flag: the node has been expanded (its children generated) by an
/// earlier visit. Used to count re-traversals (Deep df-pn §6.1).
pub const FLAG_EXPANDED: u8 = 1;

/// Fraction of live slots that triggers garbage collection.
pub const GC_LOAD: f64 = 0.85;

const WAYS: usize = 4;

const HUGE_PAGE: usize = 2 << 20;

/// Clusters a search starts with (256 KiB).
const INITIAL_CLUSTERS: usize = 2048;

#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    key: u64,
    pn: Pn,
    dn: Pn,
    amount: u32,
    generation: u8,
    flags: u8,
    best: u16,
}

#[repr(C, align(64))]
#[derive(Clone, Copy, Default)]
struct Cluster {
    e: [Entry; WAYS],
}

/// What the table knows about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub pn: Pn,
    pub dn: Pn,
    pub amount: u32,
    pub flags: u8,
    /// Index of the best child in the node's generated move order, if set.
    pub best: u16,
}

/// Table counters, copied into [`crate::stats::Stats`] by the searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableCounters {
    pub probes: u64,
    pub hits: u64,
    pub stores: u64,
    pub replacements: u64,
    pub collections: u64,
    pub collected: u64,
}

/// A fixed-size transposition table of proof and disproof numbers.
pub struct Table {
    /// The allocation as made (for `dealloc`) and the aligned clusters in it.
    raw: *mut u8,
    ptr: *mut Cluster,
    /// Clusters reserved (the budget).
    clusters: usize,
    /// Clusters in use: a power-of-two fraction of the budget.
    active: usize,
    grow_at: usize,
    generation: u8,
    live: usize,
    gc_at: usize,
    pub counters: TableCounters,
}

// The table owns its allocation exclusively; it is moved between threads
// only as a whole.
unsafe impl Send for Table {}

impl Table {
    /// A table using `bytes` of memory (at least one cluster). Memory is
    /// zero-filled lazily by the operating system, so an unused table costs
    /// little. Panics if the memory cannot be had ([`Table::try_with_bytes`]
    /// reports it instead).
    pub fn with_bytes(bytes: usize) -> Table {
        Self::try_with_bytes(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Table::with_bytes`], or why the memory cannot be had: a size the
    /// address space cannot hold, or an allocation the system refuses.
    /// A user's `--hash` goes through here so that it is an error message,
    /// not an abort.
    pub fn try_with_bytes(bytes: usize) -> Result<Table, String> {
        let clusters = (bytes / std::mem::size_of::<Cluster>()).max(1);
        let layout = clusters
            .checked_mul(std::mem::size_of::<Cluster>())
            .and_then(|s| s.checked_add(64))
            .and_then(|s| Layout::from_size_align(s, 16).ok())
            .ok_or_else(|| format!("a table of {bytes} bytes is too large for this machine"))?;
        debug_assert_eq!(layout, Self::layout(clusters));
        // SAFETY: the layout has non-zero size; all-zero bytes are a valid
        // `Cluster` (generation 0 marks every entry dead). The allocation
        // asks only for 16-byte alignment, so the system allocator can hand
        // out lazily zeroed pages (calloc) instead of writing every byte;
        // the clusters are aligned to 64 bytes inside it.
        let raw = unsafe { alloc_zeroed(layout) };
        if raw.is_null() {
            return Err(format!(
                "cannot allocate a table of {} MiB: the system refused the memory",
                bytes >> 20
            ));
        }
        let ptr = raw.wrapping_add(raw.align_offset(64)) as *mut Cluster;
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            // Ask for huge pages where the kernel allows them (random probes
            // over a large table otherwise miss the TLB); harmless if not.
            // SAFETY: advice on memory we own.
            unsafe {
                let start = raw.wrapping_add(raw.align_offset(HUGE_PAGE));
                let len = (layout.size() - (start as usize - raw as usize)) & !(HUGE_PAGE - 1);
                libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
        let slots = clusters * WAYS;
        let mut t = Table {
            raw,
            ptr,
            clusters,
            active: clusters,
            grow_at: usize::MAX,
            generation: 1,
            live: 0,
            gc_at: ((slots as f64) * GC_LOAD) as usize,
            counters: TableCounters::default(),
        };
        t.reset_active();
        Ok(t)
    }

    /// Starts again on the smallest prefix.
    fn reset_active(&mut self) {
        let mut a = self.clusters;
        while a.is_multiple_of(2) && a > INITIAL_CLUSTERS {
            a /= 2;
        }
        self.active = a;
        self.update_grow_at();
    }

    fn update_grow_at(&mut self) {
        self.grow_at = if self.active < self.clusters {
            self.active * WAYS * 3 / 8
        } else {
            usize::MAX
        };
    }

    /// Doubles the clusters in use (at 3/8 load, where few clusters are
    /// full yet): cluster i's entries move to 2i or
    /// 2i + 1 (multiply-shift indexing maps them there), working from the
    /// top down so that no cluster is overwritten before it is moved.
    #[cold]
    fn grow(&mut self) {
        let old = self.active;
        let g = self.generation;
        // SAFETY: 2 * old ≤ clusters, all within our allocation.
        let all = unsafe { std::slice::from_raw_parts_mut(self.ptr, 2 * old) };
        for i in (0..old).rev() {
            let moving = all[i];
            all[i] = Cluster::default();
            all[2 * i + 1] = Cluster::default();
            if i > 0 {
                all[2 * i] = Cluster::default();
            }
            let mut fill = [0usize; 2];
            for e in moving.e.iter().filter(|e| e.generation == g) {
                let j = ((e.key as u128 * (2 * old) as u128) >> 64) as usize;
                debug_assert!(j == 2 * i || j == 2 * i + 1);
                let side = j - 2 * i;
                all[j].e[fill[side]] = *e;
                fill[side] += 1;
            }
        }
        self.active = 2 * old;
        self.update_grow_at();
    }

    /// A table of `mb` mebibytes.
    pub fn with_mb(mb: usize) -> Table {
        Table::with_bytes(mb.max(1) << 20)
    }

    /// [`Table::with_mb`], or why the memory cannot be had (see
    /// [`Table::try_with_bytes`]).
    pub fn try_with_mb(mb: usize) -> Result<Table, String> {
        let bytes = mb
            .max(1)
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("a table of {mb} MiB is too large for this machine"))?;
        Table::try_with_bytes(bytes)
    }

    fn layout(clusters: usize) -> Layout {
        let size = clusters
            .checked_mul(std::mem::size_of::<Cluster>())
            .and_then(|s| s.checked_add(64))
            .expect("table size overflows");
        Layout::from_size_align(size, 16).expect("table layout")
    }

    /// Memory reserved (the budget), in bytes.
    pub fn bytes(&self) -> usize {
        self.clusters * std::mem::size_of::<Cluster>()
    }

    /// Memory in use by the current search, in bytes.
    pub fn active_bytes(&self) -> usize {
        self.active * std::mem::size_of::<Cluster>()
    }

    /// Number of entry slots.
    pub fn capacity(&self) -> usize {
        self.clusters * WAYS
    }

    /// Number of live entries.
    pub fn len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Forgets every entry (O(1) except once every 255 calls) and resets
    /// the counters.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // SAFETY: `ptr` points to `clusters` clusters we own.
            unsafe {
                std::ptr::write_bytes(self.ptr, 0, self.clusters);
            }
            self.generation = 1;
        }
        self.live = 0;
        self.counters = TableCounters::default();
        self.reset_active();
    }

    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        ((key as u128 * self.active as u128) >> 64) as usize
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        // SAFETY: the index is < clusters.
        unsafe { &*self.ptr.add(self.cluster_index(key)) }
    }

    #[inline(always)]
    fn cluster_mut(&mut self, key: u64) -> &mut Cluster {
        // SAFETY: the index is < clusters and we hold `&mut self`.
        unsafe { &mut *self.ptr.add(self.cluster_index(key)) }
    }

    /// Hints the processor to load `key`'s cluster: probing children after
    /// prefetching all of them overlaps the cache misses.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint and never faults.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.ptr.add(self.cluster_index(key)) as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p.add(64), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a node up.
    #[inline]
    pub fn probe(&mut self, key: u64) -> Option<Hit> {
        self.counters.probes += 1;
        let g = self.generation;
        let c = self.cluster(key);
        for e in &c.e {
            if e.key == key && e.generation == g {
                let hit = Hit {
                    pn: e.pn,
                    dn: e.dn,
                    amount: e.amount,
                    flags: e.flags,
                    best: e.best,
                };
                self.counters.hits += 1;
                return Some(hit);
            }
        }
        None
    }

    /// Stores a node's numbers. `amount` is the node's total search effort
    /// so far (it replaces the stored one). In a full cluster the entry with
    /// the least effort gives way.
    #[inline]
    pub fn store(&mut self, key: u64, pn: Pn, dn: Pn, amount: u32, flags: u8, best: u16) {
        self.counters.stores += 1;
        let g = self.generation;
        let c = self.cluster_mut(key);
        let mut victim = 0;
        let mut victim_amount = u64::MAX;
        let mut found = None;
        for (i, e) in c.e.iter().enumerate() {
            if e.generation != g {
                if victim_amount != 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            if e.key == key {
                found = Some(i);
                break;
            }
            // Live entry: a candidate by effort (+1 keeps free slots first).
            let a = e.amount as u64 + 1;
            if a < victim_amount {
                victim = i;
                victim_amount = a;
            }
        }
        let (slot, fresh, replaced) = match found {
            Some(i) => (i, false, false),
            None => (victim, victim_amount == 0, victim_amount != 0),
        };
        let e = &mut c.e[slot];
        *e = Entry {
            key,
            pn,
            dn,
            amount,
            generation: g,
            flags,
            best,
        };
        if fresh {
            self.live += 1;
        }
        if replaced {
            self.counters.replacements += 1;
        }
        if self.live > self.grow_at {
            self.grow();
        } else if self.live > self.gc_at {
            self.collect();
        }
    }

    /// Removes the entries with the least effort, about half of the live
    /// ones, choosing the threshold from a sample of amounts.
    #[cold]
    pub fn collect(&mut self) {
        let g = self.generation;
        let total = self.active;
        // SAFETY: `active` ≤ `clusters` clusters we own exclusively.
        let all = unsafe { std::slice::from_raw_parts_mut(self.ptr, total) };
        let step = (total / 4096).max(1);
        let mut sample: Vec<u32> = all
            .iter()
            .step_by(step)
            .flat_map(|c| c.e.iter())
            .filter(|e| e.generation == g)
            .map(|e| e.amount)
            .collect();
        if sample.is_empty() {
            return;
        }
        let mid = sample.len() / 2;
        let (_, &mut threshold, _) = sample.select_nth_unstable(mid);
        let mut removed = 0usize;
        for c in all.iter_mut() {
            for e in c.e.iter_mut() {
                if e.generation == g && e.amount <= threshold {
                    e.generation = 0;
                    removed += 1;
                }
            }
        }
        self.live -= removed;
        self.counters.collections += 1;
        self.counters.collected += removed as u64;
    }

    /// Visits every live entry (for inspection and tests).
    pub fn for_each_live(&self, mut f: impl FnMut(u64, Hit)) {
        let g = self.generation;
        // SAFETY: read-only view of the clusters we own.
        let all = unsafe { std::slice::from_raw_parts(self.ptr, self.active) };
        for c in all {
            for e in &c.e {
                if e.generation == g {
                    f(
                        e.key,
                        Hit {
                            pn: e.pn,
                            dn: e.dn,
                            amount: e.amount,
                            flags: e.flags,
                            best: e.best,
                        },
                    );
                }
            }
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: allocated in `with_bytes` with this layout.
        unsafe { dealloc(self.raw, Self::layout(self.clusters)) }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("bytes", &self.bytes())
            .field("live", &self.live)
            .field("counters", &self.counters)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix64;

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        let e = Table::try_with_mb(usize::MAX).unwrap_err();
        assert!(e.contains("too large"), "{e}");
        let e = Table::try_with_bytes(usize::MAX).unwrap_err();
        assert!(e.contains("too large"), "{e}");
        // 2^62 bytes: a valid layout, beyond any x86-64 or AArch64 address
        // space, so the allocator must refuse it even with overcommit on.
        let e = Table::try_with_mb(1 << 42).unwrap_err();
        assert!(e.contains("refused"), "{e}");
        let t = Table::try_with_mb(1).unwrap();
        assert_eq!(t.bytes(), 1 << 20);
    }

    #[test]
    fn store_then_probe_round_trips() {
        let mut t = Table::with_bytes(1 << 16);
        t.store(42, 3, 4, 10, FLAG_EXPANDED, 2);
        let h = t.probe(42).expect("stored");
        assert_eq!(
            (h.pn, h.dn, h.amount, h.flags, h.best),
            (3, 4, 10, FLAG_EXPANDED, 2)
        );
        assert!(t.probe(43).is_none());
        t.store(42, 0, u64::MAX, 11, 0, 0);
        assert_eq!(t.probe(42).unwrap().pn, 0);
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn clear_forgets_everything_cheaply_even_after_wraparound() {
        let mut t = Table::with_bytes(1 << 12);
        for round in 0..600u64 {
            t.store(round + 1, 1, 1, 1, 0, 0);
            assert!(t.probe(round + 1).is_some());
            t.clear();
            assert!(t.probe(round + 1).is_none(), "round {round}");
            assert!(t.is_empty());
        }
    }

    #[test]
    fn growth_keeps_every_entry_and_stops_at_the_budget() {
        let mut t = Table::with_bytes(64 << 20);
        let n = 300_000u64;
        for i in 0..n {
            t.store(splitmix64(i), i, i + 1, 1, 0, 0);
        }
        assert!(t.active_bytes() > 256 << 10);
        assert!(t.active_bytes() <= t.bytes());
        assert_eq!(t.counters.collections, 0);
        // Growth moves every entry; only replacement in a full cluster
        // (before the table doubled) loses one.
        let mut kept = 0;
        for i in 0..n {
            if let Some(h) = t.probe(splitmix64(i)) {
                assert_eq!((h.pn, h.dn), (i, i + 1));
                kept += 1;
            }
        }
        assert_eq!(n - kept, t.counters.replacements);
        assert!(kept as f64 > 0.95 * n as f64, "{kept}");
        t.clear();
        assert_eq!(t.active_bytes(), 256 << 10);
        assert!(t.probe(splitmix64(5)).is_none());
    }

    #[test]
    fn memory_is_fixed_and_gc_keeps_load_bounded() {
        let mut t = Table::with_bytes(1 << 14); // 128 clusters, 512 slots
        let cap = t.capacity();
        for i in 0..100_000u64 {
            let k = splitmix64(i);
            t.store(k, 1, 1, (i % 1000) as u32, 0, 0);
            assert!(t.len() <= cap);
        }
        assert_eq!(t.bytes(), 1 << 14);
        assert!(t.counters.collections > 0);
        assert!(t.counters.replacements > 0);
        assert!(t.len() as f64 <= cap as f64 * GC_LOAD + 1.0);
    }

    #[test]
    fn replacement_and_gc_keep_the_most_valuable_entries() {
        // A single cluster: every key competes for the same four slots.
        let mut t = Table::with_bytes(1);
        assert_eq!(t.capacity(), 4);
        t.store(1, 1, 1, 1000, 0, 0);
        t.store(2, 1, 1, 5, 0, 0);
        t.store(3, 1, 1, 900, 0, 0);
        assert_eq!(t.counters.collections, 0);
        // The fourth live entry passes the GC load (0.85 * 4): the entries
        // with at most the median effort go, the most valuable stays.
        t.store(4, 1, 1, 800, 0, 0);
        assert_eq!(t.counters.collections, 1);
        assert!(t.probe(1).is_some());
        assert!(t.probe(2).is_none());
        // A full cluster replaces its least valuable entry.
        let mut u = Table::with_bytes(1);
        u.store(1, 1, 1, 1000, 0, 0);
        u.store(2, 1, 1, 5, 0, 0);
        u.store(3, 1, 1, 900, 0, 0);
        u.gc_at = usize::MAX;
        u.grow_at = usize::MAX;
        u.store(4, 1, 1, 800, 0, 0);
        u.store(5, 1, 1, 700, 0, 0);
        assert_eq!(u.counters.replacements, 1);
        assert!(u.probe(2).is_none());
        assert!(u.probe(1).is_some() && u.probe(5).is_some());
    }
}
