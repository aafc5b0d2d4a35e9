//! PPNS and MCPNS give only correct answers.
//!
//! * On seeded random trees (balanced and unbalanced, with draws and
//!   transpositions) PPNS with exact status and MCPNS agree with the
//!   brute-force oracle, and their certificates verify.
//! * PPNS with exact status never concludes a wrong value, whatever θ is
//!   (including θ close to 1, which turns the playout statistics upside
//!   down) and wherever a node limit cuts the search.
//! * The paper's rule (`exact=0`, Algorithm 6) with a loose precision rate
//!   does conclude wrong values on the same trees; the test records how
//!   often (the experiment `ppns-synthetic` reports the rate) and checks
//!   that no wrong conclusion ever gets a certificate.
//! * Connect Four: both algorithms are right on every position of a prefix
//!   of Test_L2_R1 that they conclude under a node limit.

use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Limits, Table};
use pns_games::{ConnectFour, Synthetic};
use proptest::prelude::*;

use crate::common;

fn tree() -> impl Strategy<Value = String> {
    common::tree(7, 4)
}

/// Solves `pos` with `algo` and checks the value against the oracle; with
/// no limit the value must be known and the certificate must verify.
fn check(pos: &str, algo: &str, limits: Limits) -> Result<(), TestCaseError> {
    let g = Synthetic::parse_position(pos).unwrap();
    let want = g.exact();
    let unlimited = limits.nodes.is_none() && limits.visits.is_none();
    let opts = SolveOptions {
        algo: Algo::parse(algo).unwrap(),
        limits,
        proof: true,
        best_move: true,
        ..Default::default()
    };
    let r = solve(&g, pos, &opts, &mut Table::with_mb(1));
    if unlimited {
        prop_assert_eq!(r.value, Some(want), "{} on {}", algo, pos);
    }
    if let Some(v) = r.value {
        prop_assert_eq!(v, want, "{} concluded a wrong value on {}", algo, pos);
        let cert = r.certificate.expect("a concluded value has a certificate");
        prop_assert_eq!(verify(&g, &cert), Ok(want));
        if let Some(m) = r.best_move {
            let mut c = g;
            c.play(m);
            prop_assert_eq!(c.exact(), want.flip(), "best move keeps the value");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ppns_matches_the_oracle(pos in tree(), seed in 0u64..1000, playouts in 1u32..8) {
        check(&pos, &format!("ppns:playouts={playouts},seed={seed}"), Limits::default())?;
    }

    #[test]
    fn mcpns_matches_the_oracle(pos in tree(), seed in 0u64..1000, playouts in 1u32..8) {
        check(&pos, &format!("mcpns:playouts={playouts},seed={seed}"), Limits::default())?;
    }

    #[test]
    fn ppns_exact_is_never_wrong_for_any_theta_or_limit(
        pos in tree(),
        theta in prop_oneof![1e-12f64..1e-3, 1e-3f64..0.5, 0.5f64..0.999_999],
        nodes in prop_oneof![Just(None), (1u64..200).prop_map(Some)],
        pr in prop_oneof![Just(0.0f64), 0.0f64..0.49],
    ) {
        // pr is ignored by the exact rule: it must not matter.
        let limits = Limits { nodes, ..Limits::default() };
        check(&pos, &format!("ppns:playouts=3,theta={theta},pr={pr}"), limits)?;
    }

    #[test]
    fn mcpns_is_never_wrong_under_a_node_limit(
        pos in tree(),
        clip in 0.001f64..=0.5,
        nodes in 1u64..200,
    ) {
        let limits = Limits { nodes: Some(nodes), ..Limits::default() };
        check(&pos, &format!("mcpns:playouts=3,clip={clip}"), limits)?;
    }
}

/// Fixed trees for the measurement below: big enough that a loose `pr`
/// ends the search long before a proof.
fn measured_trees() -> Vec<String> {
    (0..120u64)
        .map(|i| {
            let shape = if i % 2 == 0 { "balanced" } else { "unbalanced" };
            format!(
                "shape={shape},depth={},branching=3,seed={},pool={},win=50,draw={},stop=30",
                5 + i % 4,
                1000 + i,
                if i % 3 == 0 { 40 } else { 0 },
                if i % 4 == 0 { 20 } else { 0 }
            )
        })
        .collect()
}

/// Counts (concluded, wrong) over the measured trees for one algorithm,
/// checking that every certificate it produces verifies (a wrong
/// conclusion must come without one).
fn measure(algo: &str) -> (usize, usize) {
    let algo = Algo::parse(algo).unwrap();
    let (mut concluded, mut wrong) = (0, 0);
    let mut tt = Table::with_mb(1);
    for pos in measured_trees() {
        let g = Synthetic::parse_position(&pos).unwrap();
        let want = g.exact();
        let opts = SolveOptions {
            algo: algo.clone(),
            proof: true,
            ..Default::default()
        };
        let r = solve(&g, &pos, &opts, &mut tt);
        if let Some(v) = r.value {
            concluded += 1;
            if v != want {
                wrong += 1;
                assert!(
                    r.certificate.is_none(),
                    "{pos}: a wrong value got a certificate"
                );
            }
        }
        if let Some(c) = &r.certificate {
            assert_eq!(verify(&g, c), Ok(want), "{pos}");
        }
    }
    (concluded, wrong)
}

#[test]
fn the_papers_rule_with_a_loose_precision_rate_can_be_wrong_the_exact_rule_cannot() {
    let n = measured_trees().len();
    for theta in [0.01, 0.3] {
        let (c, w) = measure(&format!("ppns:playouts=5,theta={theta}"));
        assert_eq!((c, w), (n, 0), "exact status, theta={theta}");
    }
    let (c, w) = measure("mcpns:playouts=5");
    assert_eq!((c, w), (n, 0), "mcpns");
    // Algorithm 6 with pr = 0.2 ends as soon as the root's PPN is within
    // 0.2 of 1 or 0: often a guess. The rate is measured, not tuned; it is
    // reported by the ppns-synthetic experiment.
    let (c, w) = measure("ppns:playouts=5,theta=0.3,pr=0.2,exact=0");
    eprintln!("paper rule, theta=0.3, pr=0.2: {w} wrong of {c} concluded ({n} trees)");
    assert_eq!(c, n, "the paper rule concludes every tree (no limit)");
    assert!(w > 0, "a loose pr gives wrong answers on these trees");
}

#[test]
fn connect4_concluded_values_are_right_under_a_node_limit() {
    let set = common::connect4_set("Test_L2_R1");
    let mut tt = Table::with_mb(16);
    for algo in ["ppns:playouts=20", "mcpns:playouts=20"] {
        let (mut n, mut concluded) = (0, 0);
        for (pos, want) in set.iter().take(100) {
            let (pos, want) = (pos.as_str(), *want);
            let g = ConnectFour::parse_position(pos).unwrap();
            let opts = SolveOptions {
                algo: Algo::parse(algo).unwrap(),
                limits: Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                },
                proof: true,
                ..Default::default()
            };
            let r = solve(&g, pos, &opts, &mut tt);
            n += 1;
            if let Some(v) = r.value {
                concluded += 1;
                assert_eq!(v, want, "{algo} on {pos}");
                let cert = r.certificate.expect("certificate");
                assert_eq!(verify(&g, &cert), Ok(want), "{algo} on {pos}");
            }
        }
        assert!(concluded * 10 >= n * 9, "{algo}: {concluded}/{n} concluded");
    }
}
