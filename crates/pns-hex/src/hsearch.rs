//! Virtual connections by H-search (Anshelevich, "A hierarchical approach
//! to computer Hex", Artificial Intelligence 134, 2002), the connection
//! engine behind Benzene's solvers (Arneson, Hayward, Henderson, "Solving
//! Hex: beyond humans", CG 2010), written here on bitboards.
//!
//! # What is computed
//!
//! For one player P, the *points* are P's groups (the two edges count as
//! groups: every P stone chained to an edge joins that edge's group) and
//! the empty cells. A connection between two points x and y has a
//! *carrier*, a set of empty cells containing neither endpoint:
//!
//! * a **full connection** (VC) with carrier C: if P owns x and y (when
//!   they are empty cells), P can join x and y even moving second, by
//!   answering every opponent move inside C with a move inside C;
//! * a **semi connection** (SC) with carrier C and a key k ∈ C: P, moving
//!   first, plays k and then has a VC with carrier C \ {k}.
//!
//! Built bottom-up from three rules:
//!
//! * base: adjacent points have a VC with the empty carrier;
//! * AND: VC(x, z, C1) and VC(z, y, C2) with C1 ∩ C2 = ∅, x ∉ C2 and y ∉ C1
//!   give VC(x, y, C1 ∪ C2) when the midpoint z is a P group, and
//!   SC(x, y, C1 ∪ C2 ∪ {z}) with key z when z is an empty cell (P plays z,
//!   then answers in C1 and C2 separately, which never interfere);
//! * OR: SCs between x and y whose carriers have an empty intersection
//!   give VC(x, y, ∪ Ci): whatever the opponent plays misses some Ci, and P
//!   answers with that SC's key.
//!
//! Each rule is sound on its own, so every connection found is real: a VC
//! between P's two edges means P wins whoever moves, and an SC between them
//! means P wins with P to move. H-search is not complete (some real
//! connections are never found), and the limits below make it less so;
//! that costs search, never correctness.
//!
//! # Limits (Benzene's "soft limits", chosen by measurement here)
//!
//! At most [`MAX_VC`] VCs and [`MAX_SC`] SCs are kept per pair of points
//! (smallest carriers preferred), carriers are capped at
//! [`Params::max_carrier`] cells, and the OR rule combines at most
//! [`Params::max_or`] SCs, always including the newest one. New VCs are
//! processed in the order found (breadth first), so small carriers come
//! first. The AND rule never uses an edge as the midpoint (a connection
//! through an edge cannot help to join that edge to the other one; Benzene
//! also leaves it off by default).
//!
//! # Implementation
//!
//! Points are numbered 0 (first edge), 1 (second edge), then the other
//! groups, then the empty cells. Sets of points, carriers included (a
//! carrier is the set of its cells' points), are one-word bitsets
//! ([`Word`]): `u64` for boards of up to 62 cells, `u128` above (at most
//! 121 cells plus 2 edges); they are turned back into cells only for the
//! answer and the record. Connection lists are small fixed arrays
//! per unordered pair, in buffers kept from one call to the next (only the
//! counts are cleared). A work budget bounds the worst case. The OR rule's
//! depth-first search over subsets of SCs cuts a branch as soon as its
//! intersection meets the intersection of all the SCs still to choose
//! from: no choice among them could empty it.

use std::collections::HashMap;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::geometry::{bits, Bits, Geom};

