//! The [`Hex`] position: two bitboards, a cached winner and an incremental
//! Zobrist key, plus the move order the search hooks use.

use std::collections::HashMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use pns_core::{GameError, Rng, Side};

use super::geometry::{self, Bits, Geom, MAX_CELLS, MAX_SIZE, MIN_SIZE, STRIDE};
use super::zobrist;

/// Black, the player who moves first and joins rows 1 and N.
pub const BLACK: Side = Side::First;
/// White, the player who moves second and joins columns `a` and N.
pub const WHITE: Side = Side::Second;

/// A cell, and so a move (Hex has no pass and, here, no swap).
///
/// The wrapped number is the cell's index `row * 11 + column` (both
/// 0-based, [`STRIDE`](super::STRIDE) = 11 on every board size); use
/// [`Hex::cell`] and [`Hex::coords`] to convert. `Ord` follows the index
/// (row-major), which gives certificates a canonical move order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell(pub(crate) u8);

impl Cell {
    /// The cell's index, `row * 11 + column`, which is also its bit in the
    /// bitboards ([`Hex::stones`]).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub(crate) fn bit(self) -> Bits {
        1 << self.0
    }
}

/// A Hex position on a board of 2..=11 columns and 2..=11 rows (square
/// boards are the usual game; rectangles exist for Benzene's 6x7 tests).
///
/// Conventions are Benzene's: Black ([`Side::First`]) moves first and wins by
/// joining row 1 to the last row; White joins column `a` to the last column.
/// No swap rule. Cells are named column letter + row number (`c3`), and the
/// neighbours of (column x, row y) are (x±1, y), (x, y±1), (x+1, y−1) and
/// (x−1, y+1), so `a4 b3 c2 d1` is a chain on 4x4 (the short diagonal).
///
/// Equality and hashing cover the board shape and the stones (the side to
/// move follows from the stone counts); the move order set by
/// [`Hex::with_shuffled_order`] and the [`Analysis`] setting
/// are deliberately ignored: they are settings of the search, not part of
/// the position, so certificates and transpositions are shared.
#[derive(Clone, Copy)]
pub struct Hex {
    pub(crate) geom: &'static Geom,
    /// The order of `search_moves` (and of `legal_moves` when shuffled):
    /// `geom.centre_order` or an interned random permutation, of which the
    /// first `width * height` entries are used. A thin `'static` reference
    /// keeps `Hex` at 64 bytes (one cache line) and `Copy`, and cloning it
    /// touches no shared counter (an `Arc` would make parallel searches
    /// fight over one cache line).
    pub(crate) order: &'static [u8; MAX_CELLS],
    pub(crate) black: Bits,
    pub(crate) white: Bits,
    /// Zobrist key, updated incrementally by `place`.
    pub(crate) key: u64,
    /// Who has joined their edges, if anyone. Cached because the search asks
    /// after every move and the check needs a flood fill.
    pub(crate) winner: Option<Side>,
    /// The side to move. In play it follows from the stone counts, but a
    /// certificate's concessions ([`Hex::concede`]) add stones without a
    /// turn, so it is kept.
    pub(crate) turn: Side,
    pub(crate) shuffled: bool,
    /// How much the search hooks analyse (see [`Analysis`]).
    pub(crate) analysis: Analysis,
}

/// How much analysis the search hooks of [`Hex`] do. A setting of the
/// search, not part of the position (ignored by `Eq`, `Hash` and `key`),
/// carried through `play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Analysis {
    /// None: the rules-only defaults of [`pns_core::Game`] (see
    /// [`Hex::with_plain_search`]).
    Rules,
    /// Winning cells and double threats only (the must-play region of the
    /// opponent's double threats). Proof trees found this way play the
    /// game out move by move.
    Threats,
    /// Threats, virtual connections by H-search and inferior-cell fill-in
    /// (see the `solver` module): far fewer nodes. A win is declared as
    /// soon as a connection is found; certificates then claim the
    /// connection (see the `claim` module) instead of playing it out.
    #[default]
    Connections,
}

impl Hex {
    /// The empty `size` x `size` board (`size` in 2..=11).
    pub fn new(size: usize) -> Result<Hex, GameError> {
        Hex::with_dims(size, size)
    }

