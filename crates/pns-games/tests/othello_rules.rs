//! Othello rules and notation: perft, parsing, formatting, bad input, and
//! invariants over random games.

use pns_core::prelude::*;
use pns_core::{Outcome, Rng, Side};
use pns_games::othello::{Othello, OthelloMove};
use proptest::prelude::*;

/// Perft through the `Game` trait only (not the library's bulk counter):
/// a pass is a ply, and a game that ends early counts as one leaf.
fn trait_perft(g: &Othello, depth: u32) -> u64 {
    if depth == 0 || g.outcome().is_some() {
        return 1;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *g;
            c.play(m);
            trait_perft(&c, depth - 1)
        })
        .sum()
}

const PERFT: [u64; 10] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];

#[test]
fn perft_from_the_start_matches_the_published_counts() {
    let g = Othello::start();
    for (d, &expected) in PERFT.iter().enumerate().take(8) {
        let depth = d as u32 + 1;
        assert_eq!(trait_perft(&g, depth), expected, "trait perft({depth})");
        assert_eq!(g.perft(depth), expected, "perft({depth})");
    }
}

/// Depths 9 and 10 are where games can end and passes occur: the first
/// games end at ply 9, and depth 10 is the first count that the pass and
/// early-end conventions change.
#[test]
fn perft_9_and_10_pin_down_the_pass_and_game_end_convention() {
    let g = Othello::start();
    assert_eq!(g.perft(9), PERFT[8]);
    assert_eq!(g.perft(10), PERFT[9]);
    assert_eq!(trait_perft(&g, 9), PERFT[8]);
}

#[test]
fn start_position_basics() {
    let g = Othello::start();
    assert_eq!(g, Othello::parse_position("").unwrap());
    assert_eq!(g, Othello::parse_position("  start ").unwrap());
    assert_eq!(g, Othello::parse_position("START").unwrap());
    assert_eq!(
        g.to_obf(),
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(g.side_to_move(), Side::First);
    assert_eq!(g.disc_counts(), (2, 2));
    assert_eq!(g.empties(), 60);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|&m| g.format_move(m)).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    assert!(g.render().contains("black (X) to move"));
    assert_eq!(g.render().lines().count(), 10);
}

#[test]
fn move_lists_parse_case_insensitively_with_or_without_spaces() {
    let a = Othello::parse_position("f5d6c3d3c4").unwrap();
    let b = Othello::parse_position("F5 D6 c3 D3, c4").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.side_to_move(), Side::Second);
    assert_eq!(a.disc_counts().0 + a.disc_counts().1, 9);
    // The same by playing moves one by one.
    let mut c = Othello::start();
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        let mv = c.parse_move(m).unwrap();
        c.play(mv);
    }
    assert_eq!(a, c);
    assert_eq!(a.key(), c.key());
}

/// Random games with a forced pass: the list parses with the pass written
/// as `pass`, as `PS`, or left out before the next placement.
#[test]
fn forced_passes_may_be_written_or_left_out() {
    let mut rng = Rng::new(1);
    let mut found = 0;
    for _ in 0..2000 {
        let mut g = Othello::start();
        let mut list = Vec::new();
        let mut moves = Vec::new();
        while g.outcome().is_none() {
            moves.clear();
            g.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            list.push(m);
            g.play(m);
            if m.is_pass() && g.outcome().is_none() {
                let written: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                let ps = written.join(" ").replace("pass", "PS");
                let omitted: String = list
                    .iter()
                    .filter(|m| !m.is_pass())
                    .map(|m| m.to_string())
                    .collect();
                // "...pass" with the pass last can be left out only when a
                // square follows, so compare after the next placement.
                moves.clear();
                g.legal_moves(&mut moves);
                let next = moves[0];
                let mut after = g;
                after.play(next);
                let with = format!("{} {next}", written.join(""));
                let without = format!("{omitted}{next}");
                assert_eq!(Othello::parse_position(&with).unwrap(), after);
                assert_eq!(Othello::parse_position(&without).unwrap(), after);
                assert_eq!(Othello::parse_position(&ps).unwrap(), g);
                found += 1;
                break;
            }
        }
    }
    assert!(found > 10, "only {found} games with a forced pass");
}

