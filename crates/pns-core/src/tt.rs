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
//!   entries of the current generation are live. When the generation wraps
//!   (every 255th clear) only the clusters ever used are wiped, not the
//!   whole budget, so a small search never pays page faults for memory it
//!   did not use.
//! * **Sharing.** `probe` and `store` take `&self`: entries are atomics
//!   with the key stored XORed with the data (lockless hashing), so several
//!   searches and threads can use one table; a torn entry reads as absent.
//!   The meta word also holds four bits of the key (a tag), so a probe
//!   reads and checks the whole entry only where generation and tag
//!   match. The table keeps no statistics: each search counts its own
//!   probes and stores ([`Stored`] reports what a store did).
//! * **One thread.** A table that one search uses at a time (the usual
//!   case: `pns solve` on one thread, each `bench` worker) is switched to
//!   plain entries with [`Table::set_shared`]`(false)`: the check word is
//!   the key itself, so a probe compares one word per slot and reads the
//!   payload only on a hit, as before the table was shared. Parallel
//!   df-pn refuses such a table.
//! * **Growth inside the budget.** The whole budget is reserved at once, but
//!   a search starts on a small prefix of it and doubles the prefix (moving
//!   each cluster's entries in place) when it is 3/8 full. A small search
//!   then touches few pages: on machines without huge pages, random probes
//!   over a large table cost a TLB miss each, which made small searches two
//!   times slower with a 256 MiB table than with a 4 MiB one.

use crate::zeroed::{BlockError, ZeroedBlock};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

use crate::numbers::Pn;

/// Entry flag: the node has been expanded (its children generated) by an
/// earlier visit. Used to count re-traversals (Deep df-pn §6.1).
pub const FLAG_EXPANDED: u8 = 1;

/// Fraction of live slots that triggers garbage collection.
pub const GC_LOAD: f64 = 0.85;

const WAYS: usize = 4;

/// New entries a thread counts before adding them to a table's count, while
/// several agents share it ([`Table::batch_counts`]).
const COUNT_BATCH: usize = 64;

