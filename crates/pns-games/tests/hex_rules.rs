//! Hex rules, notation, errors, move order and playouts on hand-made
//! positions.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use pns_core::prelude::*;
use pns_core::{Goal, GoalContext, Outcome, Rng, Side};
use pns_games::hex::{Analysis, Cell, Hex, BLACK, WHITE};

fn pos(s: &str) -> Hex {
    Hex::parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn cell(g: &Hex, name: &str) -> Cell {
    g.parse_cell(name).unwrap()
}

/// Names of the cells in a bitboard.
fn names(g: &Hex, bits: u128) -> Vec<String> {
    g.cells_of(bits).map(|c| g.format_cell(c)).collect()
}

fn hash_of(g: &Hex) -> u64 {
    let mut h = DefaultHasher::new();
    g.hash(&mut h);
    h.finish()
}

fn legal(g: &Hex) -> Vec<Cell> {
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    v
}

fn search(g: &Hex) -> Vec<Cell> {
    let mut v = Vec::new();
    g.search_moves(&mut v);
    v
}

#[test]
fn adjacency_follows_benzene_coordinates() {
    let g = Hex::new(4).unwrap();
    let mut n = names(&g, g.neighbours(cell(&g, "b2")));
    n.sort();
    // (x±1, y), (x, y±1), (x+1, y−1), (x−1, y+1).
    assert_eq!(n, ["a2", "a3", "b1", "b3", "c1", "c2"]);
    let mut n = names(&g, g.neighbours(cell(&g, "a1")));
    n.sort();
    assert_eq!(n, ["a2", "b1"]);
    let mut n = names(&g, g.neighbours(cell(&g, "d1")));
    n.sort();
    assert_eq!(n, ["c1", "c2", "d2"]);
    // The short diagonal a4-b3-c2-d1 is a chain; the long one is not.
    for (a, b) in [("a4", "b3"), ("b3", "c2"), ("c2", "d1")] {
        assert!(g.neighbours(cell(&g, a)) & cell(&g, b).index_bit() != 0);
    }
    assert_eq!(g.neighbours(cell(&g, "a1")) & cell(&g, "b2").index_bit(), 0);
    // 2x2: a2 and b1 touch, a1 and b2 do not.
    let g = Hex::new(2).unwrap();
    assert_eq!(names(&g, g.neighbours(cell(&g, "a2"))), ["a1", "b1", "b2"]);
    assert_eq!(names(&g, g.neighbours(cell(&g, "a1"))), ["b1", "a2"]);
    // 11x11 corners and the far edge.
    let g = Hex::new(11).unwrap();
    assert_eq!(names(&g, g.neighbours(cell(&g, "k11"))), ["k10", "j11"]);
    assert_eq!(
        names(&g, g.neighbours(cell(&g, "a11"))),
        ["a10", "b10", "b11"]
    );
    assert_eq!(
        names(&g, g.neighbours(cell(&g, "k5"))),
        ["k4", "j5", "j6", "k6"]
    );
}

trait IndexBit {
    fn index_bit(self) -> u128;
}

impl IndexBit for Cell {
    fn index_bit(self) -> u128 {
        1u128 << self.index()
    }
}

#[test]
fn win_detection_on_hand_made_boards() {
    // 2x2: Black a1 then a2 joins rows 1 and 2.
    let g = pos("2 a1 b1 a2");
    assert_eq!(g.winner(), Some(BLACK));
    assert_eq!(g.outcome(), Some(Outcome::Loss));
    assert_eq!(g.side_to_move(), WHITE);
    // 2x2: White b1-a2 joins columns a and b.
    let g = pos("2 a1 b1 b2 a2");
    assert_eq!(g.winner(), Some(WHITE));
    // 4x4: the short diagonal wins for Black, the long one does not.
    let short = "4 a4 a1 b3 a2 c2 a3 d1";
    assert_eq!(pos(short).winner(), Some(BLACK));
    assert_eq!(pos("4 a4 a1 b3 a2 c2 a3").winner(), None);
    let long = pos("4 a1 a2 b2 a3 c3 b4 d4");
    assert_eq!(long.winner(), None);
    // 11x11: Black down column f; White along row 6 loses the race.
    let mut s = String::from("11");
    for r in 1..=11 {
        s.push_str(&format!(" f{r}"));
        if r < 11 {
            s.push_str(&format!(" a{r}"));
        }
    }
    let g = pos(&s);
    assert_eq!(g.winner(), Some(BLACK));
    assert_eq!(g.stone_count(), 21);
    // 11x11: White along row 6 while Black fills row 1.
    let mut s = String::from("11");
    for c in b'a'..=b'k' {
        s.push_str(&format!(" {}1 {}6", c as char, c as char));
    }
    let g = pos(&s);
    assert_eq!(g.winner(), Some(WHITE));
    assert_eq!(g.stone_count(), 22);
    let before = pos(&s[..s.len() - 3]);
    assert_eq!(before.winner(), None);
    // A long chain with branches on 11x11 joins only with its last stone.
    let s = "11 a1 k1 a2 k2 b2 k3 c1 k4 d1 k5 d2 k6 d3 k7 d4 k8 d5 k9 d6 k10 \
             d7 j11 d8 j10 d9 j9 d10 j8";
    assert_eq!(pos(s).winner(), None);
    assert_eq!(pos(&format!("{s} d11")).winner(), Some(BLACK));
}

#[test]
fn known_outcome_and_forced_replies() {
    // 3x3, Black b1-a2 (adjacent) touches row 1; only a3 reaches row 3.
    let g = pos("3 b1 c1 a2 c2");
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(names(&g, g.winning_cells(BLACK)), ["a3"]);
    assert_eq!(g.known_outcome(), Some(Outcome::Win));
    assert_eq!(g.distance(BLACK), 1);
    // White to move against one threat: not lost yet, and the block is the
    // only move worth searching.
    let g = pos("3 b1 c1 a2");
    assert_eq!(g.side_to_move(), WHITE);
    assert_eq!(g.known_outcome(), None);
    assert_eq!(
        search(&g)
            .iter()
            .map(|&m| g.format_move(m))
            .collect::<Vec<_>>(),
        ["a3"]
    );
    // Black b1-b2 threatens a3 and b3: White (no win of its own) is lost.
    let g = pos("3 b1 a1 b2");
    assert_eq!(names(&g, g.winning_cells(BLACK)), ["a3", "b3"]);
    assert_eq!(g.winning_cells(WHITE), 0);
    assert_eq!(g.known_outcome(), Some(Outcome::Loss));
    // With Black to move instead, it is a win and only the winning cells
    // are listed.
    let g = pos("4 b1 a1 b2 a2 b3 a3");
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.known_outcome(), Some(Outcome::Win));
    assert_eq!(
        search(&g)
            .iter()
            .map(|&m| g.format_move(m))
            .collect::<Vec<_>>(),
        ["a4", "b4"]
    );
    // White b2-c2-d2 touches column d and threatens only a2 (a3 is Black).
    let g = pos("4 a3 b2 d4 c2 c4 d2");
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.winning_cells(BLACK), 0);
    assert_eq!(names(&g, g.winning_cells(WHITE)), ["a2"]);
    assert_eq!(g.known_outcome(), None);
    assert_eq!(
        search(&g)
            .iter()
            .map(|&m| g.format_move(m))
            .collect::<Vec<_>>(),
        ["a2"]
    );
    assert_eq!(legal(&g).len(), 10);
    // Nothing known on the empty board; every move is searched but the
    // two acute corners, each vulnerable (dead once the opponent takes a
    // neighbour, so dominated by that neighbour).
    assert_eq!(Hex::new(11).unwrap().known_outcome(), None);
    let moves = search(&Hex::new(11).unwrap());
    assert_eq!(moves.len(), 119);
    let g = Hex::new(11).unwrap();
    let names: Vec<_> = moves.iter().map(|&m| g.format_move(m)).collect();
    assert!(!names.contains(&"a1".to_string()) && !names.contains(&"k11".to_string()));
}

