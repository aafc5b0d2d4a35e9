//! The seesaw family against each other and against the oracle.
//!
//! * Where the papers say two algorithms coincide, they must search the
//!   same nodes: DeepPN with R = 1 is PN-search (thesis §3.2.1), Deep df-pn
//!   with E = 1 or D ≤ 1 is df-pn (Deep df-pn Table 1), df-pn+ without `h`
//!   and costs is df-pn (thesis §2.2.4). "Same" is checked on every
//!   statistic (time aside), on the sequence of expanded nodes for the
//!   best-first pair, and on the whole table for the df-pn pairs.
//! * Every variant gives the brute-force oracle's value on random trees
//!   (balanced or not, with transpositions or not, with draws or not), and
//!   its certificate passes the independent verifier.

use pns_core::bestfirst::{BestFirst, DeepPn, PnRule, Rule};
use pns_core::dfpn::{self, DeepDfpn, DfpnPlus, DfpnPolicy, Plain};
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Game, Goal, GoalProblem, Limits, SearchResult, Stats, Table};
use pns_games::{ConnectFour, Synthetic};
use proptest::prelude::*;

use crate::common;
use common::tree;

fn goal() -> impl Strategy<Value = Goal> {
    prop_oneof![Just(Goal::Win), Just(Goal::NotLose)]
}

/// The statistics that must match when two searches are the same search:
/// everything but time (and what is derived from it).
fn comparable(s: &Stats) -> Stats {
    Stats {
        time_ms: 0.0,
        nodes_per_sec: 0.0,
        ..s.clone()
    }
}

/// A table entry: key, pn, dn, amount, flags, best child.
type Entry = (u64, u64, u64, u32, u8, u16);

/// Every live entry of a table, sorted.
fn contents(tt: &Table) -> Vec<Entry> {
    let mut v = Vec::new();
    tt.for_each_live(|k, h| v.push((k, h.pn, h.dn, h.amount, h.flags, h.best)));
    v.sort_unstable();
    v
}

/// A df-pn goal search with `pol` on a fresh table: its result and the
/// table it leaves.
fn dfpn_run<G: Game, Pol: DfpnPolicy>(g: &G, goal: Goal, pol: Pol) -> (SearchResult, Vec<Entry>) {
    let tt = Table::with_mb(2);
    let mut p = GoalProblem::new(g.clone(), goal);
    let r = dfpn::search(&mut p, pol, &tt, &Limits::default());
    (r, contents(&tt))
}

/// Runs two df-pn policies on the same goal search and checks that they
/// are the same search.
fn same_dfpn<G: Game, A: DfpnPolicy, B: DfpnPolicy>(
    g: &G,
    goal: Goal,
    a: A,
    b: B,
    what: &str,
) -> Result<(), TestCaseError> {
    let (ra, ta) = dfpn_run(g, goal, a);
    let (rb, tb) = dfpn_run(g, goal, b);
    prop_assert_eq!(ra.status, rb.status, "{}", what);
    prop_assert_eq!(comparable(&ra.stats), comparable(&rb.stats), "{}", what);
    prop_assert!(ta == tb, "{}: the tables differ", what);
    Ok(())
}

/// A best-first goal search with `rule`: its result and the (key, depth)
/// of every node it expanded, in order.
fn best_first_run<G: Game, R: Rule>(g: &G, goal: Goal, rule: R) -> (SearchResult, Vec<(u64, u32)>) {
    let mut p = GoalProblem::new(g.clone(), goal);
    let mut keys = Vec::new();
    let r = BestFirst::new(rule).search_observed(&mut p, &Limits::default(), |p, d| {
        keys.push((pns_core::Problem::key(p), d))
    });
    (r, keys)
}

