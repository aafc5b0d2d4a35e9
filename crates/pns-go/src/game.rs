//! A game record: a board, the moves played, and the positions they made,
//! for the ko rules that look at history: situational super-ko (a move may
//! not recreate a position, stones and player to move, that occurred
//! before) and positional super-ko (the stones alone). Simple ko looks at
//! the last move only. Used by the GTP engine and SGF loading.

use std::fmt;

use crate::board::{Board, Color, Illegal, Move};

/// The ko rule of a game (Fuego's `go_param_rules ko_rule` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden.
    #[default]
    Simple,
    /// Situational super-ko: no position (stones and player to move) may
    /// be repeated. Fuego's `superko`.
    Situational,
    /// Positional super-ko: no arrangement of stones may be repeated.
    /// Fuego's `pos_superko`.
    Positional,
}

impl KoRule {
    /// Fuego's names: `simple`, `superko`, `pos_superko`.
    pub fn name(self) -> &'static str {
        match self {
            KoRule::Simple => "simple",
            KoRule::Situational => "superko",
            KoRule::Positional => "pos_superko",
        }
    }

    pub fn from_name(s: &str) -> Option<KoRule> {
        Some(match s {
            "simple" => KoRule::Simple,
            "superko" => KoRule::Situational,
            "pos_superko" => KoRule::Positional,
            _ => return None,
        })
    }
}

impl fmt::Display for KoRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board with its history.
#[derive(Clone, Debug)]
pub struct GoGame {
    board: Board,
    rule: KoRule,
    /// Every earlier board (the setup position first), for undo and for
    /// super-ko.
    history: Vec<Board>,
    /// The moves played, with their colours.
    moves: Vec<(Color, Move)>,
}

impl GoGame {
    /// A game from `board` (its setup position) under `rule`.
    pub fn new(board: Board, rule: KoRule) -> GoGame {
        GoGame {
            board,
            rule,
            history: Vec::new(),
            moves: Vec::new(),
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> KoRule {
        self.rule
    }

    pub fn set_rule(&mut self, rule: KoRule) {
        self.rule = rule;
    }

    /// The moves played since the setup position.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// The boards before the current one, oldest first.
    pub fn history(&self) -> &[Board] {
        &self.history
    }

    /// Changes the setup position in place (SGF setup in the middle of a
    /// record, GTP playing out of turn): the history is kept.
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Whether `c` may play `m` now under the game's ko rule.
    pub fn check(&self, c: Color, m: Move) -> Result<(), Illegal> {
        self.after(c, m).map(|_| ())
    }

    /// The board after `c` plays `m`, checked.
    fn after(&self, c: Color, m: Move) -> Result<Board, Illegal> {
        let mut b = self.board;
        b.set_to_move(c);
        // Out of turn, the ko point was the other player's and is gone
        // (`set_to_move`). Super-ko implies simple ko.
        b.play(m, self.rule == KoRule::Simple)?;
        if m != Move::Pass && self.repeats(&b) {
            return Err(Illegal::Superko);
        }
        Ok(b)
    }

    /// Whether board `b` (just made by a stone) repeats an earlier position
    /// under the super-ko rule.
    fn repeats(&self, b: &Board) -> bool {
        let earlier = self.history.iter().chain(std::iter::once(&self.board));
        match self.rule {
            KoRule::Simple => false,
            KoRule::Situational => earlier
                .clone()
                .any(|o| o.situational_key() == b.situational_key() && same_stones(o, b)),
            KoRule::Positional => earlier
                .clone()
                .any(|o| o.key() == b.key() && same_stones(o, b)),
        }
    }

    /// Plays `m` for `c` (who need not be the player to move), checked.
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), Illegal> {
        let b = self.after(c, m)?;
        self.history.push(self.board);
        self.board = b;
        self.moves.push((c, m));
        Ok(())
    }

    /// Plays `m` for `c` with the board's rules but no ko rule: a move of a
    /// game record, trusted to have been legal under its own rules.
    pub fn play_record(&mut self, c: Color, m: Move) -> Result<(), Illegal> {
        let mut b = self.board;
        b.set_to_move(c);
        b.play(m, false)?;
        self.history.push(self.board);
        self.board = b;
        self.moves.push((c, m));
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(b) => {
                self.board = b;
                self.moves.pop();
                true
            }
            None => false,
        }
    }

    /// The legal moves of `c` (pass last).
    pub fn legal_moves(&self, c: Color) -> Vec<Move> {
        let mut out = Vec::new();
        let mut b = self.board;
        b.set_to_move(c);
        b.legal_points(None, false, &mut out);
        out.retain(|&m| self.check(c, m).is_ok());
        out.push(Move::Pass);
        out
    }
}

/// Equal stones (the keys agree already; this rules out a collision).
fn same_stones(a: &Board, b: &Board) -> bool {
    a.stones(Color::Black) == b.stones(Color::Black)
        && a.stones(Color::White) == b.stones(Color::White)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ko_rules_have_fuegos_names() {
        for r in [KoRule::Simple, KoRule::Situational, KoRule::Positional] {
            assert_eq!(KoRule::from_name(r.name()), Some(r));
        }
        assert_eq!(KoRule::from_name("japanese"), None);
    }

    #[test]
    fn undo_restores_and_refuses_past_the_start() {
        let mut g = GoGame::new(Board::new(5).unwrap(), KoRule::Situational);
        let start = *g.board();
        assert!(!g.undo());
        let m = g.board().parse_vertex("C3").unwrap();
        g.play(Color::Black, m).unwrap();
        assert_eq!(g.check(Color::White, m), Err(Illegal::Occupied));
        assert!(g.undo());
        assert_eq!(*g.board(), start);
        assert!(g.moves().is_empty());
    }
}