#[test]
fn bad_positions_are_errors_not_panics() {
    let good = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    assert!(Othello::parse_position(good).is_ok());
    let cases: Vec<(String, &str)> = vec![
        (good[..63].to_string() + " X", "found 64 characters"),
        (good[..64].to_string(), "found 64 characters"),
        (good.replace(" X", " XO"), "found 66 characters"),
        (
            good.replacen('O', "Q", 1),
            "bad board character 'Q' for square b2",
        ),
        (good.replace(" X", " Z"), "side to move must be X or O"),
        ("f5d6c3d3c4e2".to_string(), "illegal move e2 at move 6"),
        ("f5 d6 zz".to_string(), "malformed move \"zz\" at move 3"),
        ("f5 d6 c9".to_string(), "malformed move \"c9\" at move 3"),
        ("f5 pass".to_string(), "illegal move pass at move 2"),
        ("f5 ps".to_string(), "illegal move pass at move 2"),
        ("f5é".to_string(), "malformed move \"é\" at move 2"),
        ("f".to_string(), "malformed move \"f\" at move 1"),
        ("; just a comment".to_string(), "no position"),
    ];
    for (input, message) in cases {
        match Othello::parse_position(&input) {
            Ok(g) => panic!("{input:?} parsed as {g:?}"),
            Err(e) => {
                assert!(
                    e.0.contains(message),
                    "{input:?}: got {:?}, want {message:?}",
                    e.0
                );
                assert!(!e.0.contains('\n'), "multi-line error {:?}", e.0);
            }
        }
    }
    let g = Othello::start();
    for bad in ["", "i1", "a0", "a9", "e4", "pas", "passs", "a1a"] {
        assert!(g.parse_move(bad).is_err(), "{bad:?}");
    }
    assert!(g.parse_move("pass").unwrap_err().0.contains("cannot pass"));
    assert!(g
        .parse_move("d4")
        .unwrap_err()
        .0
        .contains("legal: d3 c4 f5 e6"));
}

#[test]
fn edax_board_variants_and_comments() {
    let a = Othello::parse_position(
        "---------------------------OX------XO--------------------------- X",
    )
    .unwrap();
    assert_eq!(a, Othello::start());
    let b = Othello::parse_position(
        "........ ........ ........ ...ox... ...xo... ........ ........ ........ x ; hi",
    )
    .unwrap();
    assert_eq!(b, Othello::start());
    let c = Othello::parse_position(
        "...........................o*......*o........................... o",
    )
    .unwrap();
    assert_eq!(c.side_to_move(), Side::Second);
    assert_eq!(c.disc_counts(), (2, 2));
    assert_ne!(c, a);
    assert_ne!(c.key(), a.key());
}

#[test]
fn moves_and_positions_round_trip() {
    let mut rng = Rng::new(77);
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut g = Othello::start();
        while g.outcome().is_none() {
            let again = Othello::parse_position(&g.to_obf()).unwrap();
            assert_eq!(again, g);
            assert_eq!(again.key(), g.key());
            assert_eq!(format!("{g}"), g.to_obf());
            moves.clear();
            g.legal_moves(&mut moves);
            for &m in &moves {
                let s = g.format_move(m);
                assert_eq!(g.parse_move(&s), Ok(m));
                assert_eq!(g.parse_move(&s.to_uppercase()), Ok(m));
                assert_eq!(OthelloMove::from_name(&s), Some(m));
            }
            g.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        assert!(g.parse_move("pass").is_err());
        assert_eq!(Othello::parse_position(&g.to_obf()).unwrap(), g);
    }
    for sq in 0..64u8 {
        let m = OthelloMove::at(sq);
        assert_eq!(OthelloMove::from_name(&m.to_string()), Some(m));
        assert!(m < OthelloMove::PASS);
    }
    assert_eq!(OthelloMove::at(0).to_string(), "a1");
    assert_eq!(OthelloMove::at(7).to_string(), "h1");
    assert_eq!(OthelloMove::at(8).to_string(), "a2");
    assert_eq!(OthelloMove::at(63).to_string(), "h8");
    assert_eq!(OthelloMove::from_name("PS"), Some(OthelloMove::PASS));
}

