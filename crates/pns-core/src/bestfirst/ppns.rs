//! Probability-based proof-number search (PPNS; PPNS paper §3, Algorithms
//! 1–6) as value rules on the best-first loop.
//!
//! A node's *probability-based proof number* (PPN) is the probability that
//! it is proven (§3.1): a terminal node is 1 or 0; a new leaf is the win
//! rate R of random playouts, moved to 1 − θ or θ when R is 1 or 0 (so a
//! leaf never looks terminal, Algorithm 3); an OR node is
//! 1 − Π(1 − ppn(child)) and an AND node Π ppn(child) (eq. 1–2,
//! Algorithm 4). The search descends to the child with the largest PPN at OR
//! nodes and the smallest at AND nodes (Algorithm 1) and expands it, giving
//! every new child its playout value (Algorithms 2–3).
//!
//! Two rules implement it:
//!
//! * [`Ppns`] (default, `exact=1`) goes beyond the paper. Every node carries
//!   its **exact** status next to its probability: a node is proven or
//!   disproven only by the Boolean AND/OR rules over terminal nodes, never by
//!   a probability coming close to 1 or 0. Only unsolved nodes carry a
//!   probability, computed from their unsolved children (a proven child of an
//!   AND node and a disproven child of an OR node contribute a factor of
//!   exactly 1, so leaving them out changes nothing). The search ends exactly
//!   when the root is solved, so the paper's precision rate `pr` (§4.2,
//!   Algorithm 6) is unnecessary and every conclusion is a proof, whatever θ
//!   is. Probabilities are kept as log-odds ln(p / (1 − p)) and combined
//!   through log-sum-exp, so neither Π p at AND nodes nor Π (1 − p) at OR
//!   nodes underflows, and 1 − Π(1 − p) never cancels to exactly 0 or 1: the
//!   "prolonged search problem" of §4.2 (a PPN that should be 1 or 0 but
//!   carries a trailing floating-point error) cannot arise, because nothing
//!   is decided by a probability.
//! * [`PpnsPaper`] (`exact=0`) is the paper's rule for fidelity: plain
//!   floating-point products (Algorithm 4) and termination when the root's
//!   PPN is within `pr` of 1 (proven) or 0 (disproven) (Algorithm 6;
//!   `pr = 0` is Algorithm 5). Such a conclusion need not be right: rounding
//!   (1 − 10⁻¹⁸ is 1.0 in double precision), underflow, or a loose `pr` can
//!   end the search on a probability alone. The exact status is still kept
//!   beside the PPN, so that only real proofs are exported as certificates
//!   and an experiment can tell a proof from a guess.
//!
//! Playouts are seeded per node from the `seed` parameter and the node's key,
//! so a search is reproducible and a position always gets the same value.

use super::Rule;
use crate::problem::{Problem, Status};
use crate::rng::{splitmix64, Rng};
use crate::stats::Stats;

/// Runs `n` seeded random playouts from the problem's current node and
/// returns how many the attacker won (Algorithm 3). The generator is
/// derived from `seed` and the node's key, so the same node always gets the
/// same playouts.
pub fn playout_wins<P: Problem>(p: &mut P, n: u32, seed: u64, stats: &mut Stats) -> u32 {
    let mut rng = Rng::new(splitmix64(seed) ^ p.key());
    let mut wins = 0;
    for _ in 0..n {
        wins += p.playout(&mut rng) as u32;
    }
    stats.playouts += n as u64;
    wins
}

/// The leaf probability of §3.1: the win rate `wins / n`, or 1 − θ when
/// every playout was won and θ when none was.
pub fn leaf_probability(wins: u32, n: u32, theta: f64) -> f64 {
    if wins == n {
        1.0 - theta
    } else if wins == 0 {
        theta
    } else {
        wins as f64 / n as f64
    }
}

/// The same as log-odds ln(p / (1 − p)), computed without forming p (so
/// 1 − θ for a tiny θ keeps its precision).
pub fn leaf_log_odds(wins: u32, n: u32, theta: f64) -> f64 {
    let t = (-theta).ln_1p() - theta.ln(); // ln((1 − θ) / θ)
    if wins == n {
        t
    } else if wins == 0 {
        -t
    } else {
        (wins as f64).ln() - ((n - wins) as f64).ln()
    }
}

/// ln(1 + eˣ), without overflow or loss of precision.
#[inline]
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// ln(ln(1 + eˣ)). For x far below 0, ln(1 + eˣ) = eˣ to double precision,
/// and eˣ itself would underflow below x ≈ −745, so the log is x.
#[inline]
fn ln_softplus(x: f64) -> f64 {
    if x < -36.0 {
        x
    } else {
        softplus(x).ln()
    }
}

