//! Benson's unconditional life: blocks that no sequence of opponent moves
//! can capture, even when their owner passes every turn (D. B. Benson,
//! "Life in the game of Go", Information Sciences 10, 1976).
//!
//! For the owner `c`, a *region* is a maximal connected set of points
//! without a `c` stone (empty points and opponent stones). A region is
//! *vital* to a block of `c` when each of its empty points is a liberty
//! of the block. Start from every block of `c` and every region, then
//! repeat until nothing changes:
//!
//! 1. drop each block with fewer than two vital regions left;
//! 2. drop each region that touches a dropped block.
//!
//! The blocks left are unconditionally alive: to capture one, the opponent
//! must fill the last empty point of each of its two vital regions, and
//! the first such move has no liberty (every neighbour of the region is a
//! surviving block, each with another vital region still holding an empty
//! point), so it is suicide, which the rules here forbid
//! ([`crate::board`]). Ko does not matter: the opponent never captures a
//! stone of these blocks, so no ko arises around them.
//!
//! The capturing problems ([`crate::capture`]) count such a target as
//! escaped: it is a true escape, whatever the threshold. On GNU Go's
//! reading cases many targets save themselves by making two eyes in a
//! small enclosed area, where they never reach the liberty threshold.

use crate::bits::Bits;
use crate::board::Board;

/// Whether the region of non-`own` points holding `p` is vital to the
/// block whose liberties are `libs`: grown step by step, it stops at the
/// first empty point that is not one of `libs` (most regions are open and
/// fail within a step or two). What the growth looked at (every point
/// next to the grown set, whichever its colour) goes into `reads`.
fn vital_from(p: usize, rest: &Bits, empty: &Bits, libs: &Bits, reads: &mut Bits) -> Option<Bits> {
    let mut r = Bits::single(p);
    loop {
        let n = r.dilate(rest);
        if !(n & *empty).minus(libs).is_empty() {
            *reads |= r;
            return None;
        }
        // `n` holds `r`: compared by what it adds (`==` on the words
        // became a call to memcmp).
        if n.minus(&r).is_empty() {
            *reads |= r;
            return Some(r);
        }
        r = n;
    }
}

/// Entries of [`alive`]'s cache (a power of two).
const CACHE_SIZE: usize = 1 << 12;

/// A cached verdict: alive, not alive with what the closure read
/// ([`dead_reads`]), or not alive as too large a closure.
#[derive(Clone, Copy)]
enum Verdict {
    Alive,
    Dead,
    DeadReading(Bits),
}

thread_local! {
    /// [`alive`]'s answers by position: a search reads the outcome of one
    /// position several times (once per λ order, again at each
    /// re-expansion), and Benson's steps cost more than the rest of it.
    static CACHE: std::cell::RefCell<Vec<(u64, Verdict)>> =
        std::cell::RefCell::new(vec![(0, Verdict::Dead); CACHE_SIZE]);
}

/// The cache's key of `blk` on `b`, and its slot.
fn cache_key(b: &Board, first: usize) -> (u64, usize) {
    // The stones' hash leaves the size out (the same stones on a larger
    // board have other regions). Zero marks an empty slot: no key is zero.
    let key = (b.key() ^ pns_core::rng::splitmix64(((b.size() as u64) << 32) | first as u64)) | 1;
    (key, key as usize & (CACHE_SIZE - 1))
}

/// Whether the block `blk` is unconditionally alive ([`alive_area`]),
/// cached by the board's stones and the block.
pub fn alive(b: &Board, blk: &Bits) -> bool {
    let Some(first) = blk.first() else {
        return false;
    };
    let (key, slot) = cache_key(b, first);
    if let Some(hit) = CACHE.with(|c| {
        let e = c.borrow()[slot];
        (e.0 == key).then_some(e.1)
    }) {
        return matches!(hit, Verdict::Alive);
    }
    let mut reads = Bits::EMPTY;
    let v = match closure(b, blk, &mut reads) {
        Closure::Alive(_) => Verdict::Alive,
        Closure::Dead => Verdict::DeadReading(reads),
        Closure::TooLarge => Verdict::Dead,
    };
    CACHE.with(|c| c.borrow_mut()[slot] = (key, v));
    matches!(v, Verdict::Alive)
}

