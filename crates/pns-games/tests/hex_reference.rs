//! Hex checked against an independent reference written here: a plain grid
//! board with a depth-first connection check and a brute-force negamax
//! solver with a `HashMap` memo. Nothing below the "reference" heading uses
//! library code.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use pns_core::prelude::*;
use pns_core::{Outcome, Rng, Side};
use pns_games::hex::{read_openings, Hex};
use proptest::prelude::*;

use crate::common;

// ------------------------------------------------------------- reference

/// 0 empty, 1 Black, 2 White; `cells[y * w + x]`.
#[derive(Clone, PartialEq, Eq, Hash)]
struct RefBoard {
    w: usize,
    h: usize,
    cells: Vec<u8>,
}

impl RefBoard {
    fn new(w: usize, h: usize) -> Self {
        RefBoard {
            w,
            h,
            cells: vec![0; w * h],
        }
    }

    fn neighbours(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for (dx, dy) in [(1i32, 0i32), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            if nx >= 0 && ny >= 0 && (nx as usize) < self.w && (ny as usize) < self.h {
                v.push((nx as usize, ny as usize));
            }
        }
        v
    }

    /// Black (1) joins the first and last rows; White (2) the first and last
    /// columns.
    fn connected(&self, colour: u8) -> bool {
        let mut seen = vec![false; self.w * self.h];
        let mut stack = Vec::new();
        let starts: Vec<(usize, usize)> = if colour == 1 {
            (0..self.w).map(|x| (x, 0)).collect()
        } else {
            (0..self.h).map(|y| (0, y)).collect()
        };
        for (x, y) in starts {
            if self.cells[y * self.w + x] == colour {
                seen[y * self.w + x] = true;
                stack.push((x, y));
            }
        }
        while let Some((x, y)) = stack.pop() {
            if (colour == 1 && y == self.h - 1) || (colour == 2 && x == self.w - 1) {
                return true;
            }
            for (nx, ny) in self.neighbours(x, y) {
                let i = ny * self.w + nx;
                if !seen[i] && self.cells[i] == colour {
                    seen[i] = true;
                    stack.push((nx, ny));
                }
            }
        }
        false
    }

    fn to_move(&self) -> u8 {
        let b = self.cells.iter().filter(|&&c| c == 1).count();
        let w = self.cells.iter().filter(|&&c| c == 2).count();
        if b == w {
            1
        } else {
            2
        }
    }

    /// Plays "c3"-style cells alternately from the empty board.
    fn from_moves(w: usize, h: usize, moves: &[&str]) -> Self {
        let mut b = RefBoard::new(w, h);
        for m in moves {
            let x = (m.as_bytes()[0] - b'a') as usize;
            let y: usize = m[1..].parse::<usize>().unwrap() - 1;
            let c = b.to_move();
            assert_eq!(b.cells[y * w + x], 0);
            b.cells[y * w + x] = c;
        }
        b
    }
}

/// Whether the side to move wins, by plain negamax.
fn ref_solve(b: &mut RefBoard, memo: &mut HashMap<Vec<u8>, bool>) -> bool {
    let me = b.to_move();
    // The previous mover may have won.
    if b.connected(3 - me) {
        return false;
    }
    if let Some(&v) = memo.get(&b.cells) {
        return v;
    }
    let mut win = false;
    for i in 0..b.cells.len() {
        if b.cells[i] == 0 {
            b.cells[i] = me;
            let child = ref_solve(b, memo);
            b.cells[i] = 0;
            if !child {
                win = true;
                break;
            }
        }
    }
    memo.insert(b.cells.clone(), win);
    win
}

fn ref_winner(w: usize, h: usize, moves: &[&str]) -> Side {
    let mut b = RefBoard::from_moves(w, h, moves);
    let me = b.to_move();
    let wins = ref_solve(&mut b, &mut HashMap::new());
    match (me, wins) {
        (1, true) | (2, false) => Side::First,
        _ => Side::Second,
    }
}

// ------------------------------------------------- library-rules negamax

