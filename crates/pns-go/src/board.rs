//! The Go board: stones on bitboards, captures, suicide, simple ko, and
//! Zobrist keys. No history: super-ko needs the positions of the game,
//! kept by [`crate::game::GoGame`] (GTP, SGF) or by the search's line
//! (one-eye problems).
//!
//! Rules (the usual area-free core every rule set shares): a stone is
//! placed on an empty point; opponent blocks left without a liberty are
//! removed; a move that leaves its own block without a liberty (after the
//! captures) is suicide and illegal; simple ko forbids the immediate
//! recapture of a single stone that just captured a single stone. Blocks
//! and liberties are computed on bitboards by flood fill, which costs a few
//! shift-and-mask steps per block on the boards this program searches and
//! keeps play, undo (a copy) and legality checks free of any incremental
//! bookkeeping to get wrong.

use std::fmt;

use crate::bits::{Bits, MAX_POINTS, MAX_SIZE, STRIDE};
use pns_core::Side;

/// SplitMix64's finaliser, usable in constants (the Zobrist table).
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Black is the first player.
    #[inline]
    pub fn side(self) -> Side {
        match self {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }

    #[inline]
    pub fn from_side(s: Side) -> Color {
        match s {
            Side::First => Color::Black,
            Side::Second => Color::White,
        }
    }

    /// GTP's colour words: `b`, `black`, `w`, `white` (any case).
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A move: a pass or a stone on a point (`y * STRIDE + x`, `y` from the
/// top row, as in SGF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    Pass,
    Play(u16),
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    OffBoard,
    Occupied,
    Suicide,
    /// Simple ko: the immediate recapture.
    Ko,
    /// The move repeats an earlier position (super-ko).
    Superko,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::OffBoard => "off the board",
            Illegal::Occupied => "point occupied",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko recapture",
            Illegal::Superko => "repeats an earlier position (super-ko)",
        })
    }
}

const fn zobrist_table() -> [[u64; MAX_POINTS]; 2] {
    let mut t = [[0u64; MAX_POINTS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < MAX_POINTS {
            t[c][p] = mix(0x676f_0000_0000 ^ ((c as u64) << 16) ^ p as u64);
            p += 1;
        }
        c += 1;
    }
    t
}

/// Zobrist codes of a stone of each colour on each point.
static ZOBRIST: [[u64; MAX_POINTS]; 2] = zobrist_table();
/// XORed into the situational key when White is to move.
pub const WHITE_TO_MOVE: u64 = 0x5bd1_e995_7f4a_7c15;

const fn masks() -> [Bits; MAX_SIZE + 1] {
    let mut m = [Bits::EMPTY; MAX_SIZE + 1];
    let mut s = 1;
    while s <= MAX_SIZE {
        m[s] = Bits::board(s);
        s += 1;
    }
    m
}

static MASKS: [Bits; MAX_SIZE + 1] = masks();

/// GTP's column letters (no `I`).
const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// A Go position without history: stones, the player to move and the simple
/// ko point.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    size: u8,
    stones: [Bits; 2],
    to_move: Color,
    /// The point the player to move may not play (simple ko), if any.
    ko: Option<u16>,
    /// Zobrist hash of the stones.
    key: u64,
}

#[cfg(test)]
impl Board {
    /// A square board from rows of `X` (black), `O` (white) and `.`, the
    /// top row first (the tests' positions).
    pub(crate) fn from_rows(rows: &[&str]) -> Board {
        let mut b = Board::new(rows.len()).unwrap();
        for (y, r) in rows.iter().enumerate() {
            for (x, ch) in r.chars().enumerate() {
                let p = b.point(x, y).unwrap();
                match ch {
                    'X' => b.set(p, Some(Color::Black)),
                    'O' => b.set(p, Some(Color::White)),
                    _ => {}
                }
            }
        }
        b
    }

    /// A random `size` board: each point black with chance `black` in
    /// 10, white with `white` in 10, empty otherwise (the tests' boards;
    /// a block may have no liberty).
    pub(crate) fn random(
        rng: &mut pns_core::rng::Rng,
        size: usize,
        black: u64,
        white: u64,
    ) -> Board {
        let mut b = Board::new(size).unwrap();
        for p in b.mask().iter() {
            let r = rng.below(10);
            if r < black {
                b.set(p, Some(Color::Black));
            } else if r < black + white {
                b.set(p, Some(Color::White));
            }
        }
        b
    }
}