#[test]
fn distances() {
    let g = Hex::new(6).unwrap();
    assert_eq!(g.distance(BLACK), 6);
    assert_eq!(g.distance(WHITE), 6);
    assert_eq!(Hex::with_dims(3, 9).unwrap().distance(BLACK), 9);
    assert_eq!(Hex::with_dims(3, 9).unwrap().distance(WHITE), 3);
    // Black wall a3-e3, White a1-e1: White needs only f1; Black needs f1
    // and e2 to reach row 1, and three cells below row 3.
    let g = pos("6 a3 a1 b3 b1 c3 c1 d3 d1 e3 e1");
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(g.distance(WHITE), 1);
    assert_eq!(g.distance(BLACK), 5);
    // Own stones are free, the opponent's block.
    let g = pos("6 c1 a1 c2 b1 c3");
    assert_eq!(g.distance(BLACK), 3);
    assert_eq!(g.distance(WHITE), 6);
    let g = pos("2 a1 b1 a2");
    assert_eq!(g.distance(BLACK), 0);
    assert_eq!(g.distance(WHITE), pns_games::hex::UNREACHABLE);
}

#[test]
fn heuristic_is_mobility_after_the_threat_cuts() {
    let pos = |s: &str| pos(s).with_analysis(Analysis::Threats);
    let black = GoalContext {
        attacker: BLACK,
        goal: Goal::Win,
    };
    let white = GoalContext {
        attacker: WHITE,
        goal: Goal::NotLose,
    };
    // The empty board: 36 cells less the two acute corners (vulnerable).
    let g = Hex::new(6).unwrap();
    assert_eq!(g.heuristic(black), (1, 34));
    assert_eq!(g.heuristic(white), (34, 1));
    // White must block a3: one move.
    let g = pos("3 b1 c1 a2");
    assert_eq!(g.heuristic(black), (1, 1));
    assert_eq!(g.heuristic(white), (1, 1));
    // Every position: both numbers at least 1, and the count is the
    // number of search moves.
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
        let mut g = Hex::new(5).unwrap().with_analysis(Analysis::Threats);
        for _ in 0..rng.below(15) {
            let moves = legal(&g);
            let mut c = g;
            c.play(moves[rng.below(moves.len() as u64) as usize]);
            if c.outcome().is_some() {
                break;
            }
            g = c;
        }
        let n = search(&g).len() as u64;
        let (pn, dn) = g.heuristic(black);
        assert!(pn >= 1 && dn >= 1);
        if g.side_to_move() == BLACK {
            assert_eq!((pn, dn), (1, n), "{g}");
        } else {
            assert_eq!((pn, dn), (n, 1), "{g}");
        }
    }
}

