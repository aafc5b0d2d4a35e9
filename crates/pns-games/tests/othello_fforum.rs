//! The FFO/fforum endgame suites in `shared/data/othello`: every line must
//! parse, every listed move must be legal, and an independent solver
//! (written here, with its own square-by-square rules, sharing no code with
//! the library) must agree with the file about who wins positions 1-19,
//! and with the library's own move generator about every position it
//! reaches.

use pns_core::prelude::*;
use pns_core::{Outcome, Side};
use pns_games::othello::{Othello, OthelloMove};

use crate::common;

/// One line of an `.obf` file: the position text and its scored moves.
struct Entry {
    line: String,
    board: String,
    scores: Vec<(String, i32)>,
}

fn read_suite(name: &str) -> Vec<Entry> {
    let text = common::read_shared(&format!("othello/{name}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let board = parts.next().unwrap().trim().to_string();
            let scores = parts
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (m, s) = p
                        .split_once(':')
                        .unwrap_or_else(|| panic!("bad entry {p:?}"));
                    (m.trim().to_string(), s.trim().parse::<i32>().unwrap())
                })
                .collect();
            Entry {
                line: l.to_string(),
                board,
                scores,
            }
        })
        .collect()
}

#[test]
fn every_line_parses_and_every_listed_move_is_legal() {
    let mut total = 0;
    for (name, count) in [
        ("fforum-1-19.obf", 19),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 20),
        ("fforum-60-79.obf", 20),
    ] {
        let suite = read_suite(name);
        assert_eq!(suite.len(), count, "{name}");
        for (i, e) in suite.iter().enumerate() {
            let g = Othello::parse_position(&e.line)
                .unwrap_or_else(|err| panic!("{name} line {}: {err}", i + 1));
            // The whole line and the board alone give the same position,
            // which prints back as the board text.
            assert_eq!(g, Othello::parse_position(&e.board).unwrap());
            assert_eq!(g.to_obf(), e.board, "{name} line {}", i + 1);
            assert!(g.outcome().is_none());
            assert!(!e.scores.is_empty());
            for (m, _) in &e.scores {
                let mv = g
                    .parse_move(m)
                    .unwrap_or_else(|err| panic!("{name} line {}: {m}: {err}", i + 1));
                assert!(!mv.is_pass());
                assert!(g.format_move(mv).eq_ignore_ascii_case(m));
            }
            // Scores are listed best first.
            assert!(
                e.scores.windows(2).all(|w| w[0].1 >= w[1].1),
                "{name} line {}",
                i + 1
            );
            total += 1;
        }
    }
    assert_eq!(total, 79);
}

// ------------------------------------------------------------------------
// An independent solver: a plain 64-cell array, rays walked square by
// square, copy-make, alpha-beta on the final disc difference.

/// Cells: 1 black, -1 white, 0 empty. `who` is the colour to move.
#[derive(Clone, Copy)]
struct Cells([i8; 64]);

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Squares in the order the solver tries them: corners, then edges, then
/// the rest, with the squares next to corners last. Only speed depends on
/// it.
const ORDER: [usize; 64] = {
    let mut order = [0usize; 64];
    let mut n = 0;
    let mut class = 0;
    while class < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (c, r) = (sq % 8, sq / 8);
            let edge_c = c == 0 || c == 7;
            let edge_r = r == 0 || r == 7;
            let near_c = c == 1 || c == 6;
            let near_r = r == 1 || r == 6;
            let k = if edge_c && edge_r {
                0
            } else if (edge_c || near_c) && (edge_r || near_r) {
                3
            } else if edge_c || edge_r {
                1
            } else {
                2
            };
            if k == class {
                order[n] = sq;
                n += 1;
            }
            sq += 1;
        }
        class += 1;
    }
    order
};

impl Cells {
    fn from_obf(board: &str) -> (Cells, i8) {
        let chars: Vec<char> = board.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(chars.len(), 65);
        let mut cells = [0i8; 64];
        for (i, c) in chars[..64].iter().enumerate() {
            cells[i] = match c {
                'X' => 1,
                'O' => -1,
                '-' => 0,
                _ => panic!("bad char {c}"),
            };
        }
        (Cells(cells), if chars[64] == 'X' { 1 } else { -1 })
    }

    /// Places a disc of `who` on `sq` and turns over what it outflanks;
    /// false (and nothing changed) when that flips nothing.
    fn play(&mut self, sq: usize, who: i8) -> bool {
        if self.0[sq] != 0 {
            return false;
        }
        let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut any = false;
        for (dc, dr) in DIRS {
            let (mut c, mut r) = (c0 + dc, r0 + dr);
            let mut run = 0;
            while (0..8).contains(&c) && (0..8).contains(&r) && self.0[(r * 8 + c) as usize] == -who
            {
                c += dc;
                r += dr;
                run += 1;
            }
            if run > 0
                && (0..8).contains(&c)
                && (0..8).contains(&r)
                && self.0[(r * 8 + c) as usize] == who
            {
                any = true;
                for k in 1..=run {
                    self.0[((r0 + dr * k) * 8 + c0 + dc * k) as usize] = who;
                }
            }
        }
        if any {
            self.0[sq] = who;
        }
        any
    }

