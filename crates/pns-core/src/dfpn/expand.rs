//! The one search context every table-based depth-first search runs on:
//! the table, the child stack, the statistics, the budget and the line
//! (the path from the root, [`super::ghi`]).
//!
//! [`super::Dfpn`] (df-pn and its policies), [`super::pnstar`] (PN*, thesis
//! §2.2.2) and [`super::pds`] (PDS, thesis §2.2.2) differ only in how they
//! turn children's values into thresholds and when they return; entering a
//! node (counting the visit, generating and evaluating its children,
//! reading the table, judging repetitions), descending into a child and
//! leaving a node (storing its result where the path rules say) are here.
//! Everything is generic over the policy and the line and inlined, so a
//! caller compiles to the same code as if it were written in place: for a
//! game without repetitions the line is [`super::ghi::NoLine`] and every
//! path check vanishes.

use crate::game::{Repetition, SharedProbe};
use crate::limits::{Budget, Limits};
use crate::numbers::{pn_add, Pn, INF};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::{Hit, Stored, Table, FLAG_EXPANDED};

use super::ghi::{self, GhiMode, Line, Twin, FLAG_HAS_TWINS};
use super::parallel::Shared;
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
    /// `UNKNOWN`, `EXPANDED`, `DEP`, `TWINS` (one byte keeps a child at 48
    /// bytes in the child stack).
    pub bits: u8,
}

impl<M> Child<M> {
    /// The child's own evaluation was `Unknown` (not a terminal or known
    /// position).
    pub const UNKNOWN: u8 = 1;
    /// The child was expanded by an earlier visit (from the table's flag):
    /// visiting it again is a re-traversal (Deep df-pn §6.1).
    pub const EXPANDED: u8 = 2;
    /// Solved, and the (dis)proof holds on this path only (a repetition or
    /// a twin entry below it; GHI paper §3.1).
    pub const DEP: u8 = 4;
    /// The child's base entry has twin entries.
    pub const TWINS: u8 = 8;
    /// Set while a node expands: the table does not know the child, so it
    /// takes an implied answer or a leaf value (only the expansion reads
    /// it).
    pub const NEW: u8 = 16;
    /// Kawano's simulation tried this child during the current visit of
    /// its parent, and failed ([`super::kawano`]): not tried again until
    /// the parent's next visit.
    pub const SIM_TRIED: u8 = 32;
    /// Delayed behind the child before it ([`Problem::delays`]) and not
    /// yet woken: neither looked up nor counted in the node's numbers.
    /// Its (pn, dn) are (1, 1) until [`Search::wake`] reads them.
    pub const WAITING: u8 = 64;

    #[inline(always)]
    pub fn unknown(&self) -> bool {
        self.bits & Self::UNKNOWN != 0
    }
    #[inline(always)]
    pub fn expanded(&self) -> bool {
        self.bits & Self::EXPANDED != 0
    }
    #[inline(always)]
    pub fn dep(&self) -> bool {
        self.bits & Self::DEP != 0
    }
    #[inline(always)]
    pub fn twins(&self) -> bool {
        self.bits & Self::TWINS != 0
    }
    #[inline(always)]
    pub fn waiting(&self) -> bool {
        self.bits & Self::WAITING != 0
    }
    #[inline(always)]
    pub fn set(&mut self, bit: u8, on: bool) {
        self.bits = (self.bits & !bit) | if on { bit } else { 0 };
    }
    /// Takes a table entry's numbers, effort and flags (its twins only
    /// where `twins`: a search with a line).
    #[inline(always)]
    fn take(&mut self, h: &Hit, twins: bool) {
        (self.pn, self.dn, self.amount) = (h.pn, h.dn, h.amount);
        self.set(Self::EXPANDED, h.flags & FLAG_EXPANDED != 0);
        self.set(Self::TWINS, twins && h.flags & FLAG_HAS_TWINS != 0);
    }
}

/// What a visit of a node returns: its numbers, its total effort and
/// whether a solved value depends on the path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Out {
    pub pn: Pn,
    pub dn: Pn,
    pub amount: u32,
    pub dep: bool,
}