thread_local! {
    /// This thread's new entries not yet added to the count.
    static PENDING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Clusters a search starts with (256 KiB). (A 2 MiB start was tried:
/// it saves growth but changes which entries a small table loses to
/// replacement, and with it the node counts, up or down by a few per
/// cent: the default Connect Four position took 284,640 visits instead of
/// 255,189.)
const INITIAL_CLUSTERS: usize = 2048;

/// One cluster: four entries of four words each — a check word (the key
/// XORed with the three others), two payload words (a df-pn entry's proof
/// and disproof numbers) and a meta word (effort, generation, flags, best
/// move). Every word is an atomic, read and written with relaxed ordering,
/// so that several searches and threads share the table through `&self`
/// without locks: an entry torn by two concurrent writers fails the check
/// and reads as absent (lockless hashing: the key is stored XORed with the
/// data).
#[repr(C, align(64))]
struct Cluster {
    w: [AtomicU64; 4 * WAYS],
}

/// The meta word: effort (bits 0-31), generation (32-39), flags (40-43),
/// the key's tag (44-47), best-move index (48-63).
#[inline(always)]
fn meta(key: u64, amount: u32, generation: u8, flags: u8, best: u16) -> u64 {
    debug_assert!(flags < 16, "entry flags are four bits");
    amount as u64
        | (generation as u64) << 32
        | ((flags & 15) as u64) << 40
        | tag(key)
        | (best as u64) << 48
}

/// The key's low four bits, where the meta word keeps them: a probe of a
/// shared table reads a slot's other words (to check the entry whole)
/// only when its generation and tag match, one live slot of another key
/// in 16, instead of every live slot (10 % of a Connect Four visit).
#[inline(always)]
fn tag(key: u64) -> u64 {
    (key & 15) << 44
}

/// The meta bits a probe compares first: generation and tag.
const GEN_TAG: u64 = 0xff << 32 | 15 << 44;

/// What those bits hold in a live entry of `key` in generation `g`.
#[inline(always)]
fn gen_tag(g: u8, key: u64) -> u64 {
    (g as u64) << 32 | tag(key)
}

/// One entry as read: its key (from the check word), payload and meta.
#[derive(Clone, Copy)]
struct Raw {
    key: u64,
    a: u64,
    b: u64,
    meta: u64,
}

impl Raw {
    #[inline(always)]
    fn generation(&self) -> u8 {
        (self.meta >> 32) as u8
    }
    #[inline(always)]
    fn amount(&self) -> u32 {
        self.meta as u32
    }
    #[inline(always)]
    fn hit(&self) -> Hit {
        Hit {
            pn: self.a,
            dn: self.b,
            amount: self.meta as u32,
            flags: (self.meta >> 40) as u8 & 15,
            best: (self.meta >> 48) as u16,
        }
    }
}

impl Cluster {
    #[inline(always)]
    fn read(&self, i: usize, shared: bool) -> Raw {
        self.read_rest(i, self.meta(i), shared)
    }

    /// Entry `i`, whose meta word `m` was read already. In a shared table
    /// the check word is the key XORed with the three others; in a
    /// one-thread table it is the key itself.
    #[inline(always)]
    fn read_rest(&self, i: usize, m: u64, shared: bool) -> Raw {
        let w = &self.w[4 * i..4 * i + 3];
        let (c, a, b) = (w[0].load(Relaxed), w[1].load(Relaxed), w[2].load(Relaxed));
        Raw {
            key: if shared { c ^ a ^ b ^ m } else { c },
            a,
            b,
            meta: m,
        }
    }

    /// Entry `i` if it is a live entry of `key` in generation `g`, read
    /// whole only on a likely match: a one-thread table compares the
    /// stored key first (one load a way, as most ways hold other keys), a
    /// shared one the meta word's generation and tag (dead slots and live
    /// ones of other tags cost one load) and then checks the whole entry.
    #[inline(always)]
    fn entry_of<const SHARED: bool>(&self, i: usize, key: u64, g: u8) -> Option<Raw> {
        if SHARED {
            let m = self.meta(i);
            if m & GEN_TAG != gen_tag(g, key) {
                return None;
            }
            let e = self.read_rest(i, m, true);
            (e.key == key).then_some(e)
        } else {
            if self.check(i) != key {
                return None;
            }
            let m = self.meta(i);
            if (m >> 32) as u8 != g {
                return None;
            }
            let (a, b) = self.payload(i);
            Some(Raw { key, a, b, meta: m })
        }
    }

    /// The check word of entry `i`.
    #[inline(always)]
    fn check(&self, i: usize) -> u64 {
        self.w[4 * i].load(Relaxed)
    }

    /// The payload words of entry `i`.
    #[inline(always)]
    fn payload(&self, i: usize) -> (u64, u64) {
        (
            self.w[4 * i + 1].load(Relaxed),
            self.w[4 * i + 2].load(Relaxed),
        )
    }

    #[inline(always)]
    fn meta(&self, i: usize) -> u64 {
        self.w[4 * i + 3].load(Relaxed)
    }

    #[inline(always)]
    fn write(&self, i: usize, r: Raw, shared: bool) {
        let w = &self.w[4 * i..4 * i + 4];
        w[1].store(r.a, Relaxed);
        w[2].store(r.b, Relaxed);
        w[3].store(r.meta, Relaxed);
        w[0].store(
            if shared {
                r.key ^ r.a ^ r.b ^ r.meta
            } else {
                r.key
            },
            Relaxed,
        );
    }

    /// Marks entry `i` dead: generation 0 in its meta word (every reader
    /// checks the generation, and in a shared table the check word no
    /// longer matches).
    #[inline(always)]
    fn kill(&self, i: usize) {
        self.w[4 * i + 3].store(0, Relaxed);
    }
}

/// What the table knows about a node. `pn` and `dn` are the two payload
/// words: a df-pn entry's proof and disproof numbers; a problem with its
/// own entries (a twin's path signature, later a tsume entry's hands) may
/// put other things there and match them with [`Table::for_each_match`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub pn: Pn,
    pub dn: Pn,
    pub amount: u32,
    /// Four bits ([`FLAG_EXPANDED`] and the like).
    pub flags: u8,
    /// Index of the best child in the node's generated move order, if set.
    pub best: u16,
}

/// What one store did, for the storing search's own statistics (the
/// table keeps no counters: several searches share it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stored {
    /// A live entry of another node gave way.
    pub replaced: bool,
    /// Garbage collections the store triggered, and the entries they removed.
    pub collections: u64,
    pub collected: u64,
}

