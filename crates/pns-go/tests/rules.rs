//! The bitboard rules against a naive grid implementation (flood fill on
//! an array): legality, captures, simple ko, keys, and undo, on random
//! move sequences on boards from 2x2 to 19x19.

use pns_go::bits::STRIDE;
use pns_go::{Board, Color, GoGame, Illegal, KoRule, Move};
use proptest::prelude::*;

/// A plain grid: `None` empty.
#[derive(Clone, PartialEq, Debug)]
struct Naive {
    n: usize,
    cells: Vec<Option<Color>>,
    to_move: Color,
    ko: Option<usize>,
}

impl Naive {
    fn new(n: usize) -> Naive {
        Naive {
            n,
            cells: vec![None; n * n],
            to_move: Color::Black,
            ko: None,
        }
    }

    fn nbs(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.n, i / self.n);
        let mut v = vec![];
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.n {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - self.n);
        }
        if y + 1 < self.n {
            v.push(i + self.n);
        }
        v
    }

    /// The block at `i` and its liberty count.
    fn block(&self, cells: &[Option<Color>], i: usize) -> (Vec<usize>, usize) {
        let c = cells[i];
        let mut seen = vec![false; cells.len()];
        let mut libs = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut out = vec![];
        seen[i] = true;
        while let Some(j) = stack.pop() {
            out.push(j);
            for k in self.nbs(j) {
                if cells[k].is_none() {
                    libs[k] = true;
                } else if cells[k] == c && !seen[k] {
                    seen[k] = true;
                    stack.push(k);
                }
            }
        }
        (out, libs.iter().filter(|&&l| l).count())
    }

    /// Plays a stone at `i` for the player to move, with simple ko.
    fn play(&mut self, i: usize) -> Result<(), Illegal> {
        if self.cells[i].is_some() {
            return Err(Illegal::Occupied);
        }
        if self.ko == Some(i) {
            return Err(Illegal::Ko);
        }
        let c = self.to_move;
        let mut cells = self.cells.clone();
        cells[i] = Some(c);
        let mut captured = vec![];
        for k in self.nbs(i) {
            if cells[k] == Some(c.opponent()) {
                let (b, l) = self.block(&cells, k);
                if l == 0 {
                    for s in b {
                        cells[s] = None;
                        if !captured.contains(&s) {
                            captured.push(s);
                        }
                    }
                }
            }
        }
        let (own, l) = self.block(&cells, i);
        if l == 0 {
            return Err(Illegal::Suicide);
        }
        self.ko = (captured.len() == 1 && own.len() == 1 && l == 1).then(|| captured[0]);
        self.cells = cells;
        self.to_move = c.opponent();
        Ok(())
    }

    fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.ko = None;
    }
}

fn same(b: &Board, n: &Naive) -> bool {
    (0..n.n * n.n).all(|i| b.color_at((i / n.n) * STRIDE + i % n.n) == n.cells[i])
        && b.to_move() == n.to_move
        && b.ko_point() == n.ko.map(|i| (i / n.n) * STRIDE + i % n.n)
}

/// The key of `b` computed from scratch.
fn fresh_key(b: &Board) -> u64 {
    let mut f = Board::new(b.size()).unwrap();
    for c in [Color::Black, Color::White] {
        for p in b.stones(c).iter() {
            f.set(p, Some(c));
        }
    }
    f.key()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn bitboards_match_the_naive_rules(
        n in prop_oneof![2usize..=7, Just(9usize), Just(13usize), Just(19usize)],
        picks in proptest::collection::vec(any::<u32>(), 1..300),
    ) {
        let mut b = Board::new(n).unwrap();
        let mut naive = Naive::new(n);
        let mut game = GoGame::new(b, KoRule::Simple);
        let mut boards = vec![b];
        for pick in picks {
            // One move in 25 is a pass.
            if pick % 25 == 0 {
                b.play(Move::Pass, true).unwrap();
                naive.pass();
                game.play(b.to_move().opponent(), Move::Pass).unwrap();
            } else {
                let i = pick as usize % (n * n);
                let p = (i / n) * STRIDE + i % n;
                let legal_fast = b.is_legal_point(p, true);
                let mut c = naive.clone();
                let r = c.play(i);
                prop_assert_eq!(legal_fast, r.is_ok(), "point {} on\n{:?}", b.vertex(p), b);
                let mover = b.to_move();
                let rb = b.play(Move::Play(p as u16), true).map(|_| ());
                prop_assert_eq!(rb, r);
                let rg = game.play(mover, Move::Play(p as u16));
                prop_assert_eq!(rg, r);
                naive = c;
            }
            prop_assert!(same(&b, &naive), "{:?}\n{:?}", b, naive);
            prop_assert_eq!(b.key(), fresh_key(&b));
            // Every tenth position: the legal points (the shortcut for a
            // point next to an empty one included) are the naive rules'.
            if boards.len() % 10 == 0 {
                let mut fast = Vec::new();
                b.legal_points(None, true, &mut fast);
                let slow: Vec<Move> = (0..n * n)
                    .filter(|&i| naive.clone().play(i).is_ok())
                    .map(|i| Move::Play(((i / n) * STRIDE + i % n) as u16))
                    .collect();
                prop_assert_eq!(fast, slow, "{:?}", b);
            }
            prop_assert_eq!(game.board(), &b);
            boards.push(b);
        }
        // Undo walks back through every position, keys included.
        boards.dedup();
        let mut back = vec![*game.board()];
        while game.undo() {
            back.push(*game.board());
        }
        back.dedup();
        back.reverse();
        prop_assert_eq!(back, boards);
    }
}

#[test]
fn super_ko_rules_differ_where_they_should() {
    // A ko on 4x4: Black takes, White may not retake at once under any
    // rule; after a pass each, simple ko allows it and both super-kos
    // forbid it (the position, stones and player to move, repeats).
    let rows = [".XO.", "XO.O", ".XO.", "...."];
    for (rule, legal_after_passes) in [
        (KoRule::Simple, true),
        (KoRule::Situational, false),
        (KoRule::Positional, false),
    ] {
        let mut b = Board::new(4).unwrap();
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                let c = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                b.set(y * STRIDE + x, c);
            }
        }
        let mut g = GoGame::new(b, rule);
        let take = b.parse_vertex("C3").unwrap();
        let back = b.parse_vertex("B3").unwrap();
        g.play(Color::Black, take).unwrap();
        assert!(g.check(Color::White, back).is_err(), "{rule}");
        g.play(Color::White, Move::Pass).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(
            g.check(Color::White, back).is_ok(),
            legal_after_passes,
            "{rule}"
        );
        assert_eq!(
            g.legal_moves(Color::White).contains(&back),
            legal_after_passes,
            "{rule}"
        );
    }
}