/// A node being searched: its key, kind and where its children lie in the
/// shared child stack.
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
    /// The node's base entry has twins (kept when it is stored again).
    pub twins: bool,
}

/// Simulation gives up after this many nodes: a proof that large is
/// cheaper to search again than to replay blindly.
const SIM_LIMIT: u64 = 20_000;

/// Simulation nodes a search may spend in all, per node visit (plus one
/// simulation's worth): simulations are not visits, so without a bound
/// in proportion to them a search with a visit limit could replay for
/// minutes (a Go capturing problem: 9 M simulation nodes in a search of
/// 1,000 visits). Past it a twin is not confirmed by simulation, which
/// only leaves the child to be searched: never a wrong value. The
/// random cyclic graphs of PERFORMANCE.md use about 15 per visit.
const SIM_PER_VISIT: u64 = 256;

/// The state of a table-based depth-first search.
pub(crate) struct Search<'t, P: Problem, Pol: DfpnPolicy, L: Line> {
    pub tt: &'t Table,
    pub pol: Pol,
    use_h: bool,
    pub children: Vec<Child<P::Move>>,
    moves: Vec<P::Move>,
    /// The expanding node's children's shared-entry probes, by child
    /// (only for problems that share solved results).
    shared: Vec<Option<SharedProbe>>,
    /// The expanding node's children's leaf estimates, by child, read
    /// while each is played (only where [`Problem::CHEAP_ESTIMATE`]).
    estimates: Vec<Result<(Pn, Pn), Status>>,
    pub stats: Stats,
    pub budget: Budget,
    pub line: L,
    /// The root's last searched child (seesaw at the root, thesis §3.2.6).
    pub root_choice: usize,
    /// XORed into every key: the search's key space (a nested search's
    /// own, and the line's history, [`super::ghi::PathLine::new`]).
    pub salt: u64,
    /// The other agents of a parallel search ([`super::parallel`]).
    pub par: Option<&'t Shared>,
    /// Delayed expansion ([`Problem::delays`]): set by df-pn's loop, which
    /// wakes the children it delays; PN* and PDS leave it off.
    pub delay: bool,
}

impl<'t, P: Problem, Pol: DfpnPolicy, L: Line> Search<'t, P, Pol, L> {
    pub fn new(tt: &'t Table, pol: Pol, line: L, limits: &Limits, space: u64) -> Self {
        let use_h = pol.use_heuristic();
        let salt = line.salt() ^ space;
        Search {
            tt,
            pol,
            use_h,
            children: Vec::with_capacity(1024),
            moves: Vec::with_capacity(256),
            shared: Vec::new(),
            estimates: Vec::new(),
            stats: Stats::default(),
            budget: Budget::new(limits),
            line,
            root_choice: usize::MAX,
            salt,
            par: None,
            delay: false,
        }
    }

    /// Probes the table, counting it in this search's statistics.
    #[inline(always)]
    pub fn probe(&mut self, key: u64) -> Option<Hit> {
        probe(self.tt, &mut self.stats, key)
    }

    /// Stores into the table, counting it in this search's statistics.
    #[inline(always)]
    pub fn store(&mut self, key: u64, pn: Pn, dn: Pn, amount: u32, flags: u8, best: u16) {
        let s = self.tt.store(key, pn, dn, amount, flags, best);
        count_store(&mut self.stats, s);
    }

    /// What the table says about the root before a search: whether it was
    /// expanded already (a revisit), the effort stored with it and whether
    /// it has twins. Puts the root on the line.
    pub fn root(&mut self, p: &P) -> (bool, u32, bool) {
        if L::ACTIVE {
            self.line.push(p.history_key());
        }
        match self.probe(p.key() ^ self.salt) {
            Some(h) => (
                h.flags & FLAG_EXPANDED != 0,
                h.amount,
                h.flags & FLAG_HAS_TWINS != 0,
            ),
            None => (false, 0, false),
        }
    }