/// Whether the side to move wins, by the shared negamax oracle over the
/// library's rules (`outcome`, `legal_moves`, `play`), memoised on the
/// library's `Eq`/`Hash`.
fn lib_solve(g: &Hex, memo: &mut HashMap<Hex, Outcome>) -> bool {
    common::negamax_memo(g, memo) == Outcome::Win
}

fn lib_winner(g: &Hex, memo: &mut HashMap<Hex, Outcome>) -> Side {
    if lib_solve(g, memo) {
        g.side_to_move()
    } else {
        g.side_to_move().opponent()
    }
}

/// Checks the search hooks against exact values on every position in
/// `memo` (and their children): `known_outcome` is never wrong, and
/// `search_moves` is a non-empty subset of the legal moves that contains a
/// winning move whenever the side to move wins.
fn check_hooks(memo: &mut HashMap<Hex, Outcome>) -> usize {
    let positions: Vec<(Hex, bool)> = memo.iter().map(|(k, v)| (*k, *v == Outcome::Win)).collect();
    for (g, wins) in &positions {
        let exact = if *wins { Outcome::Win } else { Outcome::Loss };
        if let Some(o) = g.known_outcome() {
            assert_eq!(o, exact, "known_outcome wrong at {g}");
        }
        let (mut legal, mut search) = (Vec::new(), Vec::new());
        g.legal_moves(&mut legal);
        g.search_moves(&mut search);
        assert!(!search.is_empty(), "{g}");
        assert!(search.iter().all(|m| legal.contains(m)), "{g}");
        if *wins {
            let best_listed = search.iter().any(|&m| {
                let mut c = *g;
                c.play(m);
                !lib_solve(&c, memo)
            });
            assert!(best_listed, "search_moves drops every winning move at {g}");
        }
        check_certificate_hooks(g, *wins, memo);
        for ctx_attacker in [Side::First, Side::Second] {
            let ctx = pns_core::GoalContext {
                attacker: ctx_attacker,
                goal: pns_core::Goal::Win,
            };
            let (pn, dn) = g.heuristic(ctx);
            assert!(pn >= 1 && dn >= 1, "{g}");
        }
    }
    positions.len()
}

/// The certificate hooks against exact values at `g` (where the side to
/// move wins exactly when `wins`), for both players as the prover: a claim
/// is accepted by the rules-only check and only made for the winner; a
/// concession never turns a loss of the prover into a win (Hex is
/// monotone), whether the analysis suggested it or it is one random cell;
/// a fill the rules accept never does either, whether the analysis
/// suggested it or it is a random cell or pair of cells; and a claim moved
/// to a position where the opponent has one more stone is accepted only if
/// the prover still wins there.
static CLAIMS: AtomicUsize = AtomicUsize::new(0);
static CONCESSIONS: AtomicUsize = AtomicUsize::new(0);
static FILLS: AtomicUsize = AtomicUsize::new(0);
static RANDOM_FILLS: AtomicUsize = AtomicUsize::new(0);
/// Claims checked again after an extra opponent stone: rejected, accepted.
static MOVED_CLAIMS: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

