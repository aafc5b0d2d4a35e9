//! The Connect(m, n, k, p, q) position: an m × n board, k (or more) in a
//! row wins, the first player places q stones on the first turn and then
//! each side p a turn. Connect6 is (19, 19, 6, 2, 1) (Deep df-pn paper
//! §5.1; Wu and Huang's rules).
//!
//! A search node is one *stone* (a half-move): the side to move keeps the
//! move until its turn's stones are placed (`left` counts them). Measured
//! against whole turns as nodes in `docs/PERFORMANCE.md`; a turn as one
//! node is kept as an option (`turn=pair`), with `Turn` moves of two cells.
//!
//! Lines are kept as `u32` bit strings per colour (rows, columns and both
//! diagonals of length ≥ k), so that a win is found with k−1 shifts on the
//! four lines through the new stone, and windows of k cells are counted
//! with one mask and a popcount.

use std::fmt;
use std::hash::{Hash, Hasher};

use pns_core::rng::splitmix64;
use pns_core::{GameError, Side};

use crate::geometry::{CellSet, Geometry, MAX_LINES, MAX_SIDE, NO_LINE};

/// No cell: the second stone of a one-stone [`Turn`].
pub const NO_CELL: u16 = u16::MAX;

/// A move: one stone (`b == NO_CELL`), or two stones of one turn in
/// `turn=pair` mode (`a < b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Turn {
    pub a: u16,
    pub b: u16,
}

impl Turn {
    #[inline]
    pub fn one(a: u16) -> Turn {
        Turn { a, b: NO_CELL }
    }
    #[inline]
    pub fn two(a: u16, b: u16) -> Turn {
        Turn {
            a: a.min(b),
            b: a.max(b),
        }
    }
    /// The cells of the move.
    pub fn cells(&self) -> impl Iterator<Item = u16> {
        [self.a, self.b].into_iter().filter(|&c| c != NO_CELL)
    }
}

/// The game's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    pub width: usize,
    pub height: usize,
    /// Stones in a row that win (k or more).
    pub k: usize,
    /// Stones per turn.
    pub p: usize,
    /// Stones of the first player's first turn.
    pub q: usize,
    /// A turn is one search node (`turn=pair`) rather than one per stone.
    pub pairs: bool,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            width: 19,
            height: 19,
            k: 6,
            p: 2,
            q: 1,
            pairs: false,
        }
    }
}

impl Params {
    /// Checks the ranges the implementation supports.
    pub fn check(&self) -> Result<(), GameError> {
        let side = 1..=MAX_SIDE;
        if !side.contains(&self.width) || !side.contains(&self.height) {
            return Err(GameError::new(format!(
                "board {}x{}: each side must be 1-{MAX_SIDE}",
                self.width, self.height
            )));
        }
        if !(2..=8).contains(&self.k) {
            return Err(GameError::new(format!("k={} must be 2-8", self.k)));
        }
        if !(1..=3).contains(&self.p) || !(1..=3).contains(&self.q) {
            return Err(GameError::new(format!(
                "p={} and q={} must be 1-3",
                self.p, self.q
            )));
        }
        if self.pairs && self.p > 2 {
            return Err(GameError::new("turn=pair needs p at most 2"));
        }
        Ok(())
    }

    /// The parameter list in notation, empty for the default Connect6.
    pub fn spec(&self) -> String {
        if *self == Params::default() {
            return String::new();
        }
        let mut s = format!("{}x{}", self.width, self.height);
        let d = Params::default();
        for (name, v, dv) in [("k", self.k, d.k), ("p", self.p, d.p), ("q", self.q, d.q)] {
            if v != dv {
                s.push_str(&format!(",{name}={v}"));
            }
        }
        if self.pairs {
            s.push_str(",turn=pair");
        }
        s
    }
}

/// A window of k cells free of one colour: its empty cells (at most 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub cells: [u16; 8],
    pub n: u8,
}

impl Window {
    #[inline]
    pub fn empties(&self) -> &[u16] {
        &self.cells[..self.n as usize]
    }
    #[inline]
    pub fn contains(&self, c: u16) -> bool {
        self.empties().contains(&c)
    }
}

/// A Connect(m, n, k, p, q) position.
#[derive(Clone)]
pub struct Connect6 {
    pub(crate) geo: &'static Geometry,
    pub(crate) params: Params,
    /// Line bit strings per colour (0 = first player, Black).
    pub(crate) lines: [[u32; MAX_LINES]; 2],
    /// Occupied cells per colour.
    pub(crate) occ: [CellSet; 2],
    pub(crate) stones: u16,
    pub(crate) to_move: Side,
    /// Stones still to place in the current turn (≥ 1).
    pub(crate) left: u8,
    pub(crate) winner: Option<Side>,
    /// Zobrist key of the stones.
    pub(crate) board_key: u64,
}

