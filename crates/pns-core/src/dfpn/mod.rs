//! Depth-first proof-number search (Nagai 2002) and its variants.
//!
//! One search loop, `Dfpn`, implements MID of the GHI paper's Fig. 2 with
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
//! * A problem may delay a child behind the one listed before it
//!   ([`Problem::delays`], KomoringHeights' delayed moves): the child is
//!   neither looked up nor counted until that one is solved, so a group of
//!   near-equal answers weighs as one move (tsume's interpositions on one
//!   square). df-pn alone does this; PN* and PDS count every child.
//! * A node is solved only when (pn, dn) is (0, ∞) or (∞, 0): Deep df-pn
//!   with E = 0 gives unsolved leaves the value 0 (Def. 1), which must not
//!   read as a proof.

#[cfg(test)]
mod delay_tests;
#[cfg(test)]
mod estimate_tests;
mod expand;
pub mod ghi;
pub mod kawano;
pub mod parallel;
pub mod pds;
pub mod pnstar;
pub mod policy;
#[cfg(test)]
pub(crate) mod test_trees;

use crate::limits::Limits;
use crate::numbers::{pn_add, pn_add_cost, Pn, INF, PN_MAX};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::tt::Table;

use expand::{line_kind, Child, Out, Search};
pub use ghi::GhiMode;
use ghi::{Line, NoLine, PathLine};
pub use kawano::Kawano;
pub use pds::Pds;
pub use pnstar::PnStar;
pub use policy::{DeepDfpn, DeltaRule, DfpnPlus, DfpnPolicy, Epsilon, Plain, Wpns};

/// Root thresholds: ∞−1 (GHI paper §3.5), so a root that is not solved
/// returns `unknown` instead of a false (dis)proof.
pub const ROOT_THRESHOLD: Pn = INF - 1;

pub use crate::numbers::{solved_numbers, status_of};

/// How a df-pn search treats paths in a game where positions repeat (the
/// GHI paper; ignored in a game where they cannot).
#[derive(Clone, Debug, Default)]
pub struct PathOptions<'a> {
    /// The GHI treatment (default NOCYCLE, GHI-safe).
    pub mode: GhiMode,
    /// History keys of the positions before the root, oldest first: a
    /// repetition of one of them counts as one (Go's super-ko over the
    /// game record; a certificate's sub-search below its root).
    pub prefix: &'a [u64],
    /// The key space: XORed into every table key, so that a nested search
    /// (a ladder, a threat check, a mate-in-1 test run from a problem's
    /// hooks) shares the table with the search around it without mixing
    /// its entries with the outer ones. 0 is the main space; use
    /// [`key_space`] for others.
    pub space: u64,
}

/// The key space numbered `n` (1, 2, ... for nested searches of different
/// kinds; 0 is the main space).
pub fn key_space(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        crate::rng::splitmix64(0x6e65_7374_0000 ^ n)
    }
}

/// The salt a search below the history `prefix` XORs into every table key
/// (0 for none; [`PathOptions::prefix`]): a problem whose hooks read the
/// table entries of its own search, or of nested searches run with the
/// same prefix, reads them under these keys.
pub fn line_salt(prefix: &[u64]) -> u64 {
    ghi::history_salt(prefix)
}

/// Runs df-pn with `pol` on `problem` from its current node, GHI-safe
/// (NOCYCLE) where positions can repeat. The table keeps what was learnt
/// (certificate extraction reads it afterwards).
pub fn search<P: Problem, Pol: DfpnPolicy>(
    problem: &mut P,
    pol: Pol,
    tt: &Table,
    limits: &Limits,
) -> SearchResult {
    search_with(problem, pol, tt, limits, &PathOptions::default())
}

/// [`search`] with the GHI treatment and the history before the root.
pub fn search_with<P: Problem, Pol: DfpnPolicy>(
    problem: &mut P,
    pol: Pol,
    tt: &Table,
    limits: &Limits,
    path: &PathOptions,
) -> SearchResult {
    // The line is chosen once: a game without repetitions runs the loop
    // with every path check compiled out.
    match line_kind(problem) {
        None => Dfpn::run(Search::new(tt, pol, NoLine, limits, path.space), problem),
        Some(rule) => {
            let line = PathLine::new(rule, path.mode, path.prefix);
            Dfpn::run(Search::new(tt, pol, line, limits, path.space), problem)
        }
    }
}

/// df-pn: MID on the shared [`Search`] context.
struct Dfpn;

