//! Inferior cells: dead cells and captured pairs, found by local patterns
//! around each empty cell, and the *fill-in* they allow (Hayward,
//! Björnsson, Johanson, Kan, Po, van Rijswijck, "Solving 7x7 Hex: virtual
//! connections and game-state reduction", ACG 2003; Henderson's thesis,
//! "Inferior cell analysis and search in Hex", 2010; Benzene's ICE).
//!
//! # Dead cells
//!
//! An empty cell is *dead* when its colour cannot change who wins, whatever
//! happens on the other cells. Walk once around a cell c through its six
//! neighbours (an edge counts as a stone of its owner; consecutive
//! neighbours touch each other). For a colour P, call a neighbour
//! *P-possible* if it is a P stone, P's edge or empty. A P stone on c can
//! only matter by joining two P-possible neighbours that are not otherwise
//! joined. It never does when the P-possible neighbours form one run
//! around c whose empty cells are only at the run's two ends: the run's
//! stones are chained neighbour to neighbour, and an end cell touches the
//! stone beside it (a run of one or two cells is joined anyway). The whole
//! ring counts as one run when at most two adjacent neighbours are empty.
//! A cell for which this holds for both colours is dead.
//!
//! # Captured pairs
//!
//! Two adjacent empty cells x and y are *P-captured* when x is dead once P
//! owns y, and y is dead once P owns x. P can then treat both as its own:
//! if the opponent takes one, P takes the other and the opponent's stone is
//! dead, the same as a P stone.
//!
//! # Vulnerable cells
//!
//! An empty cell c is *vulnerable* for the side to move, with *killer* k
//! (an empty neighbour), when c is dead once the opponent owns k. The
//! mover's move k then dominates c ([`drop_vulnerable`] gives the proof and
//! the rule that drops such moves without losing every winning one).
//!
//! # Fill-in
//!
//! Filling dead cells with either colour, and P-captured cells with P,
//! gives a position with the same value (each fill is a local strategy or
//! an irrelevant colour; repeating the analysis on the filled board is
//! sound step by step, and a dead cell stays dead as stones are added).
//! The search hooks analyse the filled position, and a move on a filled
//! cell is never better than the best move elsewhere: a dead cell is a
//! pass, which in Hex is no better than any move; a cell captured by the
//! mover is a pass in the filled position; a cell captured by the
//! opponent is answered inside its pair, which leaves the filled position
//! with the mover to move again.

use std::sync::OnceLock;

use super::geometry::{bits, Bits, Geom};

/// Whether a P stone on a cell is useless for P, given which of its six
/// ring neighbours are P-possible (`poss`, six bits in ring order) and
/// which of those are empty (`empty` ⊆ `poss`).
fn useless(poss: u8, empty: u8) -> bool {
    let full = 0b11_1111u8;
    if poss == full {
        // One run around the whole ring: fine when the empty cells are at
        // most two adjacent ones (then the rest is a chain of stones).
        return match empty.count_ones() {
            0 | 1 => true,
            2 => {
                let rotated = (empty >> 1) | ((empty & 1) << 5);
                empty & rotated != 0
            }
            _ => false,
        };
    }
    if poss == 0 {
        return true;
    }
    // Rotate so that position 0 is not P-possible; then the runs are plain
    // bit runs.
    let start = (0..6).find(|&r| poss >> r & 1 == 0).expect("not full");
    let rot = |m: u8| ((m >> start) | (m << (6 - start))) & full;
    let (p, e) = (rot(poss), rot(empty));
    let lo = p.trailing_zeros();
    let hi = 7 - p.leading_zeros();
    let run = ((1u16 << (hi + 1)) - (1u16 << lo)) as u8;
    if p != run {
        return false; // two or more runs
    }
    // Empty cells only at the two ends.
    let ends = (1u8 << lo) | (1u8 << hi);
    e & !ends == 0
}

/// `useless` as a table indexed by `poss << 6 | empty`.
fn table() -> &'static [bool; 4096] {
    static T: OnceLock<[bool; 4096]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [false; 4096];
        for (i, slot) in t.iter_mut().enumerate() {
            let (poss, empty) = ((i >> 6) as u8, (i & 63) as u8);
            *slot = empty & !poss == 0 && useless(poss, empty);
        }
        t
    })
}

/// The neighbourhood of every cell, one bitboard per ring direction.
struct Rings {
    black: [Bits; 6],
    white: [Bits; 6],
    empty: [Bits; 6],
}

