//! A bitboard of the points of a Go board up to 19x19: 6 words, rows of
//! [`STRIDE`] = 20 bits (19 points and a gap column, so that a shift by one
//! never carries a stone from one row's end to the next row's start once
//! the result is masked by the board).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// Bits per row: the largest board's width plus a gap column.
pub const STRIDE: usize = 20;
/// Words of a bitboard.
pub const WORDS: usize = 6;
/// Largest board.
pub const MAX_SIZE: usize = 19;
/// Point indices are below this.
pub const MAX_POINTS: usize = STRIDE * MAX_SIZE;

/// A set of points (index `y * STRIDE + x`, `y` counted from the top row).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bits(pub [u64; WORDS]);

impl std::fmt::Debug for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Bits {
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set of one point.
    #[inline]
    pub const fn single(p: usize) -> Bits {
        let mut b = [0u64; WORDS];
        b[p / 64] = 1u64 << (p % 64);
        Bits(b)
    }

    /// Every point of a `size` x `size` board.
    pub const fn board(size: usize) -> Bits {
        let mut b = [0u64; WORDS];
        let mut y = 0;
        while y < size {
            let mut x = 0;
            while x < size {
                let p = y * STRIDE + x;
                b[p / 64] |= 1u64 << (p % 64);
                x += 1;
            }
            y += 1;
        }
        Bits(b)
    }

    #[inline]
    pub fn get(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 != 0
    }

    #[inline]
    pub fn set(&mut self, p: usize) {
        self.0[p / 64] |= 1u64 << (p % 64);
    }

    #[inline]
    pub fn clear(&mut self, p: usize) {
        self.0[p / 64] &= !(1u64 << (p % 64));
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the two sets meet.
    #[inline]
    pub fn intersects(&self, o: &Bits) -> bool {
        self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
    }

    /// `self` without the points of `o`.
    #[inline]
    pub fn minus(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= !b;
        }
        r
    }

    /// The lowest point, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }

    /// The points, lowest first.
    pub fn iter(&self) -> BitsIter {
        BitsIter(*self, 0)
    }

    #[inline]
    #[allow(clippy::needless_range_loop)] // two words per step
    fn shl(&self, n: u32) -> Bits {
        let mut r = [0u64; WORDS];
        r[0] = self.0[0] << n;
        for i in 1..WORDS {
            r[i] = (self.0[i] << n) | (self.0[i - 1] >> (64 - n));
        }
        Bits(r)
    }

    #[inline]
    #[allow(clippy::needless_range_loop)] // two words per step
    fn shr(&self, n: u32) -> Bits {
        let mut r = [0u64; WORDS];
        for i in 0..WORDS - 1 {
            r[i] = (self.0[i] >> n) | (self.0[i + 1] << (64 - n));
        }
        r[WORDS - 1] = self.0[WORDS - 1] >> n;
        Bits(r)
    }

    /// The set and its neighbours (up, down, left, right), within `board`.
    #[inline]
    pub fn dilate(&self, board: &Bits) -> Bits {
        let s = STRIDE as u32;
        (*self | self.shl(1) | self.shr(1) | self.shl(s) | self.shr(s)) & *board
    }

    /// The points next to some point of the set (the set itself only
    /// where its points touch each other), within `board`.
    #[inline]
    pub fn adjacent(&self, board: &Bits) -> Bits {
        let s = STRIDE as u32;
        (self.shl(1) | self.shr(1) | self.shl(s) | self.shr(s)) & *board
    }

    /// The points of `board` with two or more of their neighbours in the
    /// set.
    #[inline]
    pub fn adjacent_twice(&self, board: &Bits) -> Bits {
        let s = STRIDE as u32;
        let (a, b) = (self.shl(1), self.shr(1));
        let (c, d) = (self.shl(s), self.shr(s));
        // Two of four: both of one pair, or one of each pair.
        ((a & b) | (c & d) | ((a | b) & (c | d))) & *board
    }

    /// The points next to the set and not in it, within `board`.
    #[inline]
    pub fn border(&self, board: &Bits) -> Bits {
        self.dilate(board).minus(self)
    }

    /// The connected part of `within` that holds `seed` (flood fill by
    /// repeated dilation; `seed` must be in `within`).
    #[inline]
    pub fn flood(seed: Bits, within: &Bits) -> Bits {
        let mut b = seed;
        loop {
            let n = b.dilate(within);
            // Compared word by word: `==` on the array became a call to
            // memcmp, which was half of a capturing search's profile.
            let grew = n.0.iter().zip(b.0.iter()).fold(0, |a, (x, y)| a | (x ^ y));
            if grew == 0 {
                return b;
            }
            b = n;
        }
    }
}

/// Iterator over the points of a [`Bits`].
pub struct BitsIter(Bits, usize);

impl Iterator for BitsIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.1 < WORDS {
            let w = &mut (self.0).0[self.1];
            if *w != 0 {
                let t = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.1 * 64 + t);
            }
            self.1 += 1;
        }
        None
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $op:tt) => {
        #[allow(clippy::assign_op_pattern)]
        impl $tr for Bits {
            type Output = Bits;
            #[inline]
            fn $f(self, o: Bits) -> Bits {
                let mut r = self.0;
                for (a, b) in r.iter_mut().zip(o.0.iter()) {
                    *a = *a $op b;
                }
                Bits(r)
            }
        }
    };
}
bitop!(BitAnd, bitand, &);
bitop!(BitOr, bitor, |);
bitop!(BitXor, bitxor, ^);

impl BitAndAssign for Bits {
    #[inline]
    fn bitand_assign(&mut self, o: Bits) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bits {
    #[inline]
    fn bitor_assign(&mut self, o: Bits) {
        *self = *self | o;
    }
}

impl Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits(self.0.map(|w| !w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilation_stays_on_the_board_and_in_rows() {
        let b = Bits::board(19);
        assert_eq!(b.count(), 361);
        // A point at a row's end does not spill into the next row.
        let p = 18; // (18, 0)
        let d = Bits::single(p).dilate(&b);
        assert_eq!(d.iter().collect::<Vec<_>>(), vec![17, 18, 18 + STRIDE]);
        let q = STRIDE; // (0, 1)
        let d = Bits::single(q).dilate(&b);
        assert_eq!(
            d.iter().collect::<Vec<_>>(),
            vec![0, STRIDE, STRIDE + 1, 2 * STRIDE]
        );
        let last = 18 * STRIDE + 18;
        assert_eq!(Bits::single(last).dilate(&b).count(), 3);
        let small = Bits::board(5);
        assert_eq!(Bits::single(4 * STRIDE + 4).dilate(&small).count(), 3);
    }

    #[test]
    fn flood_fills_one_component() {
        let b = Bits::board(9);
        let mut within = Bits::EMPTY;
        for p in [0, 1, 2, STRIDE + 2, 5, 6] {
            within.set(p);
        }
        let f = Bits::flood(Bits::single(0), &(within & b));
        assert_eq!(f.iter().collect::<Vec<_>>(), vec![0, 1, 2, STRIDE + 2]);
        assert_eq!(f.first(), Some(0));
        assert_eq!(Bits::EMPTY.first(), None);
    }
}