/// A value alone on its cache line (two lines: adjacent-line prefetch
/// pairs them on x86).
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A fixed-size transposition table of proof and disproof numbers, shared
/// through `&self` (see `Cluster`).
pub struct Table {
    /// The clusters, zeroed lazily by the system.
    block: ZeroedBlock<Cluster>,
    /// Clusters reserved (the budget).
    clusters: usize,
    /// Clusters in use: a power-of-two fraction of the budget.
    active: AtomicUsize,
    grow_at: AtomicUsize,
    /// The most clusters ever in use: what a wipe must clear.
    touched: AtomicUsize,
    generation: u8,
    /// Live entries (approximate when threads store at once: it only
    /// decides when to grow and collect). On a cache line of its own: it
    /// is written on every new entry, and sharing a line with the fields
    /// every probe reads (`active`, `block`, `generation`) would make each
    /// store of one agent a cache miss for every probe of the others.
    live: Padded<AtomicUsize>,
    gc_at: usize,
    /// Held while the table grows or collects.
    busy: AtomicBool,
    /// Set while several agents store at once ([`Table::batch_counts`]):
    /// each thread then adds its new entries to `live` in batches.
    batched: AtomicBool,
    /// Entries are self-checking (the key XORed with the data) so that
    /// several threads may use the table at once; `false` for a table
    /// that one thread uses at a time ([`Table::set_shared`]), whose probes
    /// compare the stored key alone.
    shared: bool,
}

/// Why a table could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("a table of {0} MiB is too large for this machine's address space")]
    TooLarge(u64),
    #[error("cannot allocate a table of {0} MiB (not enough memory)")]
    NoMemory(u64),
}

