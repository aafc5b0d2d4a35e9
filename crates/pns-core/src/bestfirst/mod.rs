//! Best-first search over an explicit tree: PN-search (Allis 1994; thesis
//! §2.2.1, Pseudo-code 1–2) and the algorithms that differ from it only in
//! the values nodes carry and how they select (DeepPN, thesis §3.2.1;
//! PPNS, PPNS paper §3, in [`ppns`]; MCPNS, Saito et al. 2006, in
//! [`mcpns`]).
//!
//! Each iteration descends from the root to a most-proving node, expands
//! it (all children generated and evaluated), and backs the values up to the
//! root, stopping early where a node's value did not change (its ancestors
//! then cannot change either). The tree lives in two parallel arrays, values
//! and links, and a node's children are contiguous, so a [`Rule`] sees them
//! as one slice. Memory is capped: reaching the cap ends the search with
//! `unknown`.

pub mod mcpns;
pub mod ppns;
pub mod rules;

use std::mem::size_of;

use crate::limits::{Budget, Limits};
use crate::problem::{Problem, Status};
use crate::result::SearchResult;
use crate::stats::Stats;
use crate::tt::{Table, FLAG_EXPANDED};

pub use mcpns::Mcpns;
pub use ppns::{Ppns, PpnsPaper};
pub use rules::{DeepPn, PnRule};

/// The values and selection of one best-first algorithm.
pub trait Rule {
    /// What a node carries.
    type Value: Copy + PartialEq + std::fmt::Debug;

    /// The value of a solved node at `depth`.
    fn solved(&self, status: Status, depth: u32) -> Self::Value;

    /// The value of a new unsolved leaf; the problem is at the leaf. May run
    /// playouts (counted in `stats.playouts`).
    fn leaf<P: Problem>(&mut self, p: &mut P, depth: u32, stats: &mut Stats) -> Self::Value;

    /// A node's value from its children's values.
    fn backup(&self, is_or: bool, children: &[Self::Value]) -> Self::Value;

    /// Index of the child to descend into (an unsolved one).
    fn select(&self, is_or: bool, children: &[Self::Value]) -> usize;

    /// Whether the value is solved, and how. At the root this decides
    /// when the search ends.
    fn status(&self, v: &Self::Value) -> Status;

    /// The status the tree *proves*: what [`BestFirst::export_solved`]
    /// exports as proofs. The default is `status`; a rule that may end on
    /// an approximate value (PPNS's paper rule, Algorithm 6) keeps the exact
    /// status apart and returns it here.
    fn exact_status(&self, v: &Self::Value) -> Status {
        self.status(v)
    }

    /// (pn, dn) for the statistics; rules without them return (0, 0).
    fn numbers(&self, v: &Self::Value) -> (u64, u64);
}

#[derive(Clone, Copy, Debug)]
struct Link<M> {
    mv: Option<M>,
    parent: u32,
    first_child: u32,
    n_children: u32,
    depth: u32,
    is_or: bool,
}

const NONE: u32 = u32::MAX;

/// A best-first search and the tree it built.
pub struct BestFirst<M, R: Rule> {
    rule: R,
    values: Vec<R::Value>,
    links: Vec<Link<M>>,
}

impl<M: Copy + Eq + std::fmt::Debug, R: Rule> BestFirst<M, R> {
    pub fn new(rule: R) -> Self {
        BestFirst {
            rule,
            values: Vec::new(),
            links: Vec::new(),
        }
    }