impl Dfpn {
    fn run<P: Problem, Pol: DfpnPolicy, L: Line>(
        mut s: Search<'_, P, Pol, L>,
        problem: &mut P,
    ) -> SearchResult {
        s.delay = P::DELAYS;
        let status = match problem.evaluate() {
            Status::Unknown => {
                let (expanded, amount, twins) = s.root(problem);
                let (th, th2) = (ROOT_THRESHOLD, ROOT_THRESHOLD);
                let out = match s.par {
                    None => Self::mid::<P, Pol, L, false>(
                        &mut s, problem, th, th2, 0, expanded, amount, twins,
                    ),
                    Some(par) => {
                        let out = Self::mid::<P, Pol, L, true>(
                            &mut s, problem, th, th2, 0, expanded, amount, twins,
                        );
                        if status_of(out.pn, out.dn).is_solved() {
                            par.done.store(true, std::sync::atomic::Ordering::Relaxed);
                        }
                        out
                    }
                };
                s.stats.see_root(out.pn, out.dn);
                status_of(out.pn, out.dn)
            }
            solved => solved,
        };
        s.finish(status, problem)
    }

    /// A child's selection and sum numbers in its parent's view (φ-side,
    /// δ-side), with the policy's costs (thesis eq. 2.6–2.7).
    #[inline(always)]
    fn sel_fv<Pol: DfpnPolicy>(c: &Child<impl Copy>, is_or: bool) -> (Pn, Pn) {
        let (sv, fv) = if is_or { (c.pn, c.dn) } else { (c.dn, c.pn) };
        if Pol::USES_COST {
            (pn_add_cost(sv, c.cost_phi), pn_add_cost(fv, c.cost_delta))
        } else {
            (sv, fv)
        }
    }

