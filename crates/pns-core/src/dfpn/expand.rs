//! What every table-based depth-first search shares: expanding a node
//! (generating its children, evaluating them, reading what the table knows),
//! reading the root's entry, and closing a search with its statistics.
//!
//! [`super::Dfpn`] (df-pn and its policies), [`super::pnstar`] (PN*, thesis
//! §2.2.2) and [`super::pds`] (PDS, thesis §2.2.2) differ only in how they
//! turn children's values into thresholds and when they return; this code is
//! the rest. Everything here is `#[inline(always)]` and generic over the
//! policy, so a caller compiles to the same code as if it were written in
//! place (the df-pn benchmark checks it: same visits, same speed).

use crate::limits::Budget;
use crate::numbers::{pn_add, Pn, INF};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::{Table, TableCounters, FLAG_EXPANDED};

use super::policy::DfpnPolicy;
use super::{solved_numbers, status_of};

/// A child as a searching node keeps it in its stack frame while it loops:
/// its move, key and last known absolute (pn, dn).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child<M> {
    pub mv: M,
    pub key: u64,
    pub pn: Pn,
    pub dn: Pn,
    /// df-pn+ edge costs in (φ, δ) orientation of the parent (0 unless the
    /// policy uses costs).
    pub cost_phi: i64,
    pub cost_delta: i64,
    /// Search effort stored with the child (table replacement).
    pub amount: u32,
    /// The child's own evaluation was `Unknown` (not a terminal or known
    /// position).
    pub unknown: bool,
    /// The child was expanded by an earlier visit (from the table's flag):
    /// visiting it again is a re-traversal (Deep df-pn §6.1).
    pub expanded: bool,
}

/// Generates and evaluates the children of `p`'s current node and appends
/// them to `children`; returns how many there are (0: the player to move has
/// no move that reaches its aim).
///
/// Each child is played once to read its key (and prefetch its table
/// cluster) and its exact evaluation. Then the table is probed for every
/// unknown child, after all the prefetches so that the cache misses overlap.
/// A child the table does not know takes the answer to a related question
/// that settles it ([`Problem::implication`]) or else the policy's leaf value
/// (`pol.leaf`, e.g. Deep df-pn's E^(D−depth), Def. 1) from the heuristic
/// (df-pn+ `h`, thesis §2.2.4) when `use_h`. The heuristic is computed only
/// for those children, by playing them again: it is the dearest hook in some
/// games (Hex's threat analysis) and most children of a revisited node are
/// in the table.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn expand<P: Problem, Pol: DfpnPolicy>(
    p: &mut P,
    pol: &Pol,
    use_h: bool,
    is_or: bool,
    depth: u32,
    tt: &mut Table,
    moves: &mut Vec<P::Move>,
    children: &mut Vec<Child<P::Move>>,
) -> usize {
    let cstart = children.len();
    let mstart = moves.len();
    p.generate(moves);
    let mend = moves.len();
    if mend == mstart {
        return 0;
    }
    let (kphi, kdelta) = pol.constant_cost();
    for &mv in &moves[mstart..mend] {
        let (cost_phi, cost_delta) = if Pol::USES_COST {
            let (cp, cd) = p.edge_cost(mv);
            let (a, b) = if is_or { (cp, cd) } else { (cd, cp) };
            (a + kphi, b + kdelta)
        } else {
            (0, 0)
        };
        p.play(mv);
        let ckey = p.key();
        tt.prefetch(ckey);
        let st = p.evaluate();
        let (pn, dn) = solved_numbers(st);
        let unknown = st == Status::Unknown;
        p.undo();
        children.push(Child {
            mv,
            key: ckey,
            pn,
            dn,
            cost_phi,
            cost_delta,
            amount: 0,
            unknown,
            expanded: false,
        });
    }
    moves.truncate(mstart);
    let cend = children.len();
    let implication = p.implication();
    for c in &mut children[cstart..cend] {
        if !c.unknown {
            continue;
        }
        match tt.probe(c.key) {
            Some(h) => {
                c.pn = h.pn;
                c.dn = h.dn;
                c.amount = h.amount;
                c.expanded = h.flags & FLAG_EXPANDED != 0;
            }
            None => {
                let implied = implication.and_then(|imp| {
                    let h = tt.probe(c.key ^ imp.key_xor)?;
                    (status_of(h.pn, h.dn) == imp.status).then_some(imp.status)
                });
                let (pn, dn) = match implied {
                    Some(s) => solved_numbers(s),
                    None => {
                        let (hpn, hdn) = if use_h {
                            p.play(c.mv);
                            let h = p.heuristic();
                            p.undo();
                            h
                        } else {
                            (1, 1)
                        };
                        pol.leaf(hpn, hdn, depth + 1)
                    }
                };
                c.pn = pn;
                c.dn = dn;
            }
        }
    }
    cend - cstart
}

