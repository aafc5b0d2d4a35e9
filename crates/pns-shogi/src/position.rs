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
//! docs/PERFORMANCE.md for the measured speed).

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
/// `NEAR2[sq]`: the squares at most two files and two ranks from `sq`
/// (every square from which a stepping piece or a knight reaches `sq`
/// in one move, and more).
const NEAR2: [u128; 81] = build_near(2, 2);
/// `NEAR4[sq]`: the squares at most two files and four ranks from `sq`,
/// which holds every square from which a non-sliding piece (a knight
/// included, promoting or not) moves to a square that attacks `sq`.
const NEAR4: [u128; 81] = build_near(2, 4);

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
        let c = by.idx();
        for d in 0..8 {
            let od = opposite(d);
            let mut s = NEIGH[sq as usize][d];
            let mut dist = 1;
            while s != NONE {
                let p = self.board[s as usize];
                if p != 0 && s != hole {
                    if piece_color(p) == by {
                        let k = piece_kind(p) as usize;
                        if (dist == 1 && STEP[c][k] & (1 << od) != 0)
                            || SLIDE[c][k] & (1 << od) != 0
                        {
                            return true;
                        }
                    }
                    break;
                }
                s = NEIGH[s as usize][d];
                dist += 1;
            }
        }
        // A knight of `by` on X attacks sq when sq is one of X's targets:
        // X is a target of the other side's knight on sq.
        KNIGHT_TO[by.flip().idx()][sq as usize]
            .iter()
            .any(|&x| x != NONE && self.board[x as usize] == make_piece(by, kind::KNIGHT))
    }

    /// The pieces of `by` attacking `sq`, at most two (enough to tell a
    /// single check from a double one).
    pub fn checkers(&self, sq: u8, by: Color) -> ([u8; 2], usize) {
        let mut out = [NONE; 2];
        let mut n = 0;
        let c = by.idx();
        for d in 0..8 {
            let od = opposite(d);
            let mut s = NEIGH[sq as usize][d];
            let mut dist = 1;
            while s != NONE {
                let p = self.board[s as usize];
                if p != 0 {
                    if piece_color(p) == by {
                        let k = piece_kind(p) as usize;
                        if (dist == 1 && STEP[c][k] & (1 << od) != 0)
                            || SLIDE[c][k] & (1 << od) != 0
                        {
                            if n < 2 {
                                out[n] = s;
                            }
                            n += 1;
                        }
                    }
                    break;
                }
                s = NEIGH[s as usize][d];
                dist += 1;
            }
        }
        for &x in &KNIGHT_TO[by.flip().idx()][sq as usize] {
            if x != NONE && self.board[x as usize] == make_piece(by, kind::KNIGHT) {
                if n < 2 {
                    out[n] = x;
                }
                n += 1;
            }
        }
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
                self.board_key ^= ZOB_BOARD[to][cap as usize];
            }
            let np = if m.promotes() { pc + 8 } else { pc };
            self.board[from] = 0;
            self.board[to] = np;
            self.board_key ^= ZOB_BOARD[from][pc as usize] ^ ZOB_BOARD[to][np as usize];
            if piece_kind(pc) == kind::KING {
                self.kings[us.idx()] = to as u8;
            }
        }
        self.side = us.flip();
        self.board_key ^= ZOB_WHITE;
        self.ply += 1;
    }

    /// Adds the board moves of the piece on `from` (pseudo-legal: own king
    /// safety unchecked), with forced and optional promotions.
    #[inline]
    fn piece_moves(&self, from: u8, out: &mut Vec<Move>) {
        let us = self.side;
        let pc = self.board[from as usize];
        let k = piece_kind(pc);
        let c = us.idx();
        let mut add = |to: u8| {
            let t = self.board[to as usize];
            if t != 0 && piece_color(t) == us {
                return false;
            }
            self.push_with_promotions(k, from, to, out);
            t == 0
        };
        let steps = STEP[c][k as usize];
        let slides = SLIDE[c][k as usize];
        for d in 0..8 {
            if steps & (1 << d) != 0 {
                let to = NEIGH[from as usize][d];
                if to != NONE {
                    add(to);
                }
            }
            if slides & (1 << d) != 0 {
                let mut to = NEIGH[from as usize][d];
                while to != NONE && add(to) {
                    to = NEIGH[to as usize][d];
                }
            }
        }
        if k == kind::KNIGHT {
            for &to in &KNIGHT_TO[c][from as usize] {
                if to != NONE {
                    add(to);
                }
            }
        }
    }

    #[inline]
    fn push_with_promotions(&self, k: u8, from: u8, to: u8, out: &mut Vec<Move>) {
        let us = self.side;
        if kind::promotable(k) && (in_zone(us, from) || in_zone(us, to)) {
            out.push(Move::board(from, to, true));
            if !dead_square(us, k, to) {
                out.push(Move::board(from, to, false));
            }
        } else {
            out.push(Move::board(from, to, false));
        }
    }

    /// Pseudo-legal board moves of the side to move.
    pub fn board_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        for sq in 0..81u8 {
            let p = self.board[sq as usize];
            if p != 0 && piece_color(p) == us {
                self.piece_moves(sq, out);
            }
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
    #[inline]
    fn slider_behind(&self, king: u8, from: u8, owner: Color) -> Option<(usize, u8)> {
        let d = RAY_DIR[king as usize][from as usize];
        if d == NONE {
            return None;
        }
        let d = d as usize;
        if !self.clear_between(king, from, d, NONE) {
            return None;
        }
        let mut s = NEIGH[from as usize][d];
        while s != NONE && self.board[s as usize] == 0 {
            s = NEIGH[s as usize][d];
        }
        if s == NONE {
            return None;
        }
        let p = self.board[s as usize];
        if piece_color(p) != owner
            || SLIDE[owner.idx()][piece_kind(p) as usize] & (1 << opposite(d)) == 0
        {
            return None;
        }
        Some((d, s))
    }

    /// [`Position::leaves_king_safe`] for a board move of the side to
    /// move whose king is on `ks`, without playing it: a king move must
    /// land on a square no enemy piece attacks once the king has left its
    /// square; another piece may leave only a line on which it shields the
    /// king from an enemy slider (a pin) by moving along it. For a position
    /// in check, only the moves that take the checker or block its line
    /// qualify (the caller filters them first): they end a single check.
    #[inline]
    fn board_move_safe(&self, m: Move, ks: u8) -> bool {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        if from == ks {
            return !self.attacked_through(to, them, ks);
        }
        let Some((d, _)) = self.slider_behind(ks, from, them) else {
            return true;
        };
        // Pinned: it may only move along the line (between, or taking the
        // pinning piece).
        RAY_DIR[ks as usize][to as usize] == d as u8
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
        let ahead = match them.flip() {
            Color::Black => NEIGH[m.to() as usize][0],
            Color::White => NEIGH[m.to() as usize][4],
        };
        if ahead != k {
            return false;
        }
        !after.has_legal_move()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut v = Vec::with_capacity(64);
        self.legal_moves(&mut v);
        !v.is_empty()
    }

    /// Every legal move of the side to move.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let start = out.len();
        // In check by one piece, a move of another piece must take the
        // checker or land between it and the king; by two, only the king
        // may move. Those are tested first (cheaply), before playing.
        let (ks, targets, n) = match self.king(us) {
            Some(ks) => {
                let (ch, n) = self.checkers(ks, us.flip());
                let mut t = 0u128;
                if n == 1 {
                    t |= 1u128 << ch[0];
                    let d = RAY_DIR[ks as usize][ch[0] as usize];
                    if d != NONE {
                        let mut s = NEIGH[ks as usize][d as usize];
                        while s != ch[0] {
                            t |= 1u128 << s;
                            s = NEIGH[s as usize][d as usize];
                        }
                    }
                }
                (ks, t, n)
            }
            None => (NONE, 0, 0),
        };
        if n == 0 {
            self.board_moves(out);
        } else {
            // Only the pieces that could reach a target square (or the
            // king) are generated, in the same order as `board_moves`.
            let mut near = 0u128;
            let mut t = targets;
            while t != 0 {
                let sq = t.trailing_zeros() as usize;
                t &= t - 1;
                near |= NEAR2[sq];
            }
            for from in 0..81u8 {
                let p = self.board[from as usize];
                if p == 0 || piece_color(p) != us {
                    continue;
                }
                let k = piece_kind(p);
                let useful = from == ks
                    || (n == 1
                        && if SLIDE[us.idx()][k as usize] != 0 {
                            let mut t = targets;
                            let mut any = false;
                            while t != 0 {
                                let sq = t.trailing_zeros() as usize;
                                t &= t - 1;
                                if RAY_DIR[from as usize][sq] != NONE {
                                    any = true;
                                    break;
                                }
                            }
                            any
                        } else {
                            near & (1u128 << from) != 0
                        });
                if useful {
                    self.piece_moves(from, out);
                }
            }
        }
        // Keep the board moves that leave the king safe.
        let mut w = start;
        for i in start..out.len() {
            let m = out[i];
            if n > 0 && m.from() != ks && targets & (1u128 << m.to()) == 0 {
                continue;
            }
            if ks == NONE || self.board_move_safe(m, ks) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
        self.legal_drops(out);
        let _ = us;
    }

    /// Legal drops of the side to move: when in check, only interpositions
    /// between the king and a single sliding checker.
    pub fn legal_drops(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let hand = self.hands[us.idx()];
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        let mut targets = [false; 81];
        match self.king(us) {
            Some(ks) => {
                let (ch, n) = self.checkers(ks, us.flip());
                match n {
                    0 => {
                        for (sq, t) in targets.iter_mut().enumerate() {
                            *t = self.board[sq] == 0;
                        }
                    }
                    1 => {
                        for sq in between(ks, ch[0]) {
                            targets[sq as usize] = true;
                        }
                    }
                    _ => return,
                }
            }
            None => {
                for (sq, t) in targets.iter_mut().enumerate() {
                    *t = self.board[sq] == 0;
                }
            }
        }
        for k in 0..HAND_KINDS as u8 {
            if hand[k as usize] == 0 {
                continue;
            }
            for to in 0..81u8 {
                if targets[to as usize] && self.drop_allowed(k, to) {
                    let m = Move::drop(k, to);
                    if k == kind::PAWN {
                        let mut next = self.clone();
                        next.play(m);
                        if Self::is_pawn_drop_mate(&next, m) {
                            continue;
                        }
                    }
                    out.push(m);
                }
            }
        }
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
                    out.push(x);
                }
            }
            if slides & (1 << d) != 0 {
                let mut x = NEIGH[target as usize][back];
                while x != NONE && self.board[x as usize] == 0 {
                    out.push(x);
                    x = NEIGH[x as usize][back];
                }
            }
        }
        if k == kind::KNIGHT {
            for &x in &KNIGHT_TO[us.flip().idx()][target as usize] {
                if x != NONE && self.board[x as usize] == 0 {
                    out.push(x);
                }
            }
        }
    }

    /// Whether the squares strictly between `a` and `b` (on one line, in
    /// direction `d` from `a`) are empty, `hole` counting as empty.
    #[inline]
    fn clear_between(&self, a: u8, b: u8, d: usize, hole: u8) -> bool {
        let mut s = NEIGH[a as usize][d];
        while s != b {
            if s == NONE || (s != hole && self.board[s as usize] != 0) {
                return false;
            }
            s = NEIGH[s as usize][d];
        }
        true
    }

    /// Whether the board move `m` (pseudo-legal, of the side to move)
    /// attacks the square `ek` once played, without playing it: a direct
    /// attack of the piece as it lands (its origin left empty), or a
    /// discovered one by a slider of ours behind the origin, on the line
    /// to `ek`, that the move uncovers. Equals `next.attacked(ek, us)`
    /// after `next.play(m)` for a square `ek` not ours (the king's).
    #[inline]
    pub fn board_move_attacks(&self, m: Move, ek: u8) -> bool {
        let us = self.side;
        let c = us.idx();
        let (from, to) = (m.from(), m.to());
        let pc = self.board[from as usize];
        let nk = piece_kind(if m.promotes() { pc + 8 } else { pc }) as usize;
        // Direct: the piece on `to` attacks `ek`.
        let d = RAY_DIR[to as usize][ek as usize];
        if d != NONE {
            let d = d as usize;
            if NEIGH[to as usize][d] == ek {
                if (STEP[c][nk] | SLIDE[c][nk]) & (1 << d) != 0 {
                    return true;
                }
            } else if SLIDE[c][nk] & (1 << d) != 0 && self.clear_between(to, ek, d, from) {
                return true;
            }
        } else if nk == kind::KNIGHT as usize && KNIGHT_TO[c][to as usize].contains(&ek) {
            return true;
        }
        // Discovered: `from` was the only piece between `ek` and a slider
        // of ours, and `to` is off that segment.
        let Some((d, s)) = self.slider_behind(ek, from, us) else {
            return false;
        };
        // `to` between `ek` and the slider blocks the line again.
        !(RAY_DIR[ek as usize][to as usize] == d as u8
            && RAY_DIR[to as usize][s as usize] == d as u8)
    }

    /// Legal moves of the side to move that give check (the attacker's
    /// moves in tsume): drops generated directly on the squares that
    /// attack the king, board moves kept when they attack it once played
    /// ([`Position::board_move_attacks`], without playing them).
    pub fn legal_checks(&self, out: &mut Vec<Move>) {
        let us = self.side;
        let Some(ek) = self.king(us.flip()) else {
            return;
        };
        let in_check = self.in_check(us);
        let mut sqs = Vec::with_capacity(16);
        for k in 0..HAND_KINDS as u8 {
            if self.hands[us.idx()][k as usize] == 0 {
                continue;
            }
            sqs.clear();
            self.drop_check_squares(k, ek, &mut sqs);
            for &to in &sqs {
                if !self.drop_allowed(k, to) {
                    continue;
                }
                let m = Move::drop(k, to);
                if in_check || k == kind::PAWN {
                    let mut next = self.clone();
                    next.play(m);
                    if in_check {
                        if let Some(ks) = self.king(us) {
                            if next.attacked(ks, us.flip()) {
                                continue;
                            }
                        }
                    }
                    if k == kind::PAWN && Self::is_pawn_drop_mate(&next, m) {
                        continue;
                    }
                }
                out.push(m);
            }
        }
        // Board moves of the pieces that could check: a slider anywhere,
        // any piece on a line from the king (it may uncover a slider), a
        // stepping piece or knight only near the king ([`NEAR4`]); in the
        // order of `board_moves`.
        let mut v = Vec::with_capacity(128);
        for from in 0..81u8 {
            let p = self.board[from as usize];
            if p == 0 || piece_color(p) != us {
                continue;
            }
            if SLIDE[us.idx()][piece_kind(p) as usize] != 0
                || RAY_DIR[ek as usize][from as usize] != NONE
                || NEAR4[ek as usize] & (1u128 << from) != 0
            {
                self.piece_moves(from, &mut v);
            }
        }
        let own = self.king(us);
        for m in v {
            if !self.board_move_attacks(m, ek) {
                continue;
            }
            if let Some(ks) = own {
                // In check, the move must also end that check: played out.
                let safe = if in_check {
                    self.leaves_king_safe(m)
                } else {
                    self.board_move_safe(m, ks)
                };
                if !safe {
                    continue;
                }
            }
            out.push(m);
        }
    }
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