impl Rings {
    fn new(g: &Geom, black: Bits, white: Bits) -> Rings {
        let empty = g.board & !(black | white);
        Rings {
            black: std::array::from_fn(|d| g.pull(black, d) | g.ring_black_edge[d]),
            white: std::array::from_fn(|d| g.pull(white, d) | g.ring_white_edge[d]),
            empty: std::array::from_fn(|d| g.pull(empty, d)),
        }
    }

    /// The six-bit masks of cell `i`: (black-possible, white-possible,
    /// empty).
    #[inline]
    fn masks(&self, i: usize) -> (u8, u8, u8) {
        let (mut b, mut w, mut e) = (0u8, 0u8, 0u8);
        for d in 0..6 {
            b |= ((self.black[d] >> i) as u8 & 1) << d;
            w |= ((self.white[d] >> i) as u8 & 1) << d;
            e |= ((self.empty[d] >> i) as u8 & 1) << d;
        }
        (b | e, w | e, e)
    }
}

/// Whether a cell with masks (black-possible, white-possible, empty) is
/// dead.
#[inline]
fn dead_masks(t: &[bool; 4096], bp: u8, wp: u8, e: u8) -> bool {
    t[(bp as usize) << 6 | e as usize] && t[(wp as usize) << 6 | e as usize]
}

/// The empty cells that are dead (see the module documentation).
pub(crate) fn dead_cells(g: &Geom, black: Bits, white: Bits) -> Bits {
    let t = table();
    let r = Rings::new(g, black, white);
    let mut dead = 0;
    for i in bits(g.board & !(black | white)) {
        let (bp, wp, e) = r.masks(i);
        if dead_masks(t, bp, wp, e) {
            dead |= 1 << i;
        }
    }
    dead
}

/// The result of [`fill_in`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FillIn {
    /// Cells captured by Black (filled with Black).
    pub black: Bits,
    /// Cells captured by White.
    pub white: Bits,
    /// Dead cells (either colour).
    pub dead: Bits,
}

impl FillIn {
    /// Every filled cell.
    #[inline]
    pub fn all(&self) -> Bits {
        self.black | self.white | self.dead
    }
}

