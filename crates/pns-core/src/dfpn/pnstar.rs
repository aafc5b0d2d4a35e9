//! PN* (Seo 1995, revised by Seo, Iida and Uiterwijk; thesis §2.2.2):
//! iterative deepening on the proof number alone, with a transposition
//! table.
//!
//! The thesis describes it as follows, and this file does exactly that:
//!
//! * The root starts with the proof-number threshold th = 1. When a pass
//!   from the root ends unsolved, th becomes the root's new proof number and
//!   the search starts again from the root.
//! * An **OR node** visits its children one by one, each with the node's own
//!   threshold; then it records its proof number and returns.
//! * An **AND node** computes its proof number; while it is within the
//!   threshold it visits each child one by one, the threshold of a child
//!   being the child's own proof number; once over the threshold it records
//!   its proof number and returns.
//! * Children the table does not know start at pn = 1 (or the problem's `h`
//!   with `h=1`).
//!
//! Reading choices (the thesis gives prose, not code):
//!
//! * "Within the threshold" is pn ≤ th and a node returns once pn > th. The
//!   strict reading (pn < th) cannot work: the root starts at pn = th = 1
//!   and would never be searched.
//! * An OR node skips children already over th (visiting them would return
//!   at once) and stops as soon as a child is proven. An AND node stops as
//!   soon as a child is disproven (pn = ∞).
//! * Both kinds of node repeat their pass until they are over th or solved.
//!   In a tree one pass suffices for an OR node (every child comes back over
//!   th); in a DAG a child's cached value can be stale, and the repeat keeps
//!   the guarantee that a call returns over its threshold.
//! * PN* steers by the proof number only. The disproof number is still
//!   computed with the usual rules and stored next to it, so that the table
//!   holds (0, ∞) / (∞, 0) for solved nodes (certificates, the solve's reuse)
//!   and the statistics report the same maxima as every other algorithm; it
//!   never chooses a move or ends a loop.
//!
//! Statistics: `visits` counts calls (every pass from the root re-enters
//! it), `iterations` first expansions, `seesaw_revisits` calls at nodes
//! expanded before, `seesaw_root_switches` changes of the root's searched
//! child.

use crate::limits::Limits;
use crate::numbers::{Pn, INF, PN_MAX};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::tt::Table;

use super::expand::{Out, Search};
use super::ghi::NoLine;
use super::status_of;
use super::Plain;

/// The search context PN* runs on: plain leaves, no line.
type Core<'t, P> = Search<'t, P, Plain, NoLine>;

/// PN*'s parameters.
#[derive(Clone, Copy, Debug, Default)]
pub struct PnStar {
    /// Initialise unknown leaves with the problem's `h` instead of 1.
    pub heuristic: bool,
}

/// Runs PN* on `problem` from its current node with the table `tt`.
pub fn search<P: Problem>(
    problem: &mut P,
    params: PnStar,
    tt: &Table,
    limits: &Limits,
) -> SearchResult {
    let pol = Plain {
        heuristic: params.heuristic,
    };
    let mut core: Core<P> = Search::new(tt, pol, NoLine, limits, 0);
    let status = match problem.evaluate() {
        Status::Unknown => {
            // The root's threshold: 1 at first (thesis §2.2.2), then the
            // root's proof number after each pass.
            let mut th: Pn = 1;
            loop {
                let (expanded, amount, _) = core.root(problem);
                let Out { pn, dn, .. } = visit(&mut core, problem, th, 0, expanded, amount);
                core.stats.see_root(pn, dn);
                let st = status_of(pn, dn);
                if st.is_solved() {
                    break st;
                }
                if core.budget.check(&core.stats).is_some() || pn >= PN_MAX {
                    // A limit, or proof numbers saturated (a tree far
                    // beyond any table): unknown.
                    break Status::Unknown;
                }
                th = th.max(pn);
            }
        }
        solved => solved,
    };
    core.finish(status, problem)
}