#[inline]
pub(crate) fn colour(s: Side) -> usize {
    match s {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// Whether `x` has `k` consecutive set bits.
#[inline(always)]
fn has_run(x: u32, k: usize) -> bool {
    let mut y = x;
    for i in 1..k {
        y &= x >> i;
    }
    y != 0
}

impl Connect6 {
    /// The empty board.
    pub fn new(params: Params) -> Result<Connect6, GameError> {
        params.check()?;
        Ok(Connect6 {
            geo: Geometry::get(params.width, params.height, params.k),
            params,
            lines: [[0; MAX_LINES]; 2],
            occ: [CellSet::default(); 2],
            stones: 0,
            to_move: Side::First,
            left: params.q as u8,
            winner: None,
            board_key: 0,
        })
    }

    /// The empty 19x19 Connect6 board.
    pub fn standard() -> Connect6 {
        Connect6::new(Params::default()).expect("default parameters")
    }

    #[inline]
    pub fn params(&self) -> &Params {
        &self.params
    }

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// Stones on the board.
    #[inline]
    pub fn stones(&self) -> usize {
        self.stones as usize
    }

    /// Stones the side to move still places this turn.
    #[inline]
    pub fn stones_left(&self) -> usize {
        self.left as usize
    }

    /// The winner, once someone has k in a row.
    #[inline]
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// Whether the game is over (k in a row or a full board).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.stones as usize == self.geo.cells()
    }

    /// The stone on a cell.
    #[inline]
    pub fn at(&self, c: u16) -> Option<Side> {
        if self.occ[0].contains(c) {
            Some(Side::First)
        } else if self.occ[1].contains(c) {
            Some(Side::Second)
        } else {
            None
        }
    }

    #[inline]
    pub fn is_empty(&self, c: u16) -> bool {
        (c as usize) < self.geo.cells() && self.at(c).is_none()
    }

    /// The empty cells.
    pub fn empties(&self) -> CellSet {
        let mut s = CellSet::default();
        let n = self.geo.cells();
        for (i, w) in s.0.iter_mut().enumerate() {
            let lo = i * 64;
            if lo >= n {
                break;
            }
            let valid = if n - lo >= 64 {
                u64::MAX
            } else {
                (1u64 << (n - lo)) - 1
            };
            *w = !(self.occ[0].0[i] | self.occ[1].0[i]) & valid;
        }
        s
    }

    /// Places one stone of the side to move on an empty cell and passes
    /// the turn when its stones are placed or the game is over.
    pub fn place(&mut self, c: u16) {
        debug_assert!(self.is_empty(c) && !self.is_over(), "place {c} on {self:?}");
        let side = self.to_move;
        let col = colour(side);
        self.occ[col].insert(c);
        self.board_key ^= self.geo.zobrist[c as usize][col];
        self.stones += 1;
        let k = self.params.k;
        let mut won = false;
        for &(li, bit) in &self.geo.cell_lines[c as usize] {
            if li != NO_LINE {
                let l = &mut self.lines[col][li as usize];
                *l |= 1 << bit;
                won |= has_run(*l, k);
            }
        }
        if won {
            self.winner = Some(side);
            self.to_move = side.opponent();
            self.left = self.params.p as u8;
            return;
        }
        self.left -= 1;
        if self.left == 0 {
            self.pass_turn();
        }
    }

    /// Adds a stone of `side` without touching the turn (tests of
    /// relevance zones: "the same position with defender stones added").
    #[cfg(test)]
    pub(crate) fn add_stone(&mut self, c: u16, side: Side) {
        let (to_move, left) = (self.to_move, self.left);
        self.to_move = side;
        self.left = 2;
        self.place(c);
        if self.winner.is_none() {
            (self.to_move, self.left) = (to_move, left);
        }
    }

    /// Ends the side to move's turn without (further) stones: the null move
    /// of relevance-zone search (deep-dfpn §5.2). Not a legal move.
    pub fn pass_turn(&mut self) {
        self.to_move = self.to_move.opponent();
        self.left = self.params.p as u8;
    }

    /// The key: stones, side to move, stones left, parameters.
    #[inline]
    pub fn key(&self) -> u64 {
        let st = ((colour(self.to_move) as u64) << 8) | self.left as u64;
        self.board_key
            ^ splitmix64(
                st ^ ((self.params.p as u64) << 16)
                    ^ ((self.params.q as u64) << 20)
                    ^ ((self.params.pairs as u64) << 24),
            )
    }

    /// The windows (k cells in a row) with no stone of `side`'s opponent
    /// and at least `min` of `side`'s stones (and at most 8 empty cells),
    /// as their empty cells; windows with the same empty cells are listed
    /// once.
    pub fn windows(&self, side: Side, min: usize, out: &mut Vec<Window>) {
        let k = self.params.k;
        let (own, opp) = (&self.lines[colour(side)], &self.lines[1 - colour(side)]);
        let need = min.max(k.saturating_sub(8));
        let full: u32 = if k == 32 { u32::MAX } else { (1u32 << k) - 1 };
        let start = out.len();
        for (li, line) in self.geo.lines.iter().enumerate() {
            let (o, x) = (own[li], opp[li]);
            if (o.count_ones() as usize) < need {
                continue;
            }
            let len = line.cells.len();
            for s in 0..=len - k {
                let m = full << s;
                if x & m != 0 || ((o & m).count_ones() as usize) < need {
                    continue;
                }
                let mut e = !o & m;
                let mut w = Window {
                    cells: [0; 8],
                    n: 0,
                };
                while e != 0 {
                    let b = e.trailing_zeros();
                    e &= e - 1;
                    w.cells[w.n as usize] = line.cells[b as usize];
                    w.n += 1;
                }
                if w.n == 0 {
                    continue; // k in a row: the game is over
                }
                w.cells[..w.n as usize].sort_unstable();
                if !out[start..].contains(&w) {
                    out.push(w);
                }
            }
        }
    }

    /// The windows `side` completes with its next `stones` stones: the
    /// threats (Wu and Huang: a window the opponent must hit).
    pub fn live_windows(&self, side: Side, stones: usize, out: &mut Vec<Window>) {
        self.windows(side, self.params.k.saturating_sub(stones), out)
    }

    /// Whether the side to move wins in this turn (a window it completes
    /// with its remaining stones).
    pub fn can_win_now(&self) -> bool {
        let mut w = Vec::new();
        self.live_windows(self.to_move, self.left as usize, &mut w);
        !w.is_empty()
    }

    /// A window the side to move completes now: its empty cells.
    pub fn winning_cells(&self) -> Option<Vec<u16>> {
        let mut w = Vec::new();
        self.live_windows(self.to_move, self.left as usize, &mut w);
        w.first().map(|w| w.empties().to_vec())
    }

    /// The number of threats `side` has against its opponent: the fewest
    /// stones that hit every window `side` would complete with a turn of p
    /// stones (Wu and Huang's definition), capped at `cap + 1`.
    pub fn threats(&self, side: Side, cap: usize) -> usize {
        let mut w = Vec::new();
        self.live_windows(side, self.params.p, &mut w);
        min_hitting(&w, cap)
    }

    /// Cell name: column letter (a, b, ...) and row number from the bottom.
    pub fn cell_name(&self, c: u16) -> String {
        cell_name(self.geo, c)
    }
}

/// Cell name on a geometry: `j10`.
pub fn cell_name(geo: &Geometry, c: u16) -> String {
    let (col, row) = geo.col_row(c);
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// The fewest cells meeting every window, capped at `cap + 1` (then "more
/// than `cap`").
pub fn min_hitting(ws: &[Window], cap: usize) -> usize {
    if ws.is_empty() {
        return 0;
    }
    if cap == 0 {
        return 1;
    }
    let mut best = cap + 1;
    let mut rest = Vec::with_capacity(ws.len());
    for &c in ws[0].empties() {
        rest.clear();
        rest.extend(ws.iter().filter(|w| !w.contains(c)).copied());
        let v = 1 + min_hitting(&rest, best.saturating_sub(2).min(cap - 1));
        best = best.min(v);
        if best == 1 {
            break;
        }
    }
    best
}

/// Every set of at most `size` cells meeting every window, each sorted,
/// found by branching on the first window not yet met (complete: every
/// hitting set of at most `size` cells contains one of them). When the
/// fewest is exactly `size`, these are all hitting sets of that size.
pub fn hitting_sets(ws: &[Window], size: usize) -> Vec<Vec<u16>> {
    fn go(ws: &[Window], size: usize, chosen: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
        let first = ws
            .iter()
            .find(|w| !w.empties().iter().any(|c| chosen.contains(c)));
        let Some(w) = first else {
            let mut s = chosen.clone();
            s.sort_unstable();
            if !out.contains(&s) {
                out.push(s);
            }
            return;
        };
        if chosen.len() == size {
            return;
        }
        for &c in w.empties() {
            chosen.push(c);
            go(ws, size, chosen, out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    go(ws, size, &mut Vec::new(), &mut out);
    out
}

impl PartialEq for Connect6 {
    fn eq(&self, o: &Self) -> bool {
        self.params == o.params
            && self.occ == o.occ
            && self.to_move == o.to_move
            && self.left == o.left
    }
}

impl Eq for Connect6 {}

impl Hash for Connect6 {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key().hash(h);
        self.params.hash(h);
    }
}

impl fmt::Debug for Connect6 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connect6({})", crate::notation::format_position(self))
    }
}
