//! Depth-first proof-number search (Nagai 2002) and its variants.
//!
//! One search loop, [`Dfpn`], implements MID of the GHI paper's Fig. 2 with
//! the thresholds of deep-dfpn §2.2 (thesis eq. 2.3–2.4) and the root
//! thresholds ∞−1 (GHI paper §3.5). Variants are [`policy::DfpnPolicy`]
//! implementations: leaf initialisation (Deep df-pn), the child threshold
//! (1+ε), edge costs and `h` (df-pn+), δ aggregation (WPNS).
//!
//! Implementation notes (why, briefly):
//! * Values are kept as absolute (pn, dn) per child and read as (φ, δ) by
//!   the node's kind, so a move that keeps the same player to move (a pass
//!   problem, Connect6's two stones) needs no special case.
//! * A node caches its children's values in a stack frame while it loops,
//!   instead of looking every child up again on every iteration; only the
//!   child just searched can change, and the table is probed once per child
//!   per visit, after prefetching all of them.
//! * A node is solved only when (pn, dn) is (0, ∞) or (∞, 0): Deep df-pn
//!   with E = 0 gives unsolved leaves the value 0 (Def. 1), which must not
//!   read as a proof.

pub mod policy;

use crate::limits::{Budget, Limits};
use crate::numbers::{pn_add, pn_add_cost, Pn, INF};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::{Table, FLAG_EXPANDED};

pub use policy::{DeepDfpn, DeltaRule, DfpnPlus, DfpnPolicy, Epsilon, Plain, Wpns};

/// Root thresholds: ∞−1 (GHI paper §3.5), so a root that is not solved
/// returns `unknown` instead of a false (dis)proof.
pub const ROOT_THRESHOLD: Pn = INF - 1;

/// (pn, dn) of a solved node.
#[inline(always)]
pub fn solved_numbers(s: Status) -> (Pn, Pn) {
    match s {
        Status::Proven => (0, INF),
        Status::Disproven => (INF, 0),
        Status::Unknown => (1, 1),
    }
}

/// The status that (pn, dn) stands for.
#[inline(always)]
pub fn status_of(pn: Pn, dn: Pn) -> Status {
    if pn == 0 && dn == INF {
        Status::Proven
    } else if pn == INF && dn == 0 {
        Status::Disproven
    } else {
        Status::Unknown
    }
}

/// The table's verdict on a node: `Unknown` when absent or unsolved.
pub fn table_status(tt: &mut Table, key: u64) -> Status {
    match tt.probe(key) {
        Some(h) => status_of(h.pn, h.dn),
        None => Status::Unknown,
    }
}

#[derive(Clone, Copy, Debug)]
struct Child<M> {
    mv: M,
    key: u64,
    pn: Pn,
    dn: Pn,
    /// Heuristic (pn, dn) computed while the child was played, used if the
    /// table does not know it.
    hpn: Pn,
    hdn: Pn,
    cost_phi: i64,
    cost_delta: i64,
    amount: u32,
    unknown: bool,
    expanded: bool,
}

/// A df-pn search over one problem, generic over the variant policy.
pub struct Dfpn<'t, P: Problem, Pol: DfpnPolicy> {
    tt: &'t mut Table,
    pol: Pol,
    children: Vec<Child<P::Move>>,
    moves: Vec<P::Move>,
    stats: Stats,
    budget: Budget,
    use_h: bool,
    root_best: usize,
}

impl<'t, P: Problem, Pol: DfpnPolicy> Dfpn<'t, P, Pol> {
    /// Searches `problem` from its current node. The table keeps what was
    /// learnt (certificate extraction reads it afterwards).
    pub fn search(problem: &mut P, pol: Pol, tt: &'t mut Table, limits: &Limits) -> SearchResult {
        let before = tt.counters;
        let use_h = pol.use_heuristic();
        let mut s = Dfpn {
            tt,
            pol,
            children: Vec::with_capacity(1024),
            moves: Vec::with_capacity(256),
            stats: Stats::default(),
            budget: Budget::new(limits),
            use_h,
            root_best: usize::MAX,
        };
        let status = match problem.evaluate() {
            Status::Unknown => {
                let key = problem.key();
                let (expanded, amount) = match s.tt.probe(key) {
                    Some(h) => (h.flags & FLAG_EXPANDED != 0, h.amount),
                    None => (false, 0),
                };
                let (pn, dn, _) =
                    s.mid(problem, ROOT_THRESHOLD, ROOT_THRESHOLD, 0, expanded, amount);
                s.stats.see_root(pn, dn);
                status_of(pn, dn)
            }
            solved => solved,
        };
        let mut stats = s.stats;
        let c = s.tt.counters;
        stats.tt_probes = c.probes - before.probes;
        stats.tt_hits = c.hits - before.hits;
        stats.tt_stores = c.stores - before.stores;
        stats.tt_replacements = c.replacements - before.replacements;
        stats.tt_collections = c.collections - before.collections;
        stats.tt_collected = c.collected - before.collected;
        stats.peak_memory_bytes = (s.tt.active_bytes()
            + s.children.capacity() * std::mem::size_of::<Child<P::Move>>()
            + s.moves.capacity() * std::mem::size_of::<P::Move>())
            as u64;
        s.budget.finish(&mut stats);
        let stop = if status.is_solved() {
            None
        } else {
            s.budget.stopped()
        };
        SearchResult {
            status,
            stats,
            stop,
        }
    }