/// Log-odds of p = exp(−eˢ), i.e. of a probability given as s = ln(−ln p).
#[inline]
fn log_odds_from_s(s: f64) -> f64 {
    let x = s.exp(); // −ln p > 0
    if x == 0.0 {
        // p = 1 − x to double precision: ln(p / (1 − p)) = −ln x = −s.
        -s
    } else if x.is_infinite() {
        f64::NEG_INFINITY
    } else {
        // ln p − ln(1 − p) with ln p = −x and 1 − p = −expm1(−x).
        -x - (-(-x).exp_m1()).ln()
    }
}

/// Log-odds of Π pᵢ for children given by their log-odds (the AND rule,
/// eq. 2): ln Π pᵢ = −Σ ln(1 + e^(−ℓᵢ)) is summed in log space (log-sum-exp
/// of ln ln(1 + e^(−ℓᵢ))), so it neither underflows when the product is
/// tiny nor rounds to 0 when it is within 10⁻¹⁶ of 1.
pub fn and_log_odds(children: impl Iterator<Item = f64> + Clone) -> f64 {
    let max = children
        .clone()
        .map(|l| ln_softplus(-l))
        .fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        // No children, or all certain: the product is 1.
        return f64::INFINITY;
    }
    if max == f64::INFINITY {
        return f64::NEG_INFINITY;
    }
    let sum: f64 = children.map(|l| (ln_softplus(-l) - max).exp()).sum();
    log_odds_from_s(max + sum.ln())
}

/// Log-odds of 1 − Π(1 − pᵢ) (the OR rule, eq. 1): the AND rule applied to
/// the complements, whose log-odds are the negated ones.
pub fn or_log_odds(children: impl Iterator<Item = f64> + Clone) -> f64 {
    -and_log_odds(children.map(|l| -l))
}

/// The probability a log-odds value stands for.
pub fn probability(log_odds: f64) -> f64 {
    if log_odds >= 0.0 {
        1.0 / (1.0 + (-log_odds).exp())
    } else {
        let e = log_odds.exp();
        e / (1.0 + e)
    }
}

/// The Boolean AND/OR status of a node from its children's exact statuses.
#[inline]
pub fn exact_backup(is_or: bool, children: impl Iterator<Item = Status>) -> Status {
    // At an OR node one proven child proves it and all disproven disprove
    // it; at an AND node the same with the roles swapped.
    let (win, lose) = if is_or {
        (Status::Proven, Status::Disproven)
    } else {
        (Status::Disproven, Status::Proven)
    };
    let mut all_lose = true;
    for s in children {
        if s == win {
            return win;
        }
        all_lose &= s == lose;
    }
    if all_lose {
        lose
    } else {
        Status::Unknown
    }
}

/// A PPNS node: its exact status and, while unsolved, its probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PpnValue {
    /// Proven or disproven only by the AND/OR rules over terminal nodes.
    pub status: Status,
    /// [`Ppns`]: the log-odds of the PPN (±∞ once solved). [`PpnsPaper`]:
    /// the PPN itself, in plain floating point as in Algorithm 4.
    pub x: f64,
}

/// Parameters shared by both PPNS rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PpnsParams {
    /// Playouts per new leaf (Algorithm 3's simulation number; the paper
    /// uses 60, §4.1).
    pub playouts: u32,
    /// θ of §3.1: a leaf whose playouts were all won (lost) gets 1 − θ (θ).
    /// Any value in (0, 1).
    pub theta: f64,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Default for PpnsParams {
    fn default() -> Self {
        PpnsParams {
            playouts: 60,
            theta: 0.01,
            seed: 1,
        }
    }
}

/// PPNS with exact solved status and log-odds probabilities (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ppns {
    pub params: PpnsParams,
}

impl Ppns {
    /// Index of the unsolved child with the largest (OR) or smallest (AND)
    /// PPN, the leftmost on ties (Algorithm 1).
    fn best(is_or: bool, children: &[PpnValue]) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, c) in children.iter().enumerate() {
            if c.status.is_solved() {
                continue;
            }
            let better = match best {
                None => true,
                Some((_, b)) => {
                    if is_or {
                        c.x > b
                    } else {
                        c.x < b
                    }
                }
            };
            if better {
                best = Some((i, c.x));
            }
        }
        best.map(|(i, _)| i)
    }
}

impl Rule for Ppns {
    type Value = PpnValue;

    fn solved(&self, status: Status, _depth: u32) -> PpnValue {
        PpnValue {
            status,
            x: if status == Status::Proven {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            },
        }
    }

    fn leaf<P: Problem>(&mut self, p: &mut P, depth: u32, stats: &mut Stats) -> PpnValue {
        // The root is expanded before anything is decided (Algorithm 5), so
        // playouts there would be wasted.
        let x = if depth == 0 {
            0.0
        } else {
            let n = self.params.playouts;
            let w = playout_wins(p, n, self.params.seed, stats);
            leaf_log_odds(w, n, self.params.theta)
        };
        PpnValue {
            status: Status::Unknown,
            x,
        }
    }