fn check_certificate_hooks(g: &Hex, wins: bool, memo: &mut HashMap<Hex, Outcome>) {
    // Subsample: the claim search and the solves below are not free.
    if !g.key().is_multiple_of(5) {
        return;
    }
    let winner = if wins {
        g.side_to_move()
    } else {
        g.side_to_move().opponent()
    };
    for prover in [Side::First, Side::Second] {
        if let Some(w) = g.claim(prover) {
            assert_eq!(prover, winner, "claim for the loser at {g}: {w}");
            g.check_claim(prover, &w)
                .unwrap_or_else(|e| panic!("own claim rejected at {g}: {w}: {e}"));
            CLAIMS.fetch_add(1, Ordering::Relaxed);
            // The same text where the opponent has one more stone: the
            // checker must accept it only where the prover still wins.
            let mut empty = Vec::new();
            g.legal_moves(&mut empty);
            for &z in &empty {
                let mut c = *g;
                c.concede(prover.opponent(), z).unwrap();
                if c.outcome().is_some() || c.check_claim(prover, &w).is_err() {
                    MOVED_CLAIMS[0].fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                MOVED_CLAIMS[1].fetch_add(1, Ordering::Relaxed);
                let prover_wins = lib_solve(&c, memo) == (c.side_to_move() == prover);
                assert!(
                    prover_wins,
                    "claim {w} accepted at {c}, which the prover loses"
                );
            }
        }
        let mut suggested = Vec::new();
        g.concessions(prover, &mut suggested);
        CONCESSIONS.fetch_add(!suggested.is_empty() as usize, Ordering::Relaxed);
        let mut one = Vec::new();
        g.legal_moves(&mut one);
        one.truncate(1 + (g.key() >> 8) as usize % one.len().max(1));
        let one = one.last().copied();
        for cells in [suggested, one.into_iter().collect()] {
            if cells.is_empty() {
                continue;
            }
            let mut c = *g;
            for &m in &cells {
                // Conceding the opponent's captured cells may join its
                // edges: then the game is over and the prover has lost.
                if c.outcome().is_some() {
                    break;
                }
                c.concede(prover.opponent(), m).unwrap();
            }
            assert_eq!(c.side_to_move(), g.side_to_move());
            let prover_wins_after = lib_solve(&c, memo) == (c.side_to_move() == prover);
            assert!(
                !prover_wins_after || winner == prover,
                "conceding {cells:?} made {prover:?} win at {g}"
            );
        }
        check_fills(g, prover, winner, memo);
    }
}

/// Fills for `prover` at `g` (won by `winner`): the suggested one must be
/// accepted, and no accepted one may make `prover` win a lost position.
fn check_fills(g: &Hex, prover: Side, winner: Side, memo: &mut HashMap<Hex, Outcome>) {
    let mut witnesses = Vec::new();
    if let Some(w) = g.fill_witness(prover) {
        witnesses.push((w, true));
    }
    // A random empty cell, alone and with each empty neighbour.
    let mut empty = Vec::new();
    g.legal_moves(&mut empty);
    if let Some(&x) = empty.get((g.key() >> 16) as usize % empty.len().max(1)) {
        let name = g.format_move(x);
        witnesses.push((format!("{{{name}}}"), false));
        for &y in &empty {
            witnesses.push((format!("{{{name}{}}}", g.format_move(y)), false));
        }
    }
    for (w, suggested) in witnesses {
        let mut c = *g;
        match c.fill(prover, &w) {
            Ok(()) => {}
            Err(_) if !suggested => {
                assert_eq!(c, *g, "a rejected fill changed the position");
                continue;
            }
            Err(e) => panic!("own fill {w} rejected at {g}: {e}"),
        }
        let counter = if suggested { &FILLS } else { &RANDOM_FILLS };
        counter.fetch_add(1, Ordering::Relaxed);
        assert_eq!(c.side_to_move(), g.side_to_move());
        let prover_wins_after = lib_solve(&c, memo) == (c.side_to_move() == prover);
        assert!(
            !prover_wins_after || winner == prover,
            "the fill {w} made {prover:?} win at {g}"
        );
    }
}

fn openings_file() -> String {
    common::read_shared("hex/openings-winner.txt")
}

// ------------------------------------------------------------------ tests

#[test]
fn reference_solver_agrees_with_benzene_on_every_4x4_opening() {
    let text = openings_file();
    let mut n = 0;
    let mut memo = HashMap::new();
    for line in text.lines().filter(|l| l.starts_with("4 ")) {
        let t: Vec<&str> = line.split_whitespace().collect();
        let expected = if t[2] == "black" {
            Side::First
        } else {
            Side::Second
        };
        let mut b = RefBoard::from_moves(4, 4, &[t[1]]);
        let wins = ref_solve(&mut b, &mut memo);
        // After Black's opening White is to move.
        let got = if wins { Side::Second } else { Side::First };
        assert_eq!(got, expected, "4x4 opening {}", t[1]);
        n += 1;
    }
    assert_eq!(n, 16);
}

#[test]
fn library_rules_and_hooks_give_benzene_results_on_4x4() {
    let all = read_openings(&openings_file()).unwrap();
    let four: Vec<_> = all.iter().filter(|(g, _)| g.width() == 4).collect();
    assert_eq!(four.len(), 16);
    let mut memo = HashMap::new();
    for (g, expected) in four {
        assert_eq!(lib_winner(g, &mut memo), *expected, "4x4 {g}");
    }
    let checked = check_hooks(&mut memo);
    assert!(checked > 1000, "only {checked} positions checked");
    // The empty 4x4 board is a first-player win.
    let empty = Hex::new(4).unwrap();
    assert_eq!(lib_winner(&empty, &mut memo), Side::First);
}

#[test]
fn every_3x3_and_2x2_opening_agrees_between_library_and_reference() {
    for n in [2usize, 3] {
        let mut memo = HashMap::new();
        let mut black_wins = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let cell = format!("{}{}", (b'a' + x as u8) as char, y + 1);
                let reference = ref_winner(n, n, &[&cell]);
                let g = Hex::parse_position(&format!("{n} {cell}")).unwrap();
                assert_eq!(lib_winner(&g, &mut memo), reference, "{n}x{n} {cell}");
                if reference == Side::First {
                    black_wins.push(cell);
                }
            }
        }
        check_hooks(&mut memo);
        // Hand-checkable facts: on 2x2 only the short diagonal (a2, b1)
        // wins; on 3x3 the centre and the short diagonal win.
        if n == 2 {
            assert_eq!(black_wins, ["b1", "a2"]);
        } else {
            assert!(black_wins.contains(&"b2".to_string()), "{black_wins:?}");
            assert!(black_wins.contains(&"c1".to_string()), "{black_wins:?}");
            assert!(black_wins.contains(&"a3".to_string()), "{black_wins:?}");
            assert!(!black_wins.contains(&"a1".to_string()), "{black_wins:?}");
        }
    }
}

