//! The policies that turn the one df-pn loop into its variants.
//!
//! The seeds say it themselves: Deep df-pn differs from df-pn only in leaf
//! initialisation (Deep df-pn §4), the 1+ε trick only in the child's δ
//! threshold (§6.3), df-pn+ in `h` and `cost` (thesis §2.2.4), WPNS in how δ
//! is aggregated (thesis eq. 2.5). Each is a small [`DfpnPolicy`]; the
//! search loop in [`super::search`] is generic over it and monomorphised, so
//! plain df-pn pays nothing for the hooks.

use crate::numbers::{Pn, PN_MAX};

/// How df-pn combines child values into a node's δ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaRule {
    /// δ = Σ φ (Nagai's df-pn; GHI paper Fig. 2, ΦSum).
    Sum,
    /// δ = max φ + (k − 1), k the number of unsolved children (WPNS,
    /// thesis §2.2.4, eq. 2.5).
    Weak,
}

/// A df-pn variant. Every method has the plain df-pn default.
pub trait DfpnPolicy: Clone + Send + Sync {
    /// Whether edge costs are used (df-pn+). When false the loop skips them.
    const USES_COST: bool = false;

    /// The δ aggregation rule.
    const DELTA: DeltaRule = DeltaRule::Sum;

    /// Whether the problem's heuristic `h` initialises leaves (df-pn+
    /// §2.2.4: leaf φ = h_φ, δ = h_δ). With `false` every leaf starts at 1.
    fn use_heuristic(&self) -> bool {
        true
    }

    /// (φ, δ) of an unsolved leaf at `depth` (root = 0), given the
    /// heuristic values. Deep df-pn replaces them (Def. 1).
    #[inline(always)]
    fn leaf(&self, phi: Pn, delta: Pn, _depth: u32) -> (Pn, Pn) {
        (phi, delta)
    }

    /// The selected child's δ threshold given the node's φ threshold and the
    /// second-smallest child δ: min(th_φ, δ2 + 1) (deep-dfpn §2.2 step 2,
    /// thesis eq. 2.4). The result must exceed the best child's δ.
    ///
    /// A saturated δ2 ([`PN_MAX`]) stands for an unknown value at least that
    /// large, so it bounds nothing: δ2 + 1 would saturate back to `PN_MAX`,
    /// a threshold the best child (also at `PN_MAX`) already meets, and the
    /// node would call it again and again without progress.
    #[inline(always)]
    fn child_th_delta(&self, th_phi: Pn, delta2: Pn) -> Pn {
        if delta2 >= PN_MAX {
            th_phi
        } else {
            th_phi.min(delta2 + 1)
        }
    }

    /// Constant df-pn+ edge costs (cost_φ, cost_δ) added to every edge on
    /// top of the problem's own costs (thesis §2.2.4; Nagai's cost_φ ranges
    /// over 0..−6).
    #[inline(always)]
    fn constant_cost(&self) -> (i64, i64) {
        (0, 0)
    }

    /// Whether Kawano's simulation runs at AND nodes ([`super::Kawano`]).
    /// When false the hooks in the search loop compile away.
    const SIMULATE: bool = false;

    /// Nodes one simulation may replay ([`super::Kawano`]; read only when
    /// [`Self::SIMULATE`]).
    #[inline(always)]
    fn sim_budget(&self) -> u64 {
        0
    }

    /// Whether the simulation also replays disproofs at OR nodes (dual
    /// simulation, [`super::Kawano::dual`]; read only when
    /// [`Self::SIMULATE`]).
    #[inline(always)]
    fn sim_dual(&self) -> bool {
        false
    }
}

/// Plain df-pn (Nagai 2002). `heuristic: false` gives every leaf (1, 1), the
/// algorithm exactly as in the GHI paper's Fig. 2.
#[derive(Clone, Copy, Debug)]
pub struct Plain {
    pub heuristic: bool,
}

impl Default for Plain {
    fn default() -> Self {
        Plain { heuristic: true }
    }
}

impl DfpnPolicy for Plain {
    fn use_heuristic(&self) -> bool {
        self.heuristic
    }
}

/// Deep df-pn (Zhang, Iida, van den Herik, §4, Def. 1): an unsolved leaf at
/// depth x gets φ = δ = Ddfpn(x) = E^(D−x) if D > x and E > 0; 1 if D ≤ x
/// and E > 0; 0 if E = 0 (depth-first, Table 1). Values saturate at
/// [`PN_MAX`]. E = 1 or D ≤ 1 is plain df-pn with h = 1.
#[derive(Clone, Copy, Debug)]
pub struct DeepDfpn {
    pub e: u64,
    pub d: u32,
}

impl DeepDfpn {
    /// Ddfpn(x) of Def. 1.
    pub fn value(&self, x: u32) -> Pn {
        if self.e == 0 {
            0
        } else if self.d > x && self.e > 1 {
            // At most 62 multiplications: E ≥ 2 saturates by then, so a
            // huge D costs no more than D = 62.
            let mut v: Pn = 1;
            for _ in 0..(self.d - x) {
                v = v.saturating_mul(self.e).min(PN_MAX);
                if v == PN_MAX {
                    break;
                }
            }
            v
        } else {
            1
        }
    }
}

impl DfpnPolicy for DeepDfpn {
    fn use_heuristic(&self) -> bool {
        false
    }

    #[inline(always)]
    fn leaf(&self, _phi: Pn, _delta: Pn, depth: u32) -> (Pn, Pn) {
        let v = self.value(depth);
        (v, v)
    }
}