/// Runs two best-first rules and checks that they expand the same nodes in
/// the same order with the same statistics.
fn same_best_first<G: Game, A: Rule, B: Rule>(
    g: &G,
    goal: Goal,
    a: A,
    b: B,
    what: &str,
) -> Result<(), TestCaseError> {
    let (ra, ka) = best_first_run(g, goal, a);
    let (rb, kb) = best_first_run(g, goal, b);
    prop_assert_eq!(ra.status, rb.status, "{}", what);
    // The trees' node sizes differ (DeepPN stores its deep value), so
    // memory does not compare.
    let strip = |s: &Stats| Stats {
        peak_memory_bytes: 0,
        ..comparable(s)
    };
    prop_assert_eq!(strip(&ra.stats), strip(&rb.stats), "{}", what);
    prop_assert_eq!(ka.len() as u64, ra.stats.expanded, "{}", what);
    prop_assert!(ka == kb, "{}: the expanded nodes differ", what);
    Ok(())
}

/// Solves `pos` with `algo` and checks the value against the oracle and the
/// certificate with the verifier.
fn check(pos: &str, algo: &str, tt: &mut Table) -> Result<(), TestCaseError> {
    let g = Synthetic::parse_position(pos).unwrap();
    let want = g.exact();
    let opts = SolveOptions {
        algo: Algo::parse(algo).unwrap(),
        proof: true,
        best_move: true,
        ..Default::default()
    };
    let r = solve(&g, pos, &opts, tt);
    prop_assert_eq!(r.value, Some(want), "{} on {}", algo, pos);
    let cert = r.certificate.expect("certificate");
    prop_assert_eq!(verify(&g, &cert), Ok(want), "{} on {}", algo, pos);
    if let Some(m) = r.best_move {
        let mut c = g;
        c.play(m);
        prop_assert_eq!(
            c.exact(),
            want.flip(),
            "{}: the best move keeps the value",
            algo
        );
    }
    Ok(())
}

