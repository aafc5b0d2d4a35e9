//! Property tests: on seeded random trees (balanced and unbalanced, with and
//! without transpositions, with and without draws), df-pn and PN-search
//! give the brute-force oracle's value, and their certificates verify.

use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Table};
use pns_games::{Synthetic, TicTacToe};
use proptest::prelude::*;

use crate::common;

fn tree() -> impl Strategy<Value = String> {
    common::tree(8, 4)
}

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
    prop_assert_eq!(verify(&g, &cert), Ok(want));
    if let Some(m) = r.best_move {
        let mut c = g;
        c.play(m);
        prop_assert_eq!(c.exact(), want.flip(), "best move keeps the value");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dfpn_matches_the_oracle(pos in tree()) {
        let mut tt = Table::with_mb(1);
        check(&pos, "dfpn", &mut tt)?;
    }

    #[test]
    fn dfpn_with_a_tiny_table_matches_the_oracle(pos in tree()) {
        // 1 KiB: replacement and garbage collection all the time.
        let mut tt = Table::with_bytes(1024);
        check(&pos, "dfpn", &mut tt)?;
    }

    #[test]
    fn pns_matches_the_oracle(pos in tree()) {
        let mut tt = Table::with_mb(1);
        check(&pos, "pns", &mut tt)?;
    }
}

#[test]
fn tictactoe_is_a_draw_for_both_algorithms() {
    for algo in ["dfpn", "pns", "dfpn:h=0"] {
        let g = TicTacToe::new();
        let opts = SolveOptions {
            algo: Algo::parse(algo).unwrap(),
            proof: true,
            ..Default::default()
        };
        let r = solve(&g, "", &opts, &mut Table::with_mb(1));
        assert_eq!(r.value, Some(pns_core::Outcome::Draw), "{algo}");
        assert!(verify(&g, r.certificate.as_ref().unwrap()).is_ok());
    }
}
