//! End to end: the engine's `solve` on Othello endgames, each result
//! checked against the FFO file and its certificate against the
//! independent verifier (which walks every known-outcome leaf down to a
//! finished game by the rules alone).

use pns_core::certificate::Certificate;
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Outcome, Table};
use pns_games::othello::Othello;

use crate::common;

fn sign_outcome(score: i32) -> Outcome {
    match score.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// Solves the first `count` positions with `algo`, checking value, best
/// move and certificate.
fn solve_suite(algo: &str, count: usize) {
    let text = common::read_shared("othello/fforum-1-19.obf");
    let mut tt = Table::with_mb(64);
    for (i, line) in text.lines().take(count).enumerate() {
        let g = Othello::parse_position(line).unwrap();
        // (move, score) pairs after the ';'.
        let scores: Vec<(String, i32)> = line
            .split(';')
            .skip(1)
            .filter_map(|p| p.split_once(':'))
            .map(|(m, s)| (m.trim().to_lowercase(), s.trim().parse().unwrap()))
            .collect();
        let expected = sign_outcome(scores[0].1);
        let opts = SolveOptions {
            algo: Algo::parse(algo).unwrap(),
            proof: true,
            best_move: true,
            ..Default::default()
        };
        tt.clear();
        let r = solve(&g, &g.to_obf(), &opts, &mut tt);
        assert_eq!(r.value, Some(expected), "position {} with {algo}", i + 1);
        let cert = r
            .certificate
            .unwrap_or_else(|| panic!("position {}: {:?}", i + 1, r.proof_error));
        let parsed = Certificate::parse(&cert.to_text()).unwrap();
        assert_eq!(verify(&g, &parsed), Ok(expected), "position {}", i + 1);
        if expected != Outcome::Loss {
            // A proof's first move is as good as the best: when the file
            // scores it, the score has the same sign.
            let m = g.format_move(r.best_move.expect("a best move"));
            if let Some((_, s)) = scores.iter().find(|(name, _)| *name == m) {
                assert_eq!(sign_outcome(*s), expected, "position {}: {m}", i + 1);
            }
        }
    }
}

// All 19 positions take well under a second per algorithm.

#[test]
fn dfpn_solves_and_proves_fforum_1_19() {
    solve_suite("dfpn", 19);
}

#[test]
fn wpns_solves_and_proves_fforum_1_19() {
    solve_suite("wpns", 19);
}

#[test]
fn pn_search_solves_and_proves_fforum_1_19() {
    solve_suite("pns", 19);
}
