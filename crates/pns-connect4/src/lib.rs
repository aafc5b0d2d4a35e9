//! Connect Four (7 columns × 6 rows) on bitboards.
//!
//! Notation: a position is the string of columns `1`..`7` played from the
//! empty board, first player first (Pascal Pons' notation, e.g. `4453`).
//! The empty string is the start. Moves are columns `1`..`7`.
//!
//! Bitboard layout: column c uses bits 7c..7c+5 (row 0 at the bottom) and
//! bit 7c+6 is an always-empty guard, so that shifting a pattern across a
//! column boundary lands on a guard bit instead of wrapping onto the board.
//! `mine` holds the stones of the side to move, `mask` every stone; the pair
//! encodes the position uniquely, and `mine + mask` does so in one word
//! (the highest set bit of each column of the sum marks the column's
//! height), which the key hashes bijectively: two positions never share a
//! key.

use pns_core::game::play_move_list;
use pns_core::prelude::*;
use pns_core::{GameError, GoalContext, Outcome, Rng, Side};

pub const WIDTH: u32 = 7;
pub const HEIGHT: u32 = 6;
const H1: u32 = HEIGHT + 1;
const CELLS: u32 = WIDTH * HEIGHT;

const fn bottom_all() -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < WIDTH {
        m |= 1 << (c * H1);
        c += 1;
    }
    m
}

const BOTTOM: u64 = bottom_all();
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

#[inline(always)]
const fn column_mask(c: u32) -> u64 {
    ((1 << HEIGHT) - 1) << (c * H1)
}

/// Column exploration order: centre first (better moves first).
const ORDER: [u8; 7] = [3, 2, 4, 1, 5, 0, 6];

/// Empty cells that would complete four for the stones `p`.
#[inline(always)]
fn winning_cells(p: u64, mask: u64) -> u64 {
    // Vertical: three stones right below.
    let mut r = (p << 1) & (p << 2) & (p << 3);
    // Horizontal (shift 7) and the two diagonals (6 and 8): the cell
    // completes any of the four windows of four that contain it.
    for s in [H1, H1 - 1, H1 + 1] {
        let a1 = p << s;
        let a2 = p << (2 * s);
        let b1 = p >> s;
        let b2 = p >> (2 * s);
        let lo = a1 & a2;
        let hi = b1 & b2;
        r |= lo & (p << (3 * s));
        r |= lo & b1;
        r |= hi & a1;
        r |= hi & (p >> (3 * s));
    }
    r & (BOARD ^ mask)
}

/// Whether the stones `p` contain four in a row.
#[inline(always)]
fn has_four(p: u64) -> bool {
    for s in [1, H1, H1 - 1, H1 + 1] {
        let m = p & (p >> s);
        if m & (m >> (2 * s)) != 0 {
            return true;
        }
    }
    false
}

/// A Connect Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ConnectFour {
    mine: u64,
    mask: u64,
}

impl ConnectFour {
    /// The empty board.
    pub fn new() -> Self {
        Self::default()
    }

    /// Stones on the board.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.mask.count_ones()
    }

    /// Cells where a stone can be dropped now.
    #[inline(always)]
    fn playable(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }

    #[inline(always)]
    fn theirs(&self) -> u64 {
        self.mine ^ self.mask
    }

    /// Whether column `c` (0-based) has room.
    #[inline]
    pub fn can_play(&self, c: u8) -> bool {
        (c as u32) < WIDTH && self.mask & (1 << (HEIGHT - 1 + c as u32 * H1)) == 0
    }

    /// Whether the side to move wins by dropping in column `c`.
    pub fn is_winning_move(&self, c: u8) -> bool {
        winning_cells(self.mine, self.mask) & self.playable() & column_mask(c as u32) != 0
    }

    /// Drop cells of the moves that do not let the opponent win at once
    /// (0 if every move loses). Assumes the side to move cannot win at once.
    #[inline(always)]
    fn non_losing(&self) -> u64 {
        let playable = self.playable();
        let threats = winning_cells(self.theirs(), self.mask);
        let forced = playable & threats;
        let candidates = if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0; // two threats: only one can be blocked
            }
            forced
        } else {
            playable
        };
        // Never drop right below an opponent's winning cell.
        candidates & !(threats >> 1)
    }

    /// Number of threats (empty winning cells) of the side to move after
    /// dropping on `cell`: the move-ordering score.
    #[inline(always)]
    fn threats_after(&self, cell: u64) -> u32 {
        winning_cells(self.mine | cell, self.mask | cell).count_ones()
    }

    fn lost_already(&self) -> bool {
        has_four(self.theirs())
    }
}

