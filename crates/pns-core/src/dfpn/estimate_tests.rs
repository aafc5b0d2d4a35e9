//! [`Problem::CHEAP_ESTIMATE`]: reading each new child's leaf estimate
//! while it is played for its key gives the same search, move for move,
//! as playing it again to initialise it, with fewer plays.

use std::cell::Cell;

use super::test_trees::{tree_delegate, Tree, TreeProblem};
use super::*;
use crate::problem::Status;
use crate::rng::splitmix64;

/// A tree with a heuristic read off the node's key (so that it orders the
/// search), some nodes known lost for the player to move at the estimate,
/// and a count of the plays.
struct Estimated<'a, const CHEAP: bool> {
    inner: TreeProblem<'a>,
    plays: &'a Cell<u64>,
}

impl<const CHEAP: bool> Problem for Estimated<'_, CHEAP> {
    type Move = usize;
    tree_delegate!(is_or, evaluate, generate, undo, key);
    fn play(&mut self, m: usize) {
        self.plays.set(self.plays.get() + 1);
        self.inner.play(m)
    }
    fn heuristic(&self) -> (Pn, Pn) {
        let k = splitmix64(self.key());
        (1 + k % 5, 1 + (k >> 8) % 5)
    }
    fn leaf_estimate(&self) -> Result<(Pn, Pn), Status> {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        // A node without moves is lost for the player to move.
        match (moves.is_empty(), self.is_or()) {
            (true, true) => Err(Status::Disproven),
            (true, false) => Err(Status::Proven),
            _ => Ok(self.heuristic()),
        }
    }
    const CHEAP_ESTIMATE: bool = CHEAP;
}

fn random_tree(seed: &mut u64, depth: u32) -> Tree {
    *seed = splitmix64(*seed);
    let r = *seed;
    if depth == 0 || (depth < 5 && r.is_multiple_of(5)) {
        return match r % 3 {
            0 => Tree::Win,
            1 => Tree::Loss,
            // An inner node without children: lost for its mover.
            _ => Tree::Node(Vec::new()),
        };
    }
    let n = 1 + (r >> 8) % 4;
    Tree::Node((0..n).map(|_| random_tree(seed, depth - 1)).collect())
}

fn run<const CHEAP: bool>(t: &Tree, limits: &Limits) -> (SearchResult, u64) {
    let plays = Cell::new(0);
    let mut p = Estimated::<CHEAP> {
        inner: TreeProblem::new(t),
        plays: &plays,
    };
    let r = search(&mut p, Plain::default(), &Table::with_mb(1), limits);
    (r, plays.get())
}

#[test]
fn estimates_read_while_playing_give_the_same_search() {
    let mut seed = 11;
    let (mut plays_slow, mut plays_fast) = (0, 0);
    for i in 0..400 {
        let t = random_tree(&mut seed, 7);
        // Every fourth tree under a visit limit, which may end unknown.
        let limits = Limits {
            visits: (i % 4 == 0).then_some(6),
            ..Default::default()
        };
        let (slow, ps) = run::<false>(&t, &limits);
        let (fast, pf) = run::<true>(&t, &limits);
        assert_eq!(slow.status, fast.status, "{t:?}");
        assert_eq!(slow.stats.visits, fast.stats.visits, "{t:?}");
        assert_eq!(slow.stats.expanded, fast.stats.expanded, "{t:?}");
        assert_eq!(slow.stats.max_pn, fast.stats.max_pn, "{t:?}");
        assert_eq!(slow.stats.max_dn, fast.stats.max_dn, "{t:?}");
        if limits.visits.is_none() {
            let want = if t.or_wins(true) {
                Status::Proven
            } else {
                Status::Disproven
            };
            assert_eq!(fast.status, want, "{t:?}");
        }
        assert!(pf <= ps, "{pf} > {ps} plays: {t:?}");
        (plays_slow, plays_fast) = (plays_slow + ps, plays_fast + pf);
    }
    assert!(plays_fast < plays_slow, "{plays_fast} against {plays_slow}");
}
