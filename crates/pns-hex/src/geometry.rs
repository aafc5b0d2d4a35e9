//! Board geometry: cell indexing, bit masks, neighbour shifts and flood fill.
//!
//! A board of `width` columns and `height` rows is a `u128` bitboard with
//! cell `(x, y)` (x = column, y = row, both 0-based) at bit `y * 11 + x`,
//! whatever the width: a fixed row stride makes every shift a constant
//! (1, 10 or 11), which compiles to two instructions on a `u128` where a
//! variable shift needs a handful more, and floods are the hot loop of the
//! search hooks. 11x11 uses 121 of the 128 bits, so there is no room for a
//! guard column; instead the shifts that move a cell sideways mask out the
//! column that bits wrap into (on narrower boards they land off the board,
//! which the same masks exclude). Everything here is branch-free and
//! allocation-free.

use std::sync::OnceLock;

/// A set of cells, one bit per cell (see the module documentation).
pub(crate) type Bits = u128;

/// Smallest supported side length.
pub const MIN_SIZE: usize = 2;
/// Largest supported side length (11x11 = 121 cells fills a `u128`).
pub const MAX_SIZE: usize = 11;
/// Most cells on a supported board.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// Bit index of cell (column x, row y) is `y * STRIDE + x` on every board.
pub const STRIDE: usize = MAX_SIZE;

/// Everything about one board shape, computed once and shared by every
/// position of that shape (positions hold a `&'static Geom`).
pub(crate) struct Geom {
    pub width: u8,
    pub height: u8,
    /// Every cell of the board.
    pub board: Bits,
    /// Cells not in column `a`: where a shift towards higher `x` may land.
    pub not_first_col: Bits,
    /// Cells not in the last column: where a shift towards lower `x` may land.
    pub not_last_col: Bits,
    /// Row 1 (Black's first edge).
    pub north: Bits,
    /// Row `height` (Black's second edge).
    pub south: Bits,
    /// Column `a` (White's first edge).
    pub west: Bits,
    /// The last column (White's second edge).
    pub east: Bits,
    /// Per direction of [`RING`]: the cells whose neighbour that way is on
    /// the board.
    pub ring_on: [Bits; 6],
    /// Per direction: the cells whose neighbour that way is off the board
    /// beyond the first or last row, i.e. Black's edge.
    pub ring_black_edge: [Bits; 6],
    /// Per direction: the cells whose neighbour that way is off the board
    /// only beyond the first or last column, i.e. White's edge.
    pub ring_white_edge: [Bits; 6],
    /// Mixed into the Zobrist key so equal stone patterns on different
    /// shapes get unrelated keys.
    pub salt: u64,
    /// Cell indices ordered centre first (see [`centre_order`]); the
    /// first `width * height` entries are used.
    pub centre_order: [u8; MAX_CELLS],
    /// Cell indices in row-major order (a1, b1, …); the first
    /// `width * height` entries are used.
    pub row_major: [u8; MAX_CELLS],
}

