//! Parallel df-pn (Kaneko 2010, `dfpn::parallel`): several agents on one
//! table give the one-agent search's values, and their certificates verify.
//! On random trees against the exact oracle (with a table so small that
//! agents overwrite each other's entries all the time), and on Connect Four
//! positions against Pons' labels, and on Hex openings against Benzene's
//! winners (the agents share Hex's verdict cache as well as the table).

use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Outcome, Side, Table};
use pns_games::hex::{read_openings, Hex};
use pns_games::{ConnectFour, Synthetic};
use proptest::prelude::*;

use crate::common;

fn check_tree(pos: &str, algo: &str, threads: usize, tt: &mut Table) -> Result<(), TestCaseError> {
    let g = Synthetic::parse_position(pos).unwrap();
    let want = g.exact();
    let opts = SolveOptions {
        algo: Algo::parse(algo).unwrap(),
        proof: true,
        best_move: true,
        threads,
        ..Default::default()
    };
    let r = solve(&g, pos, &opts, tt);
    prop_assert_eq!(r.value, Some(want), "{} x{} on {}", algo, threads, pos);
    let cert = r.certificate.expect("certificate");
    prop_assert_eq!(verify(&g, &cert), Ok(want));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn agents_match_the_oracle(
        pos in common::tree(9, 4),
        threads in 2usize..=4,
        algo in prop::sample::select(vec!["dfpn", "dfpn-eps", "deep-dfpn:e=2,d=6", "wpns", "dfpn-plus"]),
    ) {
        let mut tt = Table::with_mb(2);
        check_tree(&pos, algo, threads, &mut tt)?;
    }

    #[test]
    fn agents_match_the_oracle_on_a_tiny_table(pos in common::tree(8, 4), threads in 2usize..=4) {
        // 1 KiB: agents replace each other's entries all the time.
        let mut tt = Table::with_bytes(1024);
        check_tree(&pos, "dfpn", threads, &mut tt)?;
    }
}

#[test]
fn agents_solve_connect_four_as_labelled() {
    let mut tt = Table::with_mb(16);
    let mut n = 0;
    for (pos, want) in common::connect4_set("Test_L2_R2").into_iter().take(40) {
        let pos = pos.as_str();
        let g = ConnectFour::parse_position(pos).unwrap();
        let opts = SolveOptions {
            proof: true,
            threads: 2,
            ..Default::default()
        };
        let r = solve(&g, pos, &opts, &mut tt);
        assert_eq!(r.value, Some(want), "{pos}");
        let cert = r.certificate.expect("certificate");
        assert_eq!(verify(&g, &cert), Ok(want), "{pos}");
        n += 1;
    }
    assert_eq!(n, 40);
}

#[test]
fn a_node_limit_is_shared_among_the_agents() {
    // The limit covers all agents together (each gets its share), and
    // ends the search cleanly with unknown.
    let g = ConnectFour::parse_position("").unwrap();
    let mut tt = Table::with_mb(8);
    let opts = SolveOptions {
        threads: 2,
        limits: pns_core::Limits {
            visits: Some(20_000),
            ..Default::default()
        },
        ..Default::default()
    };
    let r = solve(&g, "", &opts, &mut tt);
    assert_eq!(r.value, None);
    assert!(r.stats.visits <= 20_000 + 2, "{} visits", r.stats.visits);
    assert!(r.stats.visits >= 10_000, "{} visits", r.stats.visits);
}

#[test]
fn agents_solve_hex_openings_as_labelled() {
    // Three agents on two cores: they meet in the same subtrees and read
    // and write the same verdict-cache slots. Every winner as Benzene's,
    // every certificate verified.
    let text = common::read_shared("hex/openings-winner.txt");
    let cases: Vec<(Hex, Side)> = read_openings(&text)
        .unwrap()
        .into_iter()
        .filter(|(g, _)| g.width() == 5)
        .collect();
    assert_eq!(cases.len(), 25);
    let mut tt = Table::with_mb(32);
    for (g, winner) in &cases {
        let pos = g.to_string();
        let opts = SolveOptions {
            proof: true,
            threads: 3,
            ..Default::default()
        };
        let r = solve(g, &pos, &opts, &mut tt);
        let want = if *winner == g.side_to_move() {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        assert_eq!(r.value, Some(want), "{pos}");
        let cert = r.certificate.expect("certificate");
        assert_eq!(verify(g, &cert), Ok(want), "{pos}");
    }
}
