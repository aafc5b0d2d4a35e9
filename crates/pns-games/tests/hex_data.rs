//! The external Hex test data in shared/data/hex parses, and the readers
//! reject malformed files.

use std::collections::HashMap;

use pns_core::prelude::*;
use pns_core::{Outcome, Side};
use pns_games::hex::{read_benzene_tst, read_openings, Hex, BLACK, WHITE};
use pns_games::TestFormat;

use crate::common;

fn data(name: &str) -> String {
    common::read_shared(&format!("hex/{name}"))
}

/// The single stone's cell name.
fn opening(g: &Hex) -> String {
    assert_eq!(g.stone_count(), 1, "{g}");
    let c = g.cells_of(g.stones(BLACK)).next().unwrap();
    g.format_cell(c)
}

#[test]
fn all_four_benzene_files_parse_into_one_black_stone_positions() {
    for (file, w, h, n) in [
        ("dfpn-solve-6x6.tst", 6, 6, 36),
        ("dfs-solve-7x7.tst", 7, 7, 49),
        ("dfs-solve-6x7.tst", 6, 7, 42),
        ("dfpn-solve-8x8.tst", 8, 8, 32),
    ] {
        let cases = read_benzene_tst(&data(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(cases.len(), n, "{file}");
        let mut cells = Vec::new();
        for (g, _) in &cases {
            assert_eq!((g.width(), g.height()), (w, h), "{file}");
            assert_eq!(g.side_to_move(), WHITE, "{file} {g}");
            assert!(g.outcome().is_none());
            cells.push(opening(g));
        }
        // Openings in file order: a1, a2, …, then b1, …
        assert_eq!(cells[0], "a1", "{file}");
        assert_eq!(cells[1], "a2", "{file}");
        let mut sorted = cells.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), n, "{file}: each opening once");
    }
    // 6x7: White (6 columns to cross) wins every opening.
    let rect = read_benzene_tst(&data("dfs-solve-6x7.tst")).unwrap();
    assert!(rect.iter().all(|(_, w)| *w == WHITE));
    assert_eq!(rect[0].0.to_string(), "6x7 a1");
}

#[test]
fn openings_file_parses_and_agrees_with_the_benzene_files() {
    let openings = read_openings(&data("openings-winner.txt")).unwrap();
    assert_eq!(openings.len(), 16 + 25 + 36 + 49);
    let table: HashMap<String, Side> = openings
        .iter()
        .map(|(g, w)| (format!("{} {}", g.width(), opening(g)), *w))
        .collect();
    // Exactly the short diagonal wins for Black on 4x4.
    let mut black4: Vec<&str> = table
        .iter()
        .filter(|(k, w)| k.starts_with("4 ") && **w == BLACK)
        .map(|(k, _)| &k[2..])
        .collect();
    black4.sort();
    assert_eq!(black4, ["a4", "b3", "c2", "d1"]);
    // 180° rotation maps each opening to one with the same winner.
    for (g, w) in &openings {
        let n = g.width();
        let (x, y) = g.coords(g.cells_of(g.stones(BLACK)).next().unwrap());
        let (x, y) = (n - 1 - x, n - 1 - y);
        let rotated = g.format_cell(g.cell(x, y).unwrap());
        assert_eq!(table[&format!("{n} {rotated}")], *w, "{g} vs {rotated}");
    }
    for file in ["dfpn-solve-6x6.tst", "dfs-solve-7x7.tst"] {
        for (g, w) in read_benzene_tst(&data(file)).unwrap() {
            assert_eq!(
                table[&format!("{} {}", g.width(), opening(&g))],
                w,
                "{file} {g}"
            );
        }
    }
}

#[test]
fn readers_handle_undo_ids_and_reject_bad_lines() {
    let ok = "boardsize 5 5\nplay b c3\nplay w a1\nundo\nplay w b2\n\
              7 dfpn-solve-state black\n# a comment\n#? [black]\n\
              undo\ndfs-solve-state\n#? [WHITE]\nparam_x 1\nclear_board\nplay black a1\n";
    let cases = read_benzene_tst(ok).unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].0, Hex::parse_position("5 c3 b2").unwrap());
    assert_eq!(cases[0].1, BLACK);
    assert_eq!(cases[1].0, Hex::parse_position("5 c3").unwrap());
    assert_eq!(cases[1].1, WHITE);

    let bad = [
        ("play b a1\n", "line 1", "boardsize"),
        ("boardsize 12 12\n", "line 1", "'12x12'"),
        ("boardsize 5 5\nplay w a1\n", "line 2", "out of turn"),
        ("boardsize 5 5\nplay b f1\n", "line 2", "'f1'"),
        (
            "boardsize 5 5\nplay b a1\nplay w a1\n",
            "line 3",
            "occupied",
        ),
        ("boardsize 5 5\nundo\n", "line 2", "undo"),
        ("boardsize 5 5\n#? [black]\n", "line 2", "without a solve"),
        (
            "boardsize 5 5\nplay b a1\n#? [white]\n",
            "line 3",
            "without a solve",
        ),
        (
            "boardsize 5 5\ndfpn-solve-state white\n",
            "line 2",
            "Black is to move",
        ),
        (
            "boardsize 5 5\ndfs-solve-state\n#? [draw]\n",
            "line 3",
            "draw",
        ),
        ("boardsize 5 5\nvc-build black\n", "line 2", "'vc-build'"),
        ("boardsize 5 5\nplay b a1 a2\n", "line 2", "play"),
    ];
    for (text, line, token) in bad {
        let e = read_benzene_tst(text).expect_err(text);
        assert!(e.0.contains(line) && e.0.contains(token), "{text:?} -> {e}");
    }

    let openings = read_openings("# c\n\n5 c3 black\n6x7 a1 white\n").unwrap();
    assert_eq!(openings.len(), 2);
    assert_eq!(openings[1].0.height(), 7);
    for (text, token) in [
        ("5 c3\n", "line 1"),
        ("5 c3 grey\n", "'grey'"),
        ("5 z3 black\n", "'z3'"),
        ("13 a1 black\n", "'13'"),
    ] {
        let e = read_openings(text).expect_err(text);
        assert!(e.0.contains(token), "{text:?} -> {e}");
    }
}

#[test]
fn openings_lines_are_a_test_format_for_the_side_to_move() {
    let text = data("openings-winner.txt");
    let mut n = 0;
    for line in text.lines() {
        let Some(t) = Hex::parse_test_line(line).unwrap() else {
            continue;
        };
        n += 1;
        let g = Hex::parse_position(&t.position).unwrap();
        // After Black's opening White is to move: "white" is a win for it.
        let want = if line.ends_with("white") {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        assert_eq!(t.expected, Some(want), "{line}");
        assert_eq!(g.stone_count(), 1);
    }
    assert_eq!(n, 126);
    let t = Hex::parse_test_line("5 c3 d4 win").unwrap().unwrap();
    assert_eq!(
        (t.position.as_str(), t.expected),
        ("5 c3 d4", Some(Outcome::Win))
    );
    assert!(Hex::parse_test_line("# comment").unwrap().is_none());
    assert!(Hex::parse_test_line("5 z9 black").is_err());
}

#[test]
#[should_panic(expected = "shared/data/no/such/file (the tests read the folder shared/data beside")]
fn missing_test_data_fails_naming_the_path() {
    common::shared_data("no/such/file");
}