impl Geom {
    fn build(width: usize, height: usize) -> Geom {
        let mut g = Geom {
            width: width as u8,
            height: height as u8,
            board: 0,
            not_first_col: 0,
            not_last_col: 0,
            north: 0,
            south: 0,
            west: 0,
            east: 0,
            salt: crate::zobrist::size_salt(width, height),
            centre_order: [0; MAX_CELLS],
            row_major: [0; MAX_CELLS],
            ring_on: [0; 6],
            ring_black_edge: [0; 6],
            ring_white_edge: [0; 6],
        };
        for y in 0..height {
            for x in 0..width {
                let i = y * STRIDE + x;
                g.row_major[y * width + x] = i as u8;
                let b: Bits = 1 << i;
                g.board |= b;
                if x != 0 {
                    g.not_first_col |= b;
                } else {
                    g.west |= b;
                }
                if x != width - 1 {
                    g.not_last_col |= b;
                } else {
                    g.east |= b;
                }
                if y == 0 {
                    g.north |= b;
                }
                if y == height - 1 {
                    g.south |= b;
                }
                for (d, (dx, dy)) in RING.iter().enumerate() {
                    let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                    if ny < 0 || ny >= height as i32 {
                        // Past a row edge; at an obtuse corner the
                        // neighbour is past both, and either colour gives
                        // the same arcs (see `dead_cells`).
                        g.ring_black_edge[d] |= b;
                    } else if nx < 0 || nx >= width as i32 {
                        g.ring_white_edge[d] |= b;
                    } else {
                        g.ring_on[d] |= b;
                    }
                }
            }
        }
        let order = centre_order(width, height);
        g.centre_order[..order.len()].copy_from_slice(&order);
        g
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The six neighbours of every cell in `s`, possibly including cells
    /// off the board (callers intersect with a subset of the board).
    ///
    /// Neighbours of `(x, y)`: `(x±1, y)`, `(x, y±1)`, `(x+1, y−1)`,
    /// `(x−1, y+1)`. Both moves to column `x+1` are index shifts by `+1` and
    /// `−10`; a bit that wraps lands in column `a` (11 wide) or off the board
    /// (narrower), and cannot be an `x+1` neighbour of anything, so one mask
    /// clears both. Likewise for `x−1` and the last column. Vertical shifts
    /// by 11 need no mask: bits fall off the word or beyond the board.
    #[inline(always)]
    pub fn spread(&self, s: Bits) -> Bits {
        let right = ((s << 1) | (s >> 10)) & self.not_first_col;
        let left = ((s >> 1) | (s << 10)) & self.not_last_col;
        right | left | (s << 11) | (s >> 11)
    }

    /// The cells whose neighbour in direction `RING[d]` is in `t`.
    #[inline(always)]
    pub fn pull(&self, t: Bits, d: usize) -> Bits {
        // Neighbour index offsets of RING: +1, −10, −11, −1, +10, +11; a cell
        // c is pulled when c + offset is in `t`.
        let shifted = match d {
            0 => t >> 1,
            1 => t << 10,
            2 => t << 11,
            3 => t << 1,
            4 => t >> 10,
            _ => t >> 11,
        };
        shifted & self.ring_on[d]
    }

    /// A random board for tests: each cell is Black's, White's or empty,
    /// each one chance in `choices` (empty for the rest).
    #[cfg(test)]
    pub fn random_stones(&self, rng: &mut pns_core::Rng, choices: u64) -> (Bits, Bits) {
        let (mut black, mut white) = (0, 0);
        for i in bits(self.board) {
            match rng.below(choices) {
                0 => black |= 1 << i,
                1 => white |= 1 << i,
                _ => {}
            }
        }
        (black, white)
    }

    /// The empty cells that are dead: filling one with a stone of either
    /// colour cannot change who can join their edges.
    ///
    /// Walk once around a cell through its six neighbours (the edges count
    /// as stones of their owner). If no neighbour is empty and the colours
    /// form at most two arcs, the cell is dead: consecutive neighbours
    /// around a cell touch each other (or share an edge), so each arc is
    /// already one connected unit for its owner, and a stone on the cell
    /// would join nothing new. (A single cell never touches both of one
    /// side's edges on boards of at least 2x2.) Counting colour changes
    /// between consecutive neighbours: at most two means at most two arcs.
    ///
    /// The search uses the more general rule of `inferior::dead_cells`;
    /// this one is kept as a cross-check in its tests.
    #[cfg(test)]
    pub fn dead_cells(&self, black: Bits, white: Bits) -> Bits {
        let mut b = [0; 6];
        let mut full = self.board & !(black | white);
        for (d, bd) in b.iter_mut().enumerate() {
            *bd = self.pull(black, d) | self.ring_black_edge[d];
            let wd = self.pull(white, d) | self.ring_white_edge[d];
            full &= *bd | wd;
        }
        if full == 0 {
            return 0;
        }
        // Changes between consecutive neighbours; where every neighbour is
        // a stone or an edge, "not Black" means White.
        let c: [Bits; 6] = std::array::from_fn(|d| b[d] ^ b[(d + 1) % 6]);
        // At least four changes (the count is even): with s = sum of three
        // and k = their carries, total = s1 + s2 + 2 (k1 + k2).
        let (s1, k1) = (c[0] ^ c[1] ^ c[2], (c[0] & c[1]) | (c[2] & (c[0] ^ c[1])));
        let (s2, k2) = (c[3] ^ c[4] ^ c[5], (c[3] & c[4]) | (c[5] & (c[3] ^ c[4])));
        let four_or_more = (k1 & k2) | ((k1 ^ k2) & s1 & s2);
        full & !four_or_more
    }

    /// The cells with at least two neighbours in `t` (a subset of the
    /// board), counted bit-parallel over the six directions.
    #[inline]
    pub fn two_neighbours_in(&self, t: Bits) -> Bits {
        let (mut ones, mut twos) = (0, 0);
        for d in 0..6 {
            let p = self.pull(t, d);
            twos |= ones & p;
            ones |= p;
        }
        twos
    }

    /// The neighbours of the cells in `s`, on the board (may include `s`).
    #[inline]
    pub fn neighbours(&self, s: Bits) -> Bits {
        self.spread(s) & self.board
    }

    /// Every cell of `allowed` connected to `seed ∩ allowed` through cells of
    /// `allowed`. Each round grows the set by one step in all six directions,
    /// so the cost is the longest shortest path inside the result.
    #[inline]
    pub fn flood(&self, seed: Bits, allowed: Bits) -> Bits {
        let mut r = seed & allowed;
        loop {
            let n = r | (self.spread(r) & allowed);
            if n == r {
                return r;
            }
            r = n;
        }
    }

    /// The two edges a side joins: Black (`First`) joins rows 1 and N,
    /// White (`Second`) joins columns `a` and N.
    #[inline]
    pub fn edges(&self, black: bool) -> (Bits, Bits) {
        if black {
            (self.north, self.south)
        } else {
            (self.west, self.east)
        }
    }

    /// Whether `stones` contain a chain joining the two edges `(a, b)`.
    #[inline]
    pub fn joins(&self, stones: Bits, (a, b): (Bits, Bits)) -> bool {
        // Cheap rejections first: most positions in a search are far from
        // connected, and these cost two ANDs.
        if stones & a == 0 || stones & b == 0 {
            return false;
        }
        self.flood(stones & a, stones) & b != 0
    }
}

/// The six neighbour directions `(dx, dy)` in order around a cell, so that
/// consecutive ones (cyclically) are neighbours of each other.
pub(crate) const RING: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Cells ordered centre first: by hex distance from the board's centre, then
/// by distance from the short diagonal line through the centre, then by
/// index.
///
/// The centre and the short diagonal (`a`N … N`1` on NxN) hold the strong
/// opening moves (see openings-winner.txt), so trying them first makes a
/// good fixed order for the search. Distances use doubled coordinates so a
/// centre between cells (even sizes) stays exact.
pub(crate) fn centre_order(width: usize, height: usize) -> Vec<u8> {
    let key = |i: usize| {
        let dx = 2 * (i % STRIDE) as i32 - (width as i32 - 1);
        let dy = 2 * (i / STRIDE) as i32 - (height as i32 - 1);
        // Hex distance in these axial coordinates: max(|dx|, |dy|, |dx+dy|).
        let d = dx.abs().max(dy.abs()).max((dx + dy).abs());
        (d, (dx + dy).abs(), i)
    };
    let mut cells: Vec<usize> = (0..height)
        .flat_map(|y| (0..width).map(move |x| y * STRIDE + x))
        .collect();
    cells.sort_by_key(|&i| key(i));
    cells.into_iter().map(|i| i as u8).collect()
}

/// The shared geometry of a `width` x `height` board (both in
/// `MIN_SIZE..=MAX_SIZE`, checked by the caller).
pub(crate) fn geom(width: usize, height: usize) -> &'static Geom {
    static TABLE: OnceLock<Vec<Geom>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut v = Vec::new();
        for w in MIN_SIZE..=MAX_SIZE {
            for h in MIN_SIZE..=MAX_SIZE {
                v.push(Geom::build(w, h));
            }
        }
        v
    });
    debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&width));
    debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&height));
    let n = MAX_SIZE - MIN_SIZE + 1;
    &table[(width - MIN_SIZE) * n + (height - MIN_SIZE)]
}