#[test]
fn must_play_and_double_threats() {
    let pos = |s: &str| pos(s).with_analysis(Analysis::Threats);
    let order = |g: &Hex| -> Vec<String> { search(g).iter().map(|&m| g.format_move(m)).collect() };
    // 3x3, Black a1, White a2, Black to move. White threatens b2 (then c1
    // and c2 both win) and c1 (then b1 and b2 both win). Black must play in
    // {b2, c1, c2} and in {c1, b1, b2}: b2 or c1.
    let g = pos("3 a1 a2");
    assert_eq!(names(&g, g.double_threat_cells(WHITE)), ["c1", "b2"]);
    assert_eq!(g.double_threat_cells(BLACK), 0);
    assert_eq!(order(&g), ["b2", "c1"]);
    assert_eq!(g.known_outcome(), None);
    // Any other Black move loses to one of the double threats.
    for m in ["b1", "c2", "a3", "b3", "c3"] {
        let mut c = g;
        c.play(g.parse_move(m).unwrap());
        let t = c.double_threat_cells(WHITE);
        assert_ne!(t, 0, "after {m}");
        // White to move: a single double-threat cell is searched.
        let cand = c.candidate_moves();
        assert!(cand.count_ones() == 1 && cand & t == cand, "after {m}");
    }
    // With Black c3 added and White to move, one of White's double
    // threats is its only search move.
    let g = pos("3 a1 a2 c3");
    assert_eq!(order(&g), ["b2"]);
    // Both double threats of White at once leave Black nothing: after
    // White b2 (threats c1, c2) Black faces two winning cells.
    let g = pos("3 a1 a2 c3 b2");
    assert_eq!(g.known_outcome(), Some(Outcome::Loss));
}