impl Table {
    /// A table using `bytes` of memory (at least one cluster). Memory is
    /// zero-filled lazily by the operating system, so an unused table costs
    /// little. Panics if the memory cannot be had: see
    /// [`Table::try_with_bytes`].
    pub fn with_bytes(bytes: usize) -> Table {
        Self::try_with_bytes(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table using `bytes` of memory, or an error when the allocation
    /// fails.
    pub fn try_with_bytes(bytes: usize) -> Result<Table, TableError> {
        let mb = (bytes >> 20) as u64;
        let clusters = (bytes / std::mem::size_of::<Cluster>()).max(1);
        // SAFETY: all-zero bytes are a valid `Cluster` (generation 0 marks
        // every entry dead). The block is zeroed lazily by the system.
        let block = unsafe { ZeroedBlock::<Cluster>::new(clusters) }.map_err(|e| match e {
            BlockError::TooLarge => TableError::TooLarge(mb),
            BlockError::NoMemory => TableError::NoMemory(mb),
        })?;
        let slots = clusters * WAYS;
        let mut t = Table {
            block,
            clusters,
            active: AtomicUsize::new(clusters),
            grow_at: AtomicUsize::new(usize::MAX),
            touched: AtomicUsize::new(0),
            generation: 1,
            live: Padded(AtomicUsize::new(0)),
            gc_at: ((slots as f64) * GC_LOAD) as usize,
            busy: AtomicBool::new(false),
            batched: AtomicBool::new(false),
            shared: true,
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
        self.active.store(a, Relaxed);
        self.touched.fetch_max(a, Relaxed);
        self.update_grow_at(a);
    }

    fn update_grow_at(&self, active: usize) {
        self.grow_at.store(
            if active < self.clusters {
                active * WAYS * 3 / 8
            } else {
                usize::MAX
            },
            Relaxed,
        );
    }

    #[inline(always)]
    fn all(&self, n: usize) -> &[Cluster] {
        self.block.prefix(n)
    }

    /// Doubles the clusters in use (at 3/8 load, where few clusters are
    /// full yet): cluster i's entries move to 2i or 2i + 1 (multiply-shift
    /// indexing maps them there), working from the top down so that no
    /// cluster is overwritten before it is moved. A search reading the
    /// table meanwhile may miss an entry, never read a wrong one.
    #[cold]
    fn grow(&self) {
        // Monomorphised on the entry format: the loop below reads and
        // writes every live entry.
        if self.shared {
            self.grow_as::<true>()
        } else {
            self.grow_as::<false>()
        }
    }

    #[inline(always)]
    fn grow_as<const SHARED: bool>(&self) {
        let old = self.active.load(Relaxed);
        if 2 * old > self.clusters {
            return;
        }
        let g = self.generation;
        let shared = SHARED;
        let all = self.all(2 * old);
        for i in (0..old).rev() {
            // For i > 0 both destinations lie above i, so they were read
            // already and entries can move one by one; cluster 0 is its
            // own destination and is read whole first.
            let mut first = [None; WAYS];
            if i == 0 {
                for (k, slot) in first.iter_mut().enumerate() {
                    let m = all[0].meta(k);
                    if (m >> 32) as u8 == g {
                        *slot = Some(all[0].read_rest(k, m, shared));
                    }
                }
            }
            // Each cluster j of the new size is written once, as a
            // destination of j / 2. Those beyond the old prefix hold only
            // entries of older generations (dead), so only the slots of
            // destinations inside it need killing.
            let mut fill = [0usize; 2];
            for (k, &snapshot) in first.iter().enumerate() {
                let e = if i == 0 {
                    match snapshot {
                        Some(e) => e,
                        None => continue,
                    }
                } else {
                    // Only live entries are read whole (the meta word first).
                    let m = all[i].meta(k);
                    if (m >> 32) as u8 != g {
                        continue;
                    }
                    all[i].read_rest(k, m, shared)
                };
                let j = ((e.key as u128 * (2 * old) as u128) >> 64) as usize;
                if j >> 1 != i {
                    continue; // torn by a concurrent store: drop it
                }
                let side = j & 1;
                all[j].write(fill[side], e, shared);
                fill[side] += 1;
            }
            for (side, &n) in fill.iter().enumerate() {
                let j = 2 * i + side;
                if j < old {
                    for k in n..WAYS {
                        all[j].kill(k);
                    }
                }
            }
        }
        self.touched.fetch_max(2 * old, Relaxed);
        self.active.store(2 * old, Release);
        self.update_grow_at(2 * old);
    }

    /// A table of `mb` mebibytes.
    pub fn with_mb(mb: usize) -> Table {
        Table::with_bytes(mb.max(1) << 20)
    }

    /// A table of `mb` mebibytes, or an error when it cannot be had.
    pub fn try_with_mb(mb: usize) -> Result<Table, TableError> {
        let bytes = mb
            .max(1)
            .checked_mul(1 << 20)
            .ok_or(TableError::TooLarge(mb as u64))?;
        Table::try_with_bytes(bytes)
    }

    /// Maps every page of the budget now ([`ZeroedBlock::populate`]),
    /// entries unchanged: for a caller that has a moment before the search
    /// (a USI engine's `isready`), so that the kernel's zeroing of each
    /// page on its first touch is not paid while searching (14 % of a long
    /// tsume search's profile). Returns whether the system did it.
    pub fn populate(&self) -> bool {
        self.block.populate()
    }

    /// Memory reserved (the budget), in bytes.
    pub fn bytes(&self) -> usize {
        self.clusters * std::mem::size_of::<Cluster>()
    }

    /// Memory in use by the current search, in bytes.
    pub fn active_bytes(&self) -> usize {
        self.active.load(Relaxed) * std::mem::size_of::<Cluster>()
    }

    /// Number of entry slots.
    pub fn capacity(&self) -> usize {
        self.clusters * WAYS
    }

    /// Number of live entries.
    pub fn len(&self) -> usize {
        self.live.load(Relaxed)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether several threads may use the table at once (the default).
    pub fn is_shared(&self) -> bool {
        self.shared
    }

    /// Makes the table one for several threads at once (`true`, the
    /// default: every entry checks itself, so a torn entry reads as absent)
    /// or for one thread at a time (`false`: a probe compares the stored
    /// key alone and reads the payload only on a hit, which is what a
    /// single-threaded search with cheap nodes, Connect Four, notices).
    /// The entries are kept. Parallel df-pn needs a shared table.
    pub fn set_shared(&mut self, shared: bool) {
        if shared == self.shared {
            return;
        }
        // `&mut self`: no other thread is reading; rewrite every live
        // entry's check word in the new form.
        let g = self.generation;
        let old = self.shared;
        for c in self.all(self.active.load(Relaxed)) {
            for i in 0..WAYS {
                let e = c.read(i, old);
                if e.generation() == g {
                    c.write(i, e, shared);
                }
            }
        }
        self.shared = shared;
    }

    /// Forgets every entry: O(1), except once every 255 calls, when the
    /// clusters ever used (not the whole budget) are wiped.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            let n = self.touched.load(Relaxed);
            // SAFETY: the block holds `clusters` ≥ n clusters, and
            // `&mut self` excludes every other access.
            unsafe {
                std::ptr::write_bytes(self.block.as_ptr(), 0, n);
            }
            self.generation = 1;
        }
        self.live.store(0, Relaxed);
        self.reset_active();
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.active.load(Acquire) as u128) >> 64) as usize;
        // SAFETY: i < active ≤ clusters.
        unsafe { &*self.block.as_ptr().add(i) }
    }