    /// MID (GHI paper Fig. 2): searches below the current node until its
    /// proof number reaches `th_pn` or its disproof number reaches `th_dn`.
    /// Returns the node's (pn, dn), its total search effort and whether a
    /// solved value holds on this path only. `PAR`: one agent of a parallel
    /// search ([`parallel`]: marks, virtual proof numbers, cut-off).
    #[allow(clippy::too_many_arguments)]
    fn mid<P: Problem, Pol: DfpnPolicy, L: Line, const PAR: bool>(
        s: &mut Search<'_, P, Pol, L>,
        p: &mut P,
        th_pn: Pn,
        th_dn: Pn,
        depth: u32,
        was_expanded: bool,
        prev_amount: u32,
        twins: bool,
    ) -> Out {
        // ---- expansion: generate and evaluate the children
        let f = match s.enter(p, depth, was_expanded, prev_amount, twins) {
            Ok(f) => f,
            Err(done) => return done,
        };
        let (cstart, cend, is_or) = (f.cstart, f.cend, f.is_or);
        // `agents` sees the others (cut-off); `par` also marks this node
        // and weighs its children by their marks (the top plies only).
        let agents = if PAR { s.par } else { None };
        let par = agents.filter(|_| depth < parallel::MARK_DEPTH);
        if let Some(par) = par {
            par.mark(f.key);
        }
        if Pol::SIMULATE && !was_expanded && (!is_or || s.pol.sim_dual()) {
            // Kawano's simulation from a child the table holds proven
            // (searched from another parent, or by a nested search); dual
            // simulation from one it holds disproven.
            let claim = sim_claim(is_or);
            let settled = s.children[cstart..cend]
                .iter()
                .position(|c| c.unknown() && status_of(c.pn, c.dn) == claim);
            if let Some(i) = settled {
                s.kawano(p, &f, cstart + i, claim);
                if P::DELAYS {
                    s.wake(p, cstart, cend, depth);
                }
            }
        }

        // ---- iterative deepening at this node
        let (mut th_phi, mut th_delta) = if is_or {
            (th_pn, th_dn)
        } else {
            (th_dn, th_pn)
        };
        // With cycles, numbers read from the table can feed on themselves
        // (a node's value counts a descendant whose value counted the node)
        // and grow at every return without a single new expansion: df-pn
        // then never ends (Kishimoto and Müller 2008 show df-pn is not
        // complete on such graphs). So in a game with repetitions a node
        // that is over its thresholds on entry still makes one descent,
        // which ends only where something is solved: every call of MID
        // then solves a node on some line, and the lines are finite.
        let mut first = L::ACTIVE;
        let mut phi;
        let mut delta;
        let mut best;
        let mut again = false;
        loop {
            if PAR && again && par.is_some_and(|p| p.agents(f.key) > 1) {
                // Another agent is at or below this node and may have moved
                // the siblings on. Alone here, the frame's numbers are as
                // fresh as serial df-pn's: what others stored elsewhere
                // shows when this agent descends into the child.
                s.refresh(&f);
                if P::DELAYS {
                    s.wake(p, cstart, cend, depth);
                }
            }
            again = true;
            // Aggregate: φ = min (δ_c + cost_φ), δ = Σ (φ_c + cost_δ) or WPNS.
            best = cstart;
            let mut second = cstart;
            let mut sel1 = INF;
            let mut sel2 = INF;
            let mut sum: Pn = 0;
            let mut max_f: Pn = 0;
            let mut unsolved: Pn = 0;
            // One bounds check for the whole loop (the children are a
            // slice of the shared stack).
            for (i, c) in (cstart..).zip(&s.children[cstart..cend]) {
                // A waiting child counts only once it is woken.
                if P::DELAYS && c.waiting() {
                    continue;
                }
                let (sv, fv) = Self::sel_fv::<Pol>(c, is_or);
                if sv < sel1 {
                    sel2 = sel1;
                    second = best;
                    sel1 = sv;
                    best = i;
                } else if sv < sel2 {
                    sel2 = sv;
                    second = i;
                }
                match Pol::DELTA {
                    DeltaRule::Sum => sum = pn_add(sum, fv),
                    DeltaRule::Weak => {
                        if fv == INF {
                            sum = INF;
                        } else if status_of(c.pn, c.dn) == Status::Unknown {
                            unsolved += 1;
                            max_f = max_f.max(fv);
                        }
                    }
                }
            }
            // φ is the real minimum, whatever the agents do.
            let real_min = sel1;
            // A parallel agent chooses by virtual numbers (Kaneko 2010): a
            // child with k other agents below it looks 1 + k times worse, up
            // to just below the threshold. Virtual numbers are never below
            // real ones, so while neither the best nor the second-best child
            // is busy the choice and the second number are the real ones;
            // only otherwise are all children weighed again.
            if let Some(par) = par {
                let busy = |i: usize| par.agents(s.children[i].key) != 0;
                if busy(best) || (second != best && sel2 < INF && busy(second)) {
                    (best, sel1, sel2) = (cstart, INF, INF);
                    for (i, c) in (cstart..).zip(&s.children[cstart..cend]) {
                        if P::DELAYS && c.waiting() {
                            continue;
                        }
                        let (sv, _) = Self::sel_fv::<Pol>(c, is_or);
                        let sv = match par.agents(c.key) {
                            0 => sv,
                            _ if status_of(c.pn, c.dn).is_solved() || sv >= PN_MAX => sv,
                            // Never past the threshold: a busy child that is
                            // the only one within it must still be chosen, or
                            // the agent would hand it a threshold it has met
                            // and spin.
                            k => sv
                                .saturating_mul(1 + k as Pn)
                                .min(sv.max(th_phi.saturating_sub(1)))
                                .min(PN_MAX),
                        };
                        if sv < sel1 {
                            sel2 = sel1;
                            sel1 = sv;
                            best = i;
                        } else if sv < sel2 {
                            sel2 = sv;
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
            phi = real_min;
            delta = sum;
            let (pn, dn) = if is_or { (phi, delta) } else { (delta, phi) };
            if depth == 0 {
                s.stats.see_root(pn, dn);
                if phi < th_phi && delta < th_delta {
                    s.note_root_choice(depth, best);
                } else {
                    s.root_choice = best;
                }
            } else {
                s.stats.see_numbers(pn, dn);
            }
            if first {
                first = false;
                if (phi >= th_phi || delta >= th_delta) && status_of(pn, dn) == Status::Unknown {
                    th_phi = th_phi.max(phi.saturating_add(1).min(ROOT_THRESHOLD));
                    th_delta = th_delta.max(delta.saturating_add(1).min(ROOT_THRESHOLD));
                }
            }
            if phi >= th_phi || delta >= th_delta {
                break;
            }
            if s.budget.check(&s.stats).is_some() || agents.is_some_and(|p| p.done()) {
                break;
            }

            // Thresholds of the chosen child (deep-dfpn §2.2 step 2; with
            // costs, thesis eq. 2.6–2.7; WPNS: the child's φ need only reach
            // th_δ − (k − 1)).
            let c = s.children[best];
            let sel_th = s.pol.child_th_delta(th_phi, sel2);
            let sel_th = remove_cost(sel_th, c.cost_phi);
            let f_c = {
                let fv = if is_or { c.dn } else { c.pn };
                if Pol::USES_COST {
                    pn_add_cost(fv, c.cost_delta)
                } else {
                    fv
                }
            };
            // A threshold out of reach stays out of reach: with saturated
            // numbers, δ − f_c is no measure of the siblings, and taking it
            // off would hand the child a threshold it meets at once.
            let sum_th = if th_delta > PN_MAX {
                th_delta
            } else {
                match Pol::DELTA {
                    DeltaRule::Sum => th_delta.saturating_sub(delta - f_c),
                    DeltaRule::Weak => th_delta.saturating_sub(unsolved.saturating_sub(1)),
                }
            };
            let sum_th = remove_cost(sum_th, c.cost_delta);
            let (cth_pn, cth_dn) = if is_or {
                (sel_th, sum_th)
            } else {
                (sum_th, sel_th)
            };
            let c = s.descend(p, best, |s, p, c| {
                Self::mid::<P, Pol, L, PAR>(
                    s,
                    p,
                    cth_pn,
                    cth_dn,
                    depth + 1,
                    c.expanded(),
                    c.amount,
                    c.twins(),
                )
            });
            if Pol::SIMULATE
                && (!is_or || s.pol.sim_dual())
                && status_of(c.pn, c.dn) == sim_claim(is_or)
            {
                // Kawano's simulation: the siblings by this child's proof
                // (dual: by its disproof).
                s.kawano(p, &f, best, sim_claim(is_or));
            }
            if P::DELAYS && status_of(c.pn, c.dn).is_solved() {
                // The next of its group may now be counted.
                s.wake(p, cstart, cend, depth);
            }
        }
        let (pn, dn) = if is_or { (phi, delta) } else { (delta, phi) };
        if let Some(par) = par {
            par.unmark(f.key);
        }
        if P::STORES_SHARED {
            s.share(p, &f, pn, dn);
        }
        s.leave(&f, pn, dn, best)
    }
}
/// What a simulation replays at a node: proofs below AND nodes (Kawano),
/// disproofs below OR nodes (dual simulation).
#[inline(always)]
fn sim_claim(is_or: bool) -> Status {
    if is_or {
        Status::Disproven
    } else {
        Status::Proven
    }
}

/// Turns a threshold on (value + cost) into one on the raw value.
///
/// A threshold above [`PN_MAX`] is out of reach of every finite value, like
/// ∞−1 (it comes from the root's ∞−1 less a few siblings' numbers): it stays
/// as it is, whatever the cost, so that a cost cannot bring it into reach.
#[inline(always)]
fn remove_cost(th: Pn, cost: i64) -> Pn {
    if cost == 0 || th > PN_MAX {
        th
    } else if cost > 0 {
        th.saturating_sub(cost as u64).max(1)
    } else {
        pn_add(th, cost.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::test_trees::{Tree, TreeProblem};

    /// Expansion stops at the first child that settles its node (a proven
    /// child of an OR node, a disproven one of an AND node): the children
    /// after it are never generated, and the answer is unchanged.
    #[test]
    fn expansion_stops_at_a_deciding_child() {
        let run = |s: &str| {
            let t = Tree::parse(s);
            let r = search(
                &mut TreeProblem::new(&t),
                Plain::default(),
                &Table::with_mb(1),
                &Limits::default(),
            );
            (r.status, r.stats.nodes)
        };
        // OR root: the first child wins; the three after it are not made.
        assert_eq!(run("(W (L L) (L L) L)"), (Status::Proven, 1));
        // A loss first does not decide an OR node: on to the win.
        assert_eq!(run("(L W (L L) L)"), (Status::Proven, 2));
        // AND node under the root: its second child refutes it.
        assert_eq!(run("((W L W W))"), (Status::Disproven, 3));
        // Nothing decides at once: every child is made.
        assert_eq!(run("((W W) (L L))"), (Status::Proven, 4));
    }

    #[test]
    fn removing_a_negative_cost_keeps_huge_thresholds_huge() {
        // ∞−1 less a sibling's number, then a cost of −5: this overflowed.
        assert_eq!(remove_cost(INF - 3, -5), INF - 3);
        assert_eq!(remove_cost(PN_MAX + 7, -1), PN_MAX + 7);
        // Out of reach stays out of reach under a positive cost too.
        assert_eq!(remove_cost(PN_MAX + 7, 1 << 40), PN_MAX + 7);
        assert_eq!(remove_cost(10, -5), 15);
        assert_eq!(remove_cost(PN_MAX, -5), PN_MAX);
        assert_eq!(remove_cost(10, 4), 6);
        assert_eq!(remove_cost(3, 6), 1);
        assert_eq!(remove_cost(INF - 1, -5), INF - 1);
    }
}