/// Connect Four positions of Pons' Test_L2_R2 (a win, a loss, a draw and a
/// small loss; 4,000 to 25,000 visits per goal search).
const C4: &[&str] = &[
    "24617524315172127",
    "6614446666373154",
    "6242432155656447531617622",
    "7225753363613131156611",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn deeppn_with_r_1_is_pn_search(pos in tree(8, 4), goal in goal()) {
        let g = Synthetic::parse_position(&pos).unwrap();
        same_best_first(
            &g,
            goal,
            PnRule { heuristic: false },
            DeepPn { r: 1.0, heuristic: false },
            &pos,
        )?;
    }

    #[test]
    fn deep_dfpn_with_e_1_or_d_at_most_1_is_dfpn(
        pos in tree(8, 4),
        goal in goal(),
        e in 1u64..25,
        d in 0u32..16,
        e_is_one in any::<bool>(),
    ) {
        let g = Synthetic::parse_position(&pos).unwrap();
        let deep = if e_is_one { DeepDfpn { e: 1, d } } else { DeepDfpn { e, d: d % 2 } };
        same_dfpn(&g, goal, deep, Plain { heuristic: false }, &format!("{deep:?} on {pos}"))?;
    }

    #[test]
    fn dfpn_plus_without_h_and_costs_is_dfpn(pos in tree(8, 4), goal in goal()) {
        let g = Synthetic::parse_position(&pos).unwrap();
        let plus = DfpnPlus { heuristic: false, cost_phi: 0, cost_delta: 0 };
        same_dfpn(&g, goal, plus, Plain { heuristic: false }, &pos)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_variant_matches_the_oracle(pos in tree(8, 4)) {
        let mut tt = Table::with_mb(1);
        for algo in [
            "dfpn-eps:eps=0.1",
            "dfpn-eps:eps=0.5",
            "dfpn-eps:eps=3,h=0",
            "deep-dfpn:e=2,d=3",
            "deep-dfpn:e=5,d=6",
            "deep-dfpn:e=20,d=15",
            "deep-dfpn:e=3,d=1",
            "dfpn-plus:cost-phi=-1",
            "dfpn-plus:cost-phi=-5,cost-delta=-5",
            "dfpn-plus:h=0,cost-phi=2,cost-delta=-1",
            "wpns",
            "wpns:h=0",
            "pnstar",
            "pnstar:h=0",
            "pds",
            "pds:h=0",
            "deeppn:r=0",
            "deeppn:r=0.3",
            "deeppn:r=0.6",
            "deeppn:r=0.95",
        ] {
            check(&pos, algo, &mut tt)?;
        }
    }

    #[test]
    fn depth_first_deep_dfpn_is_correct(pos in tree(8, 4), d in 0u32..8) {
        // E = 0: every unsolved leaf is 0 (Def. 1), a depth-first search.
        let mut tt = Table::with_mb(1);
        check(&pos, &format!("deep-dfpn:e=0,d={d}"), &mut tt)?;
    }

    #[test]
    fn pnstar_and_pds_survive_a_tiny_table(pos in tree(8, 4)) {
        // 1 KiB: entries are replaced and collected all the time; the
        // searches re-expand what they lost and still finish correctly.
        let mut tt = Table::with_bytes(1024);
        check(&pos, "pnstar", &mut tt)?;
        check(&pos, "pds", &mut tt)?;
    }

    #[test]
    fn visits_split_into_first_expansions_and_revisits(pos in tree(8, 4), goal in goal()) {
        let g = Synthetic::parse_position(&pos).unwrap();
        for algo in ["dfpn", "pnstar", "pds", "deep-dfpn:e=4,d=5"] {
            let mut p = GoalProblem::new(g, goal);
            let r = Algo::parse(algo).unwrap().run(&mut p, &Table::with_mb(4), &Limits::default());
            let s = &r.stats;
            prop_assert_eq!(s.visits, s.iterations + s.seesaw_revisits, "{}", algo);
            // A table this large replaces nothing: every node is expanded once.
            prop_assert_eq!(s.expanded, s.iterations, "{}", algo);
            prop_assert!(s.nodes >= s.iterations.saturating_sub(1), "{}", algo);
        }
    }
}

#[test]
fn the_equivalences_hold_on_connect_four() {
    for pos in C4 {
        let g = ConnectFour::parse_position(pos).unwrap();
        for goal in [Goal::Win, Goal::NotLose] {
            let plain = Plain { heuristic: false };
            for deep in [
                DeepDfpn { e: 1, d: 9 },
                DeepDfpn { e: 1, d: 0 },
                DeepDfpn { e: 7, d: 1 },
                DeepDfpn { e: 20, d: 0 },
            ] {
                same_dfpn(&g, goal, deep, plain, &format!("{deep:?} on {pos}")).unwrap();
            }
            let plus = DfpnPlus {
                heuristic: false,
                cost_phi: 0,
                cost_delta: 0,
            };
            same_dfpn(&g, goal, plus, plain, pos).unwrap();
            // With the game's heuristic on both sides too.
            let plus_h = DfpnPlus {
                heuristic: true,
                ..plus
            };
            same_dfpn(&g, goal, plus_h, Plain { heuristic: true }, pos).unwrap();
        }
    }
}

#[test]
fn deeppn_with_r_1_is_pn_search_on_connect_four() {
    // With the game's heuristic initialisation: R = 1 must still follow
    // the proof numbers exactly.
    for pos in &C4[1..] {
        let g = ConnectFour::parse_position(pos).unwrap();
        for goal in [Goal::Win, Goal::NotLose] {
            same_best_first(
                &g,
                goal,
                PnRule { heuristic: true },
                DeepPn {
                    r: 1.0,
                    heuristic: true,
                },
                pos,
            )
            .unwrap();
        }
    }
}

#[test]
fn the_equivalence_checks_can_fail() {
    // Sanity of the checks themselves: a genuinely different Deep df-pn and
    // a DeepPN with R < 1 are told apart from df-pn and PN-search.
    let g = ConnectFour::parse_position(C4[0]).unwrap();
    let deep = DeepDfpn { e: 4, d: 6 };
    assert!(same_dfpn(&g, Goal::Win, deep, Plain { heuristic: false }, "").is_err());
    assert!(same_best_first(
        &g,
        Goal::Win,
        PnRule { heuristic: false },
        DeepPn {
            r: 0.5,
            heuristic: false
        },
        ""
    )
    .is_err());
}