#[test]
fn game_end_and_outcome() {
    // Black owns everything but h8, which nobody can take: over, black wins.
    let full = format!("{}- O", "X".repeat(63));
    let g = Othello::parse_position(&full).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    assert!(g.render().contains("game over"));
    // A full board with 32-32 is a draw for either side to move.
    let drawn = format!("{}{} X", "XO".repeat(16), "OX".repeat(16));
    let g = Othello::parse_position(&drawn).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    // One empty square, a1, that only white can fill (outflanking b1
    // against c1): black must pass, then white fills the board.
    let pass = format!("-XO{} X", "X".repeat(61));
    let mut g = Othello::parse_position(&pass).unwrap();
    assert_eq!(g.outcome(), None);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert_eq!(moves, [OthelloMove::PASS]);
    assert!(g.render().contains("must pass"));
    g.play(OthelloMove::PASS);
    assert_eq!(g.side_to_move(), Side::Second);
    moves.clear();
    g.legal_moves(&mut moves);
    assert_eq!(moves, [OthelloMove::at(0)]);
    g.play(moves[0]);
    assert_eq!(g.disc_counts(), (61, 3));
    assert_eq!(g.outcome(), Some(Outcome::Win));
}

/// No game ends before ply 9, some end exactly there, and each of those
/// is a finished game by the rules (wiped out or blocked).
#[test]
fn the_shortest_games_take_nine_plies() {
    fn walk(g: &Othello, ply: u32, ended: &mut Vec<Othello>) {
        if g.outcome().is_some() {
            assert_eq!(ply, 9, "game over after {ply} plies: {}", g.render());
            ended.push(*g);
            return;
        }
        if ply == 9 {
            return;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        for m in moves {
            let mut c = *g;
            c.play(m);
            walk(&c, ply + 1, ended);
        }
    }
    let mut ended = Vec::new();
    walk(&Othello::start(), 0, &mut ended);
    assert!(!ended.is_empty());
    for g in &ended {
        assert_eq!(g.empties(), 51);
        assert!(g.render().contains("game over"));
        let flipped =
            Othello::from_discs(g.black(), g.white(), g.side_to_move().opponent()).unwrap();
        assert!(flipped.outcome().is_some());
    }
}

/// Every placement adds exactly one disc, discs never overlap, the side
/// to move alternates, and the key changes with the position.
fn check_random_game(seed: u64, max_plies: usize) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let mut g = Othello::start();
    let mut placements = 0u32;
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if g.outcome().is_some() {
            break;
        }
        moves.clear();
        g.legal_moves(&mut moves);
        prop_assert!(!moves.is_empty());
        prop_assert!(moves.len() == 1 || !moves.contains(&OthelloMove::PASS));
        let m = moves[rng.below(moves.len() as u64) as usize];
        let before = g;
        g.play(m);
        prop_assert_ne!(g.side_to_move(), before.side_to_move());
        if !m.is_pass() {
            placements += 1;
            prop_assert_ne!(g, before);
            prop_assert_ne!(g.key(), before.key());
        }
        prop_assert_eq!(g.black() & g.white(), 0);
        let (b, w) = g.disc_counts();
        prop_assert_eq!(b + w, 4 + placements);
        prop_assert_eq!(g.empties(), 60 - placements);
    }
    Ok(())
}

proptest! {
    #[test]
    fn random_games_keep_the_disc_invariants(seed in any::<u64>(), plies in 0usize..80) {
        check_random_game(seed, plies)?;
    }
}

#[test]
fn keys_of_many_positions_do_not_collide() {
    let mut rng = Rng::new(3);
    let mut seen = std::collections::HashMap::new();
    let mut moves = Vec::new();
    for _ in 0..3000 {
        let mut g = Othello::start();
        while g.outcome().is_none() {
            if let Some(other) = seen.insert(g.key(), g) {
                assert_eq!(other, g, "key collision");
            }
            // The same discs with the other side to move is another position.
            let flipped =
                Othello::from_discs(g.black(), g.white(), g.side_to_move().opponent()).unwrap();
            assert_ne!(flipped.key(), g.key());
            moves.clear();
            g.legal_moves(&mut moves);
            g.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(seen.len() > 100_000);
}
