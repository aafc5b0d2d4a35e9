//! Monte-Carlo proof-number search (MCPNS; Saito, Chaslot, Uiterwijk and
//! van den Herik 2006, as described in the PPNS paper §1) as a value rule on
//! the best-first loop.
//!
//! MCPNS is PN-search whose new leaves get proof and disproof numbers from
//! random playouts instead of (1, 1): with R̂ the fraction of playouts the
//! attacker won, a leaf starts at pn = 1 − R̂ and dn = R̂, so a leaf that
//! looks good for the attacker is cheap to prove and dear to disprove.
//! Internal nodes use the usual MIN/SUM rules (OR: min pn, Σ dn; AND: Σ pn,
//! min dn) and the search descends to the child with the smallest pn (OR) or
//! dn (AND), leftmost on ties, exactly as PN-search.
//!
//! R̂ is clipped into [c, 1 − c] (`clip`, default 0.01) so that an unsolved
//! leaf never gets a number of 0, which would look proven or disproven: the
//! clipping the PPNS paper's own MCPNS baseline applies when every playout
//! was won or lost. The numbers are `f64`. Solved nodes are (0, ∞) and
//! (∞, 0), and a minimum or sum of positive numbers is never 0 in floating
//! point, so a node is solved exactly when the MIN/SUM rules over terminal
//! nodes say so: unlike PPNS's paper rule, MCPNS's conclusions are always
//! proofs.

use super::ppns::playout_wins;
use super::Rule;
use crate::problem::{Problem, Status};
use crate::stats::Stats;

/// Monte-Carlo proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct McValue {
    pub pn: f64,
    pub dn: f64,
}

/// The MCPNS rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mcpns {
    /// Playouts per new leaf.
    pub playouts: u32,
    /// Win rates are clipped into [clip, 1 − clip], 0 < clip ≤ 0.5.
    pub clip: f64,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Default for Mcpns {
    fn default() -> Self {
        Mcpns {
            playouts: 60,
            clip: 0.01,
            seed: 1,
        }
    }
}

impl Rule for Mcpns {
    type Value = McValue;

    fn solved(&self, status: Status, _depth: u32) -> McValue {
        match status {
            Status::Proven => McValue {
                pn: 0.0,
                dn: f64::INFINITY,
            },
            Status::Disproven => McValue {
                pn: f64::INFINITY,
                dn: 0.0,
            },
            Status::Unknown => McValue { pn: 1.0, dn: 1.0 },
        }
    }

    fn leaf<P: Problem>(&mut self, p: &mut P, depth: u32, stats: &mut Stats) -> McValue {
        if depth == 0 {
            // The root is expanded at once; its own numbers never matter.
            return McValue { pn: 1.0, dn: 1.0 };
        }
        let w = playout_wins(p, self.playouts, self.seed, stats);
        let r = (w as f64 / self.playouts as f64).clamp(self.clip, 1.0 - self.clip);
        McValue { pn: 1.0 - r, dn: r }
    }

    fn backup(&self, is_or: bool, children: &[McValue]) -> McValue {
        let mut min = f64::INFINITY;
        let mut sum = 0.0;
        for c in children {
            let (s, f) = if is_or { (c.pn, c.dn) } else { (c.dn, c.pn) };
            min = min.min(s);
            sum += f;
        }
        if is_or {
            McValue { pn: min, dn: sum }
        } else {
            McValue { pn: sum, dn: min }
        }
    }

    fn select(&self, is_or: bool, children: &[McValue]) -> usize {
        let mut best = 0;
        let mut best_v = f64::INFINITY;
        for (i, c) in children.iter().enumerate() {
            let v = if is_or { c.pn } else { c.dn };
            if v < best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }

    fn status(&self, v: &McValue) -> Status {
        if v.pn == 0.0 {
            Status::Proven
        } else if v.dn == 0.0 {
            Status::Disproven
        } else {
            Status::Unknown
        }
    }

    /// The numbers rounded up to integers (∞ stays ∞), for the statistics.
    fn numbers(&self, v: &McValue) -> (u64, u64) {
        let int = |x: f64| {
            if x.is_infinite() {
                crate::numbers::INF
            } else {
                (x.ceil() as u64).min(crate::numbers::PN_MAX)
            }
        };
        (int(v.pn), int(v.dn))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_sum_rules_and_exact_solved_status() {
        let r = Mcpns::default();
        let leaf = |p: f64| McValue { pn: p, dn: 1.0 - p };
        let or = r.backup(
            true,
            &[leaf(0.3), leaf(0.8), r.solved(Status::Disproven, 1)],
        );
        assert_eq!(or.pn, 0.3);
        assert!((or.dn - 0.9).abs() < 1e-12);
        assert_eq!(r.status(&or), Status::Unknown);
        let and = r.backup(false, &[leaf(0.3), r.solved(Status::Proven, 1)]);
        assert_eq!(and.pn, 0.3);
        assert_eq!(and.dn, 0.7);
        let proven = r.backup(true, &[leaf(0.01), r.solved(Status::Proven, 1)]);
        assert_eq!(r.status(&proven), Status::Proven);
        let disproven = r.backup(false, &[leaf(0.99), r.solved(Status::Disproven, 1)]);
        assert_eq!(r.status(&disproven), Status::Disproven);
        assert_eq!(r.select(true, &[leaf(0.5), leaf(0.2), leaf(0.2)]), 1);
        assert_eq!(r.numbers(&or), (1, 1));
        assert_eq!(r.numbers(&proven).1, crate::numbers::INF);
    }
}