impl Rules for ConnectFour {
    type Move = u8;

    const NAME: &'static str = "connect4";

    #[inline]
    fn side_to_move(&self) -> Side {
        if self.moves_played().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        if self.lost_already() {
            Some(Outcome::Loss)
        } else if self.moves_played() == CELLS {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.extend((0..WIDTH as u8).filter(|&c| self.can_play(c)));
    }

    #[inline(always)]
    fn play(&mut self, c: u8) {
        let cell = (self.mask + (1 << (c as u32 * H1))) & column_mask(c as u32);
        self.mine ^= self.mask; // now the opponent's stones
        self.mask |= cell;
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        pns_core::rng::splitmix64(self.mine + self.mask)
    }
}

impl Notation for ConnectFour {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let s = s.trim();
        play_move_list(
            ConnectFour::new(),
            s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()]),
        )
    }

    fn parse_move(&self, s: &str) -> Result<u8, GameError> {
        let c = match s.trim().as_bytes() {
            [d @ b'1'..=b'7'] => d - b'1',
            _ => return Err(GameError::new(format!("'{s}' is not a column 1-7"))),
        };
        if !self.can_play(c) {
            return Err(GameError::new(format!("column {} is full", c + 1)));
        }
        Ok(c)
    }

    fn format_move(&self, m: u8) -> String {
        (m + 1).to_string()
    }

    fn render(&self) -> String {
        let (first, second) = if self.side_to_move() == Side::First {
            (self.mine, self.theirs())
        } else {
            (self.theirs(), self.mine)
        };
        let mut s = String::new();
        for r in (0..HEIGHT).rev() {
            for c in 0..WIDTH {
                let b = 1u64 << (c * H1 + r);
                s.push(if first & b != 0 {
                    'X'
                } else if second & b != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s.push_str("1234567\n");
        s
    }
}

impl SearchHooks for ConnectFour {
    #[inline]
    fn known_outcome(&self) -> Option<Outcome> {
        if self.lost_already() {
            return Some(Outcome::Loss);
        }
        let n = self.moves_played();
        if n == CELLS {
            return Some(Outcome::Draw);
        }
        if winning_cells(self.mine, self.mask) & self.playable() != 0 {
            return Some(Outcome::Win);
        }
        if n == CELLS - 1 {
            // The last stone does not win: the board fills up.
            return Some(Outcome::Draw);
        }
        if self.non_losing() == 0 {
            return Some(Outcome::Loss);
        }
        None
    }

    /// The moves that do not lose at once, most threats first, centre
    /// columns first among equals. Moves that let the opponent win at once
    /// are worse than any other move, so leaving them out keeps a best move.
    #[inline]
    fn search_moves(&self, out: &mut Vec<u8>) {
        let nl = self.non_losing();
        if nl & nl.wrapping_sub(1) == 0 {
            // At most one move: nothing to order (forced replies are common).
            if nl != 0 {
                out.push((nl.trailing_zeros() / H1) as u8);
            }
            return;
        }
        let mut moves = [0u8; 7];
        let mut scores = [0u32; 7];
        let mut k = 0;
        for &c in &ORDER {
            let cell = nl & column_mask(c as u32);
            if cell != 0 {
                let sc = self.threats_after(cell);
                // Insertion keeps the centre-first order among equal scores.
                let mut j = k;
                while j > 0 && scores[j - 1] < sc {
                    scores[j] = scores[j - 1];
                    moves[j] = moves[j - 1];
                    j -= 1;
                }
                scores[j] = sc;
                moves[j] = c;
                k += 1;
            }
        }
        out.extend_from_slice(&moves[..k]);
    }

    /// Proof-number initialisation from mobility (df-pn+ `h`, thesis
    /// §2.2.4): a leaf's own number is 1 and the other one is n², n the
    /// number of moves that do not lose at once (each would have to be
    /// refuted). Squaring sharpens the ranking of leaves by mobility. Mean
    /// df-pn node visits (n / n² / n³ / n⁴): Test_L1_R1 819 / 1.07k / 11.2k
    /// / 12.8k; Test_L2_R2 (first 300) 61.0k / 22.9k / 20.8k / 18.9k;
    /// Test_L1_R2 (first 100) 989k / 330k / 577k / 526k. Higher powers help
    /// the middle game but ruin some opening wins (a few positions took
    /// 200 times longer); n² is best or close to it on every set.
    #[inline]
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        let n = self.non_losing().count_ones().max(1) as u64;
        let h = n * n;
        if self.side_to_move() == ctx.attacker {
            (1, h)
        } else {
            (h, 1)
        }
    }
}

impl Shortcuts for ConnectFour {}

impl Playout for ConnectFour {
    fn playout(&self, rng: &mut Rng) -> Outcome {
        let me = self.side_to_move();
        let mut g = *self;
        loop {
            if let Some(o) = g.outcome() {
                return if g.side_to_move() == me { o } else { o.flip() };
            }
            let playable = g.playable();
            let n = playable.count_ones() as u64;
            let mut k = rng.below(n);
            let mut bits = playable;
            while k > 0 {
                bits &= bits - 1;
                k -= 1;
            }
            let col = bits.trailing_zeros() / H1;
            g.play(col as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_play_and_detect_four() {
        let g = ConnectFour::parse_position("4455667").unwrap();
        // First player has 4,5,6,7 on the bottom row: four in a row.
        assert_eq!(g.outcome(), Some(Outcome::Loss));
        assert_eq!(g.side_to_move(), Side::Second);
        let v = ConnectFour::parse_position("1212121").unwrap();
        assert_eq!(v.outcome(), Some(Outcome::Loss));
        let d = ConnectFour::parse_position("4455661").unwrap();
        assert_eq!(d.outcome(), None);
        assert!(ConnectFour::parse_position("8").is_err());
        assert!(ConnectFour::parse_position("1111111").is_err()); // column full
        assert!(ConnectFour::parse_position("44556677").is_err()); // after the end
        assert!(ConnectFour::parse_position("4a").is_err());
    }

    #[test]
    fn diagonals_and_no_wraparound() {
        // Diagonal /: cells (c,r) = (0,0),(1,1),(2,2),(3,3) for X.
        let g = ConnectFour::parse_position("12234334454").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::Loss));
        // Four stones across the column boundary of rows 5 and 0 must not
        // count: fill column 1 then put stones on the bottom of 2,3,...
        let mut h = ConnectFour::new();
        for c in [0u8, 1, 0, 1, 0, 1, 6, 0, 6, 0, 6] {
            assert_eq!(h.outcome(), None);
            h.play(c);
        }
        assert_eq!(h.outcome(), None);
    }

    #[test]
    fn known_outcome_finds_immediate_wins_and_double_threats() {
        // X to move with three on the bottom row: win in one.
        let g = ConnectFour::parse_position("445566").unwrap();
        assert_eq!(g.known_outcome(), Some(Outcome::Win));
        assert!(g.is_winning_move(2) || g.is_winning_move(6));
        // O to move faces an open three on both sides (cells 3 and 7): loss.
        let h = ConnectFour::parse_position("44556").unwrap();
        assert_eq!(h.known_outcome(), Some(Outcome::Loss));
        let start = ConnectFour::new();
        assert_eq!(start.known_outcome(), None);
        let mut moves = Vec::new();
        start.search_moves(&mut moves);
        assert_eq!(moves[0], 3);
        assert_eq!(moves.len(), 7);
    }

    #[test]
    fn keys_are_unique_on_a_random_sample() {
        let mut rng = Rng::new(5);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..20_000 {
            let mut g = ConnectFour::new();
            let len = rng.below(20);
            for _ in 0..len {
                if g.outcome().is_some() {
                    break;
                }
                let mut mv = Vec::new();
                g.legal_moves(&mut mv);
                g.play(mv[rng.below(mv.len() as u64) as usize]);
            }
            if let Some(prev) = seen.insert(g.key(), g) {
                assert_eq!(prev, g);
            }
        }
    }
}
