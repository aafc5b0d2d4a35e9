//! The tsume answer: once df-pn has proven a mate, the problem's stated
//! length is the *shortest* mate against the *longest* defence, where the
//! defender's futile interpositions ([`Tsume::is_futile_drop`]) are not
//! counted (a defender left with only futile drops is mated). df-pn proves
//! a mate but not the shortest one, so the length comes from an exact
//! minimax over mate lengths, deepened by two plies at a time (1, 3, 5,
//! ...) with a table of exact values and "no mate within d" bounds.
//!
//! Repetitions are not tracked here: a shortest mate never repeats a
//! position (the repeated stretch could be cut out), and a defence that
//! repeats only gives the attacker the same, shorter, continuation.

use std::collections::HashMap;

use pns_core::prelude::*;

use crate::position::Move;
use crate::tsume::Tsume;

#[derive(Clone, Copy, Debug)]
enum Entry {
    /// The exact value: the shortest mate (attacker to move) or the
    /// longest defence (defender to move), in plies.
    Exact(u32),
    /// No mate within this many plies.
    NoneWithin(u32),
}

/// The search ran out of its node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// Exact mate lengths by depth-limited minimax.
pub struct MateLength {
    memo: HashMap<u64, Entry>,
    /// Positions visited.
    pub nodes: u64,
    budget: u64,
    /// Count futile interpositions as defences (off for the tsume answer;
    /// on to show what the rule changes).
    pub count_futile_drops: bool,
}

/// The answer to a proven problem: its length and its main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateLine {
    /// Plies of the shortest mate against the longest defence.
    pub length: u32,
    /// The main line: attacker's shortest mating moves, defender's longest
    /// non-futile defences.
    pub moves: Vec<Move>,
}