    /// Enters the current node: counts the visit and expands it. `Err`
    /// carries the result of a node without moves (stored already): there
    /// is nothing to search.
    #[inline(always)]
    pub fn enter(
        &mut self,
        p: &mut P,
        depth: u32,
        was_expanded: bool,
        prev_amount: u32,
        twins: bool,
    ) -> Result<Frame, Out> {
        let visits_start = self.stats.visits;
        count_visit(&mut self.stats, depth, was_expanded);
        let key = p.key() ^ self.salt;
        let is_or = p.is_or();
        let cstart = self.children.len();
        let n = self.expand(p, is_or, depth);
        if n == 0 {
            // The mover has no move that reaches its aim: a loss for it,
            // whatever the path.
            let (pn, dn) = no_move_numbers(is_or);
            let amount = prev_amount.saturating_add(1);
            self.store(key, pn, dn, amount, FLAG_EXPANDED, 0);
            if P::STORES_SHARED {
                p.share_solved(self.tt, self.salt, status_of(pn, dn), &[], amount);
            }
            return Err(Out {
                pn,
                dn,
                amount,
                dep: false,
            });
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
            twins,
        })
    }

    /// Generates and evaluates the children of `p`'s current node and
    /// appends them to `children`; returns how many there are (0: the
    /// player to move has no move that reaches its aim).
    ///
    /// Each child is played once to read its key (and prefetch its table
    /// cluster), its exact evaluation and, with a line, whether it repeats
    /// a position of the line. The first child whose evaluation settles
    /// the node on every path ends the list: the rest would cost their
    /// evaluations (two H-searches each in Hex) and change nothing. Then
    /// the table is probed for every unknown child, after all the
    /// prefetches so that the cache misses overlap.
    /// With a line, a child with twins takes the twin for its path, or one
    /// that simulation confirms on it (GHI paper §3.1-3.3). A child the
    /// table does not know takes the answer to a related question that
    /// settles it ([`Problem::implication`]) or else the policy's leaf
    /// value (`pol.leaf`, e.g. Deep df-pn's E^(D−depth), Def. 1) from the
    /// heuristic (df-pn+ `h`, thesis §2.2.4). The heuristic is computed
    /// only for those children, by playing them again: it is the dearest
    /// hook in some games (Hex's threat analysis) and most children of a
    /// revisited node are in the table.
    #[inline(always)]
    fn expand(&mut self, p: &mut P, is_or: bool, depth: u32) -> usize {
        let cstart = self.children.len();
        let mstart = self.moves.len();
        p.generate(&mut self.moves);
        let mend = self.moves.len();
        if mend == mstart {
            return 0;
        }
        // Split borrows: the loops below read the moves and the table while
        // they fill the children and count in the statistics.
        let (tt, salt) = (self.tt, self.salt);
        let stats = &mut self.stats;
        let children = &mut self.children;
        let shared = &mut self.shared;
        shared.clear();
        let estimates = &mut self.estimates;
        estimates.clear();
        let estimate_now = P::CHEAP_ESTIMATE && self.use_h;
        let line = &self.line;
        let (kphi, kdelta) = self.pol.constant_cost();
        let decides = if is_or {
            Status::Proven
        } else {
            Status::Disproven
        };
        let delay = P::DELAYS && self.delay;
        let mut prev = None;
        for &mv in &self.moves[mstart..mend] {
            // Delayed behind the move before it: played for its key and
            // its own evaluation, but neither prefetched nor looked up
            // until woken (most never are: the first of the group settles
            // the node, or the search goes elsewhere).
            let chained = delay && prev.is_some_and(|pm| p.delays(pm, mv));
            prev = Some(mv);
            let (cost_phi, cost_delta) = if Pol::USES_COST {
                let (cp, cd) = p.edge_cost(mv);
                let (a, b) = if is_or { (cp, cd) } else { (cd, cp) };
                (a + kphi, b + kdelta)
            } else {
                (0, 0)
            };
            p.play(mv);
            let ckey = p.key() ^ salt;
            if !chained {
                tt.prefetch(ckey);
            }
            let mut st = p.evaluate_child();
            let mut dep = false;
            if L::ACTIVE && line.contains(p.history_key()) {
                // A repetition ends the line whatever the position holds.
                // (Counted once the list is final, below.)
                st = ghi::repetition_status(line.rule(), p.is_or());
                dep = true;
            }
            if P::SHARES_SOLVED {
                // The problem's own shared entries (tsume's proof pieces):
                // prefetched now, looked up once every child is played.
                let q = (st == Status::Unknown && !chained)
                    .then(|| p.shared_probe(salt))
                    .flatten();
                if let Some(q) = q {
                    tt.prefetch(q.key);
                }
                shared.push(q);
            }
            let (pn, dn) = solved_numbers(st);
            let unknown = st == Status::Unknown;
            if estimate_now {
                estimates.push(if unknown {
                    p.leaf_estimate()
                } else {
                    Ok((1, 1))
                });
            }
            p.undo();
            children.push(Child {
                mv,
                key: ckey,
                pn,
                dn,
                cost_phi,
                cost_delta,
                amount: 0,
                bits: if unknown {
                    Child::<P::Move>::UNKNOWN
                } else {
                    0
                } | if dep { Child::<P::Move>::DEP } else { 0 }
                    | if chained && unknown {
                        Child::<P::Move>::WAITING
                    } else {
                        0
                    },
            });
            // A child that settles the node on every path (a proven child
            // of an OR node, a disproven one of an AND node) makes the
            // rest of the list moot: the node is solved with this child as
            // its witness, and the others are neither evaluated nor
            // stored. The children kept are a prefix of the generated
            // list, so a stored best index means the same move.
            if st == decides && !dep {
                break;
            }
        }
        self.moves.truncate(mstart);
        if P::SHARES_SOLVED {
            // In generated order, as if each had been looked up when it was
            // played: a child that the shared entries show settles the node
            // ends the list there.
            for (i, q) in shared.iter().enumerate() {
                let Some(q) = *q else { continue };
                let st = P::shared_lookup(tt, q);
                if st.is_solved() {
                    let c = &mut children[cstart + i];
                    (c.pn, c.dn) = solved_numbers(st);
                    c.set(Child::<P::Move>::UNKNOWN, false);
                    if st == decides {
                        children.truncate(cstart + i + 1);
                        break;
                    }
                }
            }
        }
        if L::ACTIVE {
            // Repetitions among the children kept (a repetition past a
            // child that settles the node was never reached).
            stats.repetitions += children[cstart..].iter().filter(|c| c.dep()).count() as u64;
        }
        let cend = children.len();
        let implication = p.implication();
        let (pol, use_h) = (&self.pol, self.use_h);
        let mut any_twins = false;
        let mut any_new = false;
        for (i, c) in children[cstart..cend].iter_mut().enumerate() {
            if !c.unknown() || (P::DELAYS && c.waiting()) {
                continue;
            }
            match probe(tt, stats, c.key) {
                Some(h) => {
                    c.take(&h, L::ACTIVE);
                    any_twins |= c.twins();
                }
                None => match implication {
                    Some(imp) => {
                        // Its entry for the other goal is probed below,
                        // after every such prefetch: the misses overlap.
                        c.bits |= Child::<P::Move>::NEW;
                        any_new = true;
                        tt.prefetch(c.key ^ imp.key_xor);
                    }
                    None => match estimates.get(i) {
                        Some(&h) => leaf_from(c, pol, h, depth),
                        None => set_leaf(c, p, pol, use_h, depth),
                    },
                },
            }
        }
        if any_new {
            for (i, c) in children[cstart..cend].iter_mut().enumerate() {
                // (The bit is left set: nothing reads it after this loop,
                // and the frame's children go when the node is left.)
                if c.bits & Child::<P::Move>::NEW == 0 {
                    continue;
                }
                // Written out rather than as a closure, which the compiler
                // left out of line.
                let mut implied = None;
                if let Some(imp) = implication {
                    if let Some(h) = probe(tt, stats, c.key ^ imp.key_xor) {
                        if status_of(h.pn, h.dn) == imp.status {
                            implied = Some(imp.status);
                        }
                    }
                }
                match (implied, estimates.get(i)) {
                    (Some(s), _) => (c.pn, c.dn) = solved_numbers(s),
                    (None, Some(&h)) => leaf_from(c, pol, h, depth),
                    (None, None) => set_leaf(c, p, pol, use_h, depth),
                }
            }
        }
        if L::ACTIVE && any_twins {
            for i in cstart..cend {
                let c = self.children[i];
                if c.twins() && !status_of(c.pn, c.dn).is_solved() {
                    if let Some(st) = self.twin_for_child(p, i) {
                        let c = &mut self.children[i];
                        (c.pn, c.dn) = solved_numbers(st);
                        c.set(Child::<P::Move>::DEP, true);
                    }
                }
            }
        }
        if delay {
            self.wake(p, cstart, cend, depth);
        }
        cend - cstart
    }

    /// Wakes every waiting child among `children[cstart..cend]` (a node at
    /// `depth`) whose predecessor is solved: a group of delayed moves is
    /// searched one after the other, each once the one before it is
    /// settled. Call it whenever a child may have been solved. A waiting
    /// child always follows an unsolved child (woken or waiting), and a
    /// group's first move never waits, so an unsolved group always has a
    /// counted, unsolved member: no node is taken as solved while a child
    /// waits.
    #[inline]
    pub fn wake(&mut self, p: &mut P, cstart: usize, cend: usize, depth: u32) {
        for i in cstart + 1..cend {
            if self.children[i].waiting() {
                let before = self.children[i - 1];
                if status_of(before.pn, before.dn).is_solved() {
                    self.wake_child(p, i, depth);
                }
            }
        }
    }

    /// Reads a woken child's value as expansion reads any other's: its
    /// entry (or its twin for this path), the problem's shared entries, the
    /// other question's entry, or else its leaf value.
    #[cold]
    #[inline(never)]
    fn wake_child(&mut self, p: &mut P, i: usize, depth: u32) {
        self.children[i].set(Child::<P::Move>::WAITING, false);
        let c = self.children[i];
        if let Some(h) = self.probe(c.key) {
            let c = &mut self.children[i];
            c.take(&h, L::ACTIVE);
            if c.twins() && !status_of(h.pn, h.dn).is_solved() {
                if let Some(st) = self.twin_for_child(p, i) {
                    let c = &mut self.children[i];
                    (c.pn, c.dn) = solved_numbers(st);
                    c.set(Child::<P::Move>::DEP, true);
                }
            }
            return;
        }
        let mut st = Status::Unknown;
        if P::SHARES_SOLVED {
            p.play(c.mv);
            st = p.shared_status(self.tt, self.salt);
            p.undo();
        }
        if !st.is_solved() {
            if let Some(imp) = p.implication() {
                if let Some(h) = self.probe(c.key ^ imp.key_xor) {
                    if status_of(h.pn, h.dn) == imp.status {
                        st = imp.status;
                    }
                }
            }
        }
        let c = &mut self.children[i];
        if st.is_solved() {
            (c.pn, c.dn) = solved_numbers(st);
        } else {
            set_leaf(c, p, &self.pol, self.use_h, depth);
        }
    }

    /// The result a twin of child `i` gives on the current path: the twin
    /// stored for this very path, else (with SIM) one that simulation
    /// confirms here, which is then stored for this path too.
    #[cold]
    fn twin_for_child(&mut self, p: &mut P, i: usize) -> Option<Status> {
        let c = self.children[i];
        let (twins, n) = ghi::twins(self.tt, &mut self.stats, c.key);
        if n == 0 {
            return None;
        }
        p.play(c.mv);
        let hk = p.history_key();
        let sig = self.line.child_sig(hk);
        let mut found = twins
            .iter()
            .flatten()
            .find(|t| t.sig == sig)
            .map(|t| t.status);
        if found.is_some() {
            self.stats.twin_hits += 1;
        } else if matches!(self.line.mode(), GhiMode::Sim | GhiMode::NoCycle)
            && self.stats.sim_nodes <= SIM_PER_VISIT * self.stats.visits + SIM_LIMIT
        {
            for t in twins.iter().flatten() {
                self.stats.sim_calls += 1;
                let mut budget = SIM_LIMIT;
                if let Some(best) = self.simulate(p, t.status, &mut budget) {
                    ghi::store_twin(
                        self.tt,
                        &mut self.stats,
                        c.key,
                        Twin {
                            sig,
                            status: t.status,
                            best,
                        },
                        c.amount,
                    );
                    found = Some(t.status);
                    break;
                }
                self.stats.sim_failed += 1;
            }
        }
        p.undo();
        found
    }

    /// Simulation (GHI paper §3.3; dual simulation for a disproof): does
    /// the current node have status `claim` on the current line, by a tree
    /// whose OR-side choices (AND-side, for a disproof) are the best moves
    /// the table stores? Every repetition is judged on the line as it is
    /// now. Returns the index of the node's chosen move (0 at an "all"
    /// node) on success. Counts its nodes in `sim_nodes`; gives up after
    /// `budget` nodes.
    fn simulate(&mut self, p: &mut P, claim: Status, budget: &mut u64) -> Option<u16> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        self.stats.sim_nodes += 1;
        let is_or = p.is_or();
        let hk = p.history_key();
        if self.line.contains(hk) {
            return (ghi::repetition_status(self.line.rule(), is_or) == claim).then_some(0);
        }
        match p.evaluate() {
            Status::Unknown => {}
            s => return (s == claim).then_some(0),
        }
        let key = p.key() ^ self.salt;
        let base = self.probe(key);
        let mut cands: Vec<u16> = Vec::new();
        if let Some(h) = base {
            let s = status_of(h.pn, h.dn);
            // Base results hold on every path unless twins are all there
            // is (DUP and SIM store none).
            if s.is_solved() && self.line.mode() == GhiMode::NoCycle {
                return (s == claim).then_some(h.best);
            }
            if h.flags & FLAG_HAS_TWINS != 0 {
                let (twins, _) = ghi::twins(self.tt, &mut self.stats, key);
                cands.extend(
                    twins
                        .iter()
                        .flatten()
                        .filter(|t| t.status == claim)
                        .map(|t| t.best),
                );
            }
            cands.push(h.best);
        }
        let mut moves = Vec::new();
        p.generate(&mut moves);
        if moves.is_empty() {
            let (pn, dn) = no_move_numbers(is_or);
            return (status_of(pn, dn) == claim).then_some(0);
        }
        let one = (claim == Status::Proven) == is_or;
        self.line.push(hk);
        let mut result = None;
        if one {
            let mut tried: Vec<u16> = Vec::with_capacity(cands.len());
            for idx in cands {
                if (idx as usize) >= moves.len() || tried.contains(&idx) {
                    continue;
                }
                tried.push(idx);
                p.play(moves[idx as usize]);
                let ok = self.simulate(p, claim, budget).is_some();
                p.undo();
                if ok {
                    result = Some(idx);
                    break;
                }
            }
        } else {
            result = Some(0);
            for &m in &moves {
                p.play(m);
                let ok = self.simulate(p, claim, budget).is_some();
                p.undo();
                if !ok {
                    result = None;
                    break;
                }
            }
        }
        self.line.pop();
        result
    }

    /// Re-reads the unsolved children of `f` from the table: in a parallel
    /// search other agents may have searched (or solved) them since this
    /// node last looked. A solved entry is taken as it is; otherwise each
    /// number only grows: an entry another agent stored from a less
    /// informed view (or a stale one, after replacement) must not pull this
    /// agent back to a choice it has just refuted, or two agents could hand
    /// a node back and forth for ever. The agent's own descents set the
    /// numbers exactly ([`Self::descend`]).
    #[inline]
    pub fn refresh(&mut self, f: &Frame) {
        let (tt, stats) = (self.tt, &mut self.stats);
        for c in &mut self.children[f.cstart..f.cend] {
            if !c.unknown() || c.waiting() || status_of(c.pn, c.dn).is_solved() {
                continue;
            }
            if let Some(h) = probe(tt, stats, c.key) {
                if status_of(h.pn, h.dn).is_solved() {
                    (c.pn, c.dn) = (h.pn, h.dn);
                } else {
                    c.pn = c.pn.max(h.pn);
                    c.dn = c.dn.max(h.dn);
                }
                c.amount = c.amount.max(h.amount);
                c.set(Child::<P::Move>::EXPANDED, h.flags & FLAG_EXPANDED != 0);
            }
        }
    }

    /// Plays child `i` of the node `f`, searches it with `visit` (the
    /// algorithm's own recursion, called with the problem at the child)
    /// and records what it returns.
    #[inline(always)]
    pub fn descend(
        &mut self,
        p: &mut P,
        i: usize,
        visit: impl FnOnce(&mut Self, &mut P, Child<P::Move>) -> Out,
    ) -> Child<P::Move> {
        let c = self.children[i];
        p.play(c.mv);
        if L::ACTIVE {
            self.line.push(p.history_key());
        }
        let out = visit(self, p, c);
        if L::ACTIVE {
            self.line.pop();
        }
        p.undo();
        let c = &mut self.children[i];
        c.pn = out.pn;
        c.dn = out.dn;
        c.amount = out.amount;
        c.set(Child::<P::Move>::EXPANDED, true);
        c.set(Child::<P::Move>::DEP, out.dep);
        *c
    }

    /// The node's (φ, δ) from its children (plain PN-search rules), the
    /// index of its child with the smallest δ, and its absolute (pn, dn),
    /// recorded in the maxima (PN* and PDS).
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

    /// Counts a change of the root's searched child as a seesaw switch
    /// (thesis §3.2.6).
    #[inline]
    pub fn note_root_choice(&mut self, depth: u32, i: usize) {
        if depth == 0 {
            if self.root_choice != i && self.root_choice != usize::MAX {
                self.stats.seesaw_root_switches += 1;
            }
            self.root_choice = i;
        }
    }

    /// Hands the node `f`, solved with (pn, dn) on every path, to the
    /// problem's own sharing ([`Problem::share_solved`]) with its children's
    /// moves and values (a child's value that holds on this path only is
    /// passed as unknown); call it before [`Self::leave`] frees them. A
    /// result that holds on this path only is not handed over.
    #[inline(never)]
    pub fn share(&mut self, p: &mut P, f: &Frame, pn: Pn, dn: Pn) {
        let st = status_of(pn, dn);
        if !st.is_solved() || (L::ACTIVE && self.witness(f, st).1) {
            return;
        }
        // A child solved on this path only counts as unknown.
        let kids: Vec<(P::Move, Status)> = self.children[f.cstart..f.cend]
            .iter()
            .map(|c| {
                let st = if c.dep() {
                    Status::Unknown
                } else {
                    status_of(c.pn, c.dn)
                };
                (c.mv, st)
            })
            .collect();
        let amount = add_amount(f.prev_amount, self.stats.visits - f.visits_start);
        p.share_solved(self.tt, self.salt, st, &kids, amount);
    }

    /// Leaves the node `f` with the values (pn, dn) and best child `best`:
    /// stores them with the effort spent — a solved value that holds on
    /// this path only as a twin (GHI paper §3.1) — and frees its children.
    #[inline(always)]
    pub fn leave(&mut self, f: &Frame, pn: Pn, dn: Pn, best: usize) -> Out {
        let amount = add_amount(f.prev_amount, self.stats.visits - f.visits_start);
        let mut best = best;
        let mut dep = false;
        let mut twin = false;
        let st = status_of(pn, dn);
        if L::ACTIVE && st.is_solved() {
            (best, dep) = self.witness(f, st);
            twin = self.line.mode().twin(dep);
        }
        self.children.truncate(f.cstart);
        let best_index = (best - f.cstart).min(u16::MAX as usize) as u16;
        if twin {
            let t = Twin {
                sig: self.line.sig(),
                status: st,
                best: best_index,
            };
            ghi::store_twin(self.tt, &mut self.stats, f.key, t, amount);
            // The base entry stays unsolved for every other path.
            self.store(
                f.key,
                1,
                1,
                amount,
                FLAG_EXPANDED | FLAG_HAS_TWINS,
                best_index,
            );
        } else {
            let flags = if L::ACTIVE && f.twins {
                FLAG_EXPANDED | FLAG_HAS_TWINS
            } else {
                FLAG_EXPANDED
            };
            self.store(f.key, pn, dn, amount, flags, best_index);
        }
        Out {
            pn,
            dn,
            amount,
            dep,
        }
    }

    /// The child that carries a solved node's status `st` and whether the
    /// result depends on the path. Where one child decides (a proven OR
    /// node, a disproven AND node) a path-independent one is preferred;
    /// where all do, any dependent child makes the node dependent.
    #[cold]
    fn witness(&self, f: &Frame, st: Status) -> (usize, bool) {
        let kids = &self.children[f.cstart..f.cend];
        let one = (st == Status::Proven) == f.is_or;
        if one {
            let mut first = None;
            for (i, c) in kids.iter().enumerate() {
                if status_of(c.pn, c.dn) == st {
                    if !c.dep() {
                        return (f.cstart + i, false);
                    }
                    first.get_or_insert(f.cstart + i);
                }
            }
            (first.unwrap_or(f.cstart), true)
        } else {
            (f.cstart, kids.iter().any(|c| c.dep()))
        }
    }

    /// Closes the search: the table counters it caused, the memory it held
    /// (its own stacks, plus the table in use), its time, and the stop
    /// reason when the root is not solved.
    pub fn finish(mut self, status: Status, p: &mut P) -> SearchResult {
        if let Some(n) = p.nested_stats() {
            self.stats.add_nested(&n);
        }
        let stats = &mut self.stats;
        let stack_bytes = self.children.capacity() * std::mem::size_of::<Child<P::Move>>()
            + self.moves.capacity() * std::mem::size_of::<P::Move>();
        stats.peak_memory_bytes = (self.tt.active_bytes() + stack_bytes) as u64;
        self.budget.finish(stats);
        let stop = if status.is_solved() {
            None
        } else {
            self.budget.stopped()
        };
        SearchResult {
            status,
            stats: self.stats,
            stop,
        }
    }
}

