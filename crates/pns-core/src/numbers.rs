//! Proof and disproof numbers.
//!
//! Numbers are `u64` so that Deep df-pn's leaf values E^(D−depth) (Deep
//! df-pn §4, Def. 1) fit for the paper's whole grid (E ≤ 20, D ≤ 15). [`INF`]
//! marks a solved value (0 on the other side); finite values saturate at
//! [`PN_MAX`], far below the root thresholds ∞−1 (GHI paper §3.5), so a
//! saturated sum never looks solved and never ends the root's loop.

use crate::problem::Status;

/// A proof or disproof number.
pub type Pn = u64;

/// Infinity: the node is solved against this number's side.
pub const INF: Pn = u64::MAX;

/// The largest finite value a sum or a heuristic may reach.
pub const PN_MAX: Pn = 1 << 62;

/// Saturating addition of two numbers, keeping ∞ as ∞ and finite sums finite.
#[inline(always)]
pub fn pn_add(a: Pn, b: Pn) -> Pn {
    if a == INF || b == INF {
        INF
    } else {
        (a + b).min(PN_MAX) // both ≤ PN_MAX, so no overflow
    }
}

/// Adds a signed df-pn+ cost to a finite, non-zero number, keeping it ≥ 1
/// (thesis §2.2.4: costs may be negative, down to −6, but an unsolved node
/// must never look solved). Solved values (0 and ∞) are returned unchanged.
#[inline(always)]
pub fn pn_add_cost(a: Pn, cost: i64) -> Pn {
    if a == 0 || a == INF || cost == 0 {
        a
    } else if cost > 0 {
        pn_add(a, cost as u64)
    } else {
        a.saturating_sub(cost.unsigned_abs()).max(1)
    }
}

/// (pn, dn) of a solved node (and (1, 1) for an unknown one).
#[inline(always)]
pub fn solved_numbers(s: Status) -> (Pn, Pn) {
    match s {
        Status::Proven => (0, INF),
        Status::Disproven => (INF, 0),
        Status::Unknown => (1, 1),
    }
}

/// The status that (pn, dn) stands for. A node is solved only when (pn,
/// dn) is (0, ∞) or (∞, 0): Deep df-pn with E = 0 gives unsolved leaves the
/// value 0 (Def. 1), which must not read as a proof.
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

/// Clamps a heuristic or leaf value into `1..=PN_MAX`.
#[inline(always)]
pub fn pn_leaf(a: Pn) -> Pn {
    a.clamp(1, PN_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturation_keeps_finite_values_finite() {
        assert_eq!(pn_add(PN_MAX, PN_MAX), PN_MAX);
        assert_eq!(pn_add(3, INF), INF);
        assert_eq!(pn_add(2, 3), 5);
        assert_eq!(pn_add_cost(1, -6), 1);
        assert_eq!(pn_add_cost(10, -6), 4);
        assert_eq!(pn_add_cost(0, -6), 0);
        assert_eq!(pn_add_cost(INF, -6), INF);
        assert_eq!(pn_add_cost(5, 2), 7);
        assert_eq!(pn_leaf(0), 1);
    }
}