impl MateLength {
    /// A search that visits at most `budget` positions.
    pub fn new(budget: u64) -> Self {
        MateLength {
            memo: HashMap::new(),
            nodes: 0,
            budget,
            count_futile_drops: false,
        }
    }

    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    fn cached(&self, key: u64, d: u32) -> Option<Option<u32>> {
        match self.memo.get(&key)? {
            Entry::Exact(v) => Some((*v <= d).then_some(*v)),
            Entry::NoneWithin(w) if d <= *w => Some(None),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, d: u32, r: Option<u32>) {
        let e = match r {
            Some(v) => Entry::Exact(v),
            None => match self.memo.get(&key) {
                Some(Entry::NoneWithin(w)) if *w >= d => return,
                _ => Entry::NoneWithin(d),
            },
        };
        self.memo.insert(key, e);
    }

    /// The shortest mate from `t` (attacker to move) within `d` plies.
    pub fn attack(&mut self, t: &Tsume, d: u32) -> Result<Option<u32>, OutOfBudget> {
        if d == 0 {
            return Ok(None);
        }
        let key = t.key();
        if let Some(r) = self.cached(key, d) {
            return Ok(r);
        }
        self.tick()?;
        let mut moves = Vec::with_capacity(32);
        t.search_moves(&mut moves);
        let mut best: Option<u32> = None;
        for m in moves {
            let limit = match best {
                Some(1) => break,
                Some(b) => b - 2,
                None => d - 1,
            };
            let mut c = t.clone();
            c.play(m);
            if let Some(l) = self.defend(&c, limit)? {
                best = Some(1 + l);
            }
        }
        self.store(key, d, best);
        Ok(best)
    }

    /// The longest defence from `t` (defender to move) if every counted
    /// defence is mated within `d` plies.
    pub fn defend(&mut self, t: &Tsume, d: u32) -> Result<Option<u32>, OutOfBudget> {
        let key = t.key();
        if let Some(r) = self.cached(key, d) {
            return Ok(r);
        }
        self.tick()?;
        let mut moves = Vec::with_capacity(64);
        t.search_moves(&mut moves);
        let counted: Vec<Move> = moves
            .into_iter()
            .filter(|&m| self.count_futile_drops || !t.is_futile_drop(m))
            .collect();
        if counted.is_empty() {
            self.store(key, d, Some(0));
            return Ok(Some(0));
        }
        if d == 0 {
            return Ok(None);
        }
        let mut worst = 0;
        for m in counted {
            let mut c = t.clone();
            c.play(m);
            match self.attack(&c, d - 1)? {
                Some(l) => worst = worst.max(1 + l),
                None => {
                    self.store(key, d, None);
                    return Ok(None);
                }
            }
        }
        self.store(key, d, Some(worst));
        Ok(Some(worst))
    }

    /// The tsume answer from `root` (attacker to move) if there is a mate
    /// within `max_len` plies: deepening 1, 3, 5, ... then the main line.
    pub fn solve(&mut self, root: &Tsume, max_len: u32) -> Result<Option<MateLine>, OutOfBudget> {
        let mut d = 1;
        while d <= max_len {
            if let Some(len) = self.attack(root, d)? {
                let moves = self.main_line(root, len)?;
                return Ok(Some(MateLine { length: len, moves }));
            }
            d += 2;
        }
        Ok(None)
    }

    /// The main line of a mate of exactly `len` plies from `root`.
    fn main_line(&mut self, root: &Tsume, len: u32) -> Result<Vec<Move>, OutOfBudget> {
        let mut line = Vec::new();
        let mut t = root.clone();
        let mut left = len;
        while left > 0 {
            let mut moves = Vec::new();
            t.search_moves(&mut moves);
            let mut next = None;
            if t.attacker_to_move() {
                for m in moves {
                    let mut c = t.clone();
                    c.play(m);
                    if self.defend(&c, left - 1)? == Some(left - 1) {
                        next = Some(m);
                        break;
                    }
                }
            } else {
                let counted = self.count_futile_drops;
                for m in moves
                    .into_iter()
                    .filter(|&m| counted || !t.is_futile_drop(m))
                {
                    let mut c = t.clone();
                    c.play(m);
                    if self.attack(&c, left - 1)? == Some(left - 1) {
                        next = Some(m);
                        break;
                    }
                }
            }
            // The values are exact, so a move of the right value exists.
            let m = next.expect("a move keeping the mate length");
            line.push(m);
            t.play(m);
            left -= 1;
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(sfen: &str, count_futile: bool) -> MateLine {
        let t = Tsume::parse(sfen).unwrap();
        let mut ml = MateLength::new(1_000_000);
        ml.count_futile_drops = count_futile;
        ml.solve(&t, 15).unwrap().unwrap()
    }

    #[test]
    fn futile_interpositions_are_not_counted() {
        // antma's tsume1_futile_drops: the dragon's check from afar can be
        // blocked by drops the dragon just takes: a mate in 1 that would
        // be longer if those drops counted.
        for sfen in [
            "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1",
            "6Snl/5+Rg1k/6pps/9/9/9/9/9/8L b r2b3g2s3n2l16p 1",
        ] {
            let a = answer(sfen, false);
            assert_eq!(a.length, 1, "{sfen}");
            assert_eq!(a.moves.len(), 1);
            assert!(answer(sfen, true).length > 1, "{sfen}");
        }
    }

    #[test]
    fn main_line_ends_in_mate() {
        let sfen = "9/9/9/4k4/9/4P4/9/9/9 b 4G2r2b4s4n4l17p 1";
        let a = answer(sfen, false);
        assert_eq!(a.length, 7);
        let mut t = Tsume::parse(sfen).unwrap();
        for &m in &a.moves {
            let mut v = Vec::new();
            t.legal_moves(&mut v);
            assert!(v.contains(&m), "{m:?} not legal in {t:?}");
            t.play(m);
        }
        assert!(!t.attacker_to_move());
        assert_eq!(t.outcome(), Some(pns_core::Outcome::Loss));
    }
}