#[test]
fn notation_round_trips_and_renders() {
    let g = pos("6 c3 d4");
    assert_eq!(g.to_string(), "6 c3 d4");
    assert_eq!(g.stone(cell(&g, "c3")), Some(BLACK));
    assert_eq!(g.stone(cell(&g, "d4")), Some(WHITE));
    assert_eq!(g.side_to_move(), BLACK);
    assert_eq!(pos("6"), Hex::new(6).unwrap());
    assert_eq!(pos("  6  "), Hex::new(6).unwrap());
    assert_eq!(pos("6 b:c3 w:d4"), g);
    assert_eq!(pos("6 C3 D4"), g);
    // Transposed move order, same position.
    assert_eq!(pos("6 a1 b1 c3 d4"), pos("6 c3 d4 a1 b1"));
    assert_eq!(pos("6x7 a1").to_string(), "6x7 a1");
    assert_eq!(pos("6x6 a1"), pos("6 a1"));
    let m = g.parse_move("e5").unwrap();
    assert_eq!(g.format_move(m), "e5");
    assert_eq!(g.coords(m), (4, 4));
    // A won position prints in an order that replays legally.
    let won = pos("4 d1 a1 c2 a2 b3 a3 a4");
    assert_eq!(won.winner(), Some(BLACK));
    assert_eq!(pos(&won.to_string()), won);
    let pic = pos("3 b2 a1").render();
    assert_eq!(
        pic,
        "   a b c\n 1 o . . 1\n  2 . x . 2\n   3 . . . 3\n      a b c\n\
         x = Black (joins rows 1-3), o = White (joins columns a-c); Black to move\n"
    );
    assert!(format!("{g:?}").contains("6 c3 d4"));
}

#[test]
fn bad_input_gives_one_line_errors_naming_the_token() {
    let cases = [
        ("", "empty"),
        ("1", "'1'"),
        ("12", "'12'"),
        ("0 a1", "'0'"),
        ("abc", "'abc'"),
        ("6x12", "'6x12'"),
        ("6 zz", "'zz'"),
        ("6 c0", "'c0'"),
        ("6 c", "'c'"),
        ("6 3c", "'3c'"),
        ("6 c03", "'c03'"),
        ("6 g1", "'g1'"),
        ("6 a7", "'a7'"),
        ("6x7 g1", "'g1'"),
        ("6 c3 c3", "'c3'"),
        ("6 c3 w:d4 w:e5", "'w:e5'"),
        ("6 x:c3", "'x:c3'"),
        ("2 a1 b1 a2 b2", "'b2'"),
    ];
    for (input, token) in cases {
        let e = Hex::parse_position(input).expect_err(input);
        assert!(e.0.contains(token), "{input:?} -> {e}");
        assert!(!e.0.contains('\n'), "{input:?} -> {e}");
    }
    assert!(Hex::parse_position("2 a1 b1 a2 b2")
        .unwrap_err()
        .0
        .contains("over"));
    let g = pos("4 a1");
    for (m, token) in [
        ("a1", "occupied"),
        ("e1", "off"),
        ("", "malformed"),
        ("a", "malformed"),
    ] {
        let e = g.parse_move(m).expect_err(m);
        assert!(e.0.contains(token), "{m:?} -> {e}");
    }
    assert!(Hex::new(12).is_err() && Hex::new(1).is_err());
    assert!(Hex::with_dims(11, 2).is_ok());
}