    /// MID (GHI paper Fig. 2): searches below the current node until its
    /// proof number reaches `th_pn` or its disproof number reaches `th_dn`.
    /// Returns the node's (pn, dn) and its total search effort.
    fn mid(
        &mut self,
        p: &mut P,
        th_pn: Pn,
        th_dn: Pn,
        depth: u32,
        was_expanded: bool,
        prev_amount: u32,
    ) -> (Pn, Pn, u32) {
        let visits_start = self.stats.visits;
        self.stats.visits += 1;
        if depth > self.stats.max_depth {
            self.stats.max_depth = depth;
        }
        if was_expanded {
            self.stats.seesaw_revisits += 1;
        } else {
            self.stats.iterations += 1;
            self.stats.expanded += 1;
            self.stats.mpn_depth_sum += depth as u64;
        }
        let key = p.key();
        let is_or = p.is_or();

        // ---- expansion: generate and evaluate the children
        let cstart = self.children.len();
        let mstart = self.moves.len();
        p.generate(&mut self.moves);
        let mend = self.moves.len();
        if mend == mstart {
            // The mover has no move that reaches its aim: a loss for it.
            let (pn, dn) = if is_or { (INF, 0) } else { (0, INF) };
            let amount = prev_amount.saturating_add(1);
            self.tt.store(key, pn, dn, amount, FLAG_EXPANDED, 0);
            return (pn, dn, amount);
        }
        let (kphi, kdelta) = self.pol.constant_cost();
        for i in mstart..mend {
            let mv = self.moves[i];
            let (cost_phi, cost_delta) = if Pol::USES_COST {
                let (cp, cd) = p.edge_cost(mv);
                let (a, b) = if is_or { (cp, cd) } else { (cd, cp) };
                (a + kphi, b + kdelta)
            } else {
                (0, 0)
            };
            p.play(mv);
            let ckey = p.key();
            self.tt.prefetch(ckey);
            let st = p.evaluate();
            let (pn, dn) = solved_numbers(st);
            let unknown = st == Status::Unknown;
            let (hpn, hdn) = if unknown && self.use_h {
                p.heuristic()
            } else {
                (1, 1)
            };
            p.undo();
            self.children.push(Child {
                mv,
                key: ckey,
                pn,
                dn,
                hpn,
                hdn,
                cost_phi,
                cost_delta,
                amount: 0,
                unknown,
                expanded: false,
            });
        }
        self.moves.truncate(mstart);
        let cend = self.children.len();
        if !was_expanded {
            self.stats.nodes += (cend - cstart) as u64;
        }
        let implication = p.implication();
        for i in cstart..cend {
            let c = self.children[i];
            if !c.unknown {
                continue;
            }
            let c = &mut self.children[i];
            match self.tt.probe(c.key) {
                Some(h) => {
                    c.pn = h.pn;
                    c.dn = h.dn;
                    c.amount = h.amount;
                    c.expanded = h.flags & FLAG_EXPANDED != 0;
                }
                None => {
                    let implied = implication.and_then(|imp| {
                        let h = self.tt.probe(c.key ^ imp.key_xor)?;
                        (status_of(h.pn, h.dn) == imp.status).then_some(imp.status)
                    });
                    let (pn, dn) = match implied {
                        Some(s) => solved_numbers(s),
                        None => self.pol.leaf(c.hpn, c.hdn, depth + 1),
                    };
                    c.pn = pn;
                    c.dn = dn;
                }
            }
        }

        // ---- iterative deepening at this node
        let (th_phi, th_delta) = if is_or {
            (th_pn, th_dn)
        } else {
            (th_dn, th_pn)
        };
        let mut phi;
        let mut delta;
        let mut best;
        loop {
            // Aggregate: φ = min (δ_c + cost_φ), δ = Σ (φ_c + cost_δ) or WPNS.
            best = cstart;
            let mut sel1 = INF;
            let mut sel2 = INF;
            let mut sum: Pn = 0;
            let mut max_f: Pn = 0;
            let mut unsolved: Pn = 0;
            for i in cstart..cend {
                let c = &self.children[i];
                let (s, f) = if is_or { (c.pn, c.dn) } else { (c.dn, c.pn) };
                let (s, f) = if Pol::USES_COST {
                    (pn_add_cost(s, c.cost_phi), pn_add_cost(f, c.cost_delta))
                } else {
                    (s, f)
                };
                if s < sel1 {
                    sel2 = sel1;
                    sel1 = s;
                    best = i;
                } else if s < sel2 {
                    sel2 = s;
                }
                match Pol::DELTA {
                    DeltaRule::Sum => sum = pn_add(sum, f),
                    DeltaRule::Weak => {
                        if f == INF {
                            sum = INF;
                        } else if status_of(c.pn, c.dn) == Status::Unknown {
                            unsolved += 1;
                            max_f = max_f.max(f);
                        }
                    }
                }
            }
            if Pol::DELTA == DeltaRule::Weak && sum != INF {
                sum = if unsolved == 0 {
                    0
                } else {
                    pn_add(max_f, unsolved - 1)
                };
            }
            phi = sel1;
            delta = sum;
            let (pn, dn) = if is_or { (phi, delta) } else { (delta, phi) };
            if depth == 0 {
                self.stats.see_root(pn, dn);
                if self.root_best != best
                    && self.root_best != usize::MAX
                    && phi < th_phi
                    && delta < th_delta
                {
                    self.stats.seesaw_root_switches += 1;
                }
                self.root_best = best;
            } else {
                self.stats.see_numbers(pn, dn);
            }
            if phi >= th_phi || delta >= th_delta {
                break;
            }
            if self.budget.check(&self.stats).is_some() {
                break;
            }

            // Thresholds of the chosen child (deep-dfpn §2.2 step 2; with
            // costs, thesis eq. 2.6–2.7; WPNS: the child's φ need only reach
            // th_δ − (k − 1)).
            let c = self.children[best];
            let sel_th = self.pol.child_th_delta(th_phi, sel2);
            let sel_th = remove_cost(sel_th, c.cost_phi);
            let f_c = {
                let f = if is_or { c.dn } else { c.pn };
                if Pol::USES_COST {
                    pn_add_cost(f, c.cost_delta)
                } else {
                    f
                }
            };
            let sum_th = match Pol::DELTA {
                DeltaRule::Sum => th_delta.saturating_sub(delta - f_c),
                DeltaRule::Weak => th_delta.saturating_sub(unsolved.saturating_sub(1)),
            };
            let sum_th = remove_cost(sum_th, c.cost_delta);
            let (cth_pn, cth_dn) = if is_or {
                (sel_th, sum_th)
            } else {
                (sum_th, sel_th)
            };
            p.play(c.mv);
            let (pn, dn, amount) = self.mid(p, cth_pn, cth_dn, depth + 1, c.expanded, c.amount);
            p.undo();
            let c = &mut self.children[best];
            c.pn = pn;
            c.dn = dn;
            c.amount = amount;
            c.expanded = true;
        }
        self.children.truncate(cstart);
        let (pn, dn) = if is_or { (phi, delta) } else { (delta, phi) };
        let spent = self.stats.visits - visits_start;
        let amount = (prev_amount as u64 + spent).min(u32::MAX as u64) as u32;
        let best_index = (best - cstart).min(u16::MAX as usize) as u16;
        self.tt
            .store(key, pn, dn, amount, FLAG_EXPANDED, best_index);
        (pn, dn, amount)
    }
}

/// Turns a threshold on (value + cost) into one on the raw value.
#[inline(always)]
fn remove_cost(th: Pn, cost: i64) -> Pn {
    if cost == 0 || th == INF || th == INF - 1 {
        th
    } else if cost > 0 {
        th.saturating_sub(cost as u64).max(1)
    } else {
        pn_add(th, cost.unsigned_abs())
    }
}

/// Runs df-pn with `pol` on `problem` (convenience wrapper).
pub fn search<P: Problem, Pol: DfpnPolicy>(
    problem: &mut P,
    pol: Pol,
    tt: &mut Table,
    limits: &Limits,
) -> SearchResult {
    Dfpn::search(problem, pol, tt, limits)
}