/// Gives `c`, a new child of a node at `depth` that the table does not
/// know, its value: the policy's leaf value (e.g. Deep df-pn's
/// E^(D−depth), Def. 1) from the heuristic (df-pn+ `h`, thesis §2.2.4),
/// which is computed by playing the child again only when the policy uses
/// it; or, when computing it found the child's mover without a move, the
/// solved value, as good as a known terminal (and not in the table).
#[inline(always)]
fn set_leaf<P: Problem, Pol: DfpnPolicy>(
    c: &mut Child<P::Move>,
    p: &mut P,
    pol: &Pol,
    use_h: bool,
    depth: u32,
) {
    let h = if use_h {
        p.play(c.mv);
        let h = p.leaf_estimate();
        p.undo();
        h
    } else {
        Ok((1, 1))
    };
    leaf_from(c, pol, h, depth);
}

/// [`set_leaf`] with the child's leaf estimate `h` already read.
#[inline]
fn leaf_from<M: Copy, Pol: DfpnPolicy>(
    c: &mut Child<M>,
    pol: &Pol,
    h: Result<(Pn, Pn), Status>,
    depth: u32,
) {
    match h {
        Ok((hpn, hdn)) => (c.pn, c.dn) = pol.leaf(hpn, hdn, depth + 1),
        Err(s) => {
            (c.pn, c.dn) = solved_numbers(s);
            c.set(Child::<M>::UNKNOWN, false);
        }
    }
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

/// The node's effort after a visit that cost `spent` visits (saturating in
/// the table's 32 bits).
#[inline(always)]
pub(crate) fn add_amount(prev: u32, spent: u64) -> u32 {
    (prev as u64 + spent).min(u32::MAX as u64) as u32
}

/// Probes `tt`, counting it in `stats`.
#[inline(always)]
pub(crate) fn probe(tt: &Table, stats: &mut Stats, key: u64) -> Option<Hit> {
    stats.tt_probes += 1;
    let h = tt.probe(key);
    stats.tt_hits += h.is_some() as u64;
    h
}

/// Counts a store in the statistics.
#[inline(always)]
pub(crate) fn count_store(stats: &mut Stats, s: Stored) {
    stats.tt_stores += 1;
    stats.tt_replacements += s.replaced as u64;
    stats.tt_collections += s.collections;
    stats.tt_collected += s.collected;
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

/// Which line a search over `p` needs: none for a game without
/// repetitions, else the path from the history `prefix` with `mode`.
pub(crate) fn line_kind<P: Problem>(p: &P) -> Option<Repetition> {
    match p.repetition() {
        Repetition::Impossible => None,
        r => Some(r),
    }
}