/// The 1+ε trick (Pawlewicz and Lew; Deep df-pn §6.3): the selected child's
/// δ threshold is min(th_φ, ⌈δ2 (1+ε)⌉), and never below δ2 + 1 so the
/// child can always make progress.
#[derive(Clone, Copy, Debug)]
pub struct Epsilon {
    pub epsilon: f64,
    pub heuristic: bool,
}

impl DfpnPolicy for Epsilon {
    fn use_heuristic(&self) -> bool {
        self.heuristic
    }

    #[inline(always)]
    fn child_th_delta(&self, th_phi: Pn, delta2: Pn) -> Pn {
        if delta2 >= PN_MAX {
            return th_phi;
        }
        let scaled = (delta2 as f64 * (1.0 + self.epsilon)).ceil();
        let scaled = if scaled >= PN_MAX as f64 {
            PN_MAX
        } else {
            scaled as Pn
        };
        th_phi.min(scaled.max(delta2 + 1))
    }
}

/// df-pn+ (Nagai; thesis §2.2.4): heuristic leaf values `h` from the problem
/// and edge costs, both the problem's and the constant (cost_φ, cost_δ).
/// With `heuristic: false` and zero costs it is plain df-pn.
#[derive(Clone, Copy, Debug)]
pub struct DfpnPlus {
    pub heuristic: bool,
    pub cost_phi: i64,
    pub cost_delta: i64,
}

impl DfpnPolicy for DfpnPlus {
    const USES_COST: bool = true;

    fn use_heuristic(&self) -> bool {
        self.heuristic
    }

    fn constant_cost(&self) -> (i64, i64) {
        (self.cost_phi, self.cost_delta)
    }
}

/// Weak proof-number search (Ueda et al.; thesis §2.2.4, eq. 2.5):
/// δ = max φ + (k − 1) over the k unsolved children, which counts a shared
/// subtree once in a DAG.
#[derive(Clone, Copy, Debug)]
pub struct Wpns {
    pub heuristic: bool,
}

impl DfpnPolicy for Wpns {
    const DELTA: DeltaRule = DeltaRule::Weak;

    fn use_heuristic(&self) -> bool {
        self.heuristic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numbers::INF;

    #[test]
    fn deep_dfpn_values_follow_definition_1() {
        let p = DeepDfpn { e: 3, d: 4 };
        assert_eq!(p.value(1), 27);
        assert_eq!(p.value(3), 3);
        assert_eq!(p.value(4), 1);
        assert_eq!(p.value(9), 1);
        assert_eq!(DeepDfpn { e: 0, d: 4 }.value(1), 0);
        assert_eq!(DeepDfpn { e: 1, d: 9 }.value(1), 1);
        assert_eq!(DeepDfpn { e: 20, d: 15 }.value(0), PN_MAX);
    }

    #[test]
    fn epsilon_threshold_exceeds_second_best() {
        let p = Epsilon {
            epsilon: 0.125,
            heuristic: false,
        };
        assert_eq!(p.child_th_delta(100, 1), 2);
        assert_eq!(p.child_th_delta(100, 16), 18);
        assert_eq!(p.child_th_delta(10, 16), 10);
        assert_eq!(p.child_th_delta(INF - 1, INF), INF - 1);
        // 1 + 1e-18 rounds to 1.0: the guard δ2 + 1 still applies.
        let tiny = Epsilon {
            epsilon: 1e-18,
            heuristic: false,
        };
        assert_eq!(tiny.child_th_delta(INF - 1, 1 << 60), (1 << 60) + 1);
    }

    #[test]
    fn plain_threshold_is_min_of_th_and_delta2_plus_one() {
        let p = Plain::default();
        assert_eq!(p.child_th_delta(5, 2), 3);
        assert_eq!(p.child_th_delta(2, 7), 2);
        assert_eq!(p.child_th_delta(INF - 1, INF), INF - 1);
        assert_eq!(p.child_th_delta(INF - 1, PN_MAX - 1), PN_MAX);
    }

    #[test]
    fn a_saturated_second_best_leaves_the_threshold_out_of_reach() {
        // Every saturated child sits at PN_MAX: a threshold of PN_MAX would
        // be met before the child does any work (the Deep df-pn e=20,d=16
        // spin); the parent's own threshold is the only bound.
        let plain = |a, b| Plain::default().child_th_delta(a, b);
        let deep = |a, b| DeepDfpn { e: 20, d: 16 }.child_th_delta(a, b);
        let wpns = |a, b| Wpns { heuristic: true }.child_th_delta(a, b);
        for p in [&plain as &dyn Fn(Pn, Pn) -> Pn, &deep, &wpns] {
            assert_eq!(p(INF - 1, PN_MAX), INF - 1);
            assert_eq!(p(PN_MAX + 9, PN_MAX), PN_MAX + 9);
            assert!(p(INF - 1, PN_MAX) > PN_MAX);
        }
    }

    #[test]
    fn deep_dfpn_values_of_huge_depths_are_quick_and_saturated() {
        let t = std::time::Instant::now();
        assert_eq!(DeepDfpn { e: 3, d: u32::MAX }.value(1), PN_MAX);
        assert_eq!(DeepDfpn { e: 1, d: u32::MAX }.value(1), 1);
        assert_eq!(DeepDfpn { e: 2, d: 62 }.value(1), 1 << 61);
        assert!(t.elapsed() < std::time::Duration::from_millis(100));
    }
}