    fn backup(&self, is_or: bool, children: &[PpnValue]) -> PpnValue {
        let status = exact_backup(is_or, children.iter().map(|c| c.status));
        if status.is_solved() {
            return self.solved(status, 0);
        }
        // Solved children of an unsolved node are proven children of an AND
        // node or disproven children of an OR node: factors of exactly 1.
        let open = children
            .iter()
            .filter(|c| !c.status.is_solved())
            .map(|c| c.x);
        let x = if is_or {
            or_log_odds(open)
        } else {
            and_log_odds(open)
        };
        PpnValue { status, x }
    }

    fn select(&self, is_or: bool, children: &[PpnValue]) -> usize {
        Self::best(is_or, children).unwrap_or(0)
    }

    fn status(&self, v: &PpnValue) -> Status {
        v.status
    }

    /// PPNS has no proof numbers.
    fn numbers(&self, _v: &PpnValue) -> (u64, u64) {
        (0, 0)
    }
}

/// PPNS exactly as the paper describes it (Algorithms 1–6): plain
/// floating-point PPNs and termination within the precision rate `pr` of 1
/// or 0. Conclusions may be wrong; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PpnsPaper {
    pub params: PpnsParams,
    /// Precision rate of Algorithm 6: the search ends when the root's PPN is
    /// within `pr` of 1 or 0. 0 is Algorithm 5 (exactly 1.0 or 0.0).
    pub pr: f64,
}

impl Rule for PpnsPaper {
    type Value = PpnValue;

    fn solved(&self, status: Status, _depth: u32) -> PpnValue {
        PpnValue {
            status,
            x: if status == Status::Proven { 1.0 } else { 0.0 },
        }
    }

    fn leaf<P: Problem>(&mut self, p: &mut P, depth: u32, stats: &mut Stats) -> PpnValue {
        // The root is expanded first, before its PPN is ever compared with
        // 1 or 0 (Algorithm 5); 0.5 keeps it from ending the search early.
        let x = if depth == 0 {
            0.5
        } else {
            let n = self.params.playouts;
            let w = playout_wins(p, n, self.params.seed, stats);
            leaf_probability(w, n, self.params.theta)
        };
        PpnValue {
            status: Status::Unknown,
            x,
        }
    }

    fn backup(&self, is_or: bool, children: &[PpnValue]) -> PpnValue {
        let status = exact_backup(is_or, children.iter().map(|c| c.status));
        // Algorithm 4, over every child, in plain double precision.
        let x = if is_or {
            1.0 - children.iter().fold(1.0, |acc, c| acc * (1.0 - c.x))
        } else {
            children.iter().fold(1.0, |acc, c| acc * c.x)
        };
        PpnValue { status, x }
    }

    fn select(&self, is_or: bool, children: &[PpnValue]) -> usize {
        // Algorithm 1 over the children that are not terminal or solved: a
        // solved child has PPN exactly 1 or 0 and is never the choice while
        // the root is open (see the tests), but skipping it explicitly
        // keeps the search from expanding a finished position even if
        // rounding produced a tie.
        Ppns::best(is_or, children).unwrap_or(0)
    }

    /// Algorithm 6's verdict on the PPN, not the exact status.
    fn status(&self, v: &PpnValue) -> Status {
        if (v.x - 1.0).abs() <= self.pr {
            Status::Proven
        } else if v.x.abs() <= self.pr {
            Status::Disproven
        } else {
            Status::Unknown
        }
    }

    fn exact_status(&self, v: &PpnValue) -> Status {
        v.status
    }