/// A set of points as one machine word: `u64` when a board has at most 62
/// cells (every point, the two edges included, fits one 64-bit word:
/// half the memory per connection list and single-word operations, so
/// 7x7 runs on it), `u128` otherwise. Carriers are sets of *points* (the
/// empty cells' point numbers), not of cells, which is what lets 7x7 fit:
/// its cells are spread over indices up to 72 by the board's stride.
pub(crate) trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + std::fmt::Debug
    + 'static
{
    const ZERO: Self;
    const MAX: Self;
    /// Most points a set can hold.
    const POINTS: usize;
    fn bit(i: usize) -> Self;
    fn ones(self) -> u32;
    fn low(self) -> usize;
    /// `self` without its lowest set bit.
    fn drop_low(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const MAX: Self = <$t>::MAX;
            const POINTS: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn low(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn drop_low(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
word!(u64);
word!(u128);

/// Iterates over the set bits of `w`, lowest first.
#[inline]
fn points<W: Word>(mut w: W) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if w == W::ZERO {
            None
        } else {
            let i = w.low();
            w = w.drop_low();
            Some(i)
        }
    })
}

/// Most VCs kept per pair of points. Eight VCs and sixteen SCs (up from
/// four and eight, with carriers up to 49 cells instead of 24) cost about
/// 40 % of the node rate and halve the nodes: the 16 fast 7x7 openings in
/// 16 % less time, the 36 6x6 openings in 6 % less (docs/PERFORMANCE.md,
/// 2026-11-25); more (16 and 32) searched fewer nodes, slower. The
/// buffers hold 400 bytes per pair of points: 1 MiB per thread on 7x7,
/// 6 MiB on 11x11.
pub(crate) const MAX_VC: usize = 8;
/// Most SCs kept per pair of points (see [`MAX_VC`]).
pub(crate) const MAX_SC: usize = 16;
/// Most points: 121 cells and the two edges.
const MAX_POINTS: usize = 128;

/// Search limits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Params {
    /// Largest carrier kept, in cells.
    pub max_carrier: u32,
    /// Most SCs combined by one application of the OR rule.
    pub max_or: u32,
    /// Stop as soon as the two edges have any connection (an SC or a VC):
    /// enough to know that P wins with P to move.
    pub stop_on_semi: bool,
    /// Stop as soon as the two edges have a VC.
    pub stop_on_full: bool,
    /// Most connections added before giving up (a bound on the time).
    pub max_work: u32,
    /// Record how each connection was found ([`HSearch::recs`]; for
    /// certificates, at the cost of one branch per connection).
    pub record: bool,
}

/// The connections found between P's two edges.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EdgeConns {
    pub nvc: usize,
    pub vc: [Bits; MAX_VC],
    pub nsc: usize,
    pub sc: [Bits; MAX_SC],
    /// The key cell (index) of each SC.
    pub key: [u8; MAX_SC],
    /// Cells outside some connection between the edges found, kept or
    /// not (a list holds at most [`MAX_SC`] SCs, but every connection
    /// found is real and bounds the must-play region).
    pub outside: Bits,
}

impl EdgeConns {
    /// Whether P wins with P to move.
    #[inline]
    pub fn any(&self) -> bool {
        self.nvc + self.nsc > 0
    }

    /// The cells the opponent of P must play in when P is not to move: the
    /// intersection of all carriers found, kept in the lists or not (an
    /// opponent move outside one carrier lets P complete that connection;
    /// every carrier in the lists went through `add_vc` or `add_sc`, so
    /// `outside` already counts it). `all` when there is none.
    pub fn must_play(&self, all: Bits) -> Bits {
        all & !self.outside
    }
}

/// How a connection was found: its derivation, kept by
/// [`HSearch::run`] with `record` so that a certificate can write the
/// connection's strategy out (`claim_build`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum How {
    /// The two points are adjacent.
    Base,
    /// The AND rule through midpoint `m`: VC(`e`, `m`, `ce`) and VC(`m`, w,
    /// `cw`), with w the connection's other end. For an SC, `m` is the key.
    And { e: u8, m: u8, ce: Bits, cw: Bits },
    /// The OR rule: SCs between the same points whose carriers lie inside
    /// this one's and have no common cell (found again from the record).
    Or,
}

/// One recorded connection between a pair of points.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rec {
    pub carrier: Bits,
    /// The key cell (index) of an SC; `None` for a VC.
    pub key: Option<u8>,
    pub how: How,
}

/// How a connection was found, as [`How`] but with carriers in point
/// space (converted to cells only when recording).
#[derive(Clone, Copy)]
enum Found<W> {
    Base,
    And { e: u8, m: u8, ce: W, cw: W },
    Or,
}