/// Searches the current node until its proof number exceeds `th` or it is
/// solved. Returns its (pn, dn) and total effort.
fn visit<P: Problem>(
    core: &mut Core<P>,
    p: &mut P,
    th: Pn,
    depth: u32,
    was_expanded: bool,
    prev_amount: u32,
) -> Out {
    let f = match core.enter(p, depth, was_expanded, prev_amount, false) {
        Ok(f) => f,
        Err(done) => return done,
    };
    let (pn, dn, best) = loop {
        let (_, _, best, pn, dn) = core.values(&f);
        if pn > th || status_of(pn, dn).is_solved() {
            break (pn, dn, best);
        }
        if core.budget.check(&core.stats).is_some() {
            break (pn, dn, best);
        }
        for i in f.cstart..f.cend {
            let c = core.children[i];
            if status_of(c.pn, c.dn).is_solved() {
                continue;
            }
            // OR: the node's threshold, and only children within it. AND:
            // the child's own proof number (thesis §2.2.2).
            let cth = if f.is_or {
                if c.pn > th {
                    continue;
                }
                th
            } else {
                c.pn
            };
            if core.budget.check(&core.stats).is_some() {
                break;
            }
            core.note_root_choice(f.depth, i);
            let c = core.descend(p, i, |core, p, c| {
                visit(core, p, cth, depth + 1, c.expanded(), c.amount)
            });
            // A proven child proves an OR node; a disproven one disproves
            // an AND node: the rest of the pass is moot.
            if (f.is_or && c.pn == 0) || (!f.is_or && c.pn == INF) {
                break;
            }
        }
    };
    core.leave(&f, pn, dn, best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::test_trees::{Tree, TreeProblem};

    #[test]
    fn proves_and_disproves_small_trees() {
        // OR root: child 0 is an AND node with two winning leaves, child 1 a
        // losing leaf.
        let t = Tree::parse("(( W W ) L)");
        let r = search(
            &mut TreeProblem::new(&t),
            PnStar::default(),
            &Table::with_mb(1),
            &Limits::default(),
        );
        assert_eq!(r.status, Status::Proven);
        let t = Tree::parse("(( W L ) L)");
        let r = search(
            &mut TreeProblem::new(&t),
            PnStar::default(),
            &Table::with_mb(1),
            &Limits::default(),
        );
        assert_eq!(r.status, Status::Disproven);
    }

    #[test]
    fn thresholds_follow_the_thesis_walkthrough() {
        // Root (OR) with two AND children of two unknown leaves each: the
        // first pass (th = 1) expands the root and both children (each over
        // th = 1 with pn 2); the root's pn becomes 2, the second pass
        // expands the four grandchildren (each with its own pn 1 as
        // threshold), which are wins in the left subtree.
        let t = Tree::parse("(((W) (W)) ((L) (L)))");
        let r = search(
            &mut TreeProblem::new(&t),
            PnStar::default(),
            &Table::with_mb(1),
            &Limits::default(),
        );
        assert_eq!(r.status, Status::Proven);
        // Pass 1: root + 2 AND children (3 first expansions). Pass 2: the
        // root and the left AND child again (2 re-traversals) and its two OR
        // grandchildren, which prove it: the root is proven.
        assert_eq!(r.stats.iterations, 5);
        assert_eq!(r.stats.visits, 7);
        assert_eq!(r.stats.seesaw_revisits, 2);
        assert_eq!(r.stats.max_root_pn, 2);
    }

    #[test]
    fn a_node_limit_ends_with_unknown() {
        let t = Tree::parse("(((W) (W)) ((L) (L)))");
        let r = search(
            &mut TreeProblem::new(&t),
            PnStar::default(),
            &Table::with_mb(1),
            &Limits {
                visits: Some(2),
                ..Limits::default()
            },
        );
        assert_eq!(r.status, Status::Unknown);
        assert_eq!(r.stop, Some(crate::limits::StopReason::NodeLimit));
    }
}
