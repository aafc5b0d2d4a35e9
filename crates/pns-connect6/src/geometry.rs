//! Board geometry shared by every position of one (width, height, k):
//! the lines (rows, columns, both diagonals) long enough to hold k in a
//! row, each cell's place on them, and the Zobrist numbers. Built once per
//! parameter set and kept for the life of the program (a handful exist).

use std::sync::{Mutex, OnceLock};

use pns_core::rng::splitmix64;

/// The largest board side (lines are `u32` bit strings; 19 is Connect6's
/// Go board).
pub const MAX_SIDE: usize = 19;
/// The most cells.
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// Words of a cell bitset.
pub const WORDS: usize = MAX_CELLS.div_ceil(64);
/// The most lines: rows, columns and two diagonal directions.
pub const MAX_LINES: usize = 2 * MAX_SIDE + 2 * (2 * MAX_SIDE - 1);
/// No line (a diagonal too short for k in a row).
pub const NO_LINE: u16 = u16::MAX;

/// One line of cells (a row, a column or a diagonal) of length ≥ k.
#[derive(Debug)]
pub struct Line {
    /// The cells in order along the line; bit i of a line word is `cells[i]`.
    pub cells: Vec<u16>,
}

/// The geometry of a width × height board with k in a row.
#[derive(Debug)]
pub struct Geometry {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    pub lines: Vec<Line>,
    /// For each cell, its (line, bit) on each of the four directions, or
    /// `(NO_LINE, 0)`.
    pub cell_lines: Vec<[(u16, u8); 4]>,
    /// Zobrist numbers, `[cell][colour]`.
    pub zobrist: Vec<[u64; 2]>,
}

impl Geometry {
    fn build(width: usize, height: usize, k: usize) -> Geometry {
        let n = width * height;
        let mut lines = Vec::new();
        let mut cell_lines = vec![[(NO_LINE, 0u8); 4]; n];
        let cell = |c: isize, r: isize| -> Option<u16> {
            (c >= 0 && r >= 0 && (c as usize) < width && (r as usize) < height)
                .then(|| (r as usize * width + c as usize) as u16)
        };
        // Directions: east, north, north-east, south-east. A line starts at
        // a cell whose predecessor in that direction is off the board.
        let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for (d, &(dc, dr)) in dirs.iter().enumerate() {
            for r in 0..height as isize {
                for c in 0..width as isize {
                    if cell(c - dc, r - dr).is_some() {
                        continue;
                    }
                    let mut cells = Vec::new();
                    let (mut x, mut y) = (c, r);
                    while let Some(id) = cell(x, y) {
                        cells.push(id);
                        x += dc;
                        y += dr;
                    }
                    if cells.len() < k {
                        continue;
                    }
                    let li = lines.len() as u16;
                    for (i, &id) in cells.iter().enumerate() {
                        cell_lines[id as usize][d] = (li, i as u8);
                    }
                    lines.push(Line { cells });
                }
            }
        }
        let mut s =
            0x0c6_u64 ^ ((width as u64) << 16) ^ ((height as u64) << 24) ^ ((k as u64) << 32);
        let zobrist = (0..n)
            .map(|_| {
                let mut z = [0u64; 2];
                for v in &mut z {
                    s = splitmix64(s);
                    *v = s;
                }
                z
            })
            .collect();
        Geometry {
            width,
            height,
            k,
            lines,
            cell_lines,
            zobrist,
        }
    }

    /// The shared geometry for (width, height, k).
    pub fn get(width: usize, height: usize, k: usize) -> &'static Geometry {
        static ALL: OnceLock<Mutex<Vec<&'static Geometry>>> = OnceLock::new();
        let mut all = ALL
            .get_or_init(|| Mutex::new(Vec::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(g) = all
            .iter()
            .find(|g| g.width == width && g.height == height && g.k == k)
        {
            return g;
        }
        let g: &'static Geometry = Box::leak(Box::new(Geometry::build(width, height, k)));
        all.push(g);
        g
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Column and row (0-based, row 0 at the bottom) of a cell.
    #[inline]
    pub fn col_row(&self, c: u16) -> (usize, usize) {
        (c as usize % self.width, c as usize / self.width)
    }
}

/// A set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(pub [u64; WORDS]);

impl CellSet {
    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        self.0[c as usize >> 6] >> (c & 63) & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, c: u16) {
        self.0[c as usize >> 6] |= 1 << (c & 63);
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    pub fn union_with(&mut self, o: &CellSet) {
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
    }
    /// The cells in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64) as u16 + b as u16
                })
            })
        })
    }
}