    fn numbers(&self, _v: &PpnValue) -> (u64, u64) {
        (0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lo(p: f64) -> f64 {
        (p / (1.0 - p)).ln()
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    #[test]
    fn log_odds_rules_match_the_plain_products() {
        let ps = [0.3, 0.9, 0.5, 0.01, 0.75];
        for k in 1..=ps.len() {
            let kids = &ps[..k];
            let and: f64 = kids.iter().product();
            let or = 1.0 - kids.iter().map(|p| 1.0 - p).product::<f64>();
            let l: Vec<f64> = kids.iter().map(|&p| lo(p)).collect();
            assert!(close(and_log_odds(l.iter().copied()), lo(and), 1e-12));
            assert!(close(or_log_odds(l.iter().copied()), lo(or), 1e-12));
            assert!(close(
                probability(and_log_odds(l.iter().copied())),
                and,
                1e-12
            ));
        }
        // One child: the value passes through unchanged.
        for x in [-800.0, -40.0, -3.0, 0.0, 2.5, 40.0, 800.0] {
            assert!(close(and_log_odds([x].into_iter()), x, 1e-12), "{x}");
            assert!(close(or_log_odds([x].into_iter()), x, 1e-12), "{x}");
        }
    }

    #[test]
    fn extreme_probabilities_neither_underflow_nor_round_to_certainty() {
        // 60 AND children of p = 10⁻⁸: the product 10⁻⁴⁸⁰ underflows a
        // double, the log-odds is about −1105.
        let l = vec![lo(1e-8); 60];
        let a = and_log_odds(l.iter().copied());
        assert!(close(a, 60.0 * (1e-8f64).ln(), 1e-9), "{a}");
        // Six OR children at 1 − 10⁻³: 1 − 10⁻¹⁸ is 1.0 in plain doubles.
        let l = [lo(0.999); 6];
        let o = or_log_odds(l.iter().copied());
        assert!(close(o, -(1e-18f64).ln(), 1e-9), "{o}");
        let plain = 1.0 - (0..6).fold(1.0, |acc: f64, _| acc * (1.0 - 0.999));
        assert_eq!(plain, 1.0, "the paper's arithmetic rounds to certainty");
        // Alternating levels push the log-odds far beyond any double
        // probability, and stay finite and ordered.
        let mut x = lo(0.999);
        for level in 0..12 {
            let kids = vec![x; 7];
            x = if level % 2 == 0 {
                or_log_odds(kids.into_iter())
            } else {
                and_log_odds(kids.into_iter())
            };
            assert!(x.is_finite() && x > 0.0, "level {level}: {x}");
        }
        let stronger = or_log_odds([x, x].into_iter());
        assert!(stronger > x);
    }

    #[test]
    fn leaf_values_follow_section_3_1() {
        assert_eq!(leaf_probability(60, 60, 0.01), 0.99);
        assert_eq!(leaf_probability(0, 60, 0.01), 0.01);
        assert_eq!(leaf_probability(15, 60, 0.01), 0.25);
        assert!(close(leaf_log_odds(60, 60, 0.01), lo(0.99), 1e-12));
        assert!(close(leaf_log_odds(0, 60, 0.01), lo(0.01), 1e-12));
        assert!(close(leaf_log_odds(15, 60, 0.01), lo(0.25), 1e-12));
        // A tiny θ keeps its precision: 1 − 10⁻²⁰ is 1.0 as a double.
        assert!(close(leaf_log_odds(5, 5, 1e-20), -(1e-20f64).ln(), 1e-12));
    }

    #[test]
    fn exact_status_uses_the_boolean_rules_only() {
        use Status::*;
        assert_eq!(exact_backup(true, [Unknown, Proven].into_iter()), Proven);
        assert_eq!(
            exact_backup(true, [Disproven, Unknown].into_iter()),
            Unknown
        );
        assert_eq!(
            exact_backup(true, [Disproven, Disproven].into_iter()),
            Disproven
        );
        assert_eq!(
            exact_backup(false, [Proven, Disproven].into_iter()),
            Disproven
        );
        assert_eq!(exact_backup(false, [Proven, Proven].into_iter()), Proven);
        let r = Ppns {
            params: PpnsParams::default(),
        };
        let v = |x: f64| PpnValue { status: Unknown, x };
        // An OR node whose children are all near-certain is still open.
        let b = r.backup(true, &[v(50.0), v(60.0)]);
        assert_eq!(b.status, Unknown);
        assert!(b.x > 60.0);
        // Solved children do not change an open node's probability.
        let with = r.backup(false, &[v(1.0), r.solved(Proven, 1), v(-2.0)]);
        let without = r.backup(false, &[v(1.0), v(-2.0)]);
        assert_eq!(with, without);
        // Selection skips solved children and breaks ties leftmost.
        assert_eq!(r.select(true, &[r.solved(Disproven, 1), v(1.0), v(1.0)]), 1);
        assert_eq!(r.select(false, &[v(1.0), v(-1.0), v(-1.0)]), 1);
    }

    #[test]
    fn paper_rule_ends_on_closeness_but_keeps_the_exact_status() {
        use Status::*;
        let r = PpnsPaper {
            params: PpnsParams::default(),
            pr: 1e-3,
        };
        let v = |x: f64| PpnValue { status: Unknown, x };
        let or = r.backup(true, &[v(0.99), v(0.99)]);
        assert!((or.x - 0.9999).abs() < 1e-12);
        assert_eq!(r.status(&or), Proven);
        assert_eq!(r.exact_status(&or), Unknown);
        let exact = PpnsPaper { pr: 0.0, ..r };
        assert_eq!(exact.status(&or), Unknown);
        assert_eq!(exact.status(&exact.solved(Disproven, 3)), Disproven);
    }
}
