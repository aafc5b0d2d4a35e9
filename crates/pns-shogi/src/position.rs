//! Shogi positions: an 81-square mailbox with per-direction neighbour
//! tables, pieces in hand, Zobrist keys, SFEN in and out, USI moves, and
//! legal move generation with every rule a mate search depends on: forced
//! and optional promotions, pieces that could never move again (no pawn or
//! lance on the last rank, no knight on the last two, on the board or
//! dropped), no second unpromoted pawn on a file (nifu), and no mate by a
//! pawn drop (uchifuzume).
//!
//! Squares are numbered `rank * 9 + col`, rank 0 = `a` (White's back rank),
//! col 0 = file 9, so SFEN's board string lists squares 0..81 in order.
//! Black (sente, `b`) moves towards rank `a`.
//!
//! Why a mailbox and not bitboards: the mate search spends its time in
//! check and evasion generation around one king, where walking the eight
//! rays from the king square is as cheap as bitboard lookups, and the
//! code stays small enough to check by perft (see `tests/perft.rs` and
//! docs/PERFORMANCE.md for the measured speed). Beside the mailbox, each
//! colour's occupancy is kept as a 128-bit set: it lists a side's pieces
//! without scanning 81 squares, and finds the first piece on a ray (or
//! whether a segment is empty) with one mask and one bit scan.
//!
//! The df-pn+ heuristic counts the checks and evasions of every new child
//! ([`Position::count_checks`], [`Position::count_evasions`]) without
//! listing them; `tests/counting.rs` holds the counts to the lists'
//! lengths.

use std::fmt;

use pns_core::GameError;

/// A player: Black (sente) moves first from the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    #[inline]
    pub fn idx(self) -> usize {
        self as usize
    }
}

/// Piece kinds; the promoted kinds are the unpromoted ones plus 8.
pub mod kind {
    pub const PAWN: u8 = 0;
    pub const LANCE: u8 = 1;
    pub const KNIGHT: u8 = 2;
    pub const SILVER: u8 = 3;
    pub const GOLD: u8 = 4;
    pub const BISHOP: u8 = 5;
    pub const ROOK: u8 = 6;
    pub const KING: u8 = 7;
    pub const PRO_PAWN: u8 = 8;
    pub const PRO_LANCE: u8 = 9;
    pub const PRO_KNIGHT: u8 = 10;
    pub const PRO_SILVER: u8 = 11;
    pub const HORSE: u8 = 13;
    pub const DRAGON: u8 = 14;
    /// Whether a kind may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline]
    pub fn promotable(k: u8) -> bool {
        k <= ROOK && k != GOLD
    }
    /// The kind a captured piece becomes in hand.
    #[inline]
    pub fn unpromoted(k: u8) -> u8 {
        if k >= 8 {
            k - 8
        } else {
            k
        }
    }
}

/// Kinds that can be held in hand: pawn .. rook (indices 0..7).
pub const HAND_KINDS: usize = 7;
/// How many of each hand kind the game has (18 pawns, 4 lances, ...).
pub const TOTAL: [u8; HAND_KINDS] = [18, 4, 4, 4, 4, 2, 2];

/// A piece on a square: `0` is empty, otherwise `color << 4 | (kind + 1)`.
pub type Piece = u8;

#[inline]
pub fn make_piece(c: Color, k: u8) -> Piece {
    ((c as u8) << 4) | (k + 1)
}
#[inline]
pub fn piece_kind(p: Piece) -> u8 {
    (p & 15) - 1
}
#[inline]
pub fn piece_color(p: Piece) -> Color {
    if p >> 4 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// Squares: 0..81, `NONE` for off the board / no king.
pub const NONE: u8 = 81;

#[inline]
pub fn rank_of(sq: u8) -> u8 {
    sq / 9
}
#[inline]
pub fn col_of(sq: u8) -> u8 {
    sq % 9
}
/// The file number 1..9 of a square.
#[inline]
pub fn file_of(sq: u8) -> u8 {
    9 - col_of(sq)
}

/// The square in USI notation, e.g. `7g`.
pub fn square_name(sq: u8) -> String {
    format!("{}{}", file_of(sq), (b'a' + rank_of(sq)) as char)
}

fn parse_square(b: &[u8]) -> Option<u8> {
    if b.len() != 2 {
        return None;
    }
    let f = b[0].wrapping_sub(b'0');
    let r = b[1].wrapping_sub(b'a');
    if !(1..=9).contains(&f) || r > 8 {
        return None;
    }
    Some(r * 9 + (9 - f))
}

/// Whether `sq` is in `c`'s promotion zone (the three farthest ranks).
#[inline]
pub fn in_zone(c: Color, sq: u8) -> bool {
    match c {
        Color::Black => rank_of(sq) <= 2,
        Color::White => rank_of(sq) >= 6,
    }
}

/// The square a pawn of `c` on `sq` attacks (`NONE` off the board).
#[inline]
fn pawn_ahead(c: Color, sq: u8) -> u8 {
    match c {
        Color::Black => NEIGH[sq as usize][0],
        Color::White => NEIGH[sq as usize][4],
    }
}

/// How many ranks lie ahead of `sq` for `c` (0 on the last rank).
#[inline]
fn ranks_ahead(c: Color, sq: u8) -> u8 {
    match c {
        Color::Black => rank_of(sq),
        Color::White => 8 - rank_of(sq),
    }
}

/// Whether a piece of kind `k` of `c` could never move again from `sq`
/// (pawn or lance on the last rank, knight on the last two).
#[inline]
pub fn dead_square(c: Color, k: u8, sq: u8) -> bool {
    match k {
        kind::PAWN | kind::LANCE => ranks_ahead(c, sq) == 0,
        kind::KNIGHT => ranks_ahead(c, sq) <= 1,
        _ => false,
    }
}

// Directions, seen from Black: N is towards rank a.
const DIRS: [(i8, i8); 8] = [
    (0, -1),  // 0 N
    (1, -1),  // 1 NE
    (1, 0),   // 2 E
    (1, 1),   // 3 SE
    (0, 1),   // 4 S
    (-1, 1),  // 5 SW
    (-1, 0),  // 6 W
    (-1, -1), // 7 NW
];
const N: u8 = 1 << 0;
const NE: u8 = 1 << 1;
const E: u8 = 1 << 2;
const SE: u8 = 1 << 3;
const S: u8 = 1 << 4;
const SW: u8 = 1 << 5;
const W: u8 = 1 << 6;
const NW: u8 = 1 << 7;
const ORTH: u8 = N | E | S | W;
const DIAG: u8 = NE | SE | SW | NW;
const GOLDS: u8 = N | NE | NW | E | W | S;

#[inline]
fn opposite(d: usize) -> usize {
    (d + 4) & 7
}

/// Mirrors a Black direction mask for White (N <-> S).
const fn mirror(m: u8) -> u8 {
    // N(0)<->S(4), NE(1)<->SE(3), NW(7)<->SW(5); E, W stay.
    let mut out = 0u8;
    let map = [4u8, 3, 2, 1, 0, 7, 6, 5];
    let mut d = 0;
    while d < 8 {
        if m & (1 << d) != 0 {
            out |= 1 << map[d];
        }
        d += 1;
    }
    out
}

// Step and slide masks per kind, for Black.
const STEP_B: [u8; 15] = [
    N,                     // pawn
    0,                     // lance
    0,                     // knight
    N | NE | NW | SE | SW, // silver
    GOLDS,                 // gold
    0,                     // bishop
    0,                     // rook
    0xff,                  // king
    GOLDS,                 // +P
    GOLDS,                 // +L
    GOLDS,                 // +N
    GOLDS,                 // +S
    0,                     // (unused: promoted gold)
    ORTH,                  // horse
    DIAG,                  // dragon
];
const SLIDE_B: [u8; 15] = [0, N, 0, 0, 0, DIAG, ORTH, 0, 0, 0, 0, 0, 0, DIAG, ORTH];

const fn build_masks(base: [u8; 15], white: bool) -> [u8; 15] {
    let mut out = [0u8; 15];
    let mut i = 0;
    while i < 15 {
        out[i] = if white { mirror(base[i]) } else { base[i] };
        i += 1;
    }
    out
}
const STEP: [[u8; 15]; 2] = [build_masks(STEP_B, false), build_masks(STEP_B, true)];
const SLIDE: [[u8; 15]; 2] = [build_masks(SLIDE_B, false), build_masks(SLIDE_B, true)];

/// [`STEP`] or [`SLIDE`] indexed by the piece byte (its colour and kind
/// together, 0 for an empty square), so the hot tests need not decode it.
const fn build_piece_masks(slide: bool) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut p = 1;
    while p < 32 {
        let c = p >> 4;
        if p & 15 != 0 {
            let k = (p & 15) - 1;
            t[p] = if slide { SLIDE[c][k] } else { STEP[c][k] };
        }
        p += 1;
    }
    t
}
const PIECE_SLIDE: [u8; 32] = build_piece_masks(true);

