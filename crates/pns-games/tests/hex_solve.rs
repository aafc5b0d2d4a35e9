//! Hex solved by the engine (`pns_core::solve`) agrees with Benzene's
//! openings table, and its certificates pass the independent verifier.

use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Algo, Outcome, Side, Table};
use pns_games::hex::{read_openings, Hex};

use crate::common;

fn openings(size: usize) -> Vec<(Hex, Side)> {
    let text = common::read_shared("hex/openings-winner.txt");
    read_openings(&text)
        .unwrap()
        .into_iter()
        .filter(|(g, _)| g.width() == size)
        .collect()
}

/// The winner by solving, and the certificate checked when `proof`.
fn winner(g: &Hex, algo: &Algo, proof: bool, tt: &mut Table) -> Side {
    let opts = SolveOptions {
        algo: algo.clone(),
        proof,
        ..Default::default()
    };
    let r = solve(g, &g.to_string(), &opts, tt);
    let value = r.value.unwrap_or_else(|| panic!("{g}: unsolved"));
    if proof {
        let cert = r
            .certificate
            .unwrap_or_else(|| panic!("{g}: {:?}", r.proof_error));
        assert_eq!(verify(g, &cert), Ok(value), "{g}");
    }
    match value {
        Outcome::Win => g.side_to_move(),
        Outcome::Loss => g.side_to_move().opponent(),
        Outcome::Draw => panic!("{g}: Hex has no draws"),
    }
}

#[test]
fn every_4x4_opening_solved_with_verified_certificates() {
    let mut tt = Table::with_mb(16);
    let cases = openings(4);
    assert_eq!(cases.len(), 16);
    for algo in [Algo::default(), Algo::Pns { heuristic: true }] {
        for (g, expected) in &cases {
            assert_eq!(winner(g, &algo, true, &mut tt), *expected, "{algo:?} {g}");
        }
    }
    // The empty board: Black wins.
    let empty = Hex::new(4).unwrap();
    assert_eq!(winner(&empty, &Algo::default(), true, &mut tt), Side::First);
}

#[test]
fn shuffled_plain_searches_give_the_same_4x4_results() {
    // The thesis §3.2.3 set-up: bare rules, legal moves shuffled per trial.
    let mut tt = Table::with_mb(16);
    // (About 4M df-pn nodes per seed for the 16 openings, against 12k
    // with the threat analysis on.)
    let algo = Algo::Dfpn {
        heuristic: false,
        ghi: Default::default(),
        kawano: false,
    };
    for seed in 0..4 {
        for (g, expected) in openings(4) {
            let s = g.with_shuffled_order(seed).with_plain_search();
            let got = winner(&s, &algo, seed == 0, &mut tt);
            assert_eq!(got, expected, "seed {seed} {g}");
        }
    }
}

#[test]
fn every_5x5_opening_solved() {
    let mut tt = Table::with_mb(64);
    let cases = openings(5);
    assert_eq!(cases.len(), 25);
    for (i, (g, expected)) in cases.iter().enumerate() {
        // With claims, certificates are cheap: every one is checked.
        let proof = i < cases.len();
        assert_eq!(
            winner(g, &Algo::default(), proof, &mut tt),
            *expected,
            "{g}"
        );
    }
}