/// Where [`alive`] found `blk` on `b` not alive, and that answer is still
/// in its cache: the points that Benson's steps ([`alive_area`]) read.
/// Any board that agrees with `b` on them (the same stones of each colour
/// and the same empty points there) has the same closure and the same
/// verdict, so the block is not alive there either. A move off them that
/// captures nothing keeps the answer ([`crate::capture::Capture`] carries
/// it from position to position, and most positions of an escape search
/// are answered so, without Benson's steps).
pub fn dead_reads(b: &Board, blk: &Bits) -> Option<Bits> {
    let (key, slot) = cache_key(b, blk.first()?);
    CACHE.with(|c| match c.borrow()[slot] {
        (k, Verdict::DeadReading(r)) if k == key => Some(r),
        _ => None,
    })
}

/// Whether `blk` has two vital regions of its own (without which it is not
/// alive), with what the count read in `reads`: the block, the points next
/// to it and to its liberties, and each region grown with the points next
/// to it.
fn two_vital(b: &Board, blk: &Bits, reads: &mut Bits) -> bool {
    let Some(c) = blk.first().and_then(|p| b.color_at(p)) else {
        return false;
    };
    let mask = b.mask();
    let rest = mask.minus(&b.stones(c));
    let empty = b.empty();
    let libs = b.liberties(blk);
    *reads |= blk.dilate(mask) | libs.dilate(mask);
    let mut left = libs.minus(&empty.minus(&libs).adjacent(mask));
    let mut vital = 0;
    while vital < 2 {
        let Some(p) = left.first() else {
            return false;
        };
        let mut grown = Bits::EMPTY;
        match vital_from(p, &rest, &empty, &libs, &mut grown) {
            Some(r) => {
                vital += 1;
                left = left.minus(&r);
            }
            None => left.clear(p),
        }
        *reads |= grown.dilate(mask);
    }
    true
}

/// A region vital to some block of the closure: its points, the blocks
/// it touches and those it is vital to (bit `k`: the closure's block `k`).
#[derive(Clone, Copy, Default)]
struct Region {
    points: Bits,
    touching: u64,
    vital_to: u64,
}

/// Blocks, and vital regions, in a closure at most: a larger closure is
/// counted not alive, which only leaves the target to be searched (no
/// closure on GNU Go's cases comes near it; a 9x9 board holds at most 41
/// blocks of one colour).
const CLOSURE_MAX: usize = 64;

/// Where the block `blk` (stones of one colour) is unconditionally alive:
/// the points its life rests on, the surviving blocks with their vital
/// regions (nothing outside them can change the verdict: opponent stones
/// anywhere keep every region's points non-`c` and only take empty
/// points). `None` when it is not.
///
/// Benson's steps run on the *closure* of `blk` only: the block, the
/// regions vital to a block of the closure, and every block such a region
/// touches. A block's count needs only its vital regions, and a vital
/// region is dropped only through a block it touches, all of them in the
/// closure, so the closure's verdicts are those of the whole board's.
pub fn alive_area(b: &Board, blk: &Bits) -> Option<Bits> {
    let mut unused = Bits::EMPTY;
    match closure(b, blk, &mut unused) {
        Closure::Alive(area) => Some(area),
        _ => None,
    }
}

/// [`alive_area`]'s verdict.
enum Closure {
    Alive(Bits),
    /// Not alive; the verdict holds on every board that agrees on the
    /// points read.
    Dead,
    /// Counted not alive: the closure is larger than [`CLOSURE_MAX`] (the
    /// points read are not all there).
    TooLarge,
}

