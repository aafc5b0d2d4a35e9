//! Bitboard primitives: move generation and flip computation.
//!
//! Square `s` is bit `s` of a `u64`, with `s = 8 * row + column`: a1 is bit
//! 0, h1 bit 7, a2 bit 8, h8 bit 63. Shifting left by 1 therefore moves one
//! column towards h, by 8 one row towards 8; a shift that crosses the a/h
//! edge would wrap around into the neighbouring row, which the masks below
//! prevent. Everything here is branch-light and allocation-free because it
//! runs at every node of a search and every step of a playout.

/// Every square except those on the a- and h-files. An opponent disc that
/// is *inside* a horizontal or diagonal run can never lie on these files,
/// so masking the opponent's discs with it stops runs from wrapping around
/// the board's left and right edges.
pub(crate) const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The four corner squares a1, h1, a8, h8.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Runs of `runners` (opponent discs allowed inside a run) that start next
/// to a disc of `from` and head towards higher bit numbers in steps of
/// `s`; returns the squares just past the end of each such run.
///
/// This is the parallel-prefix (Kogge-Stone) fill: two single steps, then
/// two double steps, reach the longest possible run of six discs in four
/// rounds instead of six.
#[inline(always)]
fn sweep_up(from: u64, runners: u64, s: u32) -> u64 {
    let mut f = runners & (from << s);
    f |= runners & (f << s);
    let pairs = runners & (runners << s);
    f |= pairs & (f << (2 * s));
    f |= pairs & (f << (2 * s));
    f << s
}

/// [`sweep_up`] towards lower bit numbers.
#[inline(always)]
fn sweep_down(from: u64, runners: u64, s: u32) -> u64 {
    let mut f = runners & (from >> s);
    f |= runners & (f >> s);
    let pairs = runners & (runners >> s);
    f |= pairs & (f >> (2 * s));
    f |= pairs & (f >> (2 * s));
    f >> s
}

/// The squares where the owner of `me` may place a disc, with `opp` the
/// other player's discs.
#[inline]
pub(crate) fn legal_moves(me: u64, opp: u64) -> u64 {
    let inner = opp & INNER_COLUMNS;
    let m = sweep_up(me, inner, 1)
        | sweep_down(me, inner, 1)
        | sweep_up(me, opp, 8)
        | sweep_down(me, opp, 8)
        | sweep_up(me, inner, 7)
        | sweep_down(me, inner, 7)
        | sweep_up(me, inner, 9)
        | sweep_down(me, inner, 9);
    m & !(me | opp)
}

/// Ray tables: `RAYS[d][s]` holds the squares strictly beyond `s` in
/// direction `d`, up to the edge of the board. Directions 0..4 go towards
/// higher bit numbers (E, N, NE, NW), 4..8 towards lower ones (W, S, SW,
/// SE), which lets [`flips`] find the nearest non-opponent square with a
/// single `trailing_zeros` / `leading_zeros`.
static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    // (column step, row step) per direction, in the order documented above.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (dc, dr) = STEPS[d];
            let mut c = (s % 8) as i32 + dc;
            let mut r = (s / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[d][s] = ray;
            s += 1;
        }
        d += 1;
    }
    rays
}

/// The opponent discs that a disc placed by `me` on square `sq` turns over
/// (empty when the move is illegal). `sq` must be empty.
#[inline]
pub(crate) fn flips(me: u64, opp: u64, sq: u32) -> u64 {
    let sq = sq as usize;
    let mut flipped = 0u64;
    // Towards higher bits: the lowest non-opponent square on the ray ends
    // the run; the run flips when that square holds one of our discs.
    for rays in &RAYS[..4] {
        let ray = rays[sq];
        let stops = ray & !opp;
        let first = stops & stops.wrapping_neg();
        if first & me != 0 {
            flipped |= ray & (first - 1);
        }
    }
    // Towards lower bits: the same with the highest non-opponent square.
    for rays in &RAYS[4..] {
        let ray = rays[sq];
        let stops = ray & !opp;
        if stops != 0 {
            let k = 63 - stops.leading_zeros();
            if (me >> k) & 1 != 0 {
                flipped |= ray & (u64::MAX << k << 1);
            }
        }
    }
    flipped
}

/// The index of the `n`-th lowest set bit of `bits` (`n < popcount`).
#[inline]
pub(crate) fn nth_set_bit(mut bits: u64, n: u64) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits.trailing_zeros()
}

/// Iterates over the indices of the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Squares(pub(crate) u64);

impl Iterator for Squares {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain square-by-square reference for moves and flips, to check
    /// the bit tricks above against on random boards.
    fn slow_flips(me: u64, opp: u64, sq: u32) -> u64 {
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + c);
                if opp & b != 0 {
                    run |= b;
                } else {
                    if me & b != 0 {
                        all |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    #[test]
    fn bit_tricks_match_a_square_by_square_reference() {
        let mut rng = pns_core::Rng::new(11);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            // Thin the boards out sometimes so that empty squares abound.
            let (me, opp) = if rng.below(2) == 0 {
                (a, b)
            } else {
                let keep = rng.next_u64() | rng.next_u64();
                (a & keep, b & keep)
            };
            let mut expect_moves = 0;
            for sq in 0..64 {
                if (me | opp) >> sq & 1 != 0 {
                    continue;
                }
                let f = slow_flips(me, opp, sq);
                assert_eq!(flips(me, opp, sq), f, "me={me:#x} opp={opp:#x} sq={sq}");
                if f != 0 {
                    expect_moves |= 1 << sq;
                }
            }
            assert_eq!(
                legal_moves(me, opp),
                expect_moves,
                "me={me:#x} opp={opp:#x}"
            );
        }
    }

    #[test]
    fn nth_set_bit_and_squares_agree() {
        let bits = 0x8100_0010_2000_0481u64;
        let v: Vec<u32> = Squares(bits).collect();
        assert_eq!(v, vec![0, 7, 10, 29, 36, 56, 63]);
        for (i, &s) in v.iter().enumerate() {
            assert_eq!(nth_set_bit(bits, i as u64), s);
        }
    }
}
