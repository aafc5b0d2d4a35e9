//! Othello's search hooks and random play: playouts, random endgames, the
//! heuristic and `known_outcome`.

use pns_core::prelude::*;
use pns_core::{Goal, GoalContext, Outcome, Rng, Side};
use pns_games::othello::{random_endgame, Othello, OthelloMove};

use crate::common;

/// The trait's default playout, restated: the fast override must make the
/// very same random choices.
fn default_playout(g: &Othello, rng: &mut Rng) -> Outcome {
    let me = g.side_to_move();
    let mut g = *g;
    let mut moves = Vec::new();
    loop {
        if let Some(o) = g.outcome() {
            return if g.side_to_move() == me { o } else { o.flip() };
        }
        moves.clear();
        g.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len() as u64) as usize];
        g.play(m);
    }
}

#[test]
fn playouts_are_reproducible_and_match_the_default_playout() {
    let mut pick = Rng::new(8);
    for i in 0..300 {
        let g = if i == 0 {
            Othello::start()
        } else {
            random_endgame(&mut pick, (i % 59) as usize)
        };
        let (mut a, mut b, mut c) = (Rng::new(i), Rng::new(i), Rng::new(i));
        for _ in 0..20 {
            let fast = g.playout(&mut a);
            assert_eq!(fast, g.playout(&mut b), "same seed, same result");
            assert_eq!(fast, default_playout(&g, &mut c), "{}", g.to_obf());
        }
        // Same number of random draws consumed, too.
        assert_eq!(a.next_u64(), c.next_u64());
    }
}

#[test]
fn playouts_from_the_start_give_all_results() {
    let mut rng = Rng::new(2024);
    let g = Othello::start();
    let mut counts = [0u32; 3];
    for _ in 0..20_000 {
        counts[g.playout(&mut rng) as usize] += 1;
    }
    let [loss, draw, win] = counts;
    // Random play is roughly balanced and draws are a few percent.
    assert!(loss > 7000 && win > 7000, "{counts:?}");
    assert!(draw > 100 && draw < 2000, "{counts:?}");
}

#[test]
fn playout_of_a_position_needing_a_pass() {
    // Black must pass, white fills a1 and black wins 61-3.
    let g = Othello::parse_position(&format!("-XO{} X", "X".repeat(61))).unwrap();
    let mut rng = Rng::new(0);
    assert_eq!(g.playout(&mut rng), Outcome::Win);
    let over = Othello::parse_position(&format!("{}- O", "X".repeat(63))).unwrap();
    assert_eq!(over.playout(&mut rng), Outcome::Loss);
}

#[test]
fn random_endgames_have_the_requested_discs_and_a_running_game() {
    let mut rng = Rng::new(44);
    let mut distinct = std::collections::HashSet::new();
    for _ in 0..200 {
        let g = random_endgame(&mut rng, 44);
        let (b, w) = g.disc_counts();
        assert_eq!(b + w, 48);
        assert_eq!(g.empties(), 16);
        assert!(g.outcome().is_none());
        assert!(g.mobility() > 0, "the side to move has a disc to place");
        distinct.insert(g);
    }
    assert!(distinct.len() > 190);
    // Reproducible from the seed, through either name.
    let a = random_endgame(&mut Rng::new(7), 44);
    let b = Othello::random_endgame(&mut Rng::new(7), 44);
    assert_eq!(a, b);
    for moves in [0, 1, 20, 50, 58, 59] {
        for seed in 0..20 {
            let g = random_endgame(&mut Rng::new(seed), moves);
            let (b, w) = g.disc_counts();
            assert_eq!((b + w) as usize, 4 + moves);
            assert!(g.outcome().is_none());
        }
    }
    assert_eq!(random_endgame(&mut Rng::new(1), 0), Othello::start());
}

#[test]
#[should_panic(expected = "at most 59")]
fn random_endgame_rejects_a_full_board() {
    random_endgame(&mut Rng::new(1), 60);
}

#[test]
fn heuristic_values_are_positive_bounded_and_follow_the_attacker() {
    let mut rng = Rng::new(12);
    for i in 0..2000 {
        let g = random_endgame(&mut rng, i % 60);
        let other_side =
            Othello::from_discs(g.black(), g.white(), g.side_to_move().opponent()).unwrap();
        let mover = u64::from(g.mobility()).clamp(1, 20).pow(4);
        let other = u64::from(other_side.mobility()).clamp(1, 20).pow(4);
        for attacker in [Side::First, Side::Second] {
            for goal in [Goal::Win, Goal::NotLose] {
                let ctx = GoalContext { attacker, goal };
                let (pn, dn) = g.heuristic(ctx);
                assert!((1..=160_000).contains(&pn) && (1..=160_000).contains(&dn));
                // Proof grows with the defender's moves, disproof with the
                // attacker's, whoever is to move.
                if attacker == g.side_to_move() {
                    assert_eq!((pn, dn), (other, mover));
                } else {
                    assert_eq!((pn, dn), (mover, other));
                }
                assert_eq!(other_side.heuristic(ctx), (pn, dn));
            }
        }
    }
}

#[test]
fn known_outcome_is_exact_and_agrees_with_the_rules_when_over() {
    // Random games from 8 empties down, checked against brute force
    // wherever known_outcome claims a result.
    let mut rng = Rng::new(99);
    let mut moves = Vec::new();
    for _ in 0..500 {
        let mut g = random_endgame(&mut rng, 56);
        while g.outcome().is_none() {
            if let Some(k) = g.known_outcome() {
                assert_eq!(k, common::negamax(&g), "{}", g.to_obf());
            }
            moves.clear();
            g.legal_moves(&mut moves);
            g.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        assert_eq!(g.known_outcome(), g.outcome());
    }
}

#[test]
fn search_moves_put_a_corner_first_and_keep_every_move() {
    // Fforum position 1, whose eight legal moves the file lists. Square
    // classes: the corner h1, the plain edge squares a3 and a4, the
    // C-squares b1, a2, h7 and g8 (next to a corner along an edge), the
    // X-square g2; a1-first within a class.
    let g = Othello::parse_position(
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    )
    .unwrap();
    let mut ordered = Vec::new();
    g.search_moves(&mut ordered);
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    let mut sorted = ordered.clone();
    sorted.sort();
    assert_eq!(sorted, legal);
    let names: Vec<String> = ordered.iter().map(|&m| g.format_move(m)).collect();
    assert_eq!(names, ["h1", "a3", "a4", "b1", "a2", "h7", "g8", "g2"]);
    assert!(!ordered.contains(&OthelloMove::PASS));
    let mut passing = Vec::new();
    let must_pass = Othello::parse_position(&format!("-XO{} X", "X".repeat(61))).unwrap();
    must_pass.search_moves(&mut passing);
    assert_eq!(passing, [OthelloMove::PASS]);
}