    /// Bytes per tree node.
    pub fn node_bytes() -> usize {
        size_of::<R::Value>() + size_of::<Link<M>>()
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The rule (to read parameters or counters after a search).
    pub fn rule(&self) -> &R {
        &self.rule
    }

    /// The root's value after a search (none before the first one, or when
    /// the root was solved without a tree).
    pub fn root_value(&self) -> Option<&R::Value> {
        self.values.first()
    }

    /// Searches from the problem's current node.
    pub fn search<P: Problem<Move = M>>(&mut self, p: &mut P, limits: &Limits) -> SearchResult {
        self.search_observed(p, limits, |_, _| {})
    }

    /// [`Self::search`], calling `on_expand` with the problem at every node
    /// it expands, and the node's depth, just before the expansion. For
    /// tests that compare two rules node by node (DeepPN with R = 1 against
    /// PN-search); `search` passes a closure that does nothing, which the
    /// compiler removes.
    pub fn search_observed<P: Problem<Move = M>>(
        &mut self,
        p: &mut P,
        limits: &Limits,
        mut on_expand: impl FnMut(&P, u32),
    ) -> SearchResult {
        let mut stats = Stats::default();
        let mut budget = Budget::new(limits);
        self.values.clear();
        self.links.clear();
        let root_status = p.evaluate();
        if root_status.is_solved() {
            budget.finish(&mut stats);
            return SearchResult {
                status: root_status,
                stats,
                stop: None,
            };
        }
        let root_value = self.rule.leaf(p, 0, &mut stats);
        self.values.push(root_value);
        self.links.push(Link {
            mv: None,
            parent: NONE,
            first_child: NONE,
            n_children: 0,
            depth: 0,
            is_or: p.is_or(),
        });
        stats.nodes = 1;
        let node_bytes = Self::node_bytes() as u64;
        let max_nodes = budget.memory_limit().map(|m| (m / node_bytes).max(1));
        let mut moves: Vec<M> = Vec::new();
        let mut root_choice = usize::MAX;
        let mut path_moves = 0usize;

        let status = loop {
            let rv = self.values[0];
            let (rpn, rdn) = self.rule.numbers(&rv);
            stats.see_root(rpn, rdn);
            let st = self.rule.status(&rv);
            if st.is_solved() {
                break st;
            }
            if budget.check(&stats).is_some() {
                break Status::Unknown;
            }
            // Selection (Pseudo-code 2): descend to a most-proving node.
            let mut n = 0usize;
            stats.visits += 1;
            while self.links[n].first_child != NONE {
                let l = self.links[n];
                let first = l.first_child as usize;
                let kids = &self.values[first..first + l.n_children as usize];
                let i = self.rule.select(l.is_or, kids);
                if n == 0 {
                    if root_choice != usize::MAX && root_choice != i {
                        stats.seesaw_root_switches += 1;
                    }
                    root_choice = i;
                }
                n = first + i;
                p.play(self.links[n].mv.expect("child has a move"));
                path_moves += 1;
                stats.visits += 1;
            }
            // Expansion.
            let depth = self.links[n].depth;
            moves.clear();
            p.generate(&mut moves);
            if let Some(cap) = max_nodes {
                if (self.values.len() + moves.len()) as u64 > cap {
                    budget.memory_exceeded();
                    for _ in 0..path_moves {
                        p.undo();
                    }
                    path_moves = 0;
                    break Status::Unknown;
                }
            }
            on_expand(p, depth);
            stats.iterations += 1;
            stats.expanded += 1;
            stats.mpn_depth_sum += depth as u64;
            stats.max_depth = stats.max_depth.max(depth + 1);
            let first = self.values.len() as u32;
            let parent_or = self.links[n].is_or;
            if moves.is_empty() {
                // The mover cannot reach its aim: solved against it.
                let s = if parent_or {
                    Status::Disproven
                } else {
                    Status::Proven
                };
                self.values[n] = self.rule.solved(s, depth);
            } else {
                for &m in &moves {
                    p.play(m);
                    let child_or = p.is_or();
                    let v = match p.evaluate() {
                        Status::Unknown => self.rule.leaf(p, depth + 1, &mut stats),
                        s => self.rule.solved(s, depth + 1),
                    };
                    p.undo();
                    self.values.push(v);
                    self.links.push(Link {
                        mv: Some(m),
                        parent: n as u32,
                        first_child: NONE,
                        n_children: 0,
                        depth: depth + 1,
                        is_or: child_or,
                    });
                }
                stats.nodes += moves.len() as u64;
                self.links[n].first_child = first;
                self.links[n].n_children = moves.len() as u32;
            }
            // Back-propagation to the root, stopping once nothing changes.
            let mut cur = n;
            loop {
                let l = self.links[cur];
                if l.first_child != NONE {
                    let f = l.first_child as usize;
                    let v = self
                        .rule
                        .backup(l.is_or, &self.values[f..f + l.n_children as usize]);
                    let changed = v != self.values[cur];
                    self.values[cur] = v;
                    let (a, b) = self.rule.numbers(&v);
                    stats.see_numbers(a, b);
                    if !changed && cur != n {
                        break;
                    }
                }
                if l.parent == NONE {
                    break;
                }
                cur = l.parent as usize;
            }
            for _ in 0..path_moves {
                p.undo();
            }
            path_moves = 0;
        };
        debug_assert_eq!(path_moves, 0);
        stats.seesaw_revisits = stats.visits - stats.iterations.min(stats.visits);
        stats.peak_memory_bytes = (self.values.capacity() * size_of::<R::Value>()
            + self.links.capacity() * size_of::<Link<M>>())
            as u64;
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

    /// Copies every solved node of the tree ([`Rule::exact_status`]) into
    /// `tt` (keyed by the problem's keys), so that certificate extraction
    /// can read the proof the search found. The problem must be at the
    /// searched root.
    pub fn export_solved<P: Problem<Move = M>>(&self, p: &mut P, tt: &Table) {
        if self.values.is_empty() {
            return;
        }
        let mut stack: Vec<(usize, bool)> = vec![(0, false)];
        while let Some((n, leaving)) = stack.pop() {
            if leaving {
                p.undo();
                continue;
            }
            let l = self.links[n];
            if n != 0 {
                p.play(l.mv.expect("child has a move"));
                stack.push((n, true));
            }
            let st = self.rule.exact_status(&self.values[n]);
            if st.is_solved() {
                let (pn, dn) = crate::dfpn::solved_numbers(st);
                tt.store(p.key(), pn, dn, 1, FLAG_EXPANDED, 0);
            }
            if l.first_child != NONE && st.is_solved() {
                for c in l.first_child..l.first_child + l.n_children {
                    stack.push((c as usize, false));
                }
            }
        }
    }
}

/// Runs a best-first search and returns the result with the tree.
pub fn search<P: Problem, R: Rule>(
    p: &mut P,
    rule: R,
    limits: &Limits,
) -> (SearchResult, BestFirst<P::Move, R>) {
    let mut bf = BestFirst::new(rule);
    let r = bf.search(p, limits);
    (r, bf)
}