#[test]
fn hex_certificates_claim_concede_fill_and_tampering_is_caught() {
    use pns_core::certificate::Node;
    use pns_core::prelude::*;
    // 6x6 b2: Black wins (White, to move, loses). The certificate ends
    // lines with claims, concedes the cells that cannot matter, fills
    // Black's captured cells, and is small.
    let g = Hex::parse_position("6 b2").unwrap();
    let opts = SolveOptions {
        proof: true,
        ..Default::default()
    };
    let r = solve(&g, "6 b2", &opts, &mut Table::with_mb(64));
    let cert = r.certificate.expect("a certificate");
    assert_eq!(verify(&g, &cert), Ok(Outcome::Loss));
    let b = &cert.blocks[0];
    // Concessions and fills are made only where White moves (10 and 5
    // here; 17 and 11 when the prover's nodes made them too).
    assert!(
        b.claims() > 100 && b.concessions() > 5 && b.fills() > 2,
        "{} claims, {} concessions, {} fills",
        b.claims(),
        b.concessions(),
        b.fills()
    );
    assert!(b.nodes.len() < 20_000, "{} nodes", b.nodes.len());
    // Every concession and fill is at a node where White (the opponent of
    // the prover) moves: a move passes the turn, a concession or fill
    // keeps it. Node 0 (White to move) is `false` here.
    let mut black_moves = vec![None; b.nodes.len()];
    black_moves[0] = Some(false);
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let here = black_moves[i].expect("reached");
        let mut reach = |c: u32, side: bool| {
            let c = c as usize;
            assert!(
                black_moves[c].is_none_or(|s| s == side),
                "node {c} reached with both sides to move"
            );
            if black_moves[c].is_none() {
                black_moves[c] = Some(side);
                stack.push(c);
            }
        };
        match &b.nodes[i] {
            Node::Moves(edges) => edges.iter().for_each(|&(_, c)| reach(c, !here)),
            Node::Concede(_, c) | Node::Fill(_, c) => {
                assert!(
                    !here,
                    "node {i}: a concession or fill where the prover moves"
                );
                reach(*c, here)
            }
            Node::Claim(_) => {}
        }
    }
    // Claims use every form: a first move, the opponent's cells, virtual
    // stones, groups of intrusions and splits.
    let claims: Vec<&String> = b
        .nodes
        .iter()
        .filter_map(|n| match n {
            Node::Claim(w) => Some(w),
            _ => None,
        })
        .collect();
    for form in ["{-", "}{", "[", "]"] {
        assert!(
            claims.iter().any(|w| w.contains(form)),
            "no claim with {form}"
        );
    }
    assert!(claims
        .iter()
        .any(|w| w.split_once('>').is_some_and(|(m, _)| m.len() == 2)));
    // The text form round-trips.
    let text = cert.to_text();
    let parsed = pns_core::certificate::Certificate::parse(&text).unwrap();
    assert_eq!(parsed, cert);
    // Breaking a claim's strategy, filling a cell the rules do not allow,
    // or giving away a cell the prover needs, is caught.
    let mut broken = cert.clone();
    let i = broken.blocks[0]
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Claim(w) if w.contains(".)")))
        .unwrap();
    if let Node::Claim(w) = &mut broken.blocks[0].nodes[i] {
        *w = w.replacen(".)", ")", 1);
    }
    assert!(verify(&g, &broken).unwrap_err().contains("claim rejected"));
    let mut broken = cert.clone();
    let i = broken.blocks[0]
        .nodes
        .iter()
        .position(|n| matches!(n, Node::Fill(..)))
        .unwrap();
    if let Node::Fill(w, _) = &mut broken.blocks[0].nodes[i] {
        // Two cells far apart are no pair.
        *w = "{a1f6}".into();
    }
    assert!(verify(&g, &broken).unwrap_err().contains("fill rejected"));
    let mut broken = cert.clone();
    broken.blocks[0].nodes[0] = Node::Concede(vec!["c3".into()], 1);
    assert!(verify(&g, &broken).is_err());
}

#[test]
fn hex_extraction_reads_through_concessions_instead_of_searching() {
    use pns_core::certificate::{Certificate, Extractor};
    use pns_core::{Goal, Limits, Status};
    // 6x6 b2 (Black wins, White to move): the search's table, then the
    // extractor on it. Its concessions and fills keep the value, so the
    // extractor reads the statuses below them through the positions before
    // them and searches only where the table knows nothing: none here,
    // where checking every position after a shortcut and every child of
    // it took 428 sub-searches.
    let g = Hex::parse_position("6 b2").unwrap();
    let mut tt = Table::with_mb(64);
    let r = solve(&g, "6 b2", &SolveOptions::default(), &mut tt);
    assert_eq!(r.value, Some(Outcome::Loss));
    let mut ex = Extractor::new(&g, Goal::Win, Status::Disproven, &tt, Limits::default());
    let block = ex.extract(&g).expect("a certificate");
    assert!(block.concessions() > 5 && block.fills() > 2);
    let cert = Certificate {
        game: "hex".into(),
        position: "6 b2".into(),
        value: Outcome::Loss,
        blocks: vec![block],
    };
    assert_eq!(verify(&g, &cert), Ok(Outcome::Loss));
    assert!(ex.sub_searches < 20, "{} sub-searches", ex.sub_searches);
}

