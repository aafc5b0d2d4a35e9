//! Depth-first proof-number search (Nagai 2002) and its variants.
//!
//! One search loop, [`Dfpn`], implements MID of the GHI paper's Fig. 2 with
//! the thresholds of deep-dfpn §2.2 (thesis eq. 2.3–2.4) and the root
//! thresholds ∞−1 (GHI paper §3.5). Variants are [`policy::DfpnPolicy`]
//! implementations: leaf initialisation (Deep df-pn), the child threshold
//! (1+ε), edge costs and `h` (df-pn+), δ aggregation (WPNS).
//!
//! df-pn's table-based ancestors have loops of their own: [`pnstar`] (PN*,
//! proof-number iterative deepening from the root) and [`pds`] (PDS,
//! iterative deepening on both numbers at every node), thesis §2.2.2. All
//! three share `expand.rs`: expanding a node (children generated,
//! evaluated, looked up in the table), counting visits, and closing a search
//! with its statistics.
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

mod expand;
pub mod pds;
pub mod pnstar;
pub mod policy;
#[cfg(test)]
pub(crate) mod test_trees;

use crate::limits::{Budget, Limits};
use crate::numbers::{pn_add, pn_add_cost, Pn, INF, PN_MAX};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::{Table, FLAG_EXPANDED};

use expand::Child;
pub use pds::Pds;
pub use pnstar::PnStar;
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
                let (expanded, amount) = expand::root_entry(s.tt, problem.key());
                let (pn, dn, _) =
                    s.mid(problem, ROOT_THRESHOLD, ROOT_THRESHOLD, 0, expanded, amount);
                s.stats.see_root(pn, dn);
                status_of(pn, dn)
            }
            solved => solved,
        };
        let stack_bytes = s.children.capacity() * std::mem::size_of::<Child<P::Move>>()
            + s.moves.capacity() * std::mem::size_of::<P::Move>();
        expand::finish(status, s.stats, s.tt, before, stack_bytes, &s.budget)
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
        expand::count_visit(&mut self.stats, depth, was_expanded);
        let key = p.key();
        let is_or = p.is_or();

        // ---- expansion: generate and evaluate the children
        let cstart = self.children.len();
        let n = expand::expand(
            p,
            &self.pol,
            self.use_h,
            is_or,
            depth,
            self.tt,
            &mut self.moves,
            &mut self.children,
        );
        if n == 0 {
            // The mover has no move that reaches its aim: a loss for it.
            let (pn, dn) = expand::no_move_numbers(is_or);
            let amount = prev_amount.saturating_add(1);
            self.tt.store(key, pn, dn, amount, FLAG_EXPANDED, 0);
            return (pn, dn, amount);
        }
        let cend = cstart + n;
        if !was_expanded {
            self.stats.nodes += n as u64;
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
        let amount = expand::add_amount(prev_amount, spent);
        let best_index = (best - cstart).min(u16::MAX as usize) as u16;
        self.tt
            .store(key, pn, dn, amount, FLAG_EXPANDED, best_index);
        (pn, dn, amount)
    }
}

/// Turns a threshold on (value + cost) into one on the raw value.
///
/// A threshold above [`PN_MAX`] is out of reach of every finite value, like
/// ∞−1: it comes from the root's ∞−1 less a few siblings' numbers. A
/// negative cost keeps it out of reach (at most ∞−1); `pn_add` would
/// overflow on it (it expects operands ≤ `PN_MAX`).
#[inline(always)]
fn remove_cost(th: Pn, cost: i64) -> Pn {
    if cost == 0 || th == INF || th == INF - 1 {
        th
    } else if cost > 0 {
        th.saturating_sub(cost as u64).max(1)
    } else if th <= PN_MAX {
        pn_add(th, cost.unsigned_abs())
    } else {
        th.saturating_add(cost.unsigned_abs()).min(INF - 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removing_a_negative_cost_keeps_huge_thresholds_huge() {
        // ∞−1 less a sibling's number, then a cost of −5: this overflowed.
        assert_eq!(remove_cost(INF - 3, -5), INF - 1);
        assert_eq!(remove_cost(PN_MAX + 7, -1), PN_MAX + 8);
        assert_eq!(remove_cost(10, -5), 15);
        assert_eq!(remove_cost(PN_MAX, -5), PN_MAX);
        assert_eq!(remove_cost(10, 4), 6);
        assert_eq!(remove_cost(3, 6), 1);
        assert_eq!(remove_cost(INF - 1, -5), INF - 1);
    }
}