#[test]
fn hooks_are_exact_on_random_5x5_and_6x6_middle_games() {
    // Positions with at most 14 empty cells solve quickly by brute force;
    // every position the solver visits is then checked (`check_hooks`).
    let mut rng = Rng::new(2718);
    let mut checked = 0;
    for (n, stones) in [(5usize, 11u64), (6, 22)] {
        let mut memo = HashMap::new();
        for _ in 0..40 {
            let g = Hex::new(n)
                .unwrap()
                .random_walk(stones + rng.below(4), &mut rng);
            lib_solve(&g, &mut memo);
        }
        checked += check_hooks(&mut memo);
    }
    assert!(checked > 10_000, "only {checked} positions checked");
    // The certificate hooks had something to say (other tests add to the
    // counts, so these are lower bounds from this one).
    let [claims, concessions, fills, random_fills] =
        [&CLAIMS, &CONCESSIONS, &FILLS, &RANDOM_FILLS].map(|c| c.load(Ordering::Relaxed));
    assert!(
        claims > 200 && concessions > 200 && fills > 100 && random_fills > 100,
        "{claims} claims, {concessions} concessions, {fills} fills, {random_fills} random fills"
    );
    let [rejected, accepted] = [0, 1].map(|i| MOVED_CLAIMS[i].load(Ordering::Relaxed));
    assert!(
        rejected > 1000 && accepted > 1000,
        "moved claims: {rejected} rejected, {accepted} accepted"
    );
}

#[test]
fn rectangles_favour_the_side_with_the_shorter_crossing() {
    // Benzene's 6x7 file (6 columns, 7 rows) says White wins every
    // opening: White crosses 6 columns, Black 7 rows. Same orientation on
    // small rectangles, by brute force with both implementations.
    for (w, h) in [(2usize, 3usize), (3, 4)] {
        let mut memo = HashMap::new();
        let g = Hex::with_dims(w, h).unwrap();
        assert_eq!(lib_winner(&g, &mut memo), Side::Second, "{w}x{h}");
        assert_eq!(ref_winner(w, h, &[]), Side::Second, "{w}x{h}");
        check_hooks(&mut memo);
        // Transposed, Black has the short crossing and moves first.
        let t = Hex::with_dims(h, w).unwrap();
        assert_eq!(lib_winner(&t, &mut HashMap::new()), Side::First, "{h}x{w}");
    }
}