/// (pn, dn) of a node whose player to move has no move: a loss for that
/// player.
#[inline(always)]
pub(crate) fn no_move_numbers(is_or: bool) -> (Pn, Pn) {
    if is_or {
        (INF, 0)
    } else {
        (0, INF)
    }
}

/// What the table says about the root before a search: whether it was
/// expanded already (a revisit) and the effort stored with it.
#[inline]
pub(crate) fn root_entry(tt: &mut Table, key: u64) -> (bool, u32) {
    match tt.probe(key) {
        Some(h) => (h.flags & FLAG_EXPANDED != 0, h.amount),
        None => (false, 0),
    }
}

/// The node's effort after a visit that cost `spent` visits (saturating in
/// the table's 32 bits).
#[inline(always)]
pub(crate) fn add_amount(prev: u32, spent: u64) -> u32 {
    (prev as u64 + spent).min(u32::MAX as u64) as u32
}

/// The plain PN-search aggregation (thesis §2.2.1) of `children` as (φ, δ)
/// of a node of kind `is_or`: φ = min δ_c, δ = Σ φ_c, and the index of the
/// leftmost child with the smallest δ_c (the one to search). PN* and PDS use
/// it; df-pn's loop keeps its own, with the policies' costs and δ rule.
#[inline(always)]
pub(crate) fn aggregate<M>(is_or: bool, children: &[Child<M>]) -> (Pn, Pn, usize) {
    let mut best = 0;
    let mut min = INF;
    let mut sum: Pn = 0;
    for (i, c) in children.iter().enumerate() {
        let (s, f) = if is_or { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if s < min {
            min = s;
            best = i;
        }
        sum = pn_add(sum, f);
    }
    (min, sum, best)
}

/// Absolute (pn, dn) from (φ, δ) at a node of kind `is_or` (deep-dfpn §2.2),
/// and back: the map is its own inverse.
#[inline(always)]
pub(crate) fn orient(is_or: bool, a: Pn, b: Pn) -> (Pn, Pn) {
    if is_or {
        (a, b)
    } else {
        (b, a)
    }
}

/// Closes a search: the table counters it caused (since `before`), the
/// memory it held (`stack_bytes` for its own stacks, plus the table in use),
/// its time, and the stop reason when the root is not solved.
pub(crate) fn finish(
    status: Status,
    mut stats: Stats,
    tt: &Table,
    before: TableCounters,
    stack_bytes: usize,
    budget: &Budget,
) -> SearchResult {
    let c = tt.counters;
    stats.tt_probes = c.probes - before.probes;
    stats.tt_hits = c.hits - before.hits;
    stats.tt_stores = c.stores - before.stores;
    stats.tt_replacements = c.replacements - before.replacements;
    stats.tt_collections = c.collections - before.collections;
    stats.tt_collected = c.collected - before.collected;
    stats.peak_memory_bytes = (tt.active_bytes() + stack_bytes) as u64;
    budget.finish(&mut stats);
    let stop = if status.is_solved() {
        None
    } else {
        budget.stopped()
    };
    SearchResult {
        status,
        stats,
        stop,
    }
}

/// Counts a visit to a node at `depth` (stats.rs): every visit is one of
/// `visits`; a visit to a node expanded before is a re-traversal
/// (`seesaw_revisits`, Deep df-pn §6.1), otherwise a first expansion
/// (`iterations`, `expanded`, and its depth for the average most-proving
/// node depth, thesis §3.2.5).
#[inline(always)]
pub(crate) fn count_visit(stats: &mut Stats, depth: u32, was_expanded: bool) {
    stats.visits += 1;
    if depth > stats.max_depth {
        stats.max_depth = depth;
    }
    if was_expanded {
        stats.seesaw_revisits += 1;
    } else {
        stats.iterations += 1;
        stats.expanded += 1;
        stats.mpn_depth_sum += depth as u64;
    }
}

/// A node being searched by [`Core`]: its key, kind and where its children
/// lie in the shared child stack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub key: u64,
    pub is_or: bool,
    pub depth: u32,
    pub cstart: usize,
    pub cend: usize,
    /// `stats.visits` when the visit began (the effort spent below it).
    pub visits_start: u64,
    pub prev_amount: u32,
}

/// The state of a table-based depth-first search with plain PN-search
/// values (leaves (1, 1), or the problem's `h` when asked): the table, the
/// child stack, the statistics and the budget. PN* and PDS run their own
/// loops on it; df-pn keeps its own struct so that its policies stay
/// monomorphised into one loop.
pub(crate) struct Core<'t, P: Problem> {
    pub tt: &'t mut Table,
    pub children: Vec<Child<P::Move>>,
    moves: Vec<P::Move>,
    pub stats: Stats,
    pub budget: Budget,
    leaf: super::Plain,
    /// The root's last searched child (seesaw at the root, thesis §3.2.6).
    root_choice: usize,
    before: TableCounters,
}