#[test]
fn equality_hash_and_key_follow_the_position() {
    let a = pos("5 c3 b2 d4");
    let b = pos("5 d4 b2 c3");
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
    assert_eq!(hash_of(&a), hash_of(&b));
    let c = pos("5 c3 d4 b2");
    assert_ne!(a, c, "colours differ");
    assert_ne!(a.key(), c.key());
    // The same stones on different boards differ.
    assert_ne!(pos("5 a1"), pos("6 a1"));
    assert_ne!(pos("5 a1").key(), pos("6 a1").key());
    assert_ne!(pos("5x6 a1").key(), pos("6x5 a1").key());
    // Keys are distinct over many random positions.
    let mut rng = Rng::new(5);
    let mut seen = HashSet::new();
    let mut positions = HashSet::new();
    for _ in 0..20_000 {
        let mut g = Hex::new(7).unwrap();
        let n = rng.below(20);
        for _ in 0..n {
            let moves = legal(&g);
            if g.outcome().is_some() {
                break;
            }
            g.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        if positions.insert(g) {
            assert!(seen.insert(g.key()), "key collision at {g}");
        }
    }
}

#[test]
fn shuffled_order_is_a_seeded_permutation_ignored_by_equality() {
    let g = pos("5 c3 b2").with_analysis(Analysis::Threats);
    let base: HashSet<Cell> = legal(&g).into_iter().collect();
    let s1 = g.with_shuffled_order(1);
    let s1b = g.with_shuffled_order(1);
    let s2 = g.with_shuffled_order(2);
    let (l1, l2) = (legal(&s1), legal(&s2));
    assert_eq!(l1.len(), base.len());
    assert_eq!(l1.iter().copied().collect::<HashSet<_>>(), base);
    assert_eq!(l2.iter().copied().collect::<HashSet<_>>(), base);
    assert_eq!(l1, legal(&s1b), "same seed, same order");
    assert_ne!(l1, l2, "different seeds, different orders");
    assert_eq!(search(&s1), l1, "no forced move here, so search = legal");
    assert_ne!(l1, legal(&g));
    // Several seeds give several orders.
    let orders: HashSet<Vec<Cell>> = (0..20).map(|s| legal(&g.with_shuffled_order(s))).collect();
    assert_eq!(orders.len(), 20);
    // Not part of the position.
    assert!(s1.is_shuffled() && !g.is_shuffled());
    assert_eq!(s1, g);
    assert_eq!(s1.key(), g.key());
    assert_eq!(hash_of(&s1), hash_of(&g));
    // Carried through play: the order is a fixed permutation of cells.
    let m = l1[3];
    let mut after = s1;
    after.play(m);
    let mut expected = l1.clone();
    expected.retain(|&c| c != m);
    assert_eq!(legal(&after), expected);
    // Unshuffled: legal moves in index order, search moves centre first.
    let e = Hex::new(5).unwrap();
    let l = legal(&e);
    assert!(l.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(e.format_move(search(&e)[0]), "c3");
}

#[test]
fn plain_search_switches_the_hooks_off() {
    let ctx = GoalContext {
        attacker: BLACK,
        goal: Goal::Win,
    };
    // White threatens a3 only; Black has a double threat elsewhere? No:
    // this is the forced-reply position from above.
    let g = pos("4 a3 b2 d4 c2 c4 d2");
    let p = g.with_plain_search();
    assert!(p.is_plain_search() && !g.is_plain_search());
    assert_eq!(search(&g).len(), 1);
    assert_eq!(search(&p), legal(&p));
    assert_eq!(p.heuristic(ctx), (1, 1));
    // Two White threats: known for the hooks, unknown to the rules.
    let g = pos("3 b1 a1 b2");
    assert_eq!(g.known_outcome(), Some(Outcome::Loss));
    assert_eq!(g.with_plain_search().known_outcome(), None);
    // Not part of the position; carried through play; combines with
    // shuffling.
    let p = pos("5 c3").with_plain_search().with_shuffled_order(4);
    assert_eq!(p, pos("5 c3"));
    assert_eq!(p.key(), pos("5 c3").key());
    let mut q = p;
    q.play(legal(&p)[0]);
    assert!(q.is_plain_search() && q.is_shuffled());
    assert_eq!(search(&q), legal(&q));
    assert!(format!("{q:?}").contains("Rules"));
}

#[test]
fn playouts_are_reproducible_and_follow_random_play() {
    let g = pos("7 d4");
    let run = |seed| {
        let mut r = Rng::new(seed);
        (0..200).map(|_| g.playout(&mut r)).collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
    // Finished games return their result.
    let won = pos("2 a1 b1 a2");
    assert_eq!(won.playout(&mut Rng::new(1)), Outcome::Loss);
    // On the empty 3x3 board the exact probability that Black wins random
    // play is the fraction of 5-cell subsets that join rows 1 and 3 (every
    // fill is equally likely). Compare with the fast playout.
    let empty = Hex::new(3).unwrap();
    let mut joined = 0;
    let mut total = 0;
    for mask in 0u32..512 {
        if mask.count_ones() != 5 {
            continue;
        }
        total += 1;
        let mut g = Hex::new(3).unwrap();
        let black: Vec<usize> = (0..9).filter(|i| mask >> i & 1 != 0).collect();
        let white: Vec<usize> = (0..9).filter(|i| mask >> i & 1 == 0).collect();
        // (Indices here are 3x3 row-major, converted with `cell`.)
        // Play Black's cells and White's alternately; stop at a winner.
        for k in 0..5 {
            if g.winner().is_some() {
                break;
            }
            g.play(g.cell(black[k] % 3, black[k] / 3).unwrap());
            if k < 4 && g.winner().is_none() {
                g.play(g.cell(white[k] % 3, white[k] / 3).unwrap());
            }
        }
        if g.winner() == Some(Side::First) {
            joined += 1;
        }
    }
    let p = joined as f64 / total as f64;
    let mut r = Rng::new(9);
    let n = 40_000;
    let wins = (0..n)
        .filter(|_| empty.playout(&mut r) == Outcome::Win)
        .count();
    let q = wins as f64 / n as f64;
    assert!((p - q).abs() < 0.015, "exact {p}, playouts {q}");
    // The default (move-by-move) playout agrees statistically too.
    let mut r = Rng::new(10);
    let slow_wins = (0..n)
        .filter(|_| slow_playout(&empty, &mut r) == Outcome::Win)
        .count();
    let s = slow_wins as f64 / n as f64;
    assert!((p - s).abs() < 0.015, "exact {p}, move-by-move {s}");
}

/// Uniformly random legal moves to the end, like the trait's default.
fn slow_playout(g: &Hex, rng: &mut Rng) -> Outcome {
    let me = g.side_to_move();
    let mut g = *g;
    loop {
        if let Some(o) = g.outcome() {
            return if g.side_to_move() == me { o } else { o.flip() };
        }
        let moves = legal(&g);
        g.play(moves[rng.below(moves.len() as u64) as usize]);
    }
}

#[test]
fn positions_are_one_cache_line() {
    assert!(
        std::mem::size_of::<Hex>() <= 64,
        "{}",
        std::mem::size_of::<Hex>()
    );
}

#[test]
fn connections_declare_wins_early_and_certificates_claim_them() {
    // After Black a1 on 4x4, White to move wins (Benzene), and H-search
    // finds White's connection at once; threat analysis sees nothing yet.
    // The known outcome of a position as generated leaves the mover's own
    // connections out (they are looked for when the search expands it),
    // so the win shows one ply on: every White move of the search is one
    // after which Black is lost, a known loss by White's VC.
    let g = pos("4 a1");
    assert_eq!(g.analysis(), Analysis::Connections);
    assert_eq!(g.known_outcome(), None);
    let wins = search(&g);
    assert!(!wins.is_empty() && wins.len() < 15, "{}", wins.len());
    for &m in &wins {
        let mut c = g;
        c.play(m);
        assert_eq!(
            c.known_outcome(),
            Some(Outcome::Loss),
            "{}",
            g.format_move(m)
        );
    }
    let t = g.with_analysis(Analysis::Threats);
    assert_eq!(t.known_outcome(), None);
    assert_eq!(search(&t).len(), 15);
    // After Black c3 on 5x5, Black holds a connection even with White to
    // move: it is written out as a claim that the rules accept, for Black
    // only; the other analyses make no claims.
    let g = pos("5 c3");
    let w = g.claim(BLACK).expect("a claim for Black");
    assert!(w.contains('N') && w.contains('S'), "{w}");
    g.check_claim(BLACK, &w).unwrap();
    assert!(g.check_claim(WHITE, &w).is_err());
    assert_eq!(g.claim(WHITE), None);
    assert_eq!(g.with_analysis(Analysis::Threats).claim(BLACK), None);
    // Every cell outside the connection can be conceded to White.
    let mut conceded = Vec::new();
    g.concessions(BLACK, &mut conceded);
    assert!(!conceded.is_empty());
    let mut c = g;
    for &m in &conceded {
        c.concede(WHITE, m).unwrap();
    }
    assert_eq!(c.side_to_move(), WHITE);
    assert_ne!(c.key(), g.key());
    assert!(!c.is_regular() && g.is_regular());
    assert!(c.concede(WHITE, conceded[0]).is_err());
    let w = c.claim(BLACK).expect("still Black's connection");
    c.check_claim(BLACK, &w).unwrap();
    // Black to move: Black's
    // moves outside every White connection's carrier are cut, so fewer
    // moves than the threat analysis keeps.
    let g = pos("5 c3 a5");
    let t = g.with_analysis(Analysis::Threats);
    assert!(search(&g).len() <= search(&t).len());
    assert_eq!(g.candidate_moves().count_ones() as usize, search(&g).len());
}