/// Reusable buffers for [`HSearch::run`], with point sets of type `W`.
pub(crate) struct HSearch<W: Word = u128> {
    n: usize,
    /// The cell of each empty-cell point (one bit), 0 for a group.
    cell: [Bits; MAX_POINTS],
    /// The stones of each group point (the edge groups' stones for 0 and
    /// 1), for [`HSearch::group_stones`].
    stones: [Bits; MAX_POINTS],
    /// Number of group points (edges included).
    groups: usize,
    /// Point number of each empty cell, by cell index.
    point_of: [u8; 128],
    vc_n: Vec<u8>,
    vc: Vec<[W; MAX_VC]>,
    sc_n: Vec<u8>,
    sc: Vec<[W; MAX_SC]>,
    /// The key point of each SC.
    sc_key: Vec<[u8; MAX_SC]>,
    /// Points with at least one VC to each point.
    nbr: [W; MAX_POINTS],
    /// VCs not yet combined by the AND rule.
    queue: Vec<(u8, u8, W)>,
    done: bool,
    work: u32,
    p: Params,
    /// The intersection of every carrier added between the two edges.
    edge_meet: W,
    /// Every connection added, by pair slot, never removed.
    recs: HashMap<usize, Vec<Rec>>,
}

impl<W: Word> Default for HSearch<W> {
    fn default() -> Self {
        HSearch {
            n: 0,
            cell: [0; MAX_POINTS],
            stones: [0; MAX_POINTS],
            groups: 0,
            point_of: [0; 128],
            vc_n: Vec::new(),
            vc: Vec::new(),
            sc_n: Vec::new(),
            sc: Vec::new(),
            sc_key: Vec::new(),
            nbr: [W::ZERO; MAX_POINTS],
            queue: Vec::new(),
            done: false,
            work: 0,
            edge_meet: W::MAX,
            p: Params {
                max_carrier: 0,
                max_or: 0,
                stop_on_semi: false,
                stop_on_full: false,
                max_work: 0,
                record: false,
            },
            recs: HashMap::new(),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Tests turn the OR rule's cut off to check that it is exact.
    pub(crate) static NO_OR_CUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn or_cut_off() -> bool {
    NO_OR_CUT.with(|c| c.get())
}

#[cfg(not(test))]
#[inline(always)]
fn or_cut_off() -> bool {
    false
}

/// Whether a board of `cells` cells fits point sets of type `W` (its
/// points are at most its cells and the two edges).
pub(crate) fn fits<W: Word>(cells: u32) -> bool {
    cells as usize + 2 <= W::POINTS
}

impl<W: Word> HSearch<W> {
    /// The pair slot of points x and y (x ≠ y).
    #[inline(always)]
    fn idx(&self, x: usize, y: usize) -> usize {
        if x < y {
            x * self.n + y
        } else {
            y * self.n + x
        }
    }

    /// The point set of point `p` when it is an empty cell, else empty.
    #[inline(always)]
    fn cell_point(&self, p: usize) -> W {
        if p >= self.groups {
            W::bit(p)
        } else {
            W::ZERO
        }
    }

    /// The cells of a set of empty-cell points.
    #[inline]
    fn cells(&self, w: W) -> Bits {
        let mut r = 0;
        for p in points(w) {
            r |= self.cell[p];
        }
        r
    }

    /// Runs H-search for the player with stones `own` joining edges
    /// `(a, b)` against stones `opp`, and returns the connections between
    /// its two edges. The player must not have joined them already, and
    /// the board must fit `W` ([`fits`]). With `p.record`, how every
    /// connection was found is kept ([`HSearch::recs`]).
    pub fn run(
        &mut self,
        g: &Geom,
        own: Bits,
        opp: Bits,
        edges: (Bits, Bits),
        p: Params,
    ) -> EdgeConns {
        debug_assert!(fits::<W>(g.board.count_ones()));
        self.p = p;
        if p.record {
            self.recs.clear();
        }
        self.setup(g, own, opp, edges);
        self.close();
        let i = self.idx(0, 1);
        let mut out = EdgeConns {
            nvc: self.vc_n[i] as usize,
            nsc: self.sc_n[i] as usize,
            ..EdgeConns::default()
        };
        for j in 0..out.nvc {
            out.vc[j] = self.cells(self.vc[i][j]);
        }
        for j in 0..out.nsc {
            out.sc[j] = self.cells(self.sc[i][j]);
            out.key[j] = self.point_cell(self.sc_key[i][j] as usize);
        }
        out.outside = if self.edge_meet == W::MAX {
            0
        } else {
            !self.cells(self.edge_meet)
        };
        out
    }

    /// After a recording [`HSearch::run`]: the connections found between
    /// points `x` and `y`, with their derivations.
    pub fn recs(&self, x: usize, y: usize) -> &[Rec] {
        self.recs.get(&self.idx(x, y)).map_or(&[], Vec::as_slice)
    }

    /// The number of group points (the edges included); the points after
    /// them are empty cells.
    pub fn group_count(&self) -> usize {
        self.groups
    }

    /// The stones of group point `p`.
    pub fn group_stones(&self, p: usize) -> Bits {
        self.stones[p]
    }

    /// The cell (index) of empty-cell point `p`.
    pub fn point_cell(&self, p: usize) -> u8 {
        self.cell[p].trailing_zeros() as u8
    }

    /// Records connection `(x, y, carrier)` when recording, in cells.
    #[inline]
    fn note(&mut self, x: usize, y: usize, carrier: W, key: Option<u8>, how: Found<W>) {
        if self.p.record {
            let i = self.idx(x, y);
            let how = match how {
                Found::Base => How::Base,
                Found::And { e, m, ce, cw } => How::And {
                    e,
                    m,
                    ce: self.cells(ce),
                    cw: self.cells(cw),
                },
                Found::Or => How::Or,
            };
            let carrier = self.cells(carrier);
            let key = key.map(|k| self.point_cell(k as usize));
            self.recs
                .entry(i)
                .or_default()
                .push(Rec { carrier, key, how });
        }
    }

    fn setup(&mut self, g: &Geom, own: Bits, opp: Bits, (ea, eb): (Bits, Bits)) {
        let empty = g.board & !(own | opp);
        let ga = g.flood(own & ea, own);
        let gb = g.flood(own & eb, own);
        debug_assert_eq!(ga & gb, 0, "the player has already joined its edges");
        let mut adj = [0 as Bits; MAX_POINTS];
        adj[0] = (g.spread(ga) | ea) & empty;
        adj[1] = (g.spread(gb) | eb) & empty;
        self.cell[0] = 0;
        self.cell[1] = 0;
        self.stones[0] = ga;
        self.stones[1] = gb;
        let mut n = 2;
        let mut rest = own & !(ga | gb);
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let grp = g.flood(seed, own);
            rest &= !grp;
            adj[n] = g.spread(grp) & empty;
            self.cell[n] = 0;
            self.stones[n] = grp;
            n += 1;
        }
        let groups = n;
        self.groups = n;
        for c in bits(empty) {
            self.point_of[c] = n as u8;
            self.cell[n] = 1 << c;
            n += 1;
        }
        self.n = n;
        let pairs = n * n;
        if self.vc.len() < pairs {
            self.vc.resize(pairs, [W::ZERO; MAX_VC]);
            self.sc.resize(pairs, [W::ZERO; MAX_SC]);
            self.sc_key.resize(pairs, [0; MAX_SC]);
        }
        self.vc_n.clear();
        self.vc_n.resize(pairs, 0);
        self.sc_n.clear();
        self.sc_n.resize(pairs, 0);
        self.nbr[..n].fill(W::ZERO);
        self.queue.clear();
        self.done = false;
        self.work = 0;
        self.edge_meet = W::MAX;
        for (gp, &cells) in adj.iter().enumerate().take(groups) {
            for c in bits(cells) {
                let q = self.point_of[c] as usize;
                self.add_vc(gp, q, W::ZERO, Found::Base);
            }
        }
        for c in bits(empty) {
            let q = self.point_of[c] as usize;
            for d in bits(g.spread(1 << c) & empty) {
                if d > c {
                    let r = self.point_of[d] as usize;
                    self.add_vc(q, r, W::ZERO, Found::Base);
                }
            }
        }
    }

    /// The AND rule over every VC in the queue, until nothing new is found
    /// (the OR rule runs inside `add_sc`).
    fn close(&mut self) {
        let mut qi = 0;
        while qi < self.queue.len() && !self.done {
            let (x, y, c) = self.queue[qi];
            qi += 1;
            for (m, e) in [(x as usize, y as usize), (y as usize, x as usize)] {
                // Edges are never midpoints.
                if m < 2 {
                    continue;
                }
                let mcell = self.cell_point(m);
                let ecell = self.cell_point(e);
                // No far end w may lie in the carrier (a set of points
                // already).
                let mut ws = self.nbr[m] & !W::bit(e) & !c;
                while ws != W::ZERO {
                    let w = ws.low();
                    ws = ws.drop_low();
                    let i = self.idx(m, w);
                    let k = self.vc_n[i] as usize;
                    // Read in place, not copied: the rules below add
                    // connections at (e, w), never at (m, w), so this
                    // list does not change under the loop.
                    for j in 0..k {
                        let c2 = self.vc[i][j];
                        if c2 & (c | ecell) != W::ZERO {
                            continue;
                        }
                        let u = c | c2 | mcell;
                        if u.ones() > self.p.max_carrier {
                            continue;
                        }
                        let how = Found::And {
                            e: e as u8,
                            m: m as u8,
                            ce: c,
                            cw: c2,
                        };
                        if mcell == W::ZERO {
                            self.add_vc(e, w, u, how);
                        } else {
                            self.add_sc(e, w, u, m, how);
                        }
                        if self.done {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Adds VC(x, y, c), found by `how`, unless a VC with a subset carrier
    /// is known.
    fn add_vc(&mut self, x: usize, y: usize, c: W, how: Found<W>) {
        let i = self.idx(x, y);
        let edges = i == self.idx(0, 1);
        let n = self.vc_n[i] as usize;
        let list = &mut self.vc[i];
        for &o in &list[..n] {
            if o & !c == W::ZERO {
                return;
            }
        }
        if edges {
            self.edge_meet &= c;
        }
        // Drop the carriers this one makes redundant.
        let mut k = 0;
        for j in 0..n {
            if c & !list[j] != W::ZERO {
                list[k] = list[j];
                k += 1;
            }
        }
        if k == MAX_VC {
            // Full: replace the largest carrier if this one is smaller.
            let (j, big) = (0..k)
                .map(|j| (j, list[j].ones()))
                .max_by_key(|&(_, s)| s)
                .expect("non-empty");
            if c.ones() >= big {
                self.vc_n[i] = k as u8;
                return;
            }
            list[j] = c;
        } else {
            list[k] = c;
            k += 1;
        }
        self.vc_n[i] = k as u8;
        self.nbr[x] |= W::bit(y);
        self.nbr[y] |= W::bit(x);
        self.queue.push((x as u8, y as u8, c));
        self.note(x, y, c, None, how);
        // SCs with a superset carrier are now useless.
        let ns = self.sc_n[i] as usize;
        self.sc_n[i] = self.drop_sc_supersets(i, ns, c) as u8;
        self.work += 1;
        if edges && (self.p.stop_on_full || self.p.stop_on_semi) {
            self.done = true;
        }
        if self.work > self.p.max_work {
            self.done = true;
        }
    }

    /// Drops the SCs of pair slot `i` (the first `n`) whose carriers
    /// contain `c` and returns how many are left (the order kept).
    #[inline(always)]
    fn drop_sc_supersets(&mut self, i: usize, n: usize, c: W) -> usize {
        // Most calls drop nothing: find the first to drop before moving any.
        let Some(first) = (0..n).find(|&j| c & !self.sc[i][j] == W::ZERO) else {
            return n;
        };
        let mut k = first;
        for j in first + 1..n {
            if c & !self.sc[i][j] != W::ZERO {
                self.sc[i][k] = self.sc[i][j];
                self.sc_key[i][k] = self.sc_key[i][j];
                k += 1;
            }
        }
        k
    }

    /// Adds SC(x, y, c) with key at point `kp` (an empty cell in `c`) unless
    /// it is redundant, then tries the OR rule with it.
    fn add_sc(&mut self, x: usize, y: usize, c: W, kp: usize, how: Found<W>) {
        let i = self.idx(x, y);
        for &o in &self.vc[i][..self.vc_n[i] as usize] {
            if o & !c == W::ZERO {
                return;
            }
        }
        let n = self.sc_n[i] as usize;
        for &o in &self.sc[i][..n] {
            if o & !c == W::ZERO {
                return;
            }
        }
        if i == self.idx(0, 1) {
            self.edge_meet &= c;
        }
        let mut k = self.drop_sc_supersets(i, n, c);
        let slot = if k == MAX_SC {
            let (j, big) = (0..k)
                .map(|j| (j, self.sc[i][j].ones()))
                .max_by_key(|&(_, s)| s)
                .expect("non-empty");
            if c.ones() >= big {
                self.sc_n[i] = k as u8;
                return;
            }
            j
        } else {
            k += 1;
            k - 1
        };
        self.sc[i][slot] = c;
        self.sc_key[i][slot] = kp as u8;
        self.sc_n[i] = k as u8;
        self.note(x, y, c, Some(kp as u8), how);
        self.work += 1;
        if i == self.idx(0, 1) && self.p.stop_on_semi {
            self.done = true;
            return;
        }
        if self.work > self.p.max_work {
            self.done = true;
            return;
        }
        // OR rule: the new SC with up to max_or − 1 others, on a copy of
        // the list (adding a VC may drop SCs from it). `rest[j]` is the
        // intersection of the SCs from j on (the new one left out): cells
        // in it stay in every combination, so a branch whose intersection
        // meets it can give no VC and is cut.
        let mut list = [W::ZERO; MAX_SC];
        list[..k].copy_from_slice(&self.sc[i][..k]);
        let mut rest = [W::MAX; MAX_SC + 1];
        for j in (0..k).rev() {
            rest[j] = if j == slot {
                rest[j + 1]
            } else {
                rest[j + 1] & list[j]
            };
        }
        self.or_rule(x, y, &list[..k], &rest, slot, c, c, 0, 1);
    }

    /// Depth-first search for SCs (indices from `start`, skipping `skip`)
    /// that empty the intersection `inter`; adds every VC found (returns
    /// true only when the search is done).
    #[allow(clippy::too_many_arguments)]
    fn or_rule(
        &mut self,
        x: usize,
        y: usize,
        list: &[W],
        rest: &[W; MAX_SC + 1],
        skip: usize,
        inter: W,
        union: W,
        start: usize,
        used: u32,
    ) -> bool {
        if inter & rest[start] != W::ZERO && !or_cut_off() {
            return false;
        }
        for j in start..list.len() {
            if j == skip {
                continue;
            }
            let c = list[j];
            let i2 = inter & c;
            if i2 == inter {
                continue;
            }
            let u2 = union | c;
            if u2.ones() > self.p.max_carrier {
                continue;
            }
            if i2 == W::ZERO {
                self.add_vc(x, y, u2, Found::Or);
                if self.done {
                    return true;
                }
                // Keep going: other SCs may give VCs with other carriers
                // (the first one found is not always the one a bigger
                // connection needs).
                continue;
            }
            if used + 1 < self.p.max_or
                && self.or_rule(x, y, list, rest, skip, i2, u2, j + 1, used + 1)
            {
                return true;
            }
        }
        false
    }
}