/// [`alive_area`], with the points it read in `reads`: every block of the
/// closure and its liberties with the points next to them, and each region
/// grown with the points next to it. A board that agrees on them has the
/// same closure, and so the same verdict.
fn closure(b: &Board, blk: &Bits, reads: &mut Bits) -> Closure {
    let Some(c) = blk.first().and_then(|p| b.color_at(p)) else {
        return Closure::Dead;
    };
    let mask = b.mask();
    let own = b.stones(c);
    let rest = mask.minus(&own);
    let empty = b.empty();
    // The block itself needs two vital regions: counted first, without
    // building anything (most positions stop here).
    if !two_vital(b, blk, reads) {
        return Closure::Dead;
    }
    // Fixed arrays and bit masks, not vectors: this runs on a good part
    // of the positions of an escape search.
    let mut blocks = [Bits::EMPTY; CLOSURE_MAX];
    blocks[0] = *blk;
    let mut nb = 1;
    let mut regions = [Region::default(); CLOSURE_MAX];
    let mut nr = 0;
    let mut i = 0;
    while i < nb {
        let libs = b.liberties(&blocks[i]);
        *reads |= blocks[i].dilate(mask) | libs.dilate(mask);
        // A liberty next to an empty point that is no liberty lies in no
        // vital region (the two share a region).
        let mut left = libs.minus(&empty.minus(&libs).adjacent(mask));
        while let Some(p) = left.first() {
            let mut grown = Bits::EMPTY;
            let found = vital_from(p, &rest, &empty, &libs, &mut grown);
            *reads |= grown.dilate(mask);
            let Some(r) = found else {
                left.clear(p);
                continue;
            };
            left = left.minus(&r);
            if let Some(known) = regions[..nr].iter_mut().find(|k| k.points == r) {
                known.vital_to |= 1 << i;
                continue;
            }
            let mut near = r.adjacent(mask) & own;
            let mut touching = 0u64;
            while let Some(q) = near.first() {
                let k = match blocks[..nb].iter().position(|k| k.get(q)) {
                    Some(k) => k,
                    None if nb == CLOSURE_MAX => return Closure::TooLarge,
                    None => {
                        blocks[nb] = Bits::flood(Bits::single(q), &own);
                        nb += 1;
                        nb - 1
                    }
                };
                near = near.minus(&blocks[k]);
                touching |= 1 << k;
            }
            if nr == CLOSURE_MAX {
                return Closure::TooLarge;
            }
            regions[nr] = Region {
                points: r,
                touching,
                vital_to: 1 << i,
            };
            nr += 1;
        }
        i += 1;
    }
    let regions = &regions[..nr];
    // The blocks and regions still in (bit k: block k, region k).
    let mut in_x: u64 = if nb == 64 { !0 } else { (1 << nb) - 1 };
    let mut in_r: u64 = if nr == 64 { !0 } else { (1 << nr) - 1 };
    loop {
        let mut changed = false;
        for k in 0..nb {
            if in_x & (1 << k) != 0 {
                let n = regions
                    .iter()
                    .enumerate()
                    .filter(|(j, r)| in_r & (1 << j) != 0 && r.vital_to & (1 << k) != 0)
                    .take(2)
                    .count();
                if n < 2 {
                    in_x &= !(1 << k);
                    changed = true;
                }
            }
        }
        for (j, r) in regions.iter().enumerate() {
            if in_r & (1 << j) != 0 && r.touching & !in_x != 0 {
                in_r &= !(1 << j);
                changed = true;
            }
        }
        if !changed {
            break;
        }
        if in_x & 1 == 0 {
            return Closure::Dead;
        }
    }
    if in_x & 1 == 0 {
        return Closure::Dead;
    }
    let mut area = Bits::EMPTY;
    for (k, blk) in blocks[..nb].iter().enumerate() {
        if in_x & (1 << k) != 0 {
            area |= *blk;
        }
    }
    for (j, r) in regions.iter().enumerate() {
        if in_r & (1 << j) != 0 {
            area |= r.points;
        }
    }
    Closure::Alive(area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Move};
    use pns_core::rng::Rng;
    use std::collections::HashSet;

    fn at(b: &Board, v: &str) -> Bits {
        match b.parse_vertex(v).unwrap() {
            Move::Play(p) => b.block(p as usize),
            Move::Pass => panic!("a point"),
        }
    }

    #[test]
    fn two_eyes_live_and_one_does_not() {
        let b = Board::from_rows(&[
            ".X.X.", //
            "XXXXX", //
            ".....", //
            "OOOOO", //
            "O.O..", //
        ]);
        let area = alive_area(&b, &at(&b, "A4")).expect("two eyes");
        assert!(area.get(b.point(0, 0).unwrap()) && area.get(b.point(2, 0).unwrap()));
        // White: the eye B1 and the two-point eye D1-E1, both of whose
        // points are liberties (Black's D1 is then answered by nothing:
        // E1 would be suicide).
        assert!(alive_area(&b, &at(&b, "A2")).is_some());
        // One eye: dead.
        let b = Board::from_rows(&[
            ".X...", //
            "XX...", //
            ".....", //
            ".....", //
            ".....", //
        ]);
        assert_eq!(alive_area(&b, &at(&b, "A4")), None);
        // A big eye whose points are not all liberties: no eye.
        let b = Board::from_rows(&[
            "..X..", //
            "XXX..", //
            ".....", //
            ".....", //
            ".....", //
        ]);
        assert_eq!(alive_area(&b, &at(&b, "A4")), None);
    }

    #[test]
    fn an_eye_next_to_a_dead_block_is_no_eye() {
        // The eye C5-C4 touches the lone stone C3, which has no eye: it
        // can be captured (White fills B3, D3, C2, then C4 takes it), and
        // with it the eye goes, leaving each black block one eye.
        let rows = [
            ".X.X.", //
            "XX.XX", //
            "..X..", //
            ".....", //
            ".....", //
        ];
        let b = Board::from_rows(&rows);
        assert_eq!(alive_area(&b, &at(&b, "A4")), None);
        assert_eq!(alive_area(&b, &at(&b, "E4")), None);
        // With C3 joined to the left block (B3), both blocks live: the
        // shared eye's points are liberties of both.
        let mut rows = rows;
        rows[2] = ".XX..";
        let b = Board::from_rows(&rows);
        assert!(alive_area(&b, &at(&b, "A4")).is_some());
        assert!(alive_area(&b, &at(&b, "E4")).is_some());
        // Opponent stones inside an eye keep it vital.
        let b = Board::from_rows(&[
            "O.X.X", //
            ".XX.X", //
            "XXXXX", //
            ".....", //
            ".....", //
        ]);
        assert!(alive_area(&b, &at(&b, "C5")).is_some());
    }

    /// Benson's steps on the whole board: the stones of `c`'s
    /// unconditionally alive blocks (the reference for the closure).
    fn alive_everywhere(b: &Board, c: Color) -> Bits {
        let mask = b.mask();
        let rest = mask.minus(&b.stones(c));
        let empty = b.empty();
        let blocks = b.blocks(c);
        let libs: Vec<Bits> = blocks.iter().map(|k| b.liberties(k)).collect();
        let mut regions = Vec::new();
        let mut left = rest;
        while let Some(p) = left.first() {
            let r = Bits::flood(Bits::single(p), &rest);
            left = left.minus(&r);
            regions.push(r);
        }
        let touches = |r: &Bits, k: usize| blocks[k].intersects(&r.adjacent(mask));
        let vital = |r: &Bits, k: usize| {
            let e = *r & empty;
            !e.is_empty() && e.minus(&libs[k]).is_empty()
        };
        let mut in_x = vec![true; blocks.len()];
        let mut in_r = vec![true; regions.len()];
        loop {
            let mut changed = false;
            for (k, x) in in_x.iter_mut().enumerate() {
                let n = (0..regions.len())
                    .filter(|&r| in_r[r] && vital(&regions[r], k))
                    .count();
                if *x && n < 2 {
                    *x = false;
                    changed = true;
                }
            }
            for r in 0..regions.len() {
                if in_r[r] && (0..blocks.len()).any(|k| !in_x[k] && touches(&regions[r], k)) {
                    in_r[r] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut out = Bits::EMPTY;
        for k in (0..blocks.len()).filter(|&k| in_x[k]) {
            out |= blocks[k];
        }
        out
    }

    /// Calls `f` with each block of either colour on `n` random boards,
    /// 5x5 to 9x9, dense with stones (the generator's state passed on).
    fn each_random_block(seed: u64, n: usize, mut f: impl FnMut(&Board, &Bits, &mut Rng)) {
        let mut rng = Rng::new(seed);
        for i in 0..n {
            let b = Board::random(&mut rng, 5 + i % 5, 4, 3);
            for c in [Color::Black, Color::White] {
                for k in b.blocks(c) {
                    f(&b, &k, &mut rng);
                }
            }
        }
    }

    /// On random boards, 5x5 to 9x9, dense with stones: the closure's
    /// verdict on every block is the whole board's.
    #[test]
    fn the_closure_agrees_with_the_whole_board() {
        let (mut alive, mut blocks) = (0, 0);
        // The whole board's verdict once per board and colour.
        let mut last: Option<(Board, Color, Bits)> = None;
        each_random_block(5, 4000, |b, k, _| {
            let c = b.color_at(k.first().unwrap()).unwrap();
            let everywhere = match last {
                Some((lb, lc, e)) if lb == *b && lc == c => e,
                _ => {
                    let e = alive_everywhere(b, c);
                    last = Some((*b, c, e));
                    e
                }
            };
            blocks += 1;
            let here = alive_area(b, k);
            assert_eq!(here.is_some(), k.intersects(&everywhere), "{}", b.render());
            alive += usize::from(here.is_some());
        });
        assert!(
            alive >= 100 && blocks >= 10_000,
            "{alive} alive of {blocks}"
        );
    }

    /// What `closure` reads decides its verdict "not alive": random boards,
    /// each block found not alive, the board changed at random off the
    /// reads (stones of either colour or none), the block is not alive
    /// there either. The reads are what lets a position's verdict pass on
    /// to its children (`dead_reads`).
    #[test]
    fn a_dead_verdict_holds_where_the_board_agrees_on_its_reads() {
        let (mut checked, mut built) = (0, 0);
        each_random_block(11, 30_000, |b, k, rng| {
            let mut reads = Bits::EMPTY;
            if !matches!(closure(b, k, &mut reads), Closure::Dead) {
                return;
            }
            let mut two = Bits::EMPTY;
            built += usize::from(two_vital(b, k, &mut two));
            let mut b2 = *b;
            for p in b.mask().minus(&reads).iter() {
                if rng.below(2) == 0 {
                    let colour =
                        [None, Some(Color::Black), Some(Color::White)][rng.below(3) as usize];
                    b2.set(p, colour);
                }
            }
            assert_eq!(b2.block(k.first().unwrap()), *k);
            assert!(
                alive_area(&b2, k).is_none(),
                "{}\nchanged off the reads:\n{}",
                b.render(),
                b2.render()
            );
            checked += 1;
        });
        // Closures built past the block's own count, not only that count
        // (fewer boards did not catch the closure's reads left out: tried).
        assert!(checked > 300_000 && built > 10_000, "{checked} {built}");
    }

    /// Whether the opponent of `blk`'s owner, playing every move in a row
    /// (the owner passing), can capture it: every position it can reach,
    /// searched exhaustively (small boards only).
    fn capturable(b: &Board, target: usize) -> bool {
        let owner = b.color_at(target).unwrap();
        let mut start = *b;
        start.set_to_move(owner.opponent());
        start.clear_ko();
        let mut seen = HashSet::new();
        let mut stack = vec![start];
        while let Some(pos) = stack.pop() {
            if !seen.insert(pos.key()) {
                continue;
            }
            if seen.len() > 200_000 {
                panic!("too many positions");
            }
            for p in pos.empty().iter() {
                let mut n = pos;
                if n.play(Move::Play(p as u16), false).is_err() {
                    continue;
                }
                if n.color_at(target) != Some(owner) {
                    return true;
                }
                // The owner passes.
                n.set_to_move(owner.opponent());
                n.clear_ko();
                stack.push(n);
            }
        }
        false
    }

    /// On random 4x4 boards, nearly full: every block said to be alive
    /// survives every sequence of opponent moves (and some are).
    #[test]
    fn unconditional_life_survives_every_attack() {
        let mut rng = Rng::new(11);
        let (mut alive, mut checked) = (0, 0);
        for _ in 0..3000 {
            let b = Board::random(&mut rng, 4, 5, 2);
            // Only legal positions: every block has a liberty.
            let legal = [Color::Black, Color::White]
                .iter()
                .all(|&c| b.blocks(c).iter().all(|k| !b.liberties(k).is_empty()));
            if !legal || b.empty().count() > 9 {
                continue;
            }
            for k in b.blocks(Color::Black) {
                let t = k.first().unwrap();
                checked += 1;
                if alive_area(&b, &k).is_some() {
                    alive += 1;
                    assert!(!capturable(&b, t), "{}", b.render());
                }
            }
        }
        assert!(alive >= 20 && checked >= 200, "{alive} alive of {checked}");
    }
}