impl<'t, P: Problem> Core<'t, P> {
    pub fn new(tt: &'t mut Table, heuristic: bool, limits: &crate::limits::Limits) -> Self {
        let before = tt.counters;
        Core {
            tt,
            children: Vec::with_capacity(1024),
            moves: Vec::with_capacity(256),
            stats: Stats::default(),
            budget: Budget::new(limits),
            leaf: super::Plain { heuristic },
            root_choice: usize::MAX,
            before,
        }
    }

    /// Enters the current node: counts the visit and expands it. `Err`
    /// carries the (pn, dn, amount) of a node without moves (stored
    /// already): there is nothing to search.
    #[inline]
    pub fn enter(
        &mut self,
        p: &mut P,
        depth: u32,
        was_expanded: bool,
        prev_amount: u32,
    ) -> Result<Frame, (Pn, Pn, u32)> {
        let visits_start = self.stats.visits;
        count_visit(&mut self.stats, depth, was_expanded);
        let key = p.key();
        let is_or = p.is_or();
        let cstart = self.children.len();
        let n = expand(
            p,
            &self.leaf,
            self.leaf.heuristic,
            is_or,
            depth,
            self.tt,
            &mut self.moves,
            &mut self.children,
        );
        if n == 0 {
            let (pn, dn) = no_move_numbers(is_or);
            let amount = prev_amount.saturating_add(1);
            self.tt.store(key, pn, dn, amount, FLAG_EXPANDED, 0);
            return Err((pn, dn, amount));
        }
        if !was_expanded {
            self.stats.nodes += n as u64;
        }
        Ok(Frame {
            key,
            is_or,
            depth,
            cstart,
            cend: cstart + n,
            visits_start,
            prev_amount,
        })
    }

    /// The node's (φ, δ) from its children (plain PN-search rules), the
    /// index of its child with the smallest δ, and its absolute (pn, dn),
    /// recorded in the maxima.
    #[inline]
    pub fn values(&mut self, f: &Frame) -> (Pn, Pn, usize, Pn, Pn) {
        let (phi, delta, best) = aggregate(f.is_or, &self.children[f.cstart..f.cend]);
        let (pn, dn) = orient(f.is_or, phi, delta);
        if f.depth == 0 {
            self.stats.see_root(pn, dn);
        } else {
            self.stats.see_numbers(pn, dn);
        }
        (phi, delta, f.cstart + best, pn, dn)
    }

    /// Searches child `i` of the node `f` with `visit` (the algorithm's own
    /// recursion, called with the problem at the child) and records what it
    /// returns. At the root, a change of the searched child is a seesaw
    /// switch (thesis §3.2.6).
    #[inline]
    pub fn descend(
        &mut self,
        p: &mut P,
        f: &Frame,
        i: usize,
        visit: impl FnOnce(&mut Self, &mut P, Child<P::Move>) -> (Pn, Pn, u32),
    ) -> Child<P::Move> {
        if f.depth == 0 {
            if self.root_choice != i && self.root_choice != usize::MAX {
                self.stats.seesaw_root_switches += 1;
            }
            self.root_choice = i;
        }
        let c = self.children[i];
        p.play(c.mv);
        let (pn, dn, amount) = visit(self, p, c);
        p.undo();
        let c = &mut self.children[i];
        c.pn = pn;
        c.dn = dn;
        c.amount = amount;
        c.expanded = true;
        *c
    }

    /// Leaves the node `f` with the values (pn, dn) and best child `best`:
    /// stores them with the effort spent and frees its children.
    #[inline]
    pub fn leave(&mut self, f: &Frame, pn: Pn, dn: Pn, best: usize) -> (Pn, Pn, u32) {
        self.children.truncate(f.cstart);
        let amount = add_amount(f.prev_amount, self.stats.visits - f.visits_start);
        let best_index = (best - f.cstart).min(u16::MAX as usize) as u16;
        self.tt
            .store(f.key, pn, dn, amount, FLAG_EXPANDED, best_index);
        (pn, dn, amount)
    }

    /// Closes the search (see [`finish`]).
    pub fn finish(self, status: Status) -> SearchResult {
        let stack_bytes = self.children.capacity() * std::mem::size_of::<Child<P::Move>>()
            + self.moves.capacity() * std::mem::size_of::<P::Move>();
        finish(
            status,
            self.stats,
            self.tt,
            self.before,
            stack_bytes,
            &self.budget,
        )
    }
}
