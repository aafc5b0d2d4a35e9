//! Certificates of capturing answers (`pns_go::certify`): the search that
//! settled an `attack` or `defend` answer proven again as a tree of Go
//! moves and checked by the rules-only verifier, on GNU Go's cases; a
//! certificate with one reply taken out is refused; and a repetition is
//! the attacker's failure also when the target's owner is the side asked
//! about (the question's side to move).

use crate::shared_data;

use pns_core::certificate::{Certificate, Node};
use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::verify::verify;
use pns_core::{Limits, Outcome, Status, Table};
use pns_go::capture::{
    attack_coded_decided, defend_coded_decided, Capture, Decision, Effort, Generator, Run, Solver,
    Spec, DEFAULT_ESCAPE_LIBS,
};
use pns_go::certify::{certificate, certificate_by_solver, certificate_within};
use pns_go::lambda::LambdaParams;
use pns_go::sgf::load_file;
use pns_go::{KoRule, Move};
use shared_data::shared_data;

/// The answer's code and deciding search of `question` (`attack V` or
/// `defend V`) on a GNU Go record loaded before move `until`, with
/// `solver` at 3,000 visits, and the question's position text, as `pns
/// solve go --proof` gives them.
fn decided(file: &str, until: usize, question: &str, solver: &Solver) -> (u8, Decision, String) {
    let path = shared_data("go/gnugo").join(file);
    let loaded = load_file(&path, Some(until), KoRule::Simple).unwrap();
    let board = *loaded.game.board();
    let (cmd, v) = question.split_once(' ').unwrap();
    let Ok(Move::Play(t)) = board.parse_vertex(v) else {
        panic!("{v} is not a point")
    };
    let g = Capture::new(board, t as usize, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
    let mut effort = Effort::default();
    let (coded, decision) = if cmd == "attack" {
        attack_coded_decided(&g, solver, 3000, Run::threads(1), &mut effort)
    } else {
        defend_coded_decided(&g, solver, 3000, Run::threads(1), &mut effort)
    };
    let code = coded.expect("answered").code;
    let d = decision.expect("codes 0 and 1 have a deciding search");
    let position = format!(
        "{}|{}",
        path.display(),
        Spec::describe(&d.question, v, Some(until))
    );
    (code, d, position)
}

/// The answer (code, certificate) of `question` with λ-df-pn ([`decided`]).
fn certified(file: &str, until: usize, question: &str) -> (u8, Certificate, Capture) {
    let solver = Solver::Lambda(LambdaParams::default());
    let (code, d, position) = decided(file, until, question, &solver);
    let cert = certificate(&d, &solver, 3000, &position).unwrap();
    // The position text parses back to the question.
    let parsed = Capture::parse_position(&position).unwrap();
    assert_eq!(parsed, d.question, "{question}: the position text");
    (code, cert, parsed)
}

/// One case of each kind: a capture (`attack … 1`), an escape against an
/// attacker on every point (`attack … 0`), a saving move (`defend … 1`)
/// and a loss whatever the owner plays (`defend … 0`). Each certificate
/// verifies with the value the code means for the side to move, and with
/// a reply of the non-prover's node taken out it is refused.
#[test]
fn each_kind_of_answer_has_a_certificate_the_rules_accept() {
    let cases = [
        // (record, move, question, GNU Go's code, the value for the side
        // to move)
        (
            "regression/games/incident114.sgf",
            36,
            "attack S4",
            1,
            Outcome::Win,
        ),
        (
            "regression/games/reading12.sgf",
            0,
            "attack A6",
            0,
            Outcome::Loss,
        ),
        (
            "regression/games/incident2.sgf",
            212,
            "defend F1",
            1,
            Outcome::Win,
        ),
        (
            "regression/games/incident55.sgf",
            98,
            "defend L5",
            0,
            Outcome::Loss,
        ),
    ];
    for (file, until, question, code, value) in cases {
        check_case(file, until, question, code, value);
    }
}

/// One case of [`each_kind_of_answer_has_a_certificate_the_rules_accept`]
/// (`until` 0: the whole record).
fn check_case(file: &str, until: usize, question: &str, code: u8, value: Outcome) {
    let until = if until == 0 {
        // The whole record: the position after its last move.
        let path = shared_data("go/gnugo").join(file);
        load_file(&path, None, KoRule::Simple)
            .unwrap()
            .main_line_moves
            + 1
    } else {
        until
    };
    let (got, cert, root) = certified(file, until, question);
    assert_eq!(got, code, "{question}: the answer's code");
    assert_eq!(cert.value, value, "{question}: the certificate's value");
    let checked = verify(&root, &cert);
    assert_eq!(checked, Ok(value), "{question}: the verifier");
    if let Some(h) = root.horizon() {
        // A capture proof searched under a horizon (the default for
        // capture proofs) holds without it: the rules without the
        // horizon accept the same tree.
        assert_eq!(h, pns_go::capture::CAPTURE_HORIZON, "{question}");
        let mut without = cert.clone();
        without.position = cert.position.replace(",horizon=4/10", "");
        assert_ne!(without.position, cert.position, "{question}");
        let plain = root.with_horizon(None);
        assert_eq!(
            verify(&plain, &without),
            Ok(value),
            "{question}: without the horizon"
        );
    }
    // Take one move out of a node where every move must be present: the
    // root of a disproof (its side to move is the block's attacker), else
    // the node after the proof's first move.
    let mut broken = cert.clone();
    let block = &mut broken.blocks[0];
    let at = match &block.nodes[0] {
        _ if block.claim == Status::Disproven => 0,
        Node::Moves(first) => first[0].1 as usize,
        other => panic!("{question}: the root is {other:?}"),
    };
    let Node::Moves(replies) = &mut block.nodes[at] else {
        panic!("{question}: node {at} is not a plain node")
    };
    if replies.len() > 1 {
        replies.pop();
        assert!(
            verify(&root, &broken).is_err(),
            "{question}: a certificate without one reply was accepted"
        );
    } else {
        // Only where the proof is one move to a finished game.
        assert_eq!(cert.blocks[0].nodes.len(), 2, "{question}: nothing to cut");
    }
}

/// Where the answering search's own certificate fails, a plainer search's
/// is written. Plain λ-df-pn answers `trevor a031` (`defend E3`, `1 E4`)
/// at 3,000 visits, and its proof is not found again from the nodes alone
/// (a defender reply stays unknown); df-pn, with ten times the visits,
/// writes a certificate the verifier accepts. (Until the extractor's
/// searches read the answering search's table, λ-df-pn with zones failed
/// here too, and on reading 93, which it now certifies itself; its
/// extraction of this case is now too large to wait for: a million nodes
/// after 40 s.)
#[test]
fn a_failed_certificate_falls_back_to_plainer_searches() {
    let solver = Solver::Lambda(LambdaParams::default());
    let (code, d, position) = decided(
        "regression/games/trevor/auto/a031.sgf",
        40,
        "defend E3",
        &solver,
    );
    assert_eq!(code, 1);
    let limits = Limits {
        visits: Some(3000),
        ..Default::default()
    };
    let alone = certificate_by_solver(&d, &solver, &limits, &position);
    assert!(
        alone.as_ref().is_err_and(|e| e.contains("unknown")),
        "plain λ-df-pn alone: {:?}",
        alone.map(|c| c.blocks[0].nodes.len())
    );
    let cert = certificate(&d, &solver, 3000, &position).expect("df-pn's certificate");
    assert_eq!(verify(&d.question, &cert), Ok(Outcome::Win));
}

/// A certificate is extracted in two passes (`certify::certificate_within`):
/// the prover's moves in the search's order within a small tree, then,
/// where that tree outgrew it, the moves nearest the prover's goal first.
/// Reading 51 (`attack D6` = `0`, an escape on a 9x9 puzzle) has a tree
/// of 380,315 nodes in the search's order, and one of 9,254 with the
/// moves that give the target the most liberties first. Reading 117
/// (`defend B9` = `1 E8`, two eyes by Benson's rule) keeps the search
/// order's 60 nodes, where the liberties lead to a tree of millions.
#[test]
fn a_certificate_takes_the_shorter_of_two_orders() {
    let solver = Solver::Lambda(LambdaParams::zoned());
    for (file, question, value, most) in [
        (
            "regression/games/reading01.sgf",
            "attack D6",
            Outcome::Loss,
            50_000,
        ),
        (
            "regression/games/reading15.sgf",
            "defend B9",
            Outcome::Win,
            100,
        ),
    ] {
        let path = shared_data("go/gnugo").join(file);
        let loaded = load_file(&path, None, KoRule::Simple).unwrap();
        let (_, d, position) = decided(file, loaded.main_line_moves + 1, question, &solver);
        let limits = Limits {
            visits: Some(3000),
            time: Some(std::time::Duration::from_secs(120)),
            memory: Some(1 << 30),
            ..Default::default()
        };
        let cert = certificate_within(&d, &solver, &limits, &position).expect(question);
        let nodes: usize = cert.blocks.iter().map(|b| b.nodes.len()).sum();
        assert!(nodes <= most, "{question}: {nodes} nodes");
        assert_eq!(verify(&d.question, &cert), Ok(value), "{question}");
    }
}

/// The extractor's searches read the answering search's table: reading 24
/// (`attack O2`, `1 Q1`, on the edge of a 19x19 game) is answered by
/// λ-df-pn with zones at 3,000 visits, and its own certificate, no
/// fallback, is written and accepted. Before, each node was searched again
/// below its line alone, in a key space of that line: the position after
/// `Q1 R1` was unknown there (the zones found none of the entries they
/// read), though proven without the line in a tenth of the visits.
#[test]
fn the_answering_search_certifies_its_own_capture() {
    let solver = Solver::Lambda(LambdaParams::zoned());
    let file = "regression/games/incident92.sgf";
    let (code, d, position) = decided(file, 250, "attack O2", &solver);
    assert_eq!(code, 1);
    let limits = Limits {
        visits: Some(3000),
        ..Default::default()
    };
    let cert =
        certificate_by_solver(&d, &solver, &limits, &position).expect("the zones' own certificate");
    assert_eq!(verify(&d.question, &cert), Ok(Outcome::Win));
    // The proof's first move is the answer's.
    let Node::Moves(first) = &cert.blocks[0].nodes[0] else {
        panic!("the root is a move")
    };
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].0.to_uppercase(), "Q1");
}

