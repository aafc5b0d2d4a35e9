//! Hex speed: move generation, play with win detection, the search hooks,
//! and playouts, on 6x6 and 11x11. Plain `std::time`, no framework:
//! `cargo bench -p pns-games --bench hex`.
//!
//! Also times an incremental union-find win check written here, as the
//! alternative to the library's flood fill from the new stone, to justify
//! the choice.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pns_core::prelude::*;
use pns_core::{Goal, GoalContext, Outcome, Rng, Side};
use pns_games::hex::{Cell, Hex};

/// Runs `f` repeatedly for at least `min`; returns (calls, elapsed).
fn time_for(min: Duration, mut f: impl FnMut()) -> (u64, Duration) {
    let start = Instant::now();
    let mut calls = 0u64;
    while start.elapsed() < min {
        f();
        calls += 1;
    }
    (calls, start.elapsed())
}

const ROUND: Duration = Duration::from_millis(500);

/// Random positions with 0..cells/2 stones and no winner yet.
fn positions(n: usize, count: usize, rng: &mut Rng) -> Vec<Hex> {
    (0..count)
        .map(|_| {
            let depth = rng.below((n * n / 2) as u64);
            Hex::new(n).unwrap().random_walk(depth, rng)
        })
        .collect()
}

/// Random move sequences covering the whole board.
fn games(n: usize, count: usize, rng: &mut Rng) -> Vec<Vec<Cell>> {
    let empty = Hex::new(n).unwrap();
    (0..count)
        .map(|_| {
            let mut cells = Vec::new();
            empty.legal_moves(&mut cells);
            rng.shuffle(&mut cells);
            cells
        })
        .collect()
}

fn hook(name: &str, n: usize, ps: &[Hex], mut f: impl FnMut(&Hex)) {
    let (rounds, d) = time_for(ROUND, || {
        for g in ps {
            f(black_box(g));
        }
    });
    let calls = rounds * ps.len() as u64;
    println!(
        "{n:>2}x{n:<2} {name:<28} {:8.1} ns/call",
        d.as_secs_f64() * 1e9 / calls as f64
    );
}

/// Incremental union-find over cells plus four virtual edge nodes, for
/// comparison with the library's flood fill.
struct UnionFind {
    n: usize,
    parent: [u8; 125],
    colour: [u8; 121],
    nbrs: Vec<Vec<u8>>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        let mut nbrs = vec![Vec::new(); n * n];
        for y in 0..n as i32 {
            for x in 0..n as i32 {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (a, b) = (x + dx, y + dy);
                    if a >= 0 && b >= 0 && a < n as i32 && b < n as i32 {
                        nbrs[(y * n as i32 + x) as usize].push((b * n as i32 + a) as u8);
                    }
                }
            }
        }
        let mut u = UnionFind {
            n,
            parent: [0; 125],
            colour: [0; 121],
            nbrs,
        };
        u.reset();
        u
    }

    fn reset(&mut self) {
        for (i, p) in self.parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        self.colour = [0; 121];
    }

    fn find(&mut self, mut a: u8) -> u8 {
        while self.parent[a as usize] != a {
            let p = self.parent[a as usize];
            self.parent[a as usize] = self.parent[p as usize];
            a = p;
        }
        a
    }

    fn union(&mut self, a: u8, b: u8) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra as usize] = rb;
        }
    }

    /// Places a stone of colour 1 (Black) or 2 (White); true if it wins.
    fn place(&mut self, c: u8, colour: u8) -> bool {
        let n = self.n;
        self.colour[c as usize] = colour;
        let (x, y) = (c as usize % n, c as usize / n);
        // Virtual nodes: 121 north, 122 south, 123 west, 124 east.
        if colour == 1 {
            if y == 0 {
                self.union(c, 121);
            }
            if y == n - 1 {
                self.union(c, 122);
            }
        } else {
            if x == 0 {
                self.union(c, 123);
            }
            if x == n - 1 {
                self.union(c, 124);
            }
        }
        for k in 0..self.nbrs[c as usize].len() {
            let m = self.nbrs[c as usize][k];
            if self.colour[m as usize] == colour {
                self.union(c, m);
            }
        }
        if colour == 1 {
            self.find(121) == self.find(122)
        } else {
            self.find(123) == self.find(124)
        }
    }
}

