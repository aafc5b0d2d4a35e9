//! Both algorithms agree with every label of Pons' Test_L3_R1 and
//! Test_L2_R1, and every proof passes the independent verifier.

use pns_core::certificate::Certificate;
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Outcome, Table};
use pns_games::ConnectFour;

use crate::common;

fn check_set(name: &str, algo: &str) {
    let algo = Algo::parse(algo).unwrap();
    let mut tt = Table::with_mb(16);
    let mut n = 0;
    for (pos, expected) in common::connect4_set(name) {
        let pos = pos.as_str();
        let g = ConnectFour::parse_position(pos).unwrap();
        let opts = SolveOptions {
            algo: algo.clone(),
            proof: true,
            best_move: true,
            ..Default::default()
        };
        let r = solve(&g, pos, &opts, &mut tt);
        assert_eq!(r.value, Some(expected), "{name} {pos} with {algo}");
        let cert = r
            .certificate
            .unwrap_or_else(|| panic!("{pos}: {:?}", r.proof_error));
        let text = cert.to_text();
        let parsed = Certificate::parse(&text).unwrap();
        assert_eq!(verify(&g, &parsed), Ok(expected), "{pos}");
        if expected != Outcome::Loss {
            let m = r.best_move.expect("a best move");
            let mut c = g;
            c.play(m);
            // The move keeps the value: the opponent's value is flipped.
            let rc = solve(&c, "", &SolveOptions::default(), &mut tt);
            assert_eq!(rc.value, Some(expected.flip()), "{pos} best move {m}");
        }
        n += 1;
    }
    assert_eq!(n, 1000);
}

#[test]
fn dfpn_l3_r1() {
    check_set("Test_L3_R1", "dfpn");
}

#[test]
fn pns_l3_r1() {
    check_set("Test_L3_R1", "pns");
}

#[test]
fn dfpn_l2_r1() {
    check_set("Test_L2_R1", "dfpn");
}

#[test]
fn pns_l2_r1() {
    check_set("Test_L2_R1", "pns");
}

#[test]
fn connect_four_refuses_concessions_fills_and_claims() {
    use pns_core::certificate::Node;
    use pns_core::prelude::*;
    // Connect Four is not monotone (a disc changes where the next one
    // lands), so its rules must refuse these shortcuts.
    let pos = "4453";
    let g = ConnectFour::parse_position(pos).unwrap();
    let opts = SolveOptions {
        proof: true,
        ..Default::default()
    };
    let cert = solve(&g, pos, &opts, &mut Table::with_mb(16))
        .certificate
        .expect("a certificate");
    assert!(verify(&g, &cert).is_ok());
    let mut c = cert.clone();
    c.blocks[0].nodes[0] = Node::Concede(vec!["1".into()], 1);
    let e = verify(&g, &c).unwrap_err();
    assert!(e.contains("concessions are not sound"), "{e}");
    let mut c = cert.clone();
    c.blocks[0].nodes[0] = Node::Claim("anything".into());
    let e = verify(&g, &c).unwrap_err();
    assert!(e.contains("no claims"), "{e}");
    let mut c = cert.clone();
    c.blocks[0].nodes[0] = Node::Fill("anything".into(), 1);
    let e = verify(&g, &c).unwrap_err();
    assert!(e.contains("no fills"), "{e}");
}
