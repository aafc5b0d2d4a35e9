//! Othello speed: perft (move generation and flips), playouts, and the
//! per-node cost of the search hooks. Plain `std::time`, no framework:
//! `cargo bench -p pns-games --bench othello`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pns_core::prelude::*;
use pns_core::{Goal, GoalContext, Rng, Side};
use pns_games::othello::{random_endgame, Othello, OthelloMove};

/// Runs `f` repeatedly for at least `min` and returns (calls, elapsed).
fn time_for(min: Duration, mut f: impl FnMut()) -> (u64, Duration) {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < min {
        f();
        calls += 1;
    }
    (calls, start.elapsed())
}

fn per_second(count: u64, d: Duration) -> f64 {
    count as f64 / d.as_secs_f64()
}

/// Perft by make/unmake through the `Game` trait, counting every node,
/// to show the speed a generic searcher sees.
fn trait_perft(g: &Othello, depth: u32, bufs: &mut [Vec<OthelloMove>], nodes: &mut u64) -> u64 {
    *nodes += 1;
    if depth == 0 || g.outcome().is_some() {
        return 1;
    }
    let (moves, rest) = bufs.split_first_mut().unwrap();
    moves.clear();
    g.legal_moves(moves);
    let mut leaves = 0;
    for &m in moves.iter() {
        let mut c = *g;
        c.play(m);
        leaves += trait_perft(&c, depth - 1, rest, nodes);
    }
    leaves
}

/// Prints the mean time of `f` over `positions`. Each timed round runs
/// over all of them, so that reading the clock does not dominate.
fn hook_cost(name: &str, what: &str, positions: &[Othello], mut f: impl FnMut(&Othello)) {
    let (rounds, d) = time_for(Duration::from_millis(400), || {
        for g in positions {
            f(black_box(g));
        }
    });
    let calls = rounds * positions.len() as u64;
    println!(
        "{name:<14} {:6.1} ns/call ({what})",
        d.as_secs_f64() * 1e9 / calls as f64
    );
}

fn main() {
    let start = Othello::start();

    // perft(8): best of three runs.
    let mut best = Duration::MAX;
    let mut leaves = 0;
    for _ in 0..3 {
        let t = Instant::now();
        leaves = black_box(start).perft(8);
        best = best.min(t.elapsed());
    }
    assert_eq!(leaves, 390_216);
    println!(
        "perft(8)      {leaves} leaves in {:.2} ms: {:.1} M leaves/s (bulk-counted last ply)",
        best.as_secs_f64() * 1e3,
        per_second(leaves, best) / 1e6
    );
    let t = Instant::now();
    let leaves10 = black_box(start).perft(10);
    let d = t.elapsed();
    assert_eq!(leaves10, 24_571_284);
    println!(
        "perft(10)     {leaves10} leaves in {:.2} s: {:.1} M leaves/s",
        d.as_secs_f64(),
        per_second(leaves10, d) / 1e6
    );
    let mut bufs = vec![Vec::new(); 16];
    let mut nodes = 0;
    let t = Instant::now();
    let n = trait_perft(&black_box(start), 8, &mut bufs, &mut nodes);
    let d = t.elapsed();
    assert_eq!(n, 390_216);
    println!(
        "trait perft(8) {nodes} nodes in {:.2} ms: {:.1} M nodes/s (outcome + legal_moves + play per node)",
        d.as_secs_f64() * 1e3,
        per_second(nodes, d) / 1e6
    );

    // Playouts from the start and from 16-empty endgames.
    let mut rng = Rng::new(1);
    let (calls, d) = time_for(Duration::from_secs(1), || {
        black_box(start.playout(&mut rng));
    });
    println!(
        "playouts      from the start: {:.0} k/s",
        per_second(calls, d) / 1e3
    );
    let mut pick = Rng::new(2);
    let endgames: Vec<Othello> = (0..1000).map(|_| random_endgame(&mut pick, 44)).collect();
    let mut i = 0;
    let (calls, d) = time_for(Duration::from_secs(1), || {
        black_box(endgames[i % endgames.len()].playout(&mut rng));
        i += 1;
    });
    println!(
        "playouts      from 16 empties: {:.0} k/s",
        per_second(calls, d) / 1e3
    );

    // Per-node hook costs on the same endgames.
    let ctx = GoalContext {
        attacker: Side::First,
        goal: Goal::Win,
    };
    let mut out = Vec::with_capacity(64);
    hook_cost("legal_moves", "16 empties", &endgames, |g| {
        out.clear();
        g.legal_moves(&mut out);
        black_box(&out);
    });
    hook_cost("search_moves", "16 empties", &endgames, |g| {
        out.clear();
        g.search_moves(&mut out);
        black_box(&out);
    });
    hook_cost("outcome", "16 empties", &endgames, |g| {
        black_box(g.outcome());
    });
    hook_cost("known_outcome", "16 empties", &endgames, |g| {
        black_box(g.known_outcome());
    });
    hook_cost("heuristic", "16 empties", &endgames, |g| {
        black_box(g.heuristic(ctx));
    });
    hook_cost("key", "16 empties", &endgames, |g| {
        black_box(g.key());
    });

    // known_outcome where it solves exactly (up to 4 empties).
    for empties in [1usize, 2, 3, 4] {
        let near_end: Vec<Othello> = (0..1000)
            .map(|_| random_endgame(&mut pick, 60 - empties))
            .collect();
        hook_cost(
            "known_outcome",
            &format!("{empties} empties"),
            &near_end,
            |g| {
                black_box(g.known_outcome());
            },
        );
    }

    let (calls, d) = time_for(Duration::from_millis(500), || {
        black_box(random_endgame(&mut pick, 44));
    });
    println!(
        "random_endgame(44) {:.2} us/call",
        d.as_secs_f64() * 1e6 / calls as f64
    );
}
