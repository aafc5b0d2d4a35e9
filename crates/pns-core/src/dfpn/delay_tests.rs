//! Delayed expansion ([`Problem::delays`]) on random trees: the values are
//! the trees' minimax values, and a delayed child is never searched before
//! the child it waits for is solved.

use std::cell::RefCell;

use super::test_trees::{tree_delegate, Tree, TreeProblem};
use super::*;
use crate::problem::Status;
use crate::rng::splitmix64;

/// A tree whose odd children wait for the child before them. Records the
/// path of every node that generates its moves (a visit).
struct Delayed<'a> {
    inner: TreeProblem<'a>,
    path: Vec<usize>,
    on: bool,
    log: &'a RefCell<Vec<Vec<usize>>>,
}

impl Problem for Delayed<'_> {
    type Move = usize;
    tree_delegate!(is_or, evaluate);
    fn generate(&self, out: &mut Vec<usize>) {
        self.log.borrow_mut().push(self.path.clone());
        self.inner.generate(out)
    }
    fn play(&mut self, m: usize) {
        self.path.push(m);
        self.inner.play(m)
    }
    fn undo(&mut self) {
        self.path.pop();
        self.inner.undo()
    }
    tree_delegate!(key);
    const DELAYS: bool = true;
    fn delays(&self, prev: usize, m: usize) -> bool {
        self.on && m % 2 == 1 && prev + 1 == m
    }
}

fn random_tree(seed: &mut u64, depth: u32) -> Tree {
    *seed = splitmix64(*seed);
    let r = *seed;
    if depth == 0 || (depth < 5 && r.is_multiple_of(5)) {
        return if r & 0x100 != 0 {
            Tree::Win
        } else {
            Tree::Loss
        };
    }
    let n = 1 + (r >> 8) % 4;
    Tree::Node((0..n).map(|_| random_tree(seed, depth - 1)).collect())
}

/// The status of the node at `path` (the tree's own value).
fn value_at(t: &Tree, path: &[usize], or: bool) -> bool {
    match (t, path.split_first()) {
        (_, None) => t.or_wins(or),
        (Tree::Node(k), Some((&m, rest))) => value_at(&k[m], rest, !or),
        _ => unreachable!("a path below a leaf"),
    }
}

/// Whether some visit below an odd child came before a visit below the
/// child it waits for, or while that child was still unsolved.
fn searched_early(t: &Tree, log: &[Vec<usize>]) -> bool {
    for (i, p) in log.iter().enumerate() {
        // A visit below every odd move on its path.
        for d in 0..p.len() {
            let m = p[d];
            if m % 2 == 0 {
                continue;
            }
            let mut sib = p[..=d].to_vec();
            sib[d] = m - 1;
            // The sibling it waits for must be solved by now: no visit
            // below it later, and its value known (a proven child of an
            // OR parent, or a disproven one of an AND parent, decides the
            // parent, so the odd child would not be searched at all).
            let later = log[i + 1..].iter().any(|q| q.starts_with(&sib));
            let earlier = log[..i].iter().any(|q| q.starts_with(&sib));
            let parent_or = d % 2 == 0;
            let decides = value_at(t, &sib, true) == parent_or;
            let sib_is_node = matches!(node_at(t, &sib), Tree::Node(_));
            if later || decides || (sib_is_node && !earlier) {
                return true;
            }
        }
    }
    false
}

fn node_at<'t>(t: &'t Tree, path: &[usize]) -> &'t Tree {
    path.iter().fold(t, |t, &m| match t {
        Tree::Node(k) => &k[m],
        _ => unreachable!("a path below a leaf"),
    })
}

fn run(t: &Tree, on: bool) -> (Status, Vec<Vec<usize>>) {
    run_with(t, on, Plain::default())
}

fn run_with<Pol: DfpnPolicy>(t: &Tree, on: bool, pol: Pol) -> (Status, Vec<Vec<usize>>) {
    let log = RefCell::new(Vec::new());
    let mut p = Delayed {
        inner: TreeProblem::new(t),
        path: Vec::new(),
        on,
        log: &log,
    };
    let r = search(&mut p, pol, &Table::with_mb(1), &Limits::default());
    (r.status, log.into_inner())
}

#[test]
fn delayed_children_wait_and_values_stay_right() {
    let mut seed = 7;
    let mut early_without = 0;
    for _ in 0..400 {
        let t = random_tree(&mut seed, 6);
        let want = if t.or_wins(true) {
            Status::Proven
        } else {
            Status::Disproven
        };
        let (st, log) = run(&t, true);
        assert_eq!(st, want, "{t:?}");
        assert!(
            !searched_early(&t, &log),
            "a waiting child searched early in {t:?}"
        );
        // WPNS aggregates δ its own way: both hold there too. Kawano's
        // simulation solves siblings its own way: the value holds (its
        // replays generate moves too, so the log says nothing of order).
        let (st, log) = run_with(&t, true, Wpns { heuristic: false });
        assert_eq!(st, want, "WPNS {t:?}");
        assert!(!searched_early(&t, &log), "WPNS searched early in {t:?}");
        let (st, _) = run_with(&t, true, Kawano::new(Plain::default()));
        assert_eq!(st, want, "Kawano {t:?}");
        let (st, log) = run(&t, false);
        assert_eq!(st, want, "{t:?}");
        early_without += searched_early(&t, &log) as u32;
    }
    // Without the delays the search does reach odd children first: the
    // check above can fail.
    assert!(early_without > 10, "{early_without}");
}