    /// Hints the processor to load `key`'s cluster: probing children after
    /// prefetching all of them overlaps the cache misses.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint and never faults.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const Cluster as *const i8;
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p.add(64), _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a node up.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let g = self.generation;
        let c = self.cluster(key);
        // The entry format is tested once, outside the loop over the ways.
        if self.shared {
            (0..WAYS).find_map(|i| c.entry_of::<true>(i, key, g))
        } else {
            (0..WAYS).find_map(|i| c.entry_of::<false>(i, key, g))
        }
        .map(|e| e.hit())
    }

    /// Calls `f` on every live entry stored under `key` (several may be,
    /// with [`Table::store_matching`]) until it returns `true`.
    pub fn for_each_match(&self, key: u64, mut f: impl FnMut(Hit) -> bool) {
        let g = self.generation;
        let c = self.cluster(key);
        for i in 0..WAYS {
            let e = if self.shared {
                c.entry_of::<true>(i, key, g)
            } else {
                c.entry_of::<false>(i, key, g)
            };
            if e.is_some_and(|e| f(e.hit())) {
                return;
            }
        }
    }

    /// Stores a node's numbers. `amount` is the node's total search effort
    /// so far (it replaces the stored one); `flags` has four bits. In a full
    /// cluster the entry with the least effort gives way.
    #[inline(always)]
    pub fn store(&self, key: u64, pn: Pn, dn: Pn, amount: u32, flags: u8, best: u16) -> Stored {
        self.store_matching(key, pn, dn, amount, flags, best, |_| true)
    }

    /// [`Table::store`] where an entry under the same key is overwritten
    /// only if `same` says it stands for the same thing; otherwise the new
    /// entry takes another slot (a problem's own matching rule, e.g. entries
    /// that differ by a payload word).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn store_matching(
        &self,
        key: u64,
        pn: Pn,
        dn: Pn,
        amount: u32,
        flags: u8,
        best: u16,
        same: impl Fn(&Hit) -> bool,
    ) -> Stored {
        let g = self.generation;
        let want = gen_tag(g, key);
        let c = self.cluster(key);
        let mut victim = 0;
        let mut victim_amount = u64::MAX;
        let mut found = None;
        for i in 0..WAYS {
            let m = c.meta(i);
            if (m >> 32) as u8 != g {
                if victim_amount != 0 {
                    victim = i;
                    victim_amount = 0;
                }
                continue;
            }
            let hit = if self.shared {
                m & GEN_TAG == want && {
                    let e = c.read_rest(i, m, true);
                    e.key == key && same(&e.hit())
                }
            } else {
                c.check(i) == key && {
                    let (a, b) = c.payload(i);
                    same(&Raw { key, a, b, meta: m }.hit())
                }
            };
            if hit {
                found = Some(i);
                break;
            }
            // Live entry: a candidate by effort (+1 keeps free slots first).
            let a = (m as u32) as u64 + 1;
            if a < victim_amount {
                victim = i;
                victim_amount = a;
            }
        }
        let (slot, fresh, replaced) = match found {
            Some(i) => (i, false, false),
            None => (victim, victim_amount == 0, victim_amount != 0),
        };
        c.write(
            slot,
            Raw {
                key,
                a: pn,
                b: dn,
                meta: meta(key, amount, g, flags, best),
            },
            self.shared,
        );
        if fresh {
            self.count_fresh(replaced)
        } else {
            Stored {
                replaced,
                ..Stored::default()
            }
        }
    }

    /// Counts a new live entry, growing or collecting when due (kept out
    /// of line: the store itself is inlined into the search loop).
    #[inline(never)]
    fn count_fresh(&self, replaced: bool) -> Stored {
        let mut out = Stored {
            replaced,
            ..Stored::default()
        };
        let live = if self.batched.load(Relaxed) {
            // Several agents: the count's cache line would move between
            // their cores at every new entry (3 % of two agents' time on
            // Connect Four), so each thread adds its own in batches.
            let n = PENDING.with(|p| {
                let n = p.get() + 1;
                p.set(n % COUNT_BATCH);
                n
            });
            if n < COUNT_BATCH {
                return out;
            }
            self.live.fetch_add(n, Relaxed) + n
        } else {
            // Not a read-modify-write: under contention the count may lag,
            // which only moves growth and collection a little.
            let live = self.live.load(Relaxed) + 1;
            self.live.store(live, Relaxed);
            live
        };
        if live > self.grow_at.load(Relaxed) {
            self.maintain(|t| t.grow());
        } else if live > self.gc_at {
            self.maintain(|t| {
                let removed = t.collect();
                out.collections += 1;
                out.collected += removed;
            });
        }
        out
    }

    /// While `on`, new entries are counted in per-thread batches of
    /// `COUNT_BATCH` (parallel df-pn sets it for its agents); every
    /// thread that stored meanwhile calls [`Table::flush_counts`] before
    /// it is turned off. Growth and collection then start up to a batch
    /// per thread late, which they tolerate (the count is a trigger, not a
    /// bound).
    pub fn batch_counts(&self, on: bool) {
        self.batched.store(on, Relaxed);
    }

    /// Adds this thread's pending batch of new entries to the count.
    pub fn flush_counts(&self) {
        let n = PENDING.with(|p| p.replace(0));
        if n > 0 {
            self.live.fetch_add(n, Relaxed);
        }
    }

    /// Runs a growth or a collection unless another thread is at one.
    #[cold]
    fn maintain(&self, f: impl FnOnce(&Self)) {
        if self
            .busy
            .compare_exchange(false, true, Acquire, Relaxed)
            .is_ok()
        {
            f(self);
            self.busy.store(false, Release);
        }
    }

    /// Removes the entries with the least effort, about half of the live
    /// ones, choosing the threshold from a sample of amounts. Returns how
    /// many it removed.
    #[cold]
    pub fn collect(&self) -> u64 {
        let g = self.generation;
        let all = self.all(self.active.load(Relaxed));
        let step = (all.len() / 4096).max(1);
        let mut sample: Vec<u32> = all
            .iter()
            .step_by(step)
            .flat_map(|c| (0..WAYS).map(move |i| c.read(i, self.shared)))
            .filter(|e| e.generation() == g)
            .map(|e| e.amount())
            .collect();
        if sample.is_empty() {
            return 0;
        }
        let mid = sample.len() / 2;
        let (_, &mut threshold, _) = sample.select_nth_unstable(mid);
        let mut removed = 0usize;
        for c in all {
            for i in 0..WAYS {
                let e = c.read(i, self.shared);
                if e.generation() == g && e.amount() <= threshold {
                    c.kill(i);
                    removed += 1;
                }
            }
        }
        let live = self.live.load(Relaxed);
        self.live.store(live.saturating_sub(removed), Relaxed);
        removed as u64
    }

    /// Visits every live entry (for inspection and tests).
    pub fn for_each_live(&self, mut f: impl FnMut(u64, Hit)) {
        let g = self.generation;
        for c in self.all(self.active.load(Relaxed)) {
            for i in 0..WAYS {
                let e = c.read(i, self.shared);
                if e.generation() == g {
                    f(e.key, e.hit());
                }
            }
        }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("bytes", &self.bytes())
            .field("live", &self.len())
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
        assert!(matches!(e, TableError::TooLarge(_)), "{e}");
        let e = Table::try_with_bytes(usize::MAX).unwrap_err();
        assert!(matches!(e, TableError::TooLarge(_)), "{e}");
        // 2^62 bytes: a valid layout, beyond any x86-64 or AArch64 address
        // space, so the allocator must refuse it even with overcommit on.
        let e = Table::try_with_mb(1 << 42).unwrap_err();
        assert!(matches!(e, TableError::NoMemory(_)), "{e}");
        assert!(e.to_string().contains("not enough memory"), "{e}");
        let t = Table::try_with_mb(1).unwrap();
        assert_eq!(t.bytes(), 1 << 20);
    }

    #[test]
    fn store_then_probe_round_trips() {
        let t = Table::with_bytes(1 << 16);
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
    fn keys_sharing_a_tag_are_told_apart_in_both_formats() {
        for shared in [true, false] {
            // Keys this small land in cluster 0 (its index comes from the
            // key's high bits); the table is large enough not to collect.
            let mut t = Table::with_bytes(1 << 16);
            t.set_shared(shared);
            // Tags (low four bits) 0, 0, 1, 1.
            let keys = [0x10u64, 0x20, 0x31, 0x41];
            for (i, &k) in keys.iter().enumerate() {
                t.store(k, i as u64 + 5, 9, 1, 15, 0xffff);
            }
            for (i, &k) in keys.iter().enumerate() {
                let h = t.probe(k).expect("stored");
                assert_eq!((h.pn, h.flags, h.best), (i as u64 + 5, 15, 0xffff));
            }
            assert!(t.probe(0x50).is_none(), "same tag as 0x10, other key");
            assert!(t.probe(0x51).is_none(), "same tag as 0x31, other key");
            // A store under a key of the same tag replaces a slot, never
            // overwrites another key's entry in place.
            t.store(0x60, 1, 1, 100, 0, 0);
            assert_eq!(t.probe(0x60).map(|h| h.pn), Some(1));
            let left = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
            assert_eq!(left, 3, "shared: {shared}");
        }
    }

    #[test]
    fn batched_counts_reach_the_table_by_the_batch_and_on_flush() {
        let t = Table::with_bytes(1 << 24);
        t.batch_counts(true);
        let spread = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for i in 0..100 {
            t.store(spread(i), 1, 1, 1, 0, 0);
        }
        // One whole batch counted, the rest pending in this thread.
        assert_eq!(t.len(), COUNT_BATCH);
        t.flush_counts();
        assert_eq!(t.len(), 100);
        t.flush_counts();
        assert_eq!(t.len(), 100, "a second flush adds nothing");
        t.batch_counts(false);
        t.store(spread(100), 1, 1, 1, 0, 0);
        assert_eq!(t.len(), 101, "unbatched: counted at once");
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
        let mut replaced = 0;
        for i in 0..n {
            let s = t.store(splitmix64(i), i, i + 1, 1, 0, 0);
            assert_eq!(s.collections, 0);
            replaced += s.replaced as u64;
        }
        assert!(t.active_bytes() > INITIAL_CLUSTERS * std::mem::size_of::<Cluster>());
        assert!(t.active_bytes() <= t.bytes());
        // Growth moves every entry; only replacement in a full cluster
        // (before the table doubled) loses one.
        let mut kept = 0;
        for i in 0..n {
            if let Some(h) = t.probe(splitmix64(i)) {
                assert_eq!((h.pn, h.dn), (i, i + 1));
                kept += 1;
            }
        }
        assert_eq!(n - kept, replaced);
        assert!(kept as f64 > 0.95 * n as f64, "{kept}");
        t.clear();
        assert_eq!(
            t.active_bytes(),
            INITIAL_CLUSTERS * std::mem::size_of::<Cluster>()
        );
        assert!(t.probe(splitmix64(5)).is_none());
    }

    #[test]
    fn one_thread_tables_grow_collect_match_and_convert_without_loss() {
        let mut t = Table::with_bytes(16 << 20);
        assert!(t.is_shared());
        t.set_shared(false);
        assert!(!t.is_shared());
        let n = 100_000u64;
        let mut replaced = 0;
        for i in 0..n {
            replaced += t.store(splitmix64(i), i, i + 1, 1, 0, 0).replaced as u64;
        }
        assert!(
            t.active_bytes() > INITIAL_CLUSTERS * std::mem::size_of::<Cluster>(),
            "the table grew"
        );
        let kept = |t: &Table| {
            (0..n)
                .filter(|&i| match t.probe(splitmix64(i)) {
                    Some(h) => {
                        assert_eq!((h.pn, h.dn), (i, i + 1));
                        true
                    }
                    None => false,
                })
                .count() as u64
        };
        assert_eq!(n - kept(&t), replaced);
        // Converting rewrites the check words: every entry survives both
        // ways, and each form reads only its own.
        t.set_shared(true);
        assert_eq!(n - kept(&t), replaced);
        t.set_shared(false);
        assert_eq!(n - kept(&t), replaced);
        assert!(t.probe(splitmix64(n + 1)).is_none());
        // Matching entries under one key, as in a shared table.
        two_entries_under_one_key_by_a_matching_rule(&t);
        // Collection works on the plain form too.
        let small = {
            let mut u = Table::with_bytes(1 << 14);
            u.set_shared(false);
            u
        };
        let mut collections = 0;
        for i in 0..20_000u64 {
            collections += small
                .store(splitmix64(i), 1, 1, (i % 100) as u32, 0, 0)
                .collections;
        }
        assert!(collections > 0);
        assert!(small.len() as f64 <= small.capacity() as f64 * GC_LOAD + 1.0);
        let mut live = 0;
        small.for_each_live(|k, h| {
            assert_eq!((h.pn, h.dn), (1, 1));
            assert!(small.probe(k).is_some());
            live += 1;
        });
        assert_eq!(live, small.len());
    }

    #[test]
    fn memory_is_fixed_and_gc_keeps_load_bounded() {
        let t = Table::with_bytes(1 << 14); // 128 clusters, 512 slots
        let cap = t.capacity();
        let (mut collections, mut replaced) = (0, 0);
        for i in 0..100_000u64 {
            let k = splitmix64(i);
            let s = t.store(k, 1, 1, (i % 1000) as u32, 0, 0);
            collections += s.collections;
            replaced += s.replaced as u64;
            assert!(t.len() <= cap);
        }
        assert_eq!(t.bytes(), 1 << 14);
        assert!(collections > 0);
        assert!(replaced > 0);
        assert!(t.len() as f64 <= cap as f64 * GC_LOAD + 1.0);
    }

    #[test]
    fn replacement_and_gc_keep_the_most_valuable_entries() {
        // A single cluster: every key competes for the same four slots.
        let t = Table::with_bytes(1);
        assert_eq!(t.capacity(), 4);
        t.store(1, 1, 1, 1000, 0, 0);
        t.store(2, 1, 1, 5, 0, 0);
        assert_eq!(t.store(3, 1, 1, 900, 0, 0).collections, 0);
        // The fourth live entry passes the GC load (0.85 * 4): the entries
        // with at most the median effort go, the most valuable stays.
        assert_eq!(t.store(4, 1, 1, 800, 0, 0).collections, 1);
        assert!(t.probe(1).is_some());
        assert!(t.probe(2).is_none());
        // A full cluster replaces its least valuable entry.
        let mut u = Table::with_bytes(1);
        u.store(1, 1, 1, 1000, 0, 0);
        u.store(2, 1, 1, 5, 0, 0);
        u.store(3, 1, 1, 900, 0, 0);
        u.gc_at = usize::MAX;
        u.grow_at = AtomicUsize::new(usize::MAX);
        assert!(!u.store(4, 1, 1, 800, 0, 0).replaced);
        assert!(u.store(5, 1, 1, 700, 0, 0).replaced);
        assert!(u.probe(2).is_none());
        assert!(u.probe(1).is_some() && u.probe(5).is_some());
    }

    #[test]
    fn a_wipe_clears_only_the_clusters_ever_used() {
        let mut t = Table::with_bytes(64 << 20);
        for round in 0..300u64 {
            t.store(round + 1, 1, 1, 1, 0, 0);
            t.clear();
        }
        // 255 clears wrapped the generation once: only the initial prefix
        // was ever used, so only it was wiped.
        assert_eq!(t.touched.load(Relaxed), INITIAL_CLUSTERS);
        assert!(t.probe(300).is_none());
    }

    /// Stores three entries under one key, two of which match each other:
    /// two entries remain, the later of the matching pair kept.
    fn two_entries_under_one_key_by_a_matching_rule(t: &Table) {
        t.store_matching(7, 1, 10, 1, 0, 0, |h| h.pn == 1);
        t.store_matching(7, 2, 20, 1, 0, 0, |h| h.pn == 2);
        t.store_matching(7, 1, 11, 1, 0, 0, |h| h.pn == 1);
        let mut seen = Vec::new();
        t.for_each_match(7, |h| {
            seen.push((h.pn, h.dn));
            false
        });
        seen.sort();
        assert_eq!(seen, vec![(1, 11), (2, 20)]);
    }

    #[test]
    fn entries_with_one_key_can_be_told_apart_by_a_matching_rule() {
        two_entries_under_one_key_by_a_matching_rule(&Table::with_mb(1));
    }

    #[test]
    fn threads_share_a_table_without_reading_torn_entries() {
        let t = Table::with_bytes(1 << 16); // small: constant collisions
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let k = splitmix64(i % 5000);
                        // Every writer stores data that is a hash of the
                        // key: a torn mix of two writes would break the
                        // relation. (Data that is a linear function of the
                        // key could cancel out in the check word.)
                        t.store(k, splitmix64(k), splitmix64(!k), (i ^ id) as u32, 0, 0);
                        let k2 = splitmix64((i * 7) % 5000);
                        if let Some(h) = t.probe(k2) {
                            assert_eq!((h.pn, h.dn), (splitmix64(k2), splitmix64(!k2)));
                        }
                    }
                });
            }
        });
    }
}