/// `ATTACKER[by][near][p]`: the directions in which the piece byte `p`
/// attacks when it belongs to `by` (none otherwise), from the square next
/// to the target (`near` = 1: steps and slides) or farther along a ray
/// (`near` = 0: slides only). One lookup answers "does the first piece on
/// this ray attack along it".
const fn build_attacker() -> [[[u8; 32]; 2]; 2] {
    let step = build_piece_masks(false);
    let slide = build_piece_masks(true);
    let mut t = [[[0u8; 32]; 2]; 2];
    let mut p = 1;
    while p < 32 {
        let by = p >> 4;
        t[by][0][p] = slide[p];
        t[by][1][p] = step[p] | slide[p];
        p += 1;
    }
    t
}
const ATTACKER: [[[u8; 32]; 2]; 2] = build_attacker();

const fn build_neigh() -> [[u8; 8]; 81] {
    let mut t = [[NONE; 8]; 81];
    let mut sq = 0;
    while sq < 81 {
        let c = (sq % 9) as i8;
        let r = (sq / 9) as i8;
        let mut d = 0;
        while d < 8 {
            let nc = c + DIRS[d].0;
            let nr = r + DIRS[d].1;
            if nc >= 0 && nc < 9 && nr >= 0 && nr < 9 {
                t[sq][d] = (nr * 9 + nc) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}
/// `NEIGH[sq][d]`: the square next to `sq` in direction `d`, or `NONE`.
const NEIGH: [[u8; 8]; 81] = build_neigh();

/// `RAY_DIR[a][b]`: the direction `d` in which walking from `a` (by
/// [`NEIGH`]) reaches `b`, or `NONE` when they share no line.
const fn build_ray_dir() -> [[u8; 81]; 81] {
    let neigh = build_neigh();
    let mut t = [[NONE; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut s = neigh[a][d];
            while s != NONE {
                t[a][s as usize] = d as u8;
                s = neigh[s as usize][d];
            }
            d += 1;
        }
        a += 1;
    }
    t
}
const RAY_DIR: [[u8; 81]; 81] = build_ray_dir();

/// `RAY[sq][d]`: the squares from `sq` outwards in direction `d`, to the
/// edge; with the occupancy, the first piece on a ray is one bit scan.
const fn build_ray() -> [[u128; 8]; 81] {
    let neigh = build_neigh();
    let mut t = [[0u128; 8]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut d = 0;
        while d < 8 {
            let mut s = neigh[sq][d];
            while s != NONE {
                t[sq][d] |= 1u128 << s;
                s = neigh[s as usize][d];
            }
            d += 1;
        }
        sq += 1;
    }
    t
}
static RAY: [[u128; 8]; 81] = build_ray();

/// `BIT[sq]`: the set of the one square `sq`, empty for `NONE` (a table
/// load is cheaper than a variable 128-bit shift in the hot tests).
const fn build_bit() -> [u128; 82] {
    let mut t = [0u128; 82];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = 1u128 << sq;
        sq += 1;
    }
    t
}
static BIT: [u128; 82] = build_bit();

/// The nearest square of `m` (a part of `RAY[_][d]`, not empty) in
/// direction `d`: the lowest for the directions that raise the square
/// number (E, SE, S, SW), the highest for the others.
#[inline(always)]
fn nearest(m: u128, d: usize) -> u8 {
    if (2..=5).contains(&d) {
        m.trailing_zeros() as u8
    } else {
        127 - m.leading_zeros() as u8
    }
}

/// `near[sq]`: the squares at most `files` files and `ranks` ranks from
/// `sq`.
const fn build_near(files: i32, ranks: i32) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        let (ac, ar) = ((a % 9) as i32, (a / 9) as i32);
        let mut b: usize = 0;
        while b < 81 {
            let (bc, br) = ((b % 9) as i32, (b / 9) as i32);
            let (dc, dr) = (ac - bc, ar - br);
            if dc >= -files && dc <= files && dr >= -ranks && dr <= ranks {
                t[a] |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}
/// `CHECK_AREA[sq]`: the squares at most two files and four ranks from
/// `sq`, which hold every square from which a non-sliding piece (a knight
/// included, promoting or not) moves to a square that attacks `sq`, and
/// every square on a line from `sq` (a piece there may uncover a slider):
/// a piece elsewhere gives check only if it slides.
const fn build_check_area() -> [u128; 81] {
    let near = build_near(2, 4);
    let dirs = build_ray_dir();
    let mut t = [0u128; 81];
    let mut a = 0;
    while a < 81 {
        t[a] = near[a];
        let mut b = 0;
        while b < 81 {
            if dirs[a][b] != NONE {
                t[a] |= 1u128 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}
static CHECK_AREA: [u128; 81] = build_check_area();

/// Knight targets of a knight of colour `c` on `sq` (at most two; NONE).
const fn build_knight() -> [[[u8; 2]; 81]; 2] {
    let mut t = [[[NONE; 2]; 81]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 81 {
            let col = (sq % 9) as i8;
            let r = (sq / 9) as i8;
            let nr = if c == 0 { r - 2 } else { r + 2 };
            let mut i = 0;
            while i < 2 {
                let nc = if i == 0 { col - 1 } else { col + 1 };
                if nc >= 0 && nc < 9 && nr >= 0 && nr < 9 {
                    t[c][sq][i] = (nr * 9 + nc) as u8;
                }
                i += 1;
            }
            sq += 1;
        }
        c += 1;
    }
    t
}
const KNIGHT_TO: [[[u8; 2]; 81]; 2] = build_knight();

/// `REACH[c][k][sq]`: the squares a piece of colour `c` and kind `k` on
/// `sq` moves to (so attacks) on an empty board.
const fn build_reach() -> [[[u128; 81]; 15]; 2] {
    let neigh = build_neigh();
    let knight = build_knight();
    let mut t = [[[0u128; 81]; 15]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 15 {
            let mut sq = 0;
            while sq < 81 {
                let mut m = 0u128;
                let mut d = 0;
                while d < 8 {
                    if STEP[c][k] & (1 << d) != 0 && neigh[sq][d] != NONE {
                        m |= 1u128 << neigh[sq][d];
                    }
                    if SLIDE[c][k] & (1 << d) != 0 {
                        let mut s = neigh[sq][d];
                        while s != NONE {
                            m |= 1u128 << s;
                            s = neigh[s as usize][d];
                        }
                    }
                    d += 1;
                }
                if k == kind::KNIGHT as usize {
                    let mut i = 0;
                    while i < 2 {
                        if knight[c][sq][i] != NONE {
                            m |= 1u128 << knight[c][sq][i];
                        }
                        i += 1;
                    }
                }
                t[c][k][sq] = m;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}
static REACH: [[[u128; 81]; 15]; 2] = build_reach();

/// `CHECK_FROM[c][k][sq]`: the squares from which a piece of colour `c`
/// and kind `k` attacks `sq` on an empty board (the transpose of
/// [`REACH`]): a board move can check directly only by landing there.
const fn build_check_from() -> [[[u128; 81]; 15]; 2] {
    let reach = build_reach();
    let mut t = [[[0u128; 81]; 15]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 15 {
            let mut x = 0;
            while x < 81 {
                let mut m = reach[c][k][x];
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    t[c][k][sq] |= 1u128 << x;
                }
                x += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}
static CHECK_FROM: [[[u128; 81]; 15]; 2] = build_check_from();

// Zobrist keys, built at compile time from splitmix64.
const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
const fn build_zob_board() -> [[u64; 32]; 81] {
    let mut t = [[0u64; 32]; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut p = 0;
        while p < 32 {
            t[sq][p] = splitmix(0x5157_0000_0000 + (sq as u64) * 64 + p as u64);
            p += 1;
        }
        sq += 1;
    }
    t
}
const fn build_zob_hand() -> [[u64; HAND_KINDS]; 2] {
    let mut t = [[0u64; HAND_KINDS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < HAND_KINDS {
            t[c][k] = splitmix(0x4841_4e44_0000 + (c as u64) * 16 + k as u64);
            k += 1;
        }
        c += 1;
    }
    t
}
static ZOB_BOARD: [[u64; 32]; 81] = build_zob_board();
/// Hand keys are additive: the key of a hand is the sum of count × key, so
/// that one more piece in hand is one addition.
static ZOB_HAND: [[u64; HAND_KINDS]; 2] = build_zob_hand();
const ZOB_WHITE: u64 = 0x9d3c_5a1e_77b2_04f1;

/// A move: `to` in bits 0-6, `from` in bits 7-13 (81 + hand kind for a
/// drop), promotion in bit 14.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    #[inline]
    pub fn board(from: u8, to: u8, promote: bool) -> Move {
        Move(to as u16 | (from as u16) << 7 | (promote as u16) << 14)
    }
    #[inline]
    pub fn drop(k: u8, to: u8) -> Move {
        Move(to as u16 | ((81 + k) as u16) << 7)
    }
    #[inline]
    pub fn to(self) -> u8 {
        (self.0 & 127) as u8
    }
    #[inline]
    pub fn from(self) -> u8 {
        ((self.0 >> 7) & 127) as u8
    }
    #[inline]
    pub fn is_drop(self) -> bool {
        self.from() >= 81
    }
    /// The dropped kind (for a drop).
    #[inline]
    pub fn drop_kind(self) -> u8 {
        self.from() - 81
    }
    #[inline]
    pub fn promotes(self) -> bool {
        self.0 & (1 << 14) != 0
    }
    /// USI notation: `7g7f`, `8h2b+`, `P*5e`.
    pub fn usi(self) -> String {
        if self.is_drop() {
            format!(
                "{}*{}",
                b"PLNSGBR"[self.drop_kind() as usize] as char,
                square_name(self.to())
            )
        } else {
            format!(
                "{}{}{}",
                square_name(self.from()),
                square_name(self.to()),
                if self.promotes() { "+" } else { "" }
            )
        }
    }
    /// Reads USI notation without checking legality.
    pub fn parse_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let k = b"PLNSGBR".iter().position(|&c| c == b[0])? as u8;
            return Some(Move::drop(k, parse_square(&b[2..4])?));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        let from = parse_square(&b[0..2])?;
        let to = parse_square(&b[2..4])?;
        (from != to).then(|| Move::board(from, to, promote))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.usi())
    }
}

/// A shogi position.
#[derive(Clone)]
pub struct Position {
    board: [Piece; 81],
    hands: [[u8; HAND_KINDS]; 2],
    side: Color,
    kings: [u8; 2],
    /// The squares of each colour's pieces, so that the generators visit
    /// their own pieces only, not all 81 squares.
    occ: [u128; 2],
    /// Zobrist key of the board and the side to move (hands apart).
    board_key: u64,
    /// Move number, for SFEN output only.
    ply: u32,
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board && self.hands == o.hands && self.side == o.side
    }
}
impl Eq for Position {}
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.board.hash(h);
        self.hands.hash(h);
        self.side.hash(h);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

/// The start position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

const LETTERS: &[u8; 8] = b"PLNSGBRK";

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_sfen(STARTPOS).expect("start position")
    }

    /// Reads SFEN: `BOARD SIDE HANDS [MOVENUMBER]`. Checks the rules a
    /// position must keep: at most one king a side, pieces within the
    /// game's set, no piece that could never move, no two unpromoted pawns
    /// of a side on a file, the side not to move not in check.
    pub fn from_sfen(s: &str) -> Result<Position, GameError> {
        let err = |m: String| GameError::new(format!("bad SFEN '{s}': {m}"));
        let parts: Vec<&str> = s.split_whitespace().collect();
        if parts.len() < 3 || parts.len() > 4 {
            return Err(err("expected 'BOARD SIDE HANDS [MOVENUMBER]'".into()));
        }
        let mut p = Position {
            board: [0; 81],
            hands: [[0; HAND_KINDS]; 2],
            side: Color::Black,
            kings: [NONE; 2],
            occ: [0; 2],
            board_key: 0,
            ply: 1,
        };
        let ranks: Vec<&str> = parts[0].split('/').collect();
        if ranks.len() != 9 {
            return Err(err(format!("{} ranks, not 9", ranks.len())));
        }
        for (r, row) in ranks.iter().enumerate() {
            let mut col = 0usize;
            let mut promoted = false;
            for ch in row.bytes() {
                if ch.is_ascii_digit() && ch != b'0' && !promoted {
                    col += (ch - b'0') as usize;
                    continue;
                }
                if ch == b'+' && !promoted {
                    promoted = true;
                    continue;
                }
                let k = LETTERS
                    .iter()
                    .position(|&l| l == ch.to_ascii_uppercase())
                    .ok_or_else(|| err(format!("unexpected '{}' in rank {}", ch as char, r + 1)))?
                    as u8;
                if col >= 9 {
                    return Err(err(format!("rank {} is longer than 9 squares", r + 1)));
                }
                let c = if ch.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                if promoted && !kind::promotable(k) {
                    return Err(err(format!("'+{}' cannot be promoted", ch as char)));
                }
                let k = if promoted { k + 8 } else { k };
                let sq = (r * 9 + col) as u8;
                if dead_square(c, k, sq) {
                    return Err(err(format!(
                        "{} on {} could never move",
                        ch as char,
                        square_name(sq)
                    )));
                }
                if k == kind::KING {
                    if p.kings[c.idx()] != NONE {
                        return Err(err("two kings of one side".into()));
                    }
                    p.kings[c.idx()] = sq;
                }
                p.board[sq as usize] = make_piece(c, k);
                p.occ[c.idx()] |= 1u128 << sq;
                col += 1;
                promoted = false;
            }
            if col != 9 || promoted {
                return Err(err(format!("rank {} does not have 9 squares", r + 1)));
            }
        }
        p.side = match parts[1] {
            "b" => Color::Black,
            "w" => Color::White,
            o => return Err(err(format!("side '{o}' is not b or w"))),
        };
        if parts[2] != "-" {
            let mut count: u32 = 0;
            let mut any_digit = false;
            for ch in parts[2].bytes() {
                if ch.is_ascii_digit() {
                    count = count * 10 + (ch - b'0') as u32;
                    any_digit = true;
                    if count > 18 {
                        return Err(err("a hand count above 18".into()));
                    }
                    continue;
                }
                let k = b"PLNSGBR"
                    .iter()
                    .position(|&l| l == ch.to_ascii_uppercase())
                    .ok_or_else(|| err(format!("unexpected '{}' in the hands", ch as char)))?;
                let c = if ch.is_ascii_uppercase() { 0 } else { 1 };
                let n = if any_digit { count } else { 1 };
                if n == 0 {
                    return Err(err("a hand count of 0".into()));
                }
                p.hands[c][k] += n as u8;
                count = 0;
                any_digit = false;
            }
            if any_digit {
                return Err(err("a hand count without a piece".into()));
            }
        }
        if let Some(n) = parts.get(3) {
            p.ply = n
                .parse()
                .map_err(|_| err(format!("move number '{n}' is not a number")))?;
        }
        let counts = p.piece_counts();
        for k in 0..HAND_KINDS {
            if counts[k] > TOTAL[k] {
                return Err(err(format!(
                    "{} pieces of kind {}, the game has {}",
                    counts[k], LETTERS[k] as char, TOTAL[k]
                )));
            }
        }
        for c in [Color::Black, Color::White] {
            for col in 0..9u8 {
                let pawns = (0..9u8)
                    .filter(|r| p.board[(r * 9 + col) as usize] == make_piece(c, kind::PAWN))
                    .count();
                if pawns > 1 {
                    return Err(err(format!(
                        "two unpromoted pawns of one side on file {}",
                        9 - col
                    )));
                }
            }
        }
        p.board_key = p.compute_board_key();
        if p.in_check(p.side.flip()) {
            return Err(err("the side not to move is in check".into()));
        }
        Ok(p)
    }

    /// Pieces of each hand kind on the board and in both hands (kings apart).
    pub fn piece_counts(&self) -> [u8; HAND_KINDS] {
        let mut n = [0u8; HAND_KINDS];
        for &pc in &self.board {
            if pc != 0 && piece_kind(pc) != kind::KING {
                n[kind::unpromoted(piece_kind(pc)) as usize] += 1;
            }
        }
        for h in &self.hands {
            for k in 0..HAND_KINDS {
                n[k] += h[k];
            }
        }
        n
    }

    fn compute_board_key(&self) -> u64 {
        let mut k = 0;
        for sq in 0..81 {
            if self.board[sq] != 0 {
                k ^= ZOB_BOARD[sq][self.board[sq] as usize];
            }
        }
        if self.side == Color::White {
            k ^= ZOB_WHITE;
        }
        k
    }

    /// SFEN of the position.
    pub fn to_sfen(&self) -> String {
        let mut s = String::new();
        for r in 0..9 {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for col in 0..9 {
                let pc = self.board[r * 9 + col];
                if pc == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                let k = piece_kind(pc);
                if k >= 8 {
                    s.push('+');
                }
                let l = LETTERS[kind::unpromoted(k) as usize] as char;
                s.push(if piece_color(pc) == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hands = String::new();
        for c in 0..2 {
            // SFEN order: rook, bishop, gold, silver, knight, lance, pawn.
            for k in (0..HAND_KINDS).rev() {
                let n = self.hands[c][k];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                let l = b"PLNSGBR"[k] as char;
                hands.push(if c == 0 { l } else { l.to_ascii_lowercase() });
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s.push_str(&hands);
        s.push_str(&format!(" {}", self.ply));
        s
    }

    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn piece_at(&self, sq: u8) -> Piece {
        self.board[sq as usize]
    }
    #[inline]
    pub fn hand(&self, c: Color) -> &[u8; HAND_KINDS] {
        &self.hands[c.idx()]
    }
    /// Sets a hand (used by tsume to give the defender the rest of the set).
    pub fn set_hand(&mut self, c: Color, h: [u8; HAND_KINDS]) {
        self.hands[c.idx()] = h;
    }
    #[inline]
    pub fn king(&self, c: Color) -> Option<u8> {
        let k = self.kings[c.idx()];
        (k != NONE).then_some(k)
    }
    /// The key of the board and side to move, without the hands.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }
    /// The additive key of `c`'s hand.
    #[inline]
    pub fn hand_key(&self, c: Color) -> u64 {
        let h = &self.hands[c.idx()];
        let mut k = 0u64;
        for (i, &n) in h.iter().enumerate() {
            k = k.wrapping_add((n as u64).wrapping_mul(ZOB_HAND[c.idx()][i]));
        }
        k
    }
    /// The full key: board, side and both hands.
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key(Color::Black) ^ self.hand_key(Color::White).rotate_left(17)
    }

    /// Whether a piece of `by` attacks `sq`.
    #[inline]
    pub fn attacked(&self, sq: u8, by: Color) -> bool {
        self.attacked_through(sq, by, NONE)
    }

    /// Whether a piece of `by` attacks `sq` with the square `hole` taken
    /// as empty (`NONE`: none; the king's own square, when the king moves
    /// away along a slider's line).
    fn attacked_through(&self, sq: u8, by: Color, hole: u8) -> bool {
        let occ = (self.occ[0] | self.occ[1]) & !BIT[hole as usize];
        for d in 0..8 {
            let r = RAY[sq as usize][d] & occ;
            if r == 0 {
                continue;
            }
            // The first piece on the ray: next to `sq`, any piece moving
            // that way attacks; farther, only a slider.
            let s = nearest(r, d);
            let p = self.board[s as usize];
            let near = (NEIGH[sq as usize][d] == s) as usize;
            if ATTACKER[by.idx()][near][p as usize] & (1u8 << opposite(d)) != 0 {
                return true;
            }
        }
        // A knight of `by` on X attacks sq when sq is one of X's targets:
        // X is a target of the other side's knight on sq.
        KNIGHT_TO[by.flip().idx()][sq as usize]
            .iter()
            .any(|&x| x != NONE && self.board[x as usize] == make_piece(by, kind::KNIGHT))
    }

    /// Calls `f` with the square of every piece of `by` that attacks `sq`
    /// (so could move there): the first piece out on each line from it,
    /// then knights.
    #[inline(always)]
    fn for_each_attacker(&self, sq: u8, by: Color, mut f: impl FnMut(u8)) {
        let occ = self.occ[0] | self.occ[1];
        for d in 0..8 {
            let r = RAY[sq as usize][d] & occ;
            if r == 0 {
                continue;
            }
            let s = nearest(r, d);
            let p = self.board[s as usize];
            let near = (NEIGH[sq as usize][d] == s) as usize;
            if ATTACKER[by.idx()][near][p as usize] & (1u8 << opposite(d)) != 0 {
                f(s);
            }
        }
        let knight = make_piece(by, kind::KNIGHT);
        for &x in &KNIGHT_TO[by.flip().idx()][sq as usize] {
            if x != NONE && self.board[x as usize] == knight {
                f(x);
            }
        }
    }

    /// The pieces of `by` attacking `sq`, at most two (enough to tell a
    /// single check from a double one).
    pub fn checkers(&self, sq: u8, by: Color) -> ([u8; 2], usize) {
        let mut out = [NONE; 2];
        let mut n = 0;
        self.for_each_attacker(sq, by, |s| {
            if n < 2 {
                out[n] = s;
            }
            n += 1;
        });
        (out, n)
    }

    /// Whether `c`'s king is attacked (false when `c` has no king).
    #[inline]
    pub fn in_check(&self, c: Color) -> bool {
        match self.king(c) {
            Some(k) => self.attacked(k, c.flip()),
            None => false,
        }
    }

    /// Plays a move (assumed legal).
    pub fn play(&mut self, m: Move) {
        let us = self.side;
        let to = m.to() as usize;
        if m.is_drop() {
            let k = m.drop_kind();
            self.hands[us.idx()][k as usize] -= 1;
            let pc = make_piece(us, k);
            self.board[to] = pc;
            self.occ[us.idx()] |= BIT[to];
            self.board_key ^= ZOB_BOARD[to][pc as usize];
        } else {
            let from = m.from() as usize;
            let pc = self.board[from];
            let cap = self.board[to];
            if cap != 0 {
                let ck = piece_kind(cap);
                debug_assert!(ck != kind::KING, "a king captured: {self:?} {m:?}");
                if ck == kind::KING {
                    self.kings[piece_color(cap).idx()] = NONE;
                } else {
                    self.hands[us.idx()][kind::unpromoted(ck) as usize] += 1;
                }
                self.occ[us.flip().idx()] &= !BIT[to];
                self.board_key ^= ZOB_BOARD[to][cap as usize];
            }
            let np = if m.promotes() { pc + 8 } else { pc };
            self.board[from] = 0;
            self.board[to] = np;
            self.occ[us.idx()] ^= BIT[from] | BIT[to];
            self.board_key ^= ZOB_BOARD[from][pc as usize] ^ ZOB_BOARD[to][np as usize];
            if piece_kind(pc) == kind::KING {
                self.kings[us.idx()] = to as u8;
            }
        }
        self.side = us.flip();
        self.board_key ^= ZOB_WHITE;
        self.ply += 1;
    }

    /// Calls `f` with every square the piece on `from` moves to (empty or
    /// holding an opponent's piece), in generation order: directions 0..8
    /// (one step, or a slide outwards), then the knight's jumps. Shogi
    /// pieces move as they attack, so the checking and counting paths walk
    /// the same squares without building a move list.
    #[inline(always)]
    fn for_each_dest(&self, from: u8, mut f: impl FnMut(u8)) {
        let us = self.side;
        let k = piece_kind(self.board[from as usize]) as usize;
        let c = us.idx();
        let open = |to: u8| {
            let t = self.board[to as usize];
            t == 0 || piece_color(t) != us
        };
        let steps = STEP[c][k];
        let slides = SLIDE[c][k];
        // Steps and slides never share a direction, so one pass over the
        // directions of either keeps the order of direction.
        let mut dirs = steps | slides;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let mut to = NEIGH[from as usize][d];
            if steps & (1 << d) != 0 {
                if to != NONE && open(to) {
                    f(to);
                }
            } else {
                while to != NONE {
                    let t = self.board[to as usize];
                    if t != 0 && piece_color(t) == us {
                        break;
                    }
                    f(to);
                    if t != 0 {
                        break;
                    }
                    to = NEIGH[to as usize][d];
                }
            }
        }
        if k == kind::KNIGHT as usize {
            for &to in &KNIGHT_TO[c][from as usize] {
                if to != NONE && open(to) {
                    f(to);
                }
            }
        }
    }

    /// Adds the board moves of the piece on `from` (pseudo-legal: own king
    /// safety unchecked), with forced and optional promotions.
    #[inline]
    fn piece_moves(&self, from: u8, out: &mut Vec<Move>) {
        let k = piece_kind(self.board[from as usize]);
        self.for_each_dest(from, |to| self.push_with_promotions(k, from, to, out));
    }

    /// The moves of a piece of kind `k` from `from` to `to`: whether it may
    /// promote, and whether it may stay unpromoted (not where it could
    /// never move again).
    #[inline(always)]
    fn promotion_options(&self, k: u8, from: u8, to: u8) -> (bool, bool) {
        let us = self.side;
        if kind::promotable(k) && (in_zone(us, from) || in_zone(us, to)) {
            (true, !dead_square(us, k, to))
        } else {
            (false, true)
        }
    }

    #[inline]
    fn push_with_promotions(&self, k: u8, from: u8, to: u8, out: &mut Vec<Move>) {
        let (promote, stay) = self.promotion_options(k, from, to);
        if promote {
            out.push(Move::board(from, to, true));
        }
        if stay {
            out.push(Move::board(from, to, false));
        }
    }

    /// Pseudo-legal board moves of the side to move.
    pub fn board_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        for sq in squares(self.occ[us.idx()]) {
            self.piece_moves(sq, out);
        }
    }

    /// Whether the side to move may drop kind `k` on the empty square `to`
    /// by the rules that do not need look-ahead (dead squares, nifu).
    #[inline]
    pub fn drop_allowed(&self, k: u8, to: u8) -> bool {
        let us = self.side;
        if self.hands[us.idx()][k as usize] == 0 || self.board[to as usize] != 0 {
            return false;
        }
        if dead_square(us, k, to) {
            return false;
        }
        if k == kind::PAWN {
            let col = col_of(to);
            let pawn = make_piece(us, kind::PAWN);
            if (0..9u8).any(|r| self.board[(r * 9 + col) as usize] == pawn) {
                return false;
            }
        }
        true
    }

    /// Whether playing `m` (pseudo-legal) leaves the mover's king safe.
    #[inline]
    pub fn leaves_king_safe(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ks) = self.king(us) else {
            return true;
        };
        let mut next = self.clone();
        next.play(m);
        let ks = if !m.is_drop() && m.from() == ks {
            m.to()
        } else {
            ks
        };
        !next.attacked(ks, us.flip())
    }

    /// With nothing between the king on `king` and the piece on `from`:
    /// the direction from `king` through `from` and the square of a slider
    /// of colour `owner` right behind `from` on that line that moves along
    /// it (a pin, or a discovered check once `from` moves off the line).
    #[inline(always)]
    fn slider_behind(&self, king: u8, from: u8, owner: Color) -> Option<(usize, u8)> {
        let d = RAY_DIR[king as usize][from as usize];
        if d == NONE {
            return None;
        }
        let d = d as usize;
        if !self.clear_between(king, from, d, NONE) {
            return None;
        }
        let r = RAY[from as usize][d] & (self.occ[0] | self.occ[1]);
        if r == 0 {
            return None;
        }
        let s = nearest(r, d);
        let p = self.board[s as usize];
        if piece_color(p) != owner
            || SLIDE[owner.idx()][piece_kind(p) as usize] & (1 << opposite(d)) == 0
        {
            return None;
        }
        Some((d, s))
    }

    /// King safety of a board move without playing it (what
    /// [`Position::leaves_king_safe`] answers): a king move must land on a
    /// square no enemy piece attacks once the king has left its square
    /// (`attacked_through`); another piece may leave only a line on which
    /// it shields the king on `ks` from an enemy slider (a pin) by moving
    /// along it. This is that line's direction from `ks` for the piece on
    /// `from`, if pinned. In check, only the moves that take the checker or
    /// block its line qualify (the callers filter them first): they end a
    /// single check.
    #[inline]
    fn pin_dir(&self, ks: u8, from: u8) -> Option<u8> {
        self.slider_behind(ks, from, self.side.flip())
            .map(|(d, _)| d as u8)
    }

    /// Whether the pawn drop `m` (already played: `after`) is a mate by a
    /// pawn drop, which the rules forbid: it checks the king directly and
    /// the king's side has no legal reply.
    fn is_pawn_drop_mate(after: &Position, m: Move) -> bool {
        let them = after.side;
        let Some(k) = after.king(them) else {
            return false;
        };
        // The pawn checks only the square straight ahead of it.
        if pawn_ahead(them.flip(), m.to()) != k {
            return false;
        }
        !after.has_legal_move()
    }

    /// [`Position::is_pawn_drop_mate`] for a pawn drop on `to` by the side
    /// to move, asked before playing it: only a drop right in front of the
    /// opponent's king can mate, so only that one is played out.
    #[inline]
    fn pawn_drop_mates(&self, to: u8) -> bool {
        let Some(k) = self.king(self.side.flip()) else {
            return false;
        };
        if pawn_ahead(self.side, to) != k {
            return false;
        }
        let mut next = self.clone();
        let m = Move::drop(kind::PAWN, to);
        next.play(m);
        Self::is_pawn_drop_mate(&next, m)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        if let Some(ks) = self.king(self.side) {
            let (ch, n) = self.checkers(ks, self.side.flip());
            if n > 0 {
                // In check (a pawn drop's mate test): counted, not listed.
                return self.count_evasions_in_check::<true>(ks, ch, n, false) > 0;
            }
        }
        let mut v = Vec::with_capacity(64);
        self.legal_moves(&mut v);
        !v.is_empty()
    }

    /// The squares a piece must move to (or drop on) to end a single
    /// check of the king on `ks` by the piece on `checker`: the checker's
    /// square and those between them.
    #[inline]
    fn check_targets(ks: u8, checker: u8) -> u128 {
        let d = RAY_DIR[ks as usize][checker as usize];
        if d == NONE {
            BIT[checker as usize]
        } else {
            // The ray from the king up to the checker, not beyond.
            RAY[ks as usize][d as usize] ^ RAY[checker as usize][d as usize]
        }
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let them = us.flip();
        let Some(ks) = self.king(us) else {
            self.board_moves(out);
            self.drops_on(self.empty_squares(), out);
            return;
        };
        let (ch, n) = self.checkers(ks, them);
        if n > 0 {
            self.evasions(ks, ch, n, out);
            return;
        }
        for from in squares(self.occ[us.idx()]) {
            let k = piece_kind(self.board[from as usize]);
            if from == ks {
                self.for_each_dest(from, |to| {
                    if !self.attacked_through(to, them, ks) {
                        out.push(Move::board(from, to, false));
                    }
                });
                continue;
            }
            // A pinned piece may only move along the pin's line.
            let pin = self.pin_dir(ks, from);
            self.for_each_dest(from, |to| {
                if pin.is_some_and(|d| RAY_DIR[ks as usize][to as usize] != d) {
                    return;
                }
                self.push_with_promotions(k, from, to, out);
            });
        }
        self.drops_on(self.empty_squares(), out);
    }

    /// [`Position::legal_moves`] with the king on `ks` in check by the `n`
    /// (> 0) pieces `ch`, listed directly rather than filtered from every
    /// move: the king's steps; by one checker, the moves of the pieces
    /// that reach its square or one between (found from those squares,
    /// as [`Position::count_evasions`] counts them) and the drops between.
    /// The board moves are sorted into the order of the walk over every
    /// piece (square, then direction and distance), so the list is the
    /// same as before, order included.
    fn evasions(&self, ks: u8, ch: [u8; 2], n: usize, out: &mut Vec<Move>) {
        let us = self.side;
        let them = us.flip();
        // (from, walk key, to) packed; at most 8 king steps and, for each
        // of at most 8 target squares, 8 line pieces and 2 knights.
        let mut list = [0u32; 96];
        let mut len = 0;
        for (d, &to) in NEIGH[ks as usize].iter().enumerate() {
            if to != NONE {
                let t = self.board[to as usize];
                if (t == 0 || piece_color(t) != us) && !self.attacked_through(to, them, ks) {
                    list[len] = (ks as u32) << 16 | (d as u32 * 16 + 1) << 8 | to as u32;
                    len += 1;
                }
            }
        }
        let targets = if n == 1 {
            Self::check_targets(ks, ch[0])
        } else {
            0
        };
        for to in squares(targets) {
            self.for_each_attacker(to, us, |from| {
                if from == ks
                    || self
                        .pin_dir(ks, from)
                        .is_some_and(|d| RAY_DIR[ks as usize][to as usize] != d)
                {
                    return;
                }
                list[len] = (from as u32) << 16 | (walk_key(from, to) as u32) << 8 | to as u32;
                len += 1;
            });
        }
        list[..len].sort_unstable();
        for &e in &list[..len] {
            let (from, to) = ((e >> 16) as u8, e as u8);
            self.push_with_promotions(piece_kind(self.board[from as usize]), from, to, out);
        }
        if n == 1 {
            self.drops_on(targets & !BIT[ch[0] as usize], out);
        }
    }

    /// The empty squares.
    #[inline]
    fn empty_squares(&self) -> u128 {
        !(self.occ[0] | self.occ[1]) & ((1u128 << 81) - 1)
    }

    /// Legal drops of the side to move: when in check, only interpositions
    /// between the king and a single sliding checker.
    pub fn legal_drops(&self, out: &mut Vec<Move>) {
        let targets = match self.king(self.side) {
            Some(ks) => {
                let (ch, n) = self.checkers(ks, self.side.flip());
                match n {
                    0 => self.empty_squares(),
                    1 => Self::check_targets(ks, ch[0]) & !BIT[ch[0] as usize],
                    _ => return,
                }
            }
            None => self.empty_squares(),
        };
        self.drops_on(targets, out);
    }

    /// The legal drops on the (empty) squares of `targets`, kind by kind,
    /// square by square.
    fn drops_on(&self, targets: u128, out: &mut Vec<Move>) {
        let hand = self.hands[self.side.idx()];
        for k in 0..HAND_KINDS as u8 {
            if hand[k as usize] == 0 {
                continue;
            }
            let mut t = targets;
            while t != 0 {
                let to = t.trailing_zeros() as u8;
                t &= t - 1;
                if self.drop_allowed(k, to) && !(k == kind::PAWN && self.pawn_drop_mates(to)) {
                    out.push(Move::drop(k, to));
                }
            }
        }
    }

    /// The number of legal moves of the side to move, each drop square
    /// counted once when `dedupe_drops` (df-pn+'s evasion count with proof
    /// pieces): `legal_moves`' length, or its board moves plus its distinct
    /// drop squares. In check, the usual case in tsume, it counts without
    /// listing: king steps, then for each square that ends the check the
    /// pieces that reach it, then the drops between.
    pub fn count_evasions(&self, dedupe_drops: bool) -> u64 {
        if let Some(ks) = self.king(self.side) {
            let (ch, n) = self.checkers(ks, self.side.flip());
            if n > 0 {
                return self.count_evasions_in_check::<false>(ks, ch, n, dedupe_drops);
            }
        }
        let mut v = Vec::with_capacity(128);
        self.legal_moves(&mut v);
        if !dedupe_drops {
            return v.len() as u64;
        }
        let mut squares = 0u128;
        let mut n = 0;
        for m in &v {
            if !m.is_drop() {
                n += 1;
            } else if squares & (1u128 << m.to()) == 0 {
                squares |= 1u128 << m.to();
                n += 1;
            }
        }
        n
    }

    /// [`Position::count_evasions`] with the king on `ks` in check by the
    /// `n` (> 0) pieces `ch` (the first two); with `ANY`, a count that
    /// stops early once it is positive (only whether there is a move).
    fn count_evasions_in_check<const ANY: bool>(
        &self,
        ks: u8,
        ch: [u8; 2],
        n: usize,
        dedupe_drops: bool,
    ) -> u64 {
        let us = self.side;
        let them = us.flip();
        let c = us.idx();
        let mut count = 0u64;
        for &to in &NEIGH[ks as usize] {
            if to != NONE {
                let t = self.board[to as usize];
                if (t == 0 || piece_color(t) != us) && !self.attacked_through(to, them, ks) {
                    count += 1;
                }
            }
        }
        if n > 1 || (ANY && count > 0) {
            return count;
        }
        let targets = Self::check_targets(ks, ch[0]);
        let mut t = targets;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            // Our pieces (the king apart) that move to `to`: the first
            // piece out on each line from it, and knights.
            let mut count_from = |from: u8| {
                let k = piece_kind(self.board[from as usize]);
                if self
                    .pin_dir(ks, from)
                    .is_some_and(|d| RAY_DIR[ks as usize][to as usize] != d)
                {
                    return;
                }
                let (promote, stay) = self.promotion_options(k, from, to);
                count += promote as u64 + stay as u64;
            };
            self.for_each_attacker(to, us, |from| {
                if from != ks {
                    count_from(from);
                }
            });
            if ANY && count > 0 {
                return count;
            }
        }
        // Drops between the king and a sliding checker.
        let hand = self.hands[c];
        let mut t = targets & !BIT[ch[0] as usize];
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            // Pawns last, so that a square another kind may take never
            // needs the pawn's mate test when counted once.
            for k in (0..HAND_KINDS as u8).rev() {
                if hand[k as usize] == 0
                    || !self.drop_allowed(k, to)
                    || (k == kind::PAWN && self.pawn_drop_mates(to))
                {
                    continue;
                }
                count += 1;
                if dedupe_drops {
                    break;
                }
            }
        }
        count
    }

    /// Whether `m` is legal here (any legal move, parsed or not).
    pub fn is_legal(&self, m: Move) -> bool {
        let mut v = Vec::with_capacity(128);
        self.legal_moves(&mut v);
        v.contains(&m)
    }

    /// Reads a USI move and checks that it is legal here.
    pub fn parse_usi_move(&self, s: &str) -> Result<Move, GameError> {
        let m =
            Move::parse_usi(s).ok_or_else(|| GameError::new(format!("'{s}' is not a USI move")))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(GameError::new(format!(
                "{s} is not legal in {}",
                self.to_sfen()
            )))
        }
    }

    /// Perft: the number of legal move sequences of length `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut v = Vec::with_capacity(128);
        self.legal_moves(&mut v);
        if depth <= 1 {
            return if depth == 0 { 1 } else { v.len() as u64 };
        }
        let mut n = 0;
        for m in v {
            let mut next = self.clone();
            next.play(m);
            n += next.perft(depth - 1);
        }
        n
    }

    /// Whether `m` played here gives check to the opponent's king.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let them = self.side.flip();
        let Some(k) = self.king(them) else {
            return false;
        };
        let mut next = self.clone();
        next.play(m);
        next.attacked(k, self.side)
    }

    /// The squares from which a piece of kind `k` of the side to move
    /// would attack `target`, walking rays only through empty squares
    /// (drop squares that give check).
    pub fn drop_check_squares(&self, k: u8, target: u8, out: &mut Vec<u8>) {
        self.for_each_drop_check_square(k, target, |x| out.push(x));
    }

    /// Whether [`Position::drop_check_squares`] would list any square
    /// (stops at the first).
    pub fn any_drop_check_square(&self, k: u8, target: u8) -> bool {
        let us = self.side;
        let c = us.idx();
        // Steps and slides alike start on the neighbour towards the piece.
        let dirs = STEP[c][k as usize] | SLIDE[c][k as usize];
        for d in 0..8 {
            if dirs & (1 << d) != 0 {
                let x = NEIGH[target as usize][opposite(d)];
                if x != NONE && self.board[x as usize] == 0 {
                    return true;
                }
            }
        }
        k == kind::KNIGHT
            && KNIGHT_TO[us.flip().idx()][target as usize]
                .iter()
                .any(|&x| x != NONE && self.board[x as usize] == 0)
    }

    /// [`Position::drop_check_squares`] as a walk, in the same order.
    #[inline(always)]
    fn for_each_drop_check_square(&self, k: u8, target: u8, mut f: impl FnMut(u8)) {
        let us = self.side;
        let c = us.idx();
        let steps = STEP[c][k as usize];
        let slides = SLIDE[c][k as usize];
        for d in 0..8 {
            // A piece on X attacking target in direction d sits at target - d.
            let back = opposite(d);
            if steps & (1 << d) != 0 {
                let x = NEIGH[target as usize][back];
                if x != NONE && self.board[x as usize] == 0 {
                    f(x);
                }
            }
            if slides & (1 << d) != 0 {
                let mut x = NEIGH[target as usize][back];
                while x != NONE && self.board[x as usize] == 0 {
                    f(x);
                    x = NEIGH[x as usize][back];
                }
            }
        }
        if k == kind::KNIGHT {
            for &x in &KNIGHT_TO[us.flip().idx()][target as usize] {
                if x != NONE && self.board[x as usize] == 0 {
                    f(x);
                }
            }
        }
    }

    /// Whether the squares strictly between `a` and `b` (on one line, in
    /// direction `d` from `a`) are empty, `hole` counting as empty.
    #[inline(always)]
    fn clear_between(&self, a: u8, b: u8, d: usize, hole: u8) -> bool {
        debug_assert_eq!(RAY_DIR[a as usize][b as usize], d as u8);
        // The ray from `a` holds `b` and the ray from `b` beyond it.
        let between = RAY[a as usize][d] ^ RAY[b as usize][d] ^ BIT[b as usize];
        between & (self.occ[0] | self.occ[1]) & !BIT[hole as usize] == 0
    }

    /// Whether the board move `m` (pseudo-legal, of the side to move)
    /// attacks the square `ek` once played, without playing it: a direct
    /// attack of the piece as it lands (its origin left empty), or a
    /// discovered one by a slider of ours behind the origin, on the line
    /// to `ek`, that the move uncovers. Equals `next.attacked(ek, us)`
    /// after `next.play(m)` for a square `ek` not ours (the king's).
    #[inline]
    pub fn board_move_attacks(&self, m: Move, ek: u8) -> bool {
        let (from, to) = (m.from(), m.to());
        let pc = self.board[from as usize];
        let nk = piece_kind(if m.promotes() { pc + 8 } else { pc });
        if self.lands_attacking(from, to, nk, ek) {
            return true;
        }
        // Discovered: `from` was the only piece between `ek` and a slider
        // of ours, and `to` is off that segment.
        let Some((d, s)) = self.slider_behind(ek, from, self.side) else {
            return false;
        };
        Self::leaves_line(ek, d, s, to)
    }

    /// Whether a piece moving to `to` leaves the segment from `ek` in
    /// direction `d` to the slider on `s` (so uncovers it).
    #[inline(always)]
    fn leaves_line(ek: u8, d: usize, s: u8, to: u8) -> bool {
        !(RAY_DIR[ek as usize][to as usize] == d as u8
            && RAY_DIR[to as usize][s as usize] == d as u8)
    }

    /// Whether a piece of the side to move of kind `nk` (as it lands)
    /// moved from `from` to `to` attacks `ek` directly, `from` left empty.
    #[inline(always)]
    fn lands_attacking(&self, from: u8, to: u8, nk: u8, ek: u8) -> bool {
        let c = self.side.idx();
        let nk = nk as usize;
        let d = RAY_DIR[to as usize][ek as usize];
        if d != NONE {
            let d = d as usize;
            if NEIGH[to as usize][d] == ek {
                (STEP[c][nk] | SLIDE[c][nk]) & (1 << d) != 0
            } else {
                SLIDE[c][nk] & (1 << d) != 0 && self.clear_between(to, ek, d, from)
            }
        } else {
            nk == kind::KNIGHT as usize && KNIGHT_TO[c][to as usize].contains(&ek)
        }
    }

    /// Legal moves of the side to move that give check (the attacker's
    /// moves in tsume): drops generated directly on the squares that
    /// attack the king, board moves kept when they attack it once played
    /// ([`Position::board_move_attacks`], without playing them).
    pub fn legal_checks(&self, out: &mut Vec<Move>) {
        self.for_each_check::<false>(|m| out.push(m));
    }

    /// The number of legal checks of the side to move: the length of
    /// [`Position::legal_checks`] without building it (df-pn+'s
    /// initial disproof number of an attacker's node).
    pub fn count_checks(&self) -> u64 {
        let mut n = 0;
        self.for_each_check::<true>(|_| n += 1);
        n
    }

    /// Calls `f` with each legal check, in [`Position::legal_checks`]'
    /// order (with `ANY_ORDER`, for a count, a piece's checks may come in
    /// another). The tests a board move needs (is a slider of ours behind
    /// it on the enemy king's line, is it pinned to our king) are made once
    /// per piece, not once per move, and a piece that uncovers no slider
    /// is tried only where it could attack the king on an empty board.
    #[inline(always)]
    fn for_each_check<const ANY_ORDER: bool>(&self, mut f: impl FnMut(Move)) {
        let us = self.side;
        let them = us.flip();
        let Some(ek) = self.king(them) else {
            return;
        };
        let in_check = self.in_check(us);
        let own = self.king(us);
        for k in 0..HAND_KINDS as u8 {
            if self.hands[us.idx()][k as usize] == 0 {
                continue;
            }
            self.for_each_drop_check_square(k, ek, |to| {
                if !self.drop_allowed(k, to) {
                    return;
                }
                let m = Move::drop(k, to);
                if in_check {
                    let mut next = self.clone();
                    next.play(m);
                    if let Some(ks) = own {
                        if next.attacked(ks, them) {
                            return;
                        }
                    }
                    if k == kind::PAWN && Self::is_pawn_drop_mate(&next, m) {
                        return;
                    }
                } else if k == kind::PAWN && self.pawn_drop_mates(to) {
                    return;
                }
                f(m);
            });
        }
        // Board moves of the pieces that could check: a slider anywhere,
        // any piece on a line from the king (it may uncover a slider), a
        // stepping piece or knight only near the king ([`CHECK_AREA`]);
        // in the order of `board_moves`.
        let area = CHECK_AREA[ek as usize];
        let mut pieces = self.occ[us.idx()] & area;
        for s in squares(self.occ[us.idx()] & !area) {
            if PIECE_SLIDE[self.board[s as usize] as usize] != 0 {
                pieces |= BIT[s as usize];
            }
        }
        for from in squares(pieces) {
            let k = piece_kind(self.board[from as usize]);
            let disc = self.slider_behind(ek, from, us);
            let is_king = own == Some(from);
            // A pinned piece (not the king) may only move along the pin.
            let pin = match own {
                Some(ks) if !in_check && !is_king => self.pin_dir(ks, from),
                _ => None,
            };
            let mut visit = |to: u8| {
                let uncovers = disc.is_some_and(|(d, s)| Self::leaves_line(ek, d, s, to));
                let (promote, stay) = self.promotion_options(k, from, to);
                let promote = promote && (uncovers || self.lands_attacking(from, to, k + 8, ek));
                let stay = stay && (uncovers || self.lands_attacking(from, to, k, ek));
                if !(promote || stay) {
                    return;
                }
                // Our own king's safety does not depend on the promotion.
                let legal = match own {
                    None => true,
                    // In check, the move must also end that check: played
                    // out.
                    Some(_) if in_check => self.leaves_king_safe(Move::board(from, to, promote)),
                    Some(ks) if is_king => !self.attacked_through(to, them, ks),
                    Some(ks) => pin.is_none_or(|d| RAY_DIR[ks as usize][to as usize] == d),
                };
                if legal {
                    if promote {
                        f(Move::board(from, to, true));
                    }
                    if stay {
                        f(Move::board(from, to, false));
                    }
                }
            };
            if disc.is_none() {
                // No discovered check: only a landing square from which
                // the piece (promoted or not) would attack the king on an
                // empty board can check, so only those few are tried
                // (reachable, then attacking) instead of every move; for
                // the list, in the walk's order (direction, then distance;
                // a knight's jumps by square).
                let c = us.idx();
                let mut cand = CHECK_FROM[c][k as usize][ek as usize];
                if kind::promotable(k) {
                    cand |= CHECK_FROM[c][k as usize + 8][ek as usize];
                }
                let mut m = REACH[c][k as usize][from as usize] & cand;
                let mut order = [0u16; 24];
                let mut len = 0;
                while m != 0 {
                    let to = m.trailing_zeros() as u8;
                    m &= m - 1;
                    let t = self.board[to as usize];
                    if t != 0 && piece_color(t) == us {
                        continue;
                    }
                    let d = RAY_DIR[from as usize][to as usize];
                    if d != NONE
                        && NEIGH[from as usize][d as usize] != to
                        && !self.clear_between(from, to, d as usize, NONE)
                    {
                        continue;
                    }
                    if ANY_ORDER {
                        visit(to);
                    } else {
                        order[len] = (walk_key(from, to) as u16) << 8 | to as u16;
                        len += 1;
                    }
                }
                if !ANY_ORDER {
                    order[..len].sort_unstable();
                    for &e in &order[..len] {
                        visit(e as u8);
                    }
                }
            } else {
                self.for_each_dest(from, visit);
            }
        }
    }
}

/// The rank of the move from `from` to `to` in the order
/// [`Position::for_each_dest`] walks a piece's moves: by direction, then
/// distance; a knight's two jumps by square.
#[inline(always)]
fn walk_key(from: u8, to: u8) -> u8 {
    let d = RAY_DIR[from as usize][to as usize];
    if d == NONE {
        128 + to
    } else {
        let dist = col_of(from)
            .abs_diff(col_of(to))
            .max(rank_of(from).abs_diff(rank_of(to)));
        d * 16 + dist
    }
}

/// The squares of the set `m`, lowest first.
#[inline(always)]
fn squares(mut m: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            sq
        })
    })
}