fn main() {
    let ctx = GoalContext {
        attacker: Side::First,
        goal: Goal::Win,
    };
    for n in [6usize, 11] {
        let mut rng = Rng::new(2024 + n as u64);
        let ps = positions(n, 2000, &mut rng);
        let gs = games(n, 500, &mut rng);
        let mut buf = Vec::with_capacity(128);

        hook("legal_moves", n, &ps, |g| {
            buf.clear();
            g.legal_moves(&mut buf);
            black_box(&buf);
        });
        hook("search_moves", n, &ps, |g| {
            buf.clear();
            g.search_moves(&mut buf);
            black_box(&buf);
        });
        hook("known_outcome", n, &ps, |g| {
            black_box(g.known_outcome());
        });
        hook("heuristic (mobility)", n, &ps, |g| {
            black_box(g.heuristic(ctx));
        });
        hook("distance (one side)", n, &ps, |g| {
            black_box(g.distance(Side::First));
        });
        hook("dead_cells", n, &ps, |g| {
            black_box(g.dead_cells());
        });
        hook("candidate_moves", n, &ps, |g| {
            black_box(g.candidate_moves());
        });
        hook("key", n, &ps, |g| {
            black_box(g.key());
        });

        // Play with win detection: whole games, move by move, to the end.
        let (rounds, d) = time_for(ROUND, || {
            for game in &gs {
                let mut g = Hex::new(n).unwrap();
                for &m in game {
                    g.play(m);
                    if g.winner().is_some() {
                        break;
                    }
                }
                black_box(g);
            }
        });
        let mut total_moves = 0u64;
        for game in &gs {
            let mut g = Hex::new(n).unwrap();
            for &m in game {
                g.play(m);
                total_moves += 1;
                if g.winner().is_some() {
                    break;
                }
            }
        }
        let plays = rounds * total_moves;
        println!(
            "{n:>2}x{n:<2} {:<28} {:8.1} ns/move ({:.1} M moves/s)",
            "play + win check (flood)",
            d.as_secs_f64() * 1e9 / plays as f64,
            plays as f64 / d.as_secs_f64() / 1e6
        );

        // The same games with an incremental union-find.
        let mut uf = UnionFind::new(n);
        let empty = Hex::new(n).unwrap();
        let (rounds, d) = time_for(ROUND, || {
            for game in &gs {
                uf.reset();
                for (k, &m) in game.iter().enumerate() {
                    let (x, y) = empty.coords(m);
                    if uf.place((y * n + x) as u8, 1 + (k % 2) as u8) {
                        break;
                    }
                }
                black_box(&uf.parent);
            }
        });
        let plays = rounds * total_moves;
        println!(
            "{n:>2}x{n:<2} {:<28} {:8.1} ns/move ({:.1} M moves/s)",
            "play + win check (union-find)",
            d.as_secs_f64() * 1e9 / plays as f64,
            plays as f64 / d.as_secs_f64() / 1e6
        );

        // Playouts from the empty board: the fast fill and the trait's
        // move-by-move default (reimplemented here, as the default is
        // overridden).
        let mut r = Rng::new(7);
        let mut black_wins = 0u64;
        // 100 playouts per clock reading, so the clock does not dominate.
        let (rounds, d) = time_for(ROUND, || {
            for _ in 0..100 {
                if empty.playout(&mut r) == Outcome::Win {
                    black_wins += 1;
                }
            }
        });
        let count = rounds * 100;
        println!(
            "{n:>2}x{n:<2} {:<28} {:8.0} playouts/s (Black wins {:.3})",
            "playout (fill)",
            count as f64 / d.as_secs_f64(),
            black_wins as f64 / count as f64
        );
        let mut r = Rng::new(7);
        let mut moves = Vec::with_capacity(128);
        let (count, d) = time_for(ROUND, || {
            let mut g = empty;
            while g.outcome().is_none() {
                moves.clear();
                g.legal_moves(&mut moves);
                g.play(moves[r.below(moves.len() as u64) as usize]);
            }
            black_box(g);
        });
        println!(
            "{n:>2}x{n:<2} {:<28} {:8.0} playouts/s",
            "playout (move by move)",
            count as f64 / d.as_secs_f64()
        );
    }
}