/// A certificate's DAG stays within `limits.memory`: reading 24's has
/// some 200,000 nodes: with 8 MiB the extraction stops at the limit and
/// says so; with 256 MiB it is written and accepted.
#[test]
fn a_certificate_stays_within_its_memory_limit() {
    let solver = Solver::Lambda(LambdaParams::zoned());
    let (_, d, position) = decided("regression/games/incident92.sgf", 250, "attack O2", &solver);
    let within = |mb: u64| Limits {
        visits: Some(3000),
        memory: Some(mb << 20),
        ..Default::default()
    };
    let e = certificate_by_solver(&d, &solver, &within(8), &position)
        .map(|c| c.blocks[0].nodes.len())
        .expect_err("past 8 MiB");
    assert!(e.contains("memory limit (8 MiB) after"), "{e}");
    let cert = certificate_by_solver(&d, &solver, &within(256), &position).expect("within 256 MiB");
    assert!(cert.blocks[0].nodes.len() > 100_000);
    assert_eq!(verify(&d.question, &cert), Ok(Outcome::Win));
}

/// A white group with two eyes (a2, c2) and two liberties inside one
/// black block with eight: white cannot reach five liberties, black can
/// play neither eye (suicide), and the generator gives neither side any
/// other point, so the only way a line ends is a repetition (both sides
/// passing). Under the problem's rule that is the attacker's failure, so
/// the target is safe whoever moves first: a loss for black to move, a
/// win for white to move, and both certificates are "pass, pass". Before
/// `Rules::repetition_loser`, white to move was searched, extracted and
/// verified with white as the side a repetition loses for. (With Benson's
/// rule, the default, the two-eyed target has escaped at the root: the
/// certificate is the root alone. The repetition is asked without it.)
#[test]
fn a_repetition_is_the_attackers_failure_whoever_is_asked() {
    let sgf = "(;GM[1]FF[4]SZ[7]AB[ad][bd][cd][dd][de][ee][ef][eg]\
               AW[ae][be][ce][bf][df][ag][bg][cg][dg])";
    let alive = Capture::parse_position(&format!("{sgf}|target=A1")).unwrap();
    assert_eq!(alive.outcome(), Some(Outcome::Loss));
    for (first, value) in [("attacker", Outcome::Loss), ("defender", Outcome::Win)] {
        let text = format!("{sgf}|target=A1,first={first},benson=off");
        let g = Capture::parse_position(&text).unwrap();
        assert_eq!(g.target_libs().count(), 2);
        let opts = SolveOptions {
            proof: true,
            limits: Limits {
                visits: Some(100_000),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut tt = Table::with_mb(16);
        let r = solve(&g, &text, &opts, &mut tt);
        assert_eq!(r.value, Some(value), "{first} first");
        let cert = r.certificate.expect("a certificate");
        assert_eq!(cert.blocks[0].nodes.len(), 3, "{first} first: pass, pass");
        assert_eq!(verify(&g, &cert), Ok(value), "{first} first: verified");
    }
}

/// The same two-eyed group beside a black block of three liberties that
/// both sides may play around: the search answers at once, but every line
/// of the proof ends in a repetition, so the certificate is exponential in
/// size. A visit limit or a time limit now ends the extraction with a
/// reason instead of letting it run on (each sub-search used to get the
/// whole time limit again, and no visit limit at all). Without Benson's
/// rule: with it the target has escaped at the root.
#[test]
fn an_exponential_certificate_ends_at_the_limits() {
    let text = "(;GM[1]FF[4]SZ[7]AB[ad][bd][cd][dd][de][ef][eg]\
                AW[ae][be][ce][bf][df][ag][bg][cg][dg])|target=A1,benson=off";
    let g = Capture::parse_position(text).unwrap();
    for (limits, reason) in [
        (
            Limits {
                visits: Some(20_000),
                ..Default::default()
            },
            "visit budget",
        ),
        (
            Limits {
                time: Some(std::time::Duration::from_millis(500)),
                ..Default::default()
            },
            "time limit",
        ),
    ] {
        let opts = SolveOptions {
            proof: true,
            limits,
            ..Default::default()
        };
        let t0 = std::time::Instant::now();
        let r = solve(&g, text, &opts, &mut Table::with_mb(16));
        assert_eq!(r.value, Some(Outcome::Loss), "{reason}");
        assert!(r.certificate.is_none(), "{reason}");
        let e = r.proof_error.expect("a reason");
        assert!(e.contains(reason), "{e}");
        assert!(t0.elapsed().as_secs() < 30, "{reason}: {:?}", t0.elapsed());
    }
}

/// Every unconditional answer (code 0 or 1) λ-df-pn gives on GNU Go's
/// tactical cases at 300 visits, extra moves included, is certified: the
/// search that settled it is extracted as a tree of Go moves and every
/// block passes the rules-only verifier, with the value the code means
/// for the side to move.
#[test]
fn every_unconditional_answer_on_gnu_go_s_cases_is_certified() {
    let cases = pns_go::tactical::load(
        &shared_data("go/gnugo-tactical.tsv"),
        &shared_data("go/gnugo"),
    )
    .unwrap();
    let solver = Solver::Lambda(LambdaParams::default());
    let visits = 300;
    let (mut certified, mut failed) = (0, Vec::new());
    for c in &cases {
        let g = Capture::new(c.board, c.target, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
        let mut effort = Effort::default();
        let (coded, decision) = if c.attack {
            attack_coded_decided(&g, &solver, visits, Run::threads(1), &mut effort)
        } else {
            defend_coded_decided(&g, &solver, visits, Run::threads(1), &mut effort)
        };
        let (Some(coded), Some(d)) = (coded, decision) else {
            continue;
        };
        let name = format!("{} {}", c.suite, c.id);
        // (The position text is not checked here: extra moves have no
        // notation; the blocks are verified against the question itself.)
        match certificate(&d, &solver, visits, "-") {
            Ok(cert) => {
                let want = if coded.code == 1 {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                assert_eq!(cert.value, want, "{name}: the value of code {}", coded.code);
                for b in &cert.blocks {
                    if let Err(e) = pns_core::verify::verify_block(&d.question, b) {
                        panic!("{name}: a certificate the verifier refuses: {e}");
                    }
                }
                certified += 1;
            }
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    eprintln!("{certified} answers certified; not found again: {failed:?}");
    // 23 when this was written; a certificate may fail to be found again
    // within the limit (reported), never be refused.
    assert!(certified >= 20, "{certified} certified; failed: {failed:?}");
    assert!(failed.len() <= 2, "{failed:?}");
}

/// Benson's rule on `reading 117` (`defend B9` = `1 E8`, a 9x9 puzzle in
/// which White saves the group by making two eyes, never near five
/// liberties). Without the rule λ-df-pn answers nothing within 3,000
/// visits; with it (the default) E8 saves, the escape proof's certificate
/// is accepted, and the same certificate is refused where the rule is
/// off: its leaves are targets alive by the rule, not finished games.
#[test]
fn a_target_alive_by_benson_s_rule_has_escaped() {
    let path = shared_data("go/gnugo").join("regression/games/reading15.sgf");
    let loaded = load_file(&path, None, KoRule::Simple).unwrap();
    let until = loaded.main_line_moves + 1;
    let board = *loaded.game.board();
    let Ok(Move::Play(t)) = board.parse_vertex("B9") else {
        panic!("B9 is a point")
    };
    let g = Capture::new(board, t as usize, DEFAULT_ESCAPE_LIBS, Generator::H1).unwrap();
    let solver = Solver::Lambda(LambdaParams::default());
    let mut effort = Effort::default();
    let (off, _) = defend_coded_decided(
        &g.with_benson(false),
        &solver,
        3000,
        Run::threads(1),
        &mut effort,
    );
    assert_eq!(off, None, "without the rule");
    let (on, d) = defend_coded_decided(&g, &solver, 3000, Run::threads(1), &mut effort);
    let on = on.expect("an answer with the rule");
    let mv = on.mv.map(|m| board.format_move(m).to_uppercase());
    assert_eq!((on.code, mv.as_deref()), (1, Some("E8")));
    let d = d.expect("code 1 has a deciding search");
    let position = format!(
        "{}|{}",
        path.display(),
        Spec::describe(&d.question, "B9", Some(until))
    );
    let cert = certificate(&d, &solver, 3000, &position).unwrap();
    let root = Capture::parse_position(&position).unwrap();
    assert!(root.benson());
    assert_eq!(verify(&root, &cert), Ok(Outcome::Win));
    assert!(verify(&root.with_benson(false), &cert).is_err());
}
