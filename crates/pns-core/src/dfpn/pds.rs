//! PDS, proof-disproof number search (Nagai 1998; thesis §2.2.2): PN*'s
//! iterative deepening with thresholds on both numbers, at every node.
//!
//! The thesis lists four differences from PN*, and this file has each:
//!
//! 1. A node is searched until its numbers reach the proof or the disproof
//!    number threshold (PN* has a proof threshold only).
//! 2. Iterative deepening happens at every node, OR and AND alike (PN*
//!    iterates at the root): each node keeps local thresholds that grow by
//!    one per iteration until the node reaches the thresholds its parent
//!    gave it.
//! 3. Proof and disproof numbers are stored in the transposition table.
//! 4. Thresholds are read in the φ/δ orientation of eq. 2.1–2.2: a child's
//!    φ threshold is its parent's δ threshold and its δ threshold the
//!    parent's φ threshold.
//!
//! and "in each iteration, PDS increments a threshold: if φ ≤ δ the φ
//! threshold, otherwise the δ threshold".
//!
//! Reading choices (the thesis gives prose, not code):
//!
//! * Thresholds are inclusive as in PN* ([`super::pnstar`]): a node is
//!   searched while φ ≤ th_φ and δ ≤ th_δ and returns once either is over.
//!   The root's thresholds are ∞−1 (GHI paper §3.5), as df-pn's.
//! * In the increment rule φ and δ are the node's numbers (the thesis uses
//!   the same symbols for numbers and thresholds in that sentence): the
//!   search raises the threshold of the number that is smaller, i.e. it
//!   works towards the result that looks cheaper.
//! * An iteration ends when the node is over one of its local thresholds.
//!   The next one raises the chosen threshold by one and also lifts the
//!   other, if the node is over it, to the node's number: otherwise the
//!   node would stay outside its thresholds and no iteration could search.
//!   Local thresholds never decrease and never exceed the parent's.
//! * Within an iteration the node searches its child with the smallest δ
//!   (leftmost on ties, as PN-search's most-proving child) with the swapped
//!   local thresholds; unlike df-pn (thesis eq. 2.3–2.4) the child's
//!   thresholds do not subtract its siblings' numbers and do not look at
//!   the second-best child. That is what df-pn later added.
//!
//! Statistics as for [`super::pnstar`].

use crate::limits::Limits;
use crate::numbers::{pn_add, Pn};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::tt::Table;

use super::expand::{Out, Search};
use super::ghi::NoLine;
use super::Plain;
use super::{status_of, ROOT_THRESHOLD};

/// PDS's parameters.
/// The search context PDS runs on: plain leaves, no line.
type Core<'t, P> = Search<'t, P, Plain, NoLine>;

#[derive(Clone, Copy, Debug, Default)]
pub struct Pds {
    /// Initialise unknown leaves with the problem's `h` instead of (1, 1).
    pub heuristic: bool,
}

/// Runs PDS on `problem` from its current node with the table `tt`.
pub fn search<P: Problem>(
    problem: &mut P,
    params: Pds,
    tt: &Table,
    limits: &Limits,
) -> SearchResult {
    let pol = Plain {
        heuristic: params.heuristic,
    };
    let mut core: Core<P> = Search::new(tt, pol, NoLine, limits, 0);
    let status = match problem.evaluate() {
        Status::Unknown => {
            let (expanded, amount, _) = core.root(problem);
            let Out { pn, dn, .. } = visit(
                &mut core,
                problem,
                ROOT_THRESHOLD,
                ROOT_THRESHOLD,
                0,
                expanded,
                amount,
            );
            core.stats.see_root(pn, dn);
            status_of(pn, dn)
        }
        solved => solved,
    };
    core.finish(status, problem)
}

/// The local thresholds (φ, δ) of a node's next iteration, given those of
/// the last one (`None` before the first), the node's numbers and the
/// thresholds its parent gave it (thesis §2.2.2; see the module notes).
pub fn next_thresholds(
    last: Option<(Pn, Pn)>,
    phi: Pn,
    delta: Pn,
    th_phi: Pn,
    th_delta: Pn,
) -> (Pn, Pn) {
    let (lp, ld) = last.unwrap_or((phi, delta));
    let (mut lp, mut ld) = (lp.max(phi), ld.max(delta));
    if phi <= delta {
        lp = pn_add(lp, 1);
    } else {
        ld = pn_add(ld, 1);
    }
    (lp.min(th_phi), ld.min(th_delta))
}

