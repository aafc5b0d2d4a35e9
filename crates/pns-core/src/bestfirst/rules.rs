//! The value rules of PN-search and DeepPN.

use super::Rule;
use crate::numbers::{pn_add, status_of, Pn, INF};
use crate::problem::{Problem, Status};
use crate::stats::Stats;

/// PN-search (Allis; thesis §2.2.1): leaves (1, 1) or the problem's
/// heuristic, OR: (min pn, Σ dn), AND: (Σ pn, min dn), descend to the
/// leftmost child with the smallest pn (OR) or dn (AND) (Pseudo-code 2).
#[derive(Clone, Copy, Debug)]
pub struct PnRule {
    pub heuristic: bool,
}

impl Default for PnRule {
    fn default() -> Self {
        PnRule { heuristic: true }
    }
}

#[inline]
fn backup_numbers<I: Iterator<Item = (Pn, Pn)>>(is_or: bool, it: I) -> (Pn, Pn) {
    let mut min = INF;
    let mut sum: Pn = 0;
    for (pn, dn) in it {
        let (s, f) = if is_or { (pn, dn) } else { (dn, pn) };
        min = min.min(s);
        sum = pn_add(sum, f);
    }
    if is_or {
        (min, sum)
    } else {
        (sum, min)
    }
}

impl Rule for PnRule {
    type Value = (Pn, Pn);

    fn solved(&self, s: Status, _depth: u32) -> (Pn, Pn) {
        crate::numbers::solved_numbers(s)
    }

    fn leaf<P: Problem>(&mut self, p: &mut P, _depth: u32, _stats: &mut Stats) -> (Pn, Pn) {
        if self.heuristic {
            p.heuristic()
        } else {
            (1, 1)
        }
    }

    fn backup(&self, is_or: bool, children: &[(Pn, Pn)]) -> (Pn, Pn) {
        backup_numbers(is_or, children.iter().copied())
    }

    fn select(&self, is_or: bool, children: &[(Pn, Pn)]) -> usize {
        let mut best = 0;
        let mut best_v = INF;
        for (i, &(pn, dn)) in children.iter().enumerate() {
            let v = if is_or { pn } else { dn };
            if v < best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }

    fn status(&self, v: &(Pn, Pn)) -> Status {
        status_of(v.0, v.1)
    }

    fn numbers(&self, v: &(Pn, Pn)) -> (u64, u64) {
        *v
    }
}

/// A DeepPN node value: proof numbers and the deep value (thesis eq. 3.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepValue {
    pub pn: Pn,
    pub dn: Pn,
    pub deep: f64,
}

/// Deep proof-number search (Ishitobi et al.; thesis §3.2.1, eq. 3.1–3.4):
/// a leaf at depth d has deep = 1/d; a node's deep value is that of its
/// unsolved child with the smallest DPN(c) = (1 − 1/c.δ) R + c.deep (1 − R)
/// (eq. 3.2–3.3), and the search descends to that child (eq. 3.4). R = 1 is
/// PN-search exactly (compared on integers, not through floating point, so
/// the same nodes are expanded); R = 0 is depth-first.
#[derive(Clone, Copy, Debug)]
pub struct DeepPn {
    pub r: f64,
    pub heuristic: bool,
}

impl DeepPn {
    /// DPN of a child whose selection number (its δ seen from the parent) is
    /// `sel`.
    #[inline]
    pub fn dpn(&self, sel: Pn, deep: f64) -> f64 {
        (1.0 - 1.0 / sel as f64) * self.r + deep * (1.0 - self.r)
    }

    /// Index of the unsolved child with the smallest DPN (leftmost on ties),
    /// or `None` if all are solved.
    fn argmin(&self, is_or: bool, children: &[DeepValue]) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut best_int = INF;
        let mut best_f = f64::INFINITY;
        for (i, c) in children.iter().enumerate() {
            if status_of(c.pn, c.dn).is_solved() {
                continue;
            }
            let sel = if is_or { c.pn } else { c.dn };
            if self.r >= 1.0 {
                if sel < best_int {
                    best_int = sel;
                    best = Some(i);
                }
            } else {
                let d = self.dpn(sel, c.deep);
                if d < best_f {
                    best_f = d;
                    best = Some(i);
                }
            }
        }
        best
    }
}

impl Rule for DeepPn {
    type Value = DeepValue;

    fn solved(&self, s: Status, depth: u32) -> DeepValue {
        let (pn, dn) = crate::numbers::solved_numbers(s);
        DeepValue {
            pn,
            dn,
            deep: 1.0 / depth.max(1) as f64,
        }
    }

    fn leaf<P: Problem>(&mut self, p: &mut P, depth: u32, _stats: &mut Stats) -> DeepValue {
        let (pn, dn) = if self.heuristic {
            p.heuristic()
        } else {
            (1, 1)
        };
        DeepValue {
            pn,
            dn,
            deep: 1.0 / depth.max(1) as f64,
        }
    }

    fn backup(&self, is_or: bool, children: &[DeepValue]) -> DeepValue {
        let (pn, dn) = backup_numbers(is_or, children.iter().map(|c| (c.pn, c.dn)));
        let deep = match self.argmin(is_or, children) {
            Some(i) => children[i].deep,
            None => children.iter().map(|c| c.deep).fold(0.0, f64::max),
        };
        DeepValue { pn, dn, deep }
    }

    fn select(&self, is_or: bool, children: &[DeepValue]) -> usize {
        self.argmin(is_or, children).unwrap_or(0)
    }

    fn status(&self, v: &DeepValue) -> Status {
        status_of(v.pn, v.dn)
    }

    fn numbers(&self, v: &DeepValue) -> (u64, u64) {
        (v.pn, v.dn)
    }
}
