//! Capturing problems: df-pn (GHI-safe, the heuristic initialisation)
//! against an exact tree search on small boards, every generator, and the
//! `defend` answer against the oracle's view of the defender's replies.

use std::collections::HashSet;

use pns_core::prelude::*;
use pns_core::rng::Rng;
use pns_core::{Outcome, Status, Table};
use pns_go::capture::{attack, attack_status, defend, Answer, Capture, Effort, Generator};
use pns_go::{Board, Color, Move};

/// The tree method: every line searched in full with the line's positions
/// remembered; a move that repeats a position on the line ends it as a
/// failure for the attacker (the problem's rule when the attacker is
/// asked). `None` when `budget` runs out.
fn oracle(g: &Capture, line: &mut HashSet<u64>, budget: &mut u64) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if let Some(o) = g.outcome() {
        let attacker_to_move = g.board().to_move() == g.attacker();
        return Some((o == Outcome::Win) == attacker_to_move);
    }
    let attacker_to_move = g.board().to_move() == g.attacker();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    line.insert(g.key());
    let mut result = !attacker_to_move;
    for m in moves {
        let mut c = *g;
        c.play(m);
        let r = if line.contains(&c.key()) {
            false
        } else {
            match oracle(&c, line, budget) {
                Some(r) => r,
                None => {
                    line.remove(&g.key());
                    return None;
                }
            }
        };
        if r == attacker_to_move {
            result = r;
            break;
        }
    }
    line.remove(&g.key());
    Some(result)
}

/// A random position on a small board: a few stones of each colour, no
/// block without liberties, a target stone.
fn random_problem(rng: &mut Rng, gen: Generator) -> Option<Capture> {
    let size = 4 + rng.below(2) as usize;
    let mut b = Board::new(size).unwrap();
    for y in 0..size {
        for x in 0..size {
            let p = b.point(x, y).unwrap();
            match rng.below(10) {
                0..=3 => b.set(p, Some(Color::Black)),
                4..=6 => b.set(p, Some(Color::White)),
                _ => {}
            }
        }
    }
    let stones: Vec<usize> = (b.stones(Color::Black) | b.stones(Color::White))
        .iter()
        .collect();
    if stones.is_empty() {
        return None;
    }
    let t = stones[rng.below(stones.len() as u64) as usize];
    let libs = 2 + rng.below(2) as u32;
    let g = Capture::new(b, t, libs, gen).ok()?;
    if g.outcome().is_some() {
        return None;
    }
    Some(g.with_first(g.attacker()))
}

/// Try `tries` of a random-problem loop: a problem of the generator the
/// try number picks, with the attacker-first answer of the exact tree
/// method; `None` where no problem was drawn or the method gave up.
fn solved_case(rng: &mut Rng, tries: usize) -> Option<(Generator, Capture, bool)> {
    let gen = Generator::ALL[tries % 3];
    let g = random_problem(rng, gen)?;
    let mut budget = 200_000;
    let want = oracle(&g, &mut HashSet::new(), &mut budget)?;
    Some((gen, g, want))
}

/// The search status of an answer "the attacker wins": `win`.
fn status_of_win(win: bool) -> Status {
    if win {
        Status::Proven
    } else {
        Status::Disproven
    }
}

#[test]
fn dfpn_agrees_with_the_tree_method_on_small_boards() {
    let mut rng = Rng::new(20261124);
    let mut checked = [0usize; 3];
    let mut proven = 0;
    let mut tries = 0;
    while checked.iter().sum::<usize>() < 150 && tries < 20_000 {
        tries += 1;
        let Some((gen, g, want)) = solved_case(&mut rng, tries) else {
            continue;
        };
        let tt = Table::with_mb(4);
        let mut e = Effort::default();
        let got = attack_status(&g, 2_000_000, &tt, &mut e);
        let want_status = status_of_win(want);
        assert_eq!(got, want_status, "{}", g.render());
        // The defender-first question, reply by reply, against the oracle
        // (with every legal point for both sides, as `defend` answers).
        let d = g.with_first(g.defender());
        let mut budget = 2_000_000;
        let full = gen == Generator::Board;
        if let (true, Some(attacker_wins)) = (full, oracle_defender_first(&d, &mut budget)) {
            let ans = defend(&d, 2_000_000, &mut e);
            assert_eq!(
                matches!(ans, Answer::Succeeds(_)),
                !attacker_wins,
                "{}\n{ans:?}",
                d.render()
            );
        }
        let a = attack(&g, 2_000_000, &mut e);
        if full {
            assert_eq!(matches!(a, Answer::Succeeds(_)), want, "{}", g.render());
        }
        if let (true, Answer::Succeeds(Some(m))) = (full, a) {
            // The attack's move keeps the capture.
            let mut c = g;
            c.play(m);
            let mut budget = 2_000_000;
            assert_ne!(oracle_reply(&c, &mut budget), Some(false), "{}", g.render());
        }
        proven += usize::from(want);
        checked[tries % 3] += 1;
    }
    assert!(checked.iter().all(|&n| n >= 30), "{checked:?}");
    assert!(proven > 10 && proven < 140, "{proven} of 150 captured");
}