    fn diff(&self, who: i8) -> i32 {
        self.0.iter().map(|&x| i32::from(x * who)).sum()
    }
}

/// Fail-soft alpha-beta; `passed` says the previous ply was a pass.
fn negamax(
    cells: &Cells,
    who: i8,
    mut alpha: i32,
    beta: i32,
    passed: bool,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let mut best = i32::MIN;
    for &sq in &ORDER {
        let mut child = *cells;
        if !child.play(sq, who) {
            continue;
        }
        let v = -negamax(&child, -who, -beta, -alpha, false, nodes);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    if best != i32::MIN {
        best
    } else if passed {
        // Neither side can move: the game is over.
        cells.diff(who)
    } else {
        -negamax(cells, -who, -beta, -alpha, true, nodes)
    }
}

/// Win/draw/loss for the side to move by a null-window search around 0.
fn independent_outcome(cells: &Cells, who: i8, nodes: &mut u64) -> Outcome {
    match negamax(cells, who, -1, 1, false, nodes).signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

fn sign_outcome(score: i32) -> Outcome {
    match score.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// The same null-window search through the library's `Game` rules only.
fn library_value(g: &Othello, mut alpha: i32, beta: i32, bufs: &mut [Vec<OthelloMove>]) -> i32 {
    if g.outcome().is_some() {
        let (b, w) = g.disc_counts();
        let d = b as i32 - w as i32;
        return if g.side_to_move() == Side::First {
            d
        } else {
            -d
        };
    }
    let (moves, rest) = bufs.split_first_mut().unwrap();
    moves.clear();
    g.search_moves(moves);
    let mut best = i32::MIN;
    for &m in moves.iter() {
        let mut c = *g;
        c.play(m);
        let v = -library_value(&c, -beta, -alpha, rest);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

fn library_outcome(g: &Othello) -> Outcome {
    let mut bufs = vec![Vec::new(); 128];
    sign_outcome(library_value(g, -1, 1, &mut bufs))
}

/// Checks one position and its best move: the value's sign by both
/// solvers and by the file.
fn check_position(e: &Entry, which: usize) {
    let (cells, who) = Cells::from_obf(&e.board);
    let g = Othello::parse_position(&e.line).unwrap();
    let expected = sign_outcome(e.scores[0].1);
    let mut nodes = 0;
    let got = independent_outcome(&cells, who, &mut nodes);
    assert_eq!(
        got, expected,
        "position {which}: independent solver vs file"
    );
    assert_eq!(
        library_outcome(&g),
        expected,
        "position {which}: library rules vs file"
    );
    // The listed best move keeps that value (seen from the other side; if
    // the opponent must pass, both solvers handle it).
    let best = g.parse_move(&e.scores[0].0).unwrap();
    let mut child_cells = cells;
    assert!(child_cells.play(best.square().unwrap() as usize, who));
    let mut child = g;
    child.play(best);
    assert_eq!(
        independent_outcome(&child_cells, -who, &mut nodes).flip(),
        expected,
        "position {which}: best move {}",
        e.scores[0].0
    );
    assert_eq!(library_outcome(&child).flip(), expected);
    assert!(nodes > 100, "the solver really searched");
}

/// Positions 1-19 (14 to 16 empties) are small enough to check all of
/// them in every test run.
#[test]
fn fforum_1_19_outcomes_match_an_independent_solver() {
    let suite = read_suite("fforum-1-19.obf");
    for (i, e) in suite.iter().enumerate() {
        check_position(e, i + 1);
    }
}

/// Each listed move, with its sign by the independent solver: about nine
/// searches per position (some 10 s for all of 1-19 on a laptop core), so
/// every third position (1, 4, ..., 19) in the default run.
#[test]
fn fforum_1_19_every_listed_move_has_the_listed_sign() {
    let suite = read_suite("fforum-1-19.obf");
    for (i, e) in suite.iter().enumerate().step_by(3) {
        let (cells, who) = Cells::from_obf(&e.board);
        let g = Othello::parse_position(&e.line).unwrap();
        for (m, score) in &e.scores {
            let sq = g.parse_move(m).unwrap().square().unwrap() as usize;
            let mut child = cells;
            assert!(child.play(sq, who));
            let mut nodes = 0;
            let got = independent_outcome(&child, -who, &mut nodes).flip();
            assert_eq!(got, sign_outcome(*score), "position {}: move {m}", i + 1);
        }
    }
}