/// Searches the current node until φ > `th_phi` or δ > `th_delta` (the
/// node's own orientation) or it is solved. Returns its (pn, dn) and total
/// effort.
fn visit<P: Problem>(
    core: &mut Core<P>,
    p: &mut P,
    th_phi: Pn,
    th_delta: Pn,
    depth: u32,
    was_expanded: bool,
    prev_amount: u32,
) -> Out {
    let f = match core.enter(p, depth, was_expanded, prev_amount, false) {
        Ok(f) => f,
        Err(done) => return done,
    };
    let mut local: Option<(Pn, Pn)> = None;
    let (pn, dn, best) = loop {
        let (phi, delta, best, pn, dn) = core.values(&f);
        if status_of(pn, dn).is_solved() || phi > th_phi || delta > th_delta {
            break (pn, dn, best);
        }
        if core.budget.check(&core.stats).is_some() {
            break (pn, dn, best);
        }
        let (lp, ld) = match local {
            Some((lp, ld)) if phi <= lp && delta <= ld => (lp, ld),
            last => next_thresholds(last, phi, delta, th_phi, th_delta),
        };
        local = Some((lp, ld));
        // The child with the smallest δ holds the node's φ; its φ adds to
        // the node's δ. Both are within the swapped thresholds (δ_c = φ ≤
        // lp, φ_c ≤ δ ≤ ld), so the call searches.
        core.note_root_choice(f.depth, best);
        core.descend(p, best, |core, p, c| {
            visit(core, p, ld, lp, depth + 1, c.expanded(), c.amount)
        });
    };
    core.leave(&f, pn, dn, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::test_trees::{Tree, TreeProblem};

    fn run(s: &str) -> SearchResult {
        let t = Tree::parse(s);
        search(
            &mut TreeProblem::new(&t),
            Pds::default(),
            &Table::with_mb(1),
            &Limits::default(),
        )
    }

    #[test]
    fn proves_and_disproves_small_trees() {
        assert_eq!(run("((W W) L)").status, Status::Proven);
        assert_eq!(run("((W L) L)").status, Status::Disproven);
        assert_eq!(run("(((W) (L W)) ((L) (W L)))").status, Status::Proven);
        assert_eq!(run("(((L) (L W)) ((L) (W L)))").status, Status::Disproven);
    }

    #[test]
    fn the_smaller_number_gets_the_increment() {
        // First iteration: from the node's numbers.
        assert_eq!(next_thresholds(None, 2, 5, 100, 100), (3, 5));
        assert_eq!(next_thresholds(None, 5, 2, 100, 100), (5, 3));
        // Ties go to φ.
        assert_eq!(next_thresholds(None, 4, 4, 100, 100), (5, 4));
        // Over the φ threshold, φ still the smaller: φ's threshold moves
        // past φ.
        assert_eq!(next_thresholds(Some((3, 5)), 4, 5, 100, 100), (5, 5));
        // Over the δ threshold while φ ≤ δ: φ's threshold grows by one and
        // δ's is lifted to δ so that the node can be searched again.
        assert_eq!(next_thresholds(Some((3, 5)), 3, 7, 100, 100), (4, 7));
        // Never above the parent's thresholds.
        assert_eq!(next_thresholds(Some((3, 5)), 3, 5, 3, 100), (3, 5));
    }

    /// A uniform tree of `depth` levels and `width` children, leaves won
    /// (`percent` of them) or lost by a seeded hash, and its inner-node
    /// count.
    fn uniform(depth: u32, width: u64, key: u64, percent: u64) -> (String, u64) {
        if depth == 0 {
            let win = crate::rng::splitmix64(key ^ percent) % 100 < percent;
            return (if win { "W" } else { "L" }.to_string(), 0);
        }
        let mut s = String::from("(");
        let mut inner = 1;
        for i in 0..width {
            let (c, n) = uniform(depth - 1, width, key * 31 + i + 1, percent);
            s += &c;
            inner += n;
        }
        s.push(')');
        (s, inner)
    }

    #[test]
    fn statistics_count_revisits() {
        // Iterative deepening at every node must come back to nodes it has
        // expanded once the trees are deep enough; 8 levels of 3.
        let mut revisits = 0;
        let mut values = Vec::new();
        for percent in [40, 50, 60, 70] {
            let (text, inner) = uniform(8, 3, 0, percent);
            let r = run(&text);
            let want = if Tree::parse(&text).or_wins(true) {
                Status::Proven
            } else {
                Status::Disproven
            };
            assert_eq!(r.status, want, "{percent}% of leaves won");
            values.push(want);
            // The 1 MiB table keeps every entry: each node is expanded at
            // most once, so iterations are first visits and stay within the
            // tree.
            assert!(r.stats.iterations <= inner, "{:?}", r.stats);
            assert_eq!(r.stats.expanded, r.stats.iterations);
            assert_eq!(r.stats.visits, r.stats.iterations + r.stats.seesaw_revisits);
            revisits += r.stats.seesaw_revisits;
        }
        assert!(revisits > 0, "no search revisited a node");
        assert!(values.contains(&Status::Proven) && values.contains(&Status::Disproven));
    }
}