    /// The empty board with `width` columns (`a`, `b`, …) and `height` rows
    /// (`1`, `2`, …), each in 2..=11. Benzene's `boardsize W H` is
    /// `with_dims(W, H)`.
    pub fn with_dims(width: usize, height: usize) -> Result<Hex, GameError> {
        for (what, n) in [("width", width), ("height", height)] {
            if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                return Err(GameError::new(format!(
                    "hex: board {what} {n} is out of range (must be {MIN_SIZE}..={MAX_SIZE})"
                )));
            }
        }
        let geom = geometry::geom(width, height);
        Ok(Hex {
            geom,
            order: &geom.centre_order,
            black: 0,
            white: 0,
            key: geom.salt,
            winner: None,
            turn: BLACK,
            shuffled: false,
            analysis: Analysis::Connections,
        })
    }

    /// This position with `legal_moves` and `search_moves` returning moves in
    /// a fixed pseudo-random permutation of the cells determined by `seed`,
    /// as in the thesis §3.2.3 experiments, where Hex(4) is solved many
    /// times with the legal moves shuffled at random per trial to average
    /// out the effect of move ordering. The permutation is the row-major
    /// list of cells (`a1`, `b1`, …) shuffled by
    /// `pns_core::Rng::new(seed).shuffle`, so it is the same on every
    /// machine. `search_moves` still applies its cuts (see
    /// [`Hex::with_plain_search`] to turn them off) but lists what remains
    /// in this order.
    ///
    /// The permutation is a property of the search, not of the position: it
    /// is carried to every position reached by `play`, but `Eq`, `Hash` and
    /// `key` ignore it. Each distinct (shape, seed) permutation is built once
    /// and kept for the life of the process (121 bytes each).
    pub fn with_shuffled_order(mut self, seed: u64) -> Self {
        self.order = shuffled_order(self.geom, seed);
        self.shuffled = true;
        self
    }

    /// This position with the search hooks switched back to the rules-only
    /// defaults of [`pns_core::Game`]: `known_outcome` is the rules' outcome,
    /// `search_moves` is `legal_moves` (in the shuffled order when one is
    /// set), and `heuristic` is `(1, 1)`. For experiments on bare Hex, such
    /// as the thesis §3.2.3 Hex(4) runs: the threat analysis shrinks the
    /// trees a great deal (all 16 4x4 openings: about 12k df-pn nodes with
    /// it, 4M without). (`playout` stays the fast fill: it plays the same
    /// distribution as random moves.)
    /// Carried through `play`; ignored by `Eq`, `Hash` and `key`.
    pub fn with_plain_search(self) -> Self {
        self.with_analysis(Analysis::Rules)
    }

    /// Whether the search hooks are off ([`Hex::with_plain_search`]).
    pub fn is_plain_search(&self) -> bool {
        self.analysis == Analysis::Rules
    }

    /// This position with the search hooks doing `analysis`.
    pub fn with_analysis(mut self, analysis: Analysis) -> Self {
        self.analysis = analysis;
        self
    }

    /// The analysis the search hooks do.
    pub fn analysis(&self) -> Analysis {
        self.analysis
    }

    /// Whether [`Hex::with_shuffled_order`] was applied.
    pub fn is_shuffled(&self) -> bool {
        self.shuffled
    }

    /// The order in which `search_moves` lists empty cells (centre first, or
    /// the shuffled permutation), as cells of the whole board.
    pub fn move_order(&self) -> impl Iterator<Item = Cell> + '_ {
        self.order_slice().iter().map(|&i| Cell(i))
    }

    /// The used part of `order`.
    #[inline]
    pub(crate) fn order_slice(&self) -> &'static [u8] {
        &self.order[..self.geom.cells()]
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.geom.width as usize
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.geom.height as usize
    }

    /// The cell at 0-based `column` and `row`, if on the board.
    pub fn cell(&self, column: usize, row: usize) -> Option<Cell> {
        (column < self.width() && row < self.height()).then(|| Cell((row * STRIDE + column) as u8))
    }

    /// The 0-based (column, row) of a cell of this board.
    pub fn coords(&self, c: Cell) -> (usize, usize) {
        (c.index() % STRIDE, c.index() / STRIDE)
    }

    /// The neighbours of a cell of this board, as a bitboard (bit
    /// `row * 11 + column`).
    pub fn neighbours(&self, c: Cell) -> u128 {
        self.geom.neighbours(c.bit())
    }

    /// The stone on a cell, if any.
    pub fn stone(&self, c: Cell) -> Option<Side> {
        if self.black & c.bit() != 0 {
            Some(BLACK)
        } else if self.white & c.bit() != 0 {
            Some(WHITE)
        } else {
            None
        }
    }

    /// One side's stones as a bitboard: bit `row * 11 + column` (see
    /// [`Hex::cells_of`]).
    pub fn stones(&self, side: Side) -> u128 {
        match side {
            Side::First => self.black,
            Side::Second => self.white,
        }
    }

    /// The cells of a bitboard (as returned by [`Hex::stones`] and the
    /// analysis methods), in index order.
    pub fn cells_of(&self, bits: u128) -> impl Iterator<Item = Cell> {
        geometry::bits(bits & self.geom.board).map(|i| Cell(i as u8))
    }

    /// The empty cells as a bitboard (same layout as [`Hex::stones`]).
    pub fn empty_cells(&self) -> u128 {
        self.geom.board & !(self.black | self.white)
    }

    /// Number of stones on the board (= moves played).
    pub fn stone_count(&self) -> usize {
        (self.black | self.white).count_ones() as usize
    }

    /// The side that has joined its two edges, if any (the game is then
    /// over).
    pub fn winner(&self) -> Option<Side> {
        self.winner
    }

    /// The player to move. Black moves first and the players alternate, so
    /// in play it is Black exactly when both have the same number of
    /// stones; after a concession ([`Hex::concede`]) it is what it was.
    #[inline]
    pub fn to_move(&self) -> Side {
        self.turn
    }

    /// Whether the position can arise in play: Black to move with as many
    /// stones as White, or White to move with one stone fewer. Only
    /// concessions make other positions.
    pub fn is_regular(&self) -> bool {
        let (b, w) = (self.black.count_ones(), self.white.count_ones());
        (b == w && self.turn == BLACK) || (b == w + 1 && self.turn == WHITE)
    }

    /// Puts a stone of `side` on the empty cell `c` *without* a turn: the
    /// side to move stays the same ([`pns_core::Shortcuts::concede`]).
    ///
    /// Sound in certificates because Hex is monotone: stones never go away
    /// and an extra stone never hurts its owner, so if the other side wins
    /// after the gift it wins without it (the argument behind Benzene's
    /// fill-in: Hayward et al., "Solving 7x7 Hex: virtual connections and
    /// game-state reduction", ACG 2003).
    pub fn concede(&mut self, side: Side, c: Cell) -> Result<(), GameError> {
        self.check_legal(c)?;
        let turn = self.turn;
        self.turn = side;
        self.place(c);
        self.turn = turn;
        // `place` keeps the turn marker in step with the stone parity; one
        // stone without a turn puts it out of step.
        self.key ^= zobrist::TURN;
        Ok(())
    }

    /// Checks that `c` may be played here: on this board, empty, and the
    /// game not over. The error names the cell.
    pub fn check_legal(&self, c: Cell) -> Result<(), GameError> {
        if c.index() >= 128 || self.geom.board >> c.index() & 1 == 0 {
            return Err(GameError::new(format!(
                "hex: cell index {} is off the {} board",
                c.index(),
                self.shape_name()
            )));
        }
        // Format the name only on error: `place` runs this check in debug
        // builds (tests included) at every move.
        if let Some(w) = self.winner {
            return Err(GameError::new(format!(
                "hex: move '{}' after the game is over ({} has already won)",
                self.format_cell(c),
                colour_name(w)
            )));
        }
        if (self.black | self.white) & c.bit() != 0 {
            return Err(GameError::new(format!(
                "hex: cell '{}' is already occupied",
                self.format_cell(c)
            )));
        }
        Ok(())
    }

    /// Plays `c` for the side to move after checking it with
    /// [`Hex::check_legal`].
    pub fn try_play(&mut self, c: Cell) -> Result<(), GameError> {
        self.check_legal(c)?;
        self.place(c);
        Ok(())
    }

    /// Puts a stone of the side to move on `c` (legal, unchecked except in
    /// debug builds) and updates the key and the winner.
    #[inline]
    pub(crate) fn place(&mut self, c: Cell) {
        debug_assert!(self.check_legal(c).is_ok(), "{:?}", self.check_legal(c));
        let bit = c.bit();
        let g = self.geom;
        let side = self.turn;
        self.turn = side.opponent();
        if side == BLACK {
            self.black |= bit;
            self.key ^= zobrist::TABLE[0][c.index()];
            // Before this move nobody had won, so a new chain can only run
            // through `c`: flood from `c` alone instead of from an edge.
            if self.black & g.north != 0
                && self.black & g.south != 0
                && touches_both(g.flood(bit, self.black), g.north, g.south)
            {
                self.winner = Some(BLACK);
            }
        } else {
            self.white |= bit;
            self.key ^= zobrist::TABLE[1][c.index()];
            if self.white & g.west != 0
                && self.white & g.east != 0
                && touches_both(g.flood(bit, self.white), g.west, g.east)
            {
                self.winner = Some(WHITE);
            }
        }
    }

    /// `6` for square boards, `6x7` (columns x rows) otherwise.
    pub(crate) fn shape_name(&self) -> String {
        if self.geom.width == self.geom.height {
            format!("{}x{}", self.geom.width, self.geom.height)
        } else {
            format!("{}x{} (columns x rows)", self.geom.width, self.geom.height)
        }
    }

    /// A sequence of moves that reaches this position from the empty board
    /// (used for the position notation; the position keeps no history).
    /// Meaningful only for a regular position ([`Hex::is_regular`]); after
    /// concessions it lists the stones, Black and White alternately.
    ///
    /// Stones are interleaved Black, White, Black, … in cell order, except
    /// that when someone has won, a stone whose removal breaks every winning
    /// chain goes last so that no earlier prefix already ends the game. Such
    /// a stone exists because the position was reached by legal play: the
    /// winning move itself is one.
    pub fn moves(&self) -> Vec<Cell> {
        let mut black: Vec<Cell> = geometry::bits(self.black).map(|i| Cell(i as u8)).collect();
        let mut white: Vec<Cell> = geometry::bits(self.white).map(|i| Cell(i as u8)).collect();
        if let Some(w) = self.winner {
            let (stones, edges, list) = if w == BLACK {
                (self.black, self.geom.edges(true), &mut black)
            } else {
                (self.white, self.geom.edges(false), &mut white)
            };
            // A won position reached by play has such a stone (the winning
            // move); one made by concessions may not.
            if let Some(pos) = list
                .iter()
                .position(|c| !self.geom.joins(stones & !c.bit(), edges))
            {
                let last = list.remove(pos);
                list.push(last);
            }
        }
        let mut out = Vec::with_capacity(black.len() + white.len());
        let mut white = white.into_iter();
        for b in black {
            out.push(b);
            out.extend(white.next());
        }
        out.extend(white);
        out
    }
}