/// Whether any square lies strictly between `a` and `b` on a shared rank,
/// file or diagonal: `!between(a, b).is_empty()` without the list.
pub fn any_between(a: u8, b: u8) -> bool {
    let d = RAY_DIR[a as usize][b as usize];
    d != NONE && NEIGH[a as usize][d as usize] != b
}

/// The squares strictly between `a` and `b` when they share a rank, file
/// or diagonal (none otherwise, e.g. a knight's check).
pub fn between(a: u8, b: u8) -> Vec<u8> {
    let (ac, ar) = (col_of(a) as i8, rank_of(a) as i8);
    let (bc, br) = (col_of(b) as i8, rank_of(b) as i8);
    let (dc, dr) = (bc - ac, br - ar);
    if !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
        return Vec::new();
    }
    let (sc, sr) = (dc.signum(), dr.signum());
    let mut out = Vec::new();
    let (mut c, mut r) = (ac + sc, ar + sr);
    while (c, r) != (bc, br) {
        out.push((r * 9 + c) as u8);
        c += sc;
        r += sr;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_round_trip() {
        for s in [
            STARTPOS,
            "l1+L6/9/p1pL3Gp/2s+Bp1pp1/2Np3P1/P1P6/1PKP1SB1P/2Gg+nr3/L4k3 b RG2SN5Pn 179",
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        ] {
            assert_eq!(Position::from_sfen(s).unwrap().to_sfen(), s);
        }
    }

    #[test]
    fn bad_sfen_is_refused() {
        for s in [
            "",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1",
            "P3k4/9/9/9/9/9/9/9/9 b - 1",
            "4k4/9/9/9/9/9/P8/P8/9 b - 1",
            "4k4/9/9/9/9/9/9/9/9 b 3R 1",
            "4k4/9/9/9/9/9/9/9/9 b 0R 1",
            "4k4/9/9/9/9/9/9/9/+G8 b - 1",
            "4k4/4R4/9/9/9/9/9/9/9 b - 1",
        ] {
            assert!(Position::from_sfen(s).is_err(), "{s}");
        }
    }

    #[test]
    fn usi_moves_parse_and_print() {
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            assert_eq!(Move::parse_usi(s).unwrap().usi(), s);
        }
        for s in ["7g7g", "K*5e", "7g7f=", "0a1a", "P*5j", ""] {
            assert!(Move::parse_usi(s).is_none(), "{s}");
        }
        let p = Position::startpos();
        assert!(p.parse_usi_move("7g7f").is_ok());
        assert!(p.parse_usi_move("7g7e").is_err());
    }

    #[test]
    fn perft_start_depth_1_to_3() {
        let p = Position::startpos();
        assert_eq!(p.perft(1), 30);
        assert_eq!(p.perft(2), 900);
        assert_eq!(p.perft(3), 25_470);
    }

    #[test]
    fn pawn_drop_mate_is_illegal_but_pawn_drop_check_is_not() {
        // White king on 1a boxed in by its own lance and pawn, 1b guarded
        // by the gold: P*1b would be mate (refused).
        let p = Position::from_sfen("7lk/7p1/7G1/9/9/9/9/9/K8 b P 1").unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert!(!v.contains(&Move::parse_usi("P*1b").unwrap()));
        // Without the gold the king takes the pawn: a legal check.
        let p = Position::from_sfen("7lk/7p1/9/9/9/9/9/9/K8 b P 1").unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert!(v.contains(&Move::parse_usi("P*1b").unwrap()));
    }

    #[test]
    fn nifu_and_dead_drops_are_illegal() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/P8/9/4K4 b PLN 1").unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        for m in &v {
            if m.is_drop() {
                let to = m.to();
                match m.drop_kind() {
                    kind::PAWN => assert!(file_of(to) != 9 && rank_of(to) != 0, "{m:?}"),
                    kind::LANCE => assert!(rank_of(to) != 0, "{m:?}"),
                    kind::KNIGHT => assert!(rank_of(to) >= 2, "{m:?}"),
                    _ => {}
                }
            }
        }
        assert!(!v.contains(&Move::parse_usi("P*8a").unwrap()));
        assert!(v.contains(&Move::parse_usi("P*8b").unwrap()));
    }

    #[test]
    fn forced_promotions() {
        // A black pawn on 5b must promote on 5a; a knight on 3d may not
        // stay unpromoted on 2b or 4b.
        let p = Position::from_sfen("k8/4P4/9/6N2/9/9/9/9/8K b - 1").unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        let names: Vec<String> = v.iter().map(|m| m.usi()).collect();
        assert!(names.contains(&"5b5a+".to_string()));
        assert!(!names.contains(&"5b5a".to_string()));
        assert!(names.contains(&"3d2b+".to_string()));
        assert!(!names.contains(&"3d2b".to_string()));
    }
}
