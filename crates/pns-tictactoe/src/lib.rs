//! Tic-tac-toe (3x3), for tests: small enough to check against brute force,
//! and known to be a draw.
//!
//! Notation: cells `1`..`9` row by row from the top left; a position is the
//! string of cells played from the empty board, X first (`"519"`). The
//! empty string is the start.

use pns_core::game::play_move_list;
use pns_core::prelude::*;
use pns_core::{GameError, Outcome, Side};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A tic-tac-toe position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    /// Cells of the side to move and of the opponent (bit i = cell i+1).
    mine: u16,
    theirs: u16,
}

fn has_line(b: u16) -> bool {
    LINES.iter().any(|l| b & l == *l)
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self::default()
    }

    fn count(&self) -> u32 {
        (self.mine | self.theirs).count_ones()
    }
}

impl Rules for TicTacToe {
    type Move = u8;

    const NAME: &'static str = "tictactoe";

    fn side_to_move(&self) -> Side {
        if self.count().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if has_line(self.theirs) {
            Some(Outcome::Loss)
        } else if self.count() == 9 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        let occupied = self.mine | self.theirs;
        // Centre, corners, edges: a good order for search.
        for c in [4u8, 0, 2, 6, 8, 1, 3, 5, 7] {
            if occupied & (1 << c) == 0 {
                out.push(c);
            }
        }
    }

    fn play(&mut self, m: u8) {
        let mine = self.mine | (1 << m);
        self.mine = self.theirs;
        self.theirs = mine;
    }

    fn key(&self) -> u64 {
        pns_core::rng::splitmix64(((self.mine as u64) << 16) | self.theirs as u64)
    }
}

impl Notation for TicTacToe {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        let s = s.trim();
        play_move_list(
            TicTacToe::new(),
            s.char_indices().map(|(i, c)| &s[i..i + c.len_utf8()]),
        )
    }

    fn parse_move(&self, s: &str) -> Result<u8, GameError> {
        let c = match s.trim() {
            d if d.len() == 1 && ("1"..="9").contains(&d) => d.as_bytes()[0] - b'1',
            _ => return Err(GameError::new(format!("'{s}' is not a cell 1-9"))),
        };
        if (self.mine | self.theirs) & (1 << c) != 0 {
            return Err(GameError::new(format!("cell {s} is already taken")));
        }
        Ok(c)
    }

    fn format_move(&self, m: u8) -> String {
        (m + 1).to_string()
    }

    fn render(&self) -> String {
        let (x, o) = if self.side_to_move() == Side::First {
            (self.mine, self.theirs)
        } else {
            (self.theirs, self.mine)
        };
        let mut s = String::new();
        for r in 0..3 {
            for c in 0..3 {
                let b = 1 << (r * 3 + c);
                s.push(if x & b != 0 {
                    'X'
                } else if o & b != 0 {
                    'O'
                } else {
                    '.'
                });
            }
            s.push('\n');
        }
        s
    }
}

impl SearchHooks for TicTacToe {}

impl Shortcuts for TicTacToe {}

impl Playout for TicTacToe {}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::testing::negamax;

    #[test]
    fn brute_force_says_draw_and_rules_hold() {
        assert_eq!(negamax(&TicTacToe::new()), Outcome::Draw);
        let g = TicTacToe::parse_position("1425").unwrap(); // X:1,2 O:4,5 X to move
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(negamax(&g), Outcome::Win);
        let won = TicTacToe::parse_position("14253").unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Loss));
        assert!(TicTacToe::parse_position("142536").is_err());
        assert!(TicTacToe::parse_position("11").is_err());
        assert!(TicTacToe::parse_position("0").is_err());
    }
}