/// Whether the set `s` meets both `a` and `b`.
#[inline(always)]
fn touches_both(s: Bits, a: Bits, b: Bits) -> bool {
    s & a != 0 && s & b != 0
}

/// `Black` or `White`.
pub(crate) fn colour_name(s: Side) -> &'static str {
    match s {
        Side::First => "Black",
        Side::Second => "White",
    }
}

/// The permutation for (shape, seed), built once and then shared.
fn shuffled_order(g: &'static Geom, seed: u64) -> &'static [u8; MAX_CELLS] {
    type Cache = Mutex<HashMap<(u8, u8, u64), &'static [u8; MAX_CELLS]>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    // A panic elsewhere while holding the lock cannot leave the map
    // inconsistent (inserts are single calls), so a poisoned lock is usable.
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    map.entry((g.width, g.height, seed)).or_insert_with(|| {
        let n = g.cells();
        let mut cells = Box::new(g.row_major);
        Rng::new(seed).shuffle(&mut cells[..n]);
        Box::leak(cells)
    })
}

impl PartialEq for Hex {
    fn eq(&self, other: &Hex) -> bool {
        // Shapes are interned, so pointer equality is shape equality.
        std::ptr::eq(self.geom, other.geom)
            && self.black == other.black
            && self.white == other.white
            && self.turn == other.turn
    }
}

impl Eq for Hex {}

impl Hash for Hex {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The Zobrist key is a function of (shape, stones, turn), exactly
        // what `eq` compares, so equal positions hash equally.
        state.write_u64(self.key);
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex({self}")?;
        if self.shuffled {
            f.write_str(", shuffled")?;
        }
        if self.analysis != Analysis::Connections {
            write!(f, ", {:?} analysis", self.analysis)?;
        }
        f.write_str(")")
    }
}