/// Hex whose certificate suggestions concede too much: every empty cell
/// the opponent can take without winning at once, which gives the game
/// away. For the extractor's fallback when a shortcut taken on trust fails.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct GreedyConcessions(Hex);

impl Rules for GreedyConcessions {
    type Move = pns_games::hex::Cell;
    const NAME: &'static str = "greedy-hex";
    const HAS_DRAWS: bool = false;
    fn side_to_move(&self) -> Side {
        self.0.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.legal_moves(out)
    }
    fn play(&mut self, m: Self::Move) {
        self.0.play(m)
    }
    fn key(&self) -> u64 {
        self.0.key()
    }
}

impl Notation for GreedyConcessions {
    fn parse_position(s: &str) -> Result<Self, pns_core::GameError> {
        Hex::parse_position(s).map(GreedyConcessions)
    }
    fn parse_move(&self, s: &str) -> Result<Self::Move, pns_core::GameError> {
        self.0.parse_move(s)
    }
    fn format_move(&self, m: Self::Move) -> String {
        self.0.format_move(m)
    }
}

impl SearchHooks for GreedyConcessions {
    fn known_outcome(&self) -> Option<Outcome> {
        self.0.known_outcome()
    }
    fn search_moves(&self, out: &mut Vec<Self::Move>) {
        self.0.search_moves(out)
    }
}

impl Shortcuts for GreedyConcessions {
    fn concede(&mut self, to: Side, m: Self::Move) -> Result<(), pns_core::GameError> {
        self.0.concede(to, m)
    }
    fn fill(&mut self, prover: Side, witness: &str) -> Result<(), pns_core::GameError> {
        Shortcuts::fill(&mut self.0, prover, witness)
    }
    fn check_claim(&self, prover: Side, witness: &str) -> Result<(), pns_core::GameError> {
        self.0.check_claim(prover, witness)
    }
    fn concessions(&self, prover: Side, out: &mut Vec<Self::Move>) {
        let mut cells = Vec::new();
        self.0.legal_moves(&mut cells);
        cells.sort();
        let mut h = self.0;
        for c in cells {
            let mut next = h;
            if next.concede(prover.opponent(), c).is_ok() && next.outcome().is_none() {
                h = next;
                out.push(c);
            }
        }
    }
    fn fill_witness(&self, prover: Side) -> Option<String> {
        self.0.fill_witness(prover)
    }
    fn claim(&self, prover: Side) -> Option<String> {
        self.0.claim(prover)
    }
}

impl Playout for GreedyConcessions {}

#[test]
fn a_concession_that_loses_the_value_is_rolled_back() {
    // Taken on trust, each of these concessions leads to a subtree that
    // fails; the extractor forgets it, finds by a search that the claim
    // does not hold after the concession, and plays the moves out instead.
    // A certificate that kept a node of a forgotten subtree would not
    // verify.
    let mut tt = Table::with_mb(16);
    for (g, expected) in openings(4).into_iter().take(6) {
        let name = g.to_string();
        let g = GreedyConcessions(g);
        let opts = SolveOptions {
            proof: true,
            ..Default::default()
        };
        let r = solve(&g, &name, &opts, &mut tt);
        let value = r.value.expect("solved");
        let cert = r
            .certificate
            .unwrap_or_else(|| panic!("{name}: {:?}", r.proof_error));
        assert_eq!(verify(&g, &cert), Ok(value), "{name}");
        let winner = match value {
            Outcome::Win => g.side_to_move(),
            _ => g.side_to_move().opponent(),
        };
        assert_eq!(winner, expected, "{name}");
        assert_eq!(cert.blocks[0].concessions(), 0, "{name}");
    }
}