#[test]
fn library_win_detection_matches_reference_on_random_games() {
    let mut rng = Rng::new(11);
    for (w, h) in [
        (2, 2),
        (3, 3),
        (5, 5),
        (6, 7),
        (8, 8),
        (11, 11),
        (11, 2),
        (2, 11),
    ] {
        for _ in 0..200 {
            let mut g = Hex::with_dims(w, h).unwrap();
            let mut r = RefBoard::new(w, h);
            let mut moves = Vec::new();
            while g.outcome().is_none() {
                moves.clear();
                g.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                let (x, y) = g.coords(m);
                r.cells[y * w + x] = r.to_move();
                g.play(m);
                let expected = if r.connected(1) {
                    Some(Side::First)
                } else if r.connected(2) {
                    Some(Side::Second)
                } else {
                    None
                };
                assert_eq!(g.winner(), expected, "{g}");
            }
        }
    }
}

#[test]
fn dead_cells_never_decide_a_filled_board() {
    // A dead cell's colour must not matter for any filling of the other
    // empty cells. Random positions, many random fillings each.
    let mut rng = Rng::new(77);
    let mut dead_seen = 0;
    for (w, h) in [(3, 3), (4, 4), (5, 5), (6, 6), (4, 6), (11, 11)] {
        for _ in 0..3000 {
            let stones = rng.below((w * h) as u64 * 3 / 4);
            let g = Hex::with_dims(w, h).unwrap().random_walk(stones, &mut rng);
            let dead = g.dead_cells();
            if dead == 0 {
                continue;
            }
            let mut base = RefBoard::new(w, h);
            for i in 0..w * h {
                let c = g.cell(i % w, i / w).unwrap();
                base.cells[i] = match g.stone(c) {
                    Some(Side::First) => 1,
                    Some(Side::Second) => 2,
                    None => 0,
                };
            }
            for dc in g.cells_of(dead) {
                let (x, y) = g.coords(dc);
                let d = y * w + x;
                dead_seen += 1;
                assert_eq!(base.cells[d], 0);
                for _ in 0..20 {
                    let mut b = base.clone();
                    for i in 0..w * h {
                        if b.cells[i] == 0 && i != d {
                            b.cells[i] = 1 + rng.below(2) as u8;
                        }
                    }
                    b.cells[d] = 1;
                    let with_black = b.connected(1);
                    b.cells[d] = 2;
                    assert_eq!(b.connected(1), with_black, "{g}: dead cell {d} decides");
                }
            }
        }
    }
    assert!(dead_seen > 500, "only {dead_seen} dead cells tested");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// In a random complete game (all cells filled alternately) exactly one
    /// side connects, and it is the side the library declares the winner
    /// when the same moves are played one by one, stopping at the first
    /// connection.
    #[test]
    fn filled_board_winner_is_the_first_to_connect(
        w in 2usize..=11, h in 2usize..=11, seed in any::<u64>(), square in any::<bool>()
    ) {
        let h = if square { w } else { h };
        let mut order: Vec<usize> = (0..w * h).collect();
        Rng::new(seed).shuffle(&mut order);

        let mut full = RefBoard::new(w, h);
        for (k, &i) in order.iter().enumerate() {
            full.cells[i] = if k % 2 == 0 { 1 } else { 2 };
        }
        let (b, wh) = (full.connected(1), full.connected(2));
        prop_assert!(b != wh, "black {} white {}", b, wh);
        let filled_winner = if b { Side::First } else { Side::Second };

        let mut g = Hex::with_dims(w, h).unwrap();
        let mut played = 0;
        for &i in &order {
            if g.winner().is_some() {
                break;
            }
            let c = g.cell(i % w, i / w).unwrap();
            g.play(c);
            played += 1;
        }
        prop_assert_eq!(g.winner(), Some(filled_winner));
        prop_assert_eq!(g.outcome(), Some(Outcome::Loss));
        prop_assert_eq!(g.stone_count(), played);
        // The position notation reaches the same position again.
        let again = Hex::parse_position(&g.to_string()).unwrap();
        prop_assert_eq!(again, g);
        prop_assert_eq!(again.key(), g.key());
    }
}