/// Iterates over the indices of the set bits of `b`, lowest first.
#[inline]
pub(crate) fn bits(mut b: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbours by the coordinate rule, for comparison with the shifts.
    fn slow_neighbours(w: usize, h: usize, i: usize) -> Bits {
        let (x, y) = ((i % STRIDE) as i32, (i / STRIDE) as i32);
        let mut r = 0;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 0 && ny >= 0 && (nx as usize) < w && (ny as usize) < h {
                r |= 1 << (ny as usize * STRIDE + nx as usize);
            }
        }
        r
    }

    fn geometry_cells(w: usize, h: usize) -> impl Iterator<Item = usize> {
        (0..h).flat_map(move |y| (0..w).map(move |x| y * STRIDE + x))
    }

    #[test]
    fn shifts_match_the_coordinate_rule_on_every_shape() {
        for w in MIN_SIZE..=MAX_SIZE {
            for h in MIN_SIZE..=MAX_SIZE {
                let g = geom(w, h);
                assert_eq!(g.board.count_ones() as usize, w * h);
                for i in geometry_cells(w, h) {
                    let n = g.neighbours(1 << i) & !(1 << i);
                    assert_eq!(n, slow_neighbours(w, h, i), "{w}x{h} cell {i}");
                }
                let mut order = g.centre_order[..w * h].to_vec();
                order.sort_unstable();
                assert_eq!(order, g.row_major[..w * h].to_vec());
                let all: Vec<u8> = geometry_cells(w, h).map(|i| i as u8).collect();
                assert_eq!(all, g.row_major[..w * h].to_vec());
            }
        }
    }

    #[test]
    fn two_neighbour_count_matches_a_slow_count() {
        let mut x: u64 = 1;
        for w in MIN_SIZE..=MAX_SIZE {
            for h in MIN_SIZE..=MAX_SIZE {
                let g = geom(w, h);
                for _ in 0..20 {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let t = (((x as u128) << 64) | (x.rotate_left(17) as u128)) & g.board;
                    let fast = g.two_neighbours_in(t);
                    for i in geometry_cells(w, h) {
                        let n = (slow_neighbours(w, h, i) & t).count_ones();
                        assert_eq!(fast >> i & 1 == 1, n >= 2, "{w}x{h} cell {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn centre_comes_first() {
        // 5x5: the centre c3 is index 2 * 11 + 2; 4x4 starts on the short
        // diagonal: c2 (1 * 11 + 2) and b3 (2 * 11 + 1).
        assert_eq!(geom(5, 5).centre_order[0], 24);
        let first2: Vec<u8> = geom(4, 4).centre_order[..2].to_vec();
        assert_eq!(first2, vec![13, 23]);
    }
}