/// Dead cells and captured pairs, repeated on the filled board until
/// nothing changes. Dead cells found earlier count as White stones in
/// later rounds (their colour is irrelevant, so any fixed choice is sound).
pub(crate) fn fill_in(g: &Geom, black: Bits, white: Bits) -> FillIn {
    let t = table();
    let mut f = FillIn::default();
    loop {
        let b = black | f.black;
        let w = white | f.white | f.dead;
        let empty = g.board & !(b | w);
        if empty == 0 {
            return f;
        }
        let r = Rings::new(g, b, w);
        let mut changed = false;
        let mut taken: Bits = 0;
        for i in bits(empty) {
            if taken >> i & 1 != 0 {
                continue;
            }
            let (bp, wp, e) = r.masks(i);
            if dead_masks(t, bp, wp, e) {
                f.dead |= 1 << i;
                taken |= 1 << i;
                changed = true;
                continue;
            }
            if e == 0 {
                continue;
            }
            // Captured pairs with an empty neighbour in direction d.
            for d in bits(e as Bits) {
                let j = match neighbour(i, d) {
                    Some(j) => j,
                    None => continue,
                };
                if taken >> j & 1 != 0 {
                    continue;
                }
                let (bj, wj, ej) = r.masks(j);
                let back = (d + 3) % 6;
                // x = i with y = j owned by the colour; and vice versa.
                let dbit = 1u8 << d;
                let bbit = 1u8 << back;
                let black_captures = dead_masks(t, bp, wp & !dbit, e & !dbit)
                    && dead_masks(t, bj, wj & !bbit, ej & !bbit);
                let white_captures = !black_captures
                    && dead_masks(t, bp & !dbit, wp, e & !dbit)
                    && dead_masks(t, bj & !bbit, wj, ej & !bbit);
                if black_captures || white_captures {
                    let pair = (1 << i) | (1 << j);
                    if black_captures {
                        f.black |= pair;
                    } else {
                        f.white |= pair;
                    }
                    taken |= pair;
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            return f;
        }
    }
}

/// The moves of `moves` (⊆ `empty`) left after dropping *vulnerable*
/// cells, on a filled position (`black`, `white`; `empty` its empty
/// cells), the mover Black if `mover_black`.
///
/// A cell c is vulnerable, with killer k (an empty neighbour), when c is
/// dead once the opponent O owns k (Björnsson, Hayward, Johanson, van
/// Rijswijck, "Dead cell analysis in Hex and the Shannon game", 2007;
/// Henderson's thesis, 2010). Then the mover M's move k dominates c. For
/// every filling F of the other cells: if M wins with O on k and M on c,
/// M also wins with O on both (c is dead there), and so with M on k and O
/// on c (an M stone instead of an O stone never hurts M). So M, after
/// playing k, can copy a winning strategy for the position after c with
/// the roles of c and k exchanged.
///
/// c is dropped when one of its killers is a move that loses (an empty
/// cell outside `moves`, the must-play region: if k loses, so does c) or
/// a move kept. Cells are taken in turn, and a killer must not have been
/// dropped before: a dropped cell's killer is then dropped only later or
/// never, so every chain of killers ends at a kept move or a losing one,
/// and if the filled position has a winning move, a kept one wins. The
/// last move is always kept. A winning move of the filled position wins
/// in the real one too (the real one has fewer opponent stones), and the
/// two have the same value.
pub(crate) fn drop_vulnerable(
    g: &Geom,
    black: Bits,
    white: Bits,
    mover_black: bool,
    empty: Bits,
    moves: Bits,
) -> Bits {
    let t = table();
    let r = Rings::new(g, black, white);
    let mut kept = moves;
    for c in bits(moves) {
        let (bp, wp, e) = r.masks(c);
        for d in bits(e as Bits) {
            let k = match neighbour(c, d) {
                Some(k) if empty >> k & 1 == 1 => k,
                _ => continue,
            };
            let dbit = 1u8 << d;
            // c with k the opponent's.
            let killed = if mover_black {
                dead_masks(t, bp & !dbit, wp, e & !dbit)
            } else {
                dead_masks(t, bp, wp & !dbit, e & !dbit)
            };
            let k_is_move = moves >> k & 1 == 1;
            if killed && (!k_is_move || kept >> k & 1 == 1) && kept != 1 << c {
                kept &= !(1 << c);
                break;
            }
        }
    }
    kept
}

/// The index of the neighbour of cell `i` in ring direction `d`
/// (`geometry::RING`), if the index is representable; the caller only
/// asks for directions whose neighbour is an empty cell on the board.
#[inline]
fn neighbour(i: usize, d: usize) -> Option<usize> {
    // RING offsets: +1, −10, −11, −1, +10, +11.
    let j = match d {
        0 => i as isize + 1,
        1 => i as isize - 10,
        2 => i as isize - 11,
        3 => i as isize - 1,
        4 => i as isize + 10,
        _ => i as isize + 11,
    };
    (0..128).contains(&j).then_some(j as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn useless_runs() {
        // All six neighbours are P stones: useless.
        assert!(useless(0b11_1111, 0));
        // Two opposite P stones, rest not possible: two runs.
        assert!(!useless(0b00_1001, 0));
        // One run of three stones.
        assert!(useless(0b00_0111, 0));
        // A run of three with an empty end, and with an empty middle.
        assert!(useless(0b00_0111, 0b00_0001));
        assert!(!useless(0b00_0111, 0b00_0010));
        // A run wrapping around position 0.
        assert!(useless(0b11_0001, 0b01_0000));
        assert!(!useless(0b11_0001, 0b10_0000));
        // Full ring with two adjacent empties, or two apart.
        assert!(useless(0b11_1111, 0b10_0001));
        assert!(!useless(0b11_1111, 0b00_0101));
        // Nothing possible.
        assert!(useless(0, 0));
    }

    #[test]
    fn the_surrounded_cell_rule_is_a_special_case() {
        // `Geom::dead_cells` (a full ring of at most two colour arcs) is the
        // simplest dead-cell rule; every cell it finds must be dead here
        // too, and the general rule should find more.
        let mut rng = pns_core::Rng::new(99);
        let (mut simple, mut general) = (0, 0);
        for n in [4usize, 6, 8, 11] {
            let g = super::super::geometry::geom(n, n);
            for _ in 0..300 {
                let (black, white) = g.random_stones(&mut rng, 3);
                let s = g.dead_cells(black, white);
                let d = dead_cells(g, black, white);
                assert_eq!(s & !d, 0, "{n}x{n}");
                simple += s.count_ones();
                general += d.count_ones();
            }
        }
        assert!(general > simple, "{general} vs {simple}");
    }
}