/// The blocks of [`Board::adjacent_blocks`], each once.
#[derive(Clone, Copy, Debug)]
pub struct AdjacentBlocks {
    /// Stones next to the block, of blocks not yet returned.
    near: Bits,
    /// Every stone of their colour.
    stones: Bits,
}

impl Iterator for AdjacentBlocks {
    type Item = Bits;

    #[inline]
    fn next(&mut self) -> Option<Bits> {
        let q = self.near.first()?;
        let b = Bits::flood(Bits::single(q), &self.stones);
        self.near = self.near.minus(&b);
        Some(b)
    }
}

impl Board {
    /// The empty board, Black to move. Sizes 1 to 19.
    pub fn new(size: usize) -> Result<Board, String> {
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(format!("board size {size} is not between 1 and {MAX_SIZE}"));
        }
        Ok(Board {
            size: size as u8,
            stones: [Bits::EMPTY; 2],
            to_move: Color::Black,
            ko: None,
            key: 0,
        })
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The points of the board.
    #[inline]
    pub fn mask(&self) -> &'static Bits {
        &MASKS[self.size as usize]
    }

    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the player to move (SGF `PL`, GTP playing out of turn); clears
    /// the ko point, which belongs to the other player's turn.
    pub fn set_to_move(&mut self, c: Color) {
        if c != self.to_move {
            self.to_move = c;
            self.ko = None;
        }
    }

    /// The simple-ko point: the player to move may not play there now.
    #[inline]
    pub fn ko_point(&self) -> Option<usize> {
        self.ko.map(usize::from)
    }

    /// Lifts the simple-ko ban: the player to move may retake at once (as
    /// a player with a ko threat to spend would).
    #[inline]
    pub fn clear_ko(&mut self) {
        self.ko = None;
    }

    /// Any point as the ko point (tests of what reads it).
    #[cfg(test)]
    pub(crate) fn set_ko_point(&mut self, p: Option<usize>) {
        self.ko = p.map(|q| q as u16);
    }

    /// Zobrist hash of the stones alone (positional super-ko).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Zobrist hash of the stones and the player to move (situational
    /// super-ko).
    #[inline]
    pub fn situational_key(&self) -> u64 {
        match self.to_move {
            Color::Black => self.key,
            Color::White => self.key ^ WHITE_TO_MOVE,
        }
    }

    /// The point at column `x`, row `y` (from the top), when on the board.
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.size() && y < self.size()).then_some(y * STRIDE + x)
    }

    /// Column and row (from the top) of a point.
    #[inline]
    pub fn xy(p: usize) -> (usize, usize) {
        (p % STRIDE, p / STRIDE)
    }

    #[inline]
    pub fn stones(&self, c: Color) -> Bits {
        self.stones[c as usize]
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self) -> Bits {
        self.mask().minus(&(self.stones[0] | self.stones[1]))
    }

    #[inline]
    pub fn color_at(&self, p: usize) -> Option<Color> {
        if self.stones[0].get(p) {
            Some(Color::Black)
        } else if self.stones[1].get(p) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The neighbours of `p` on the board.
    ///
    /// Up to four bits set by the point's row and column: the dilation of
    /// a one-point set shifts all six words four times, and every stone
    /// played reads the neighbours of its point and of theirs.
    #[inline]
    pub fn neighbours(&self, p: usize) -> Bits {
        debug_assert!(self.mask().get(p), "a point off the board");
        let (x, y) = Self::xy(p);
        let n = self.size();
        let mut b = Bits::EMPTY;
        if x > 0 {
            b.set(p - 1);
        }
        if x + 1 < n {
            b.set(p + 1);
        }
        if y > 0 {
            b.set(p - STRIDE);
        }
        if y + 1 < n {
            b.set(p + STRIDE);
        }
        b
    }

    /// Puts a stone of colour `c` on `p` (or clears it, `None`) without
    /// captures: SGF setup (`AB`, `AW`, `AE`). Clears the ko point.
    pub fn set(&mut self, p: usize, c: Option<Color>) {
        if let Some(old) = self.color_at(p) {
            self.stones[old as usize].clear(p);
            self.key ^= ZOBRIST[old as usize][p];
        }
        if let Some(c) = c {
            self.stones[c as usize].set(p);
            self.key ^= ZOBRIST[c as usize][p];
        }
        self.ko = None;
    }

    /// The block (connected stones of one colour) holding `p`; empty when
    /// `p` is empty.
    #[inline]
    pub fn block(&self, p: usize) -> Bits {
        match self.color_at(p) {
            None => Bits::EMPTY,
            Some(c) => Bits::flood(Bits::single(p), &self.stones[c as usize]),
        }
    }

    /// The liberties of a set of stones (usually a block).
    #[inline]
    pub fn liberties(&self, stones: &Bits) -> Bits {
        stones.border(self.mask()) & self.empty()
    }

    /// The blocks of the other colour that touch the stones `blk` (the
    /// blocks a capturing search attacks to free a target, or whose
    /// capture gives it liberties), each once.
    ///
    /// An iterator, each block flooded as it is reached: the searches ask
    /// this at most nodes, and need no vector of the blocks.
    pub fn adjacent_blocks(&self, blk: &Bits) -> AdjacentBlocks {
        match blk.first().and_then(|p| self.color_at(p)) {
            Some(c) => {
                let opp = self.stones[c.opponent() as usize];
                AdjacentBlocks {
                    near: blk.border(self.mask()) & opp,
                    stones: opp,
                }
            }
            None => AdjacentBlocks {
                near: Bits::EMPTY,
                stones: Bits::EMPTY,
            },
        }
    }

    /// The blocks of colour `c`, each once.
    pub fn blocks(&self, c: Color) -> Vec<Bits> {
        let mut left = self.stones[c as usize];
        let mut out = Vec::new();
        while let Some(p) = left.first() {
            let b = Bits::flood(Bits::single(p), &self.stones[c as usize]);
            left = left.minus(&b);
            out.push(b);
        }
        out
    }

    /// Plays `m` for the player to move. With `simple_ko`, the ko
    /// recapture is refused. On success returns the captured stones; on
    /// failure the board is unchanged.
    pub fn play(&mut self, m: Move, simple_ko: bool) -> Result<Bits, Illegal> {
        let c = self.to_move;
        match m {
            Move::Pass => {
                self.to_move = c.opponent();
                self.ko = None;
                Ok(Bits::EMPTY)
            }
            Move::Play(p) => {
                let p = p as usize;
                let captured = self.place_stone(c, p, simple_ko)?;
                self.to_move = c.opponent();
                Ok(captured)
            }
        }
    }

    /// Whether `m` is legal for the player to move (simple ko optional).
    pub fn check(&self, m: Move, simple_ko: bool) -> Result<(), Illegal> {
        let mut b = *self;
        b.play(m, simple_ko).map(|_| ())
    }

    /// Places a stone of `c` on `p` with captures; leaves the player to
    /// move alone. Sets the ko point for `c`'s opponent.
    fn place_stone(&mut self, c: Color, p: usize, simple_ko: bool) -> Result<Bits, Illegal> {
        if p >= MAX_POINTS || !self.mask().get(p) {
            return Err(Illegal::OffBoard);
        }
        if self.color_at(p).is_some() {
            return Err(Illegal::Occupied);
        }
        if simple_ko && self.ko == Some(p as u16) && c == self.to_move {
            return Err(Illegal::Ko);
        }
        let (me, opp) = (c as usize, c.opponent() as usize);
        let mask = self.mask();
        let here = Bits::single(p);
        self.stones[me] |= here;
        let empty = self.empty();
        let nb = self.neighbours(p);
        let mut captured = Bits::EMPTY;
        let mut near = nb & self.stones[opp];
        while let Some(q) = near.first() {
            near.clear(q);
            // Most neighbours have a liberty of their own: no flood fill.
            if self.neighbours(q).intersects(&empty) {
                continue;
            }
            let blk = Bits::flood(Bits::single(q), &self.stones[opp]);
            near = near.minus(&blk);
            if !blk.border(mask).intersects(&empty) {
                captured |= blk;
            }
        }
        if captured.is_empty()
            && !nb.intersects(&empty)
            && !Bits::flood(here, &self.stones[me])
                .border(mask)
                .intersects(&empty)
        {
            self.stones[me] = self.stones[me].minus(&here);
            return Err(Illegal::Suicide);
        }
        self.key ^= ZOBRIST[me][p];
        if !captured.is_empty() {
            self.stones[opp] = self.stones[opp].minus(&captured);
            for q in captured.iter() {
                self.key ^= ZOBRIST[opp][q];
            }
        }
        // A lone stone that captured one stone and has that point as its
        // only liberty: the opponent may not retake at once.
        self.ko = None;
        if captured.count() == 1 && !nb.intersects(&self.stones[me]) {
            let libs = nb & self.empty();
            if libs == captured {
                self.ko = captured.first().map(|q| q as u16);
            }
        }
        Ok(captured)
    }

    /// Legal moves of the player to move within `region` (all points when
    /// `None`), pass excluded, under simple ko if asked.
    pub fn legal_points(&self, region: Option<&Bits>, simple_ko: bool, out: &mut Vec<Move>) {
        let empty = self.empty();
        let mut cand = empty;
        if let Some(r) = region {
            cand &= *r;
        }
        if simple_ko {
            if let Some(k) = self.ko {
                cand.clear(k as usize);
            }
        }
        // A point next to an empty one is legal: one pass over the board
        // instead of a check a point (most of them on an open board).
        let mask = self.mask();
        let easy = empty.adjacent(mask);
        let hard = cand.minus(&easy);
        let legal = if hard.is_empty() {
            cand
        } else {
            (cand & easy) | self.legal_among_surrounded(&hard, &empty)
        };
        for p in legal.iter() {
            out.push(Move::Play(p as u16));
        }
    }

    /// Which of `hard` (points of `empty`, the board's empty points, with
    /// no empty neighbour) the player to move may play, the ko ban aside:
    /// those where a neighbouring own block has another liberty, or a
    /// neighbouring opponent block has no other (the stone captures it),
    /// as [`Board::is_legal_point`] reads them, but each block around
    /// them flooded once, not once per point: in a crowded position the
    /// complete side's move list asked for a flood fill per neighbour of
    /// every such point.
    fn legal_among_surrounded(&self, hard: &Bits, empty: &Bits) -> Bits {
        let mask = self.mask();
        let (me, opp) = (self.to_move as usize, self.to_move.opponent() as usize);
        // Most are settled without a flood fill. A stone with two empty
        // neighbours has a liberty besides the point: next to an own one
        // the point is legal, and a point with only such opponent stones
        // around it takes no block and is suicide.
        let two_libs = empty.adjacent_twice(mask);
        let mut legal = *hard & (self.stones[me] & two_libs).adjacent(mask);
        let not_full = mask.minus(&(self.stones[opp] & two_libs));
        let open = hard.minus(&legal) & not_full.adjacent(mask);
        if open.is_empty() {
            return legal;
        }
        let mut near = open.adjacent(mask) & (self.stones[me] | self.stones[opp]);
        while let Some(q) = near.first() {
            let (blk, mine) = self.stone_block(q);
            near = near.minus(&blk);
            let libs = blk.border(mask) & *empty;
            // An own block with two liberties keeps one whichever it
            // loses; an opponent block with one is captured there.
            if (mine && libs.count() >= 2) || (!mine && libs.count() == 1) {
                legal |= libs & open;
            }
        }
        legal
    }

    /// The block of the stone on `q`, and whether it is the player to
    /// move's.
    #[inline]
    fn stone_block(&self, q: usize) -> (Bits, bool) {
        let me = self.to_move as usize;
        let mine = self.stones[me].get(q);
        let stones = &self.stones[if mine { me } else { 1 - me }];
        (Bits::flood(Bits::single(q), stones), mine)
    }

    /// Whether the player to move may put a stone on the empty point `p`
    /// (without playing it): a liberty next to it, or a neighbouring own
    /// block with another liberty, or a neighbouring opponent block in
    /// atari.
    #[inline]
    pub fn is_legal_point(&self, p: usize, simple_ko: bool) -> bool {
        if self.color_at(p).is_some() || !self.mask().get(p) {
            return false;
        }
        if simple_ko && self.ko == Some(p as u16) {
            return false;
        }
        let mask = self.mask();
        let here = Bits::single(p);
        let nb = self.neighbours(p);
        let empty = self.empty();
        if nb.intersects(&empty) {
            return true;
        }
        let empty_after = empty.minus(&here);
        let mut near = nb;
        while let Some(q) = near.first() {
            let (blk, mine) = self.stone_block(q);
            near = near.minus(&blk);
            let has_lib = blk.border(mask).intersects(&empty_after);
            if mine == has_lib {
                // An own block with another liberty, or an opponent block
                // that this stone captures.
                return true;
            }
        }
        false
    }

    /// GTP's name of a point: column letter (no `I`) and row number from
    /// the bottom, e.g. `C3`.
    pub fn vertex(&self, p: usize) -> String {
        let (x, y) = Self::xy(p);
        format!("{}{}", COLUMNS[x] as char, self.size() - y)
    }

    /// GTP's name of a move (`pass` or a vertex).
    pub fn format_move(&self, m: Move) -> String {
        match m {
            Move::Pass => "pass".into(),
            Move::Play(p) => self.vertex(p as usize),
        }
    }

    /// Reads a GTP vertex (`C3`, any case) or `pass`.
    pub fn parse_vertex(&self, s: &str) -> Result<Move, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let bad = || format!("'{t}' is not a vertex of a {0}x{0} board", self.size());
        let mut chars = t.chars();
        let col = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let x = COLUMNS
            .iter()
            .position(|&c| c as char == col)
            .ok_or_else(bad)?;
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        if row == 0 || row > self.size() {
            return Err(bad());
        }
        let p = self.point(x, self.size() - row).ok_or_else(bad)?;
        Ok(Move::Play(p as u16))
    }

    /// The board as GTP's `showboard` draws it: `X` black, `O` white, `.`
    /// empty, columns lettered, rows numbered from the bottom.
    pub fn render(&self) -> String {
        let n = self.size();
        let letters: String = COLUMNS[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        let mut s = format!("  {letters}\n");
        for y in 0..n {
            s.push_str(&format!("{:>2}", n - y));
            for x in 0..n {
                let p = y * STRIDE + x;
                s.push(' ');
                s.push(match self.color_at(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            s.push_str(&format!(" {}\n", n - y));
        }
        s.push_str(&format!("  {letters}\n"));
        s.push_str(&format!("{} to move", self.to_move));
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str], to_move: Color) -> Board {
        let mut b = Board::from_rows(rows);
        b.set_to_move(to_move);
        b
    }

    #[test]
    fn captures_and_suicide() {
        let mut b = board(&[".X...", "X....", ".....", ".....", "....."], Color::White);
        let before = b.key();
        // White in the corner eye: suicide (both black stones have other
        // liberties); Black may fill its own eye.
        assert_eq!(b.check(Move::Play(0), true), Err(Illegal::Suicide));
        assert!(!b.is_legal_point(0, true));
        assert_eq!(b.key(), before);
        b.set_to_move(Color::Black);
        assert_eq!(b.check(Move::Play(0), true), Ok(()));
        // Black at B4 is legal for White once it captures: the lone black
        // stone at C4 in the middle of white stones.
        let c = board(&[".XO..", "XOXO.", ".XO..", ".....", "....."], Color::White);
        let b4 = c.parse_vertex("B4").unwrap();
        assert_eq!(b4, Move::Play(STRIDE as u16 + 1));
        assert_eq!(c.color_at(STRIDE + 1), Some(Color::White));
        let p = Move::Play(STRIDE as u16 + 2); // C4, black, in atari
        assert_eq!(c.check(p, true), Err(Illegal::Occupied));
        // A corner capture.
        let mut c = board(&["O.X", "X..", "..."], Color::Black);
        let cap = c.play(Move::Play(1), true).unwrap();
        assert_eq!(cap, Bits::single(0));
        assert_eq!(c.color_at(0), None);
        assert_eq!(c.to_move(), Color::White);
        assert_eq!(c.ko_point(), None, "two stones next to the captured point");
    }

    #[test]
    fn simple_ko_forbids_the_immediate_recapture() {
        // . X O .
        // X O . O
        // . X O .
        let mut b = board(&[".XO.", "XO.O", ".XO.", "...."], Color::Black);
        let k = b.point(2, 1).unwrap();
        let cap = b.play(Move::Play(k as u16), true).unwrap();
        assert_eq!(cap, Bits::single(b.point(1, 1).unwrap()));
        assert_eq!(b.ko_point(), b.point(1, 1));
        let back = Move::Play(b.point(1, 1).unwrap() as u16);
        assert_eq!(b.check(back, true), Err(Illegal::Ko));
        assert_eq!(b.check(back, false), Ok(()));
        // After a pass each, the ko may be retaken.
        b.play(Move::Pass, true).unwrap();
        b.play(Move::Pass, true).unwrap();
        assert_eq!(b.check(back, true), Ok(()));
    }

    /// The neighbours read off the row and column are the one-point set's
    /// dilation, on every point of every size.
    #[test]
    fn neighbours_are_the_points_next_to_one() {
        for size in 1..=MAX_SIZE {
            let b = Board::new(size).unwrap();
            for p in b.mask().iter() {
                assert_eq!(
                    b.neighbours(p),
                    Bits::single(p).border(b.mask()),
                    "size {size}, point {p}"
                );
            }
        }
    }

    #[test]
    fn blocks_and_their_neighbours() {
        let b = board(&["XXO..", "OXO..", ".OO..", ".....", "....."], Color::Black);
        let x = b.block(0);
        assert_eq!(x.count(), 3);
        assert_eq!(b.liberties(&x), Bits::EMPTY, "a position no game reaches");
        let near: Vec<Bits> = b.adjacent_blocks(&x).collect();
        assert_eq!(near.len(), 2, "the white corner stone and the white wall");
        assert_eq!(near.iter().map(|n| n.count()).sum::<u32>(), 5);
        assert!(near.iter().all(|n| *n == b.block(n.first().unwrap())));
        assert_eq!(b.adjacent_blocks(&Bits::EMPTY).next(), None);
        assert_eq!(b.blocks(Color::White).len(), 2);
        assert_eq!(b.block(4), Bits::EMPTY);
    }

    /// `legal_points` (every block around the surrounded points flooded
    /// once) against `check` (the move played) point by point, on crowded
    /// random boards with ko points from random play, with and without
    /// the ko ban and a region.
    #[test]
    fn legal_points_are_the_moves_check_allows() {
        let mut rng = pns_core::rng::Rng::new(12);
        let mut surrounded = 0;
        for i in 0..3_000 {
            let size = 2 + i % 8;
            let mut b = Board::random(&mut rng, size, 4, 4);
            for _ in 0..rng.below(6) {
                let p = b
                    .mask()
                    .iter()
                    .nth(rng.below(size as u64 * size as u64) as usize);
                let _ = b.play(Move::Play(p.unwrap() as u16), true);
            }
            let region = *b.mask() & Bits(std::array::from_fn(|_| rng.next_u64()));
            for simple_ko in [true, false] {
                for r in [None, Some(&region)] {
                    let mut fast = Vec::new();
                    b.legal_points(r, simple_ko, &mut fast);
                    let slow: Vec<Move> = b
                        .mask()
                        .iter()
                        .filter(|&p| r.is_none_or(|r| r.get(p)))
                        .map(|p| Move::Play(p as u16))
                        .filter(|&m| b.check(m, simple_ko).is_ok())
                        .collect();
                    assert_eq!(fast, slow, "{simple_ko} {r:?}\n{b:?}");
                }
            }
            let empty = b.empty();
            surrounded += empty.minus(&empty.adjacent(b.mask())).count();
        }
        // Enough points with no empty neighbour to exercise the floods.
        assert!(surrounded > 5_000, "{surrounded}");
    }

    #[test]
    fn vertices_round_trip() {
        let b = Board::new(19).unwrap();
        for v in ["A1", "T19", "J10", "H8", "pass"] {
            let m = b.parse_vertex(v).unwrap();
            assert_eq!(b.format_move(m), v);
        }
        assert!(b.parse_vertex("I5").is_err());
        assert!(b.parse_vertex("A20").is_err());
        assert!(b.parse_vertex("A0").is_err());
        assert!(b.parse_vertex("").is_err());
        assert_eq!(b.parse_vertex("a1").unwrap(), b.parse_vertex("A1").unwrap());
        assert!(Board::new(0).is_err() && Board::new(20).is_err());
    }
}