/// The attacker wins with the defender to move first, each reply judged
/// from its own root (as `defend` asks it).
fn oracle_defender_first(d: &Capture, budget: &mut u64) -> Option<bool> {
    let mut moves = Vec::new();
    d.legal_moves(&mut moves);
    for m in moves {
        let mut c = *d;
        c.play(m);
        if !oracle_reply(&c, budget)? {
            return Some(false);
        }
    }
    Some(true)
}

fn oracle_reply(c: &Capture, budget: &mut u64) -> Option<bool> {
    oracle(c, &mut HashSet::new(), budget)
}

#[test]
fn a_stone_in_atari() {
    // White C7 with one liberty (C6): Black first captures, White first
    // extends to three liberties.
    let ladder = "(;FF[4]SZ[9]AB[bc][cb][dc]AW[cc])";
    let g = Capture::parse_position(&format!("{ladder}|target=C7,libs=3")).unwrap();
    let mut e = Effort::default();
    assert!(matches!(
        attack(&g, 1_000_000, &mut e),
        Answer::Succeeds(Some(_))
    ));
    let d = g.with_first(Color::White);
    assert!(matches!(
        defend(&d, 1_000_000, &mut e),
        Answer::Succeeds(Some(Move::Play(_)))
    ));
}

/// λ-df-pn (several orders, pseudo λ-search, the ladder rule on and off)
/// against the tree method on the same random positions: every answer the
/// same as the exact one, and `attack_with`/`defend_with` right where both
/// sides play every point.
#[test]
fn lambda_dfpn_agrees_with_the_tree_method_on_small_boards() {
    use pns_go::capture::{attack_with, defend_with, Solver};
    use pns_go::lambda::{self, LambdaParams};
    let variants = [
        LambdaParams::default(),
        LambdaParams::pseudo(),
        LambdaParams::default().parse("order=1,ladder=off").unwrap(),
        LambdaParams::default().parse("order=3,grow=1").unwrap(),
        LambdaParams::default().parse("order=0").unwrap(),
    ];
    let mut rng = Rng::new(20261125);
    let mut checked = 0;
    let mut proven = 0;
    let mut tries = 0;
    while checked < 80 && tries < 20_000 {
        tries += 1;
        let Some((gen, g, want)) = solved_case(&mut rng, tries) else {
            continue;
        };
        let want_status = status_of_win(want);
        let params = variants[checked % variants.len()];
        let tt = Table::with_mb(4);
        let r = lambda::search(&g, &params, 2_000_000, &tt);
        assert_eq!(r.status, want_status, "{params:?}\n{}", g.render());
        if gen == Generator::Board {
            let solver = Solver::Lambda(params);
            let mut e = Effort::default();
            let a = attack_with(&g, &solver, 2_000_000, &mut e);
            assert_eq!(matches!(a, Answer::Succeeds(_)), want, "{}", g.render());
            if let Answer::Succeeds(Some(m)) = a {
                let mut c = g;
                c.play(m);
                let mut budget = 2_000_000;
                assert_ne!(oracle_reply(&c, &mut budget), Some(false), "{}", g.render());
            }
            let d = g.with_first(g.defender());
            let mut budget = 2_000_000;
            if let Some(attacker_wins) = oracle_defender_first(&d, &mut budget) {
                let ans = defend_with(&d, &solver, 2_000_000, &mut e);
                assert_eq!(
                    matches!(ans, Answer::Succeeds(_)),
                    !attacker_wins,
                    "{}\n{ans:?}",
                    d.render()
                );
            }
        }
        proven += usize::from(want);
        checked += 1;
    }
    assert_eq!(checked, 80);
    assert!(proven > 8 && proven < 72, "{proven} of 80 captured");
}
