//! Connect6 and the Connect(m, n, k, p, q) family for pns: the rules on
//! line bit strings, threat detection, VCDT (victory by continuous double
//! threats) as a df-pn problem of its own, relevance zones for the
//! defender (Deep df-pn paper, deep-dfpn-connect6.txt §5; after Wu and
//! Huang's NCTU6 and Wu and Lin's relevance-zone-oriented proof search),
//! and certificates the rules-only verifier checks (VCDT wins are claims).
//!
//! * [`position`]: the board, rules and threat counting.
//! * [`notation`]: positions (`19x19` default, `9x9,k=5 e5 d4e4 ...`,
//!   SGF) and moves.
//! * [`claim`]: the VCDT witness and its rules-only check.
//! * [`vcdt`]: the VCDT solver (a [`pns_core::Problem`]), standalone and
//!   nested.
//! * [`zone`]: the relevance-zone-oriented search problem (deep-dfpn §5.2).
//! * [`certify`]: certificates from a zone search.

pub mod certify;
pub mod claim;
pub mod geometry;
pub mod notation;
pub mod openings;
pub mod position;
pub mod vcdt;
pub mod zone;

pub use position::{Connect6, Params, Turn, Window, NO_CELL};

use pns_core::prelude::*;
use pns_core::{GameError, Outcome, Side};

use position::{hitting_sets, min_hitting};

/// Weights of a window holding n stones of one colour only, for move
/// ordering (index n; more stones, much more weight).
const WEIGHT: [u32; 9] = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536];

impl Connect6 {
    /// A move-ordering score per cell: the sum, over the windows through
    /// the cell that hold stones of one colour only, of a weight growing
    /// with their stones (own windows count a little more than the
    /// opponent's).
    pub fn cell_scores(&self) -> Vec<u32> {
        let geo = self.geo;
        let k = self.params.k;
        let mut score = vec![0u32; geo.cells()];
        let me = position::colour(self.to_move);
        let full: u32 = (1u32 << k) - 1;
        for (li, line) in geo.lines.iter().enumerate() {
            let (a, b) = (self.lines[me][li], self.lines[1 - me][li]);
            let occ = a | b;
            for s in 0..=line.cells.len() - k {
                let m = full << s;
                let (na, nb) = ((a & m).count_ones(), (b & m).count_ones());
                let w = match (na, nb) {
                    (0, 0) => 1,
                    (n, 0) => WEIGHT[n as usize] + WEIGHT[n as usize] / 2,
                    (0, n) => WEIGHT[n as usize],
                    _ => continue,
                };
                let mut e = !occ & m;
                while e != 0 {
                    let bit = e.trailing_zeros();
                    e &= e - 1;
                    score[line.cells[bit as usize] as usize] += w;
                }
            }
        }
        score
    }

    /// The empty cells, best first by [`Connect6::cell_scores`] (ties by
    /// cell index).
    pub fn ordered_cells(&self, among: impl Iterator<Item = u16>) -> Vec<u16> {
        let score = self.cell_scores();
        let mut v: Vec<u16> = among.collect();
        v.sort_by_key(|&c| (std::cmp::Reverse(score[c as usize]), c));
        v
    }

    /// The cells the side to move must choose its next stone from when the
    /// opponent has threats it can block (Wu and Huang): a stone that
    /// belongs to some set of at most `left` cells meeting every window the
    /// opponent completes next turn. `None` when the opponent has no
    /// threat. A turn's stones form a set, so the blocking stone may be
    /// placed first: leaving out a non-blocking first stone loses no
    /// position reached at the end of the turn.
    pub fn must_block(&self) -> Option<Vec<u16>> {
        let mut ws = Vec::new();
        self.live_windows(self.to_move.opponent(), self.params.p, &mut ws);
        if ws.is_empty() {
            return None;
        }
        let left = self.left as usize;
        let mut cells: Vec<u16> = hitting_sets(&ws, left).into_iter().flatten().collect();
        cells.sort_unstable();
        cells.dedup();
        Some(cells)
    }

    /// The game's known result for the side to move: a win in this turn
    /// (a window it completes with its stones left), or a loss when it
    /// cannot win now and cannot meet every window the opponent completes
    /// with its next turn (more threats than stones left).
    pub fn known(&self) -> Option<Outcome> {
        if let Some(o) = self.outcome_now() {
            return Some(o);
        }
        if self.can_win_now() {
            return Some(Outcome::Win);
        }
        let mut ws = Vec::new();
        self.live_windows(self.to_move.opponent(), self.params.p, &mut ws);
        let left = self.left as usize;
        if min_hitting(&ws, left) > left {
            return Some(Outcome::Loss);
        }
        None
    }

    fn outcome_now(&self) -> Option<Outcome> {
        if self.winner.is_some() {
            Some(Outcome::Loss)
        } else if self.stones as usize == self.geo.cells() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }
}

impl Rules for Connect6 {
    type Move = Turn;

    const NAME: &'static str = "connect6";

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn legal_moves(&self, out: &mut Vec<Turn>) {
        let e: Vec<u16> = self.empties().iter().collect();
        if self.params.pairs && self.left >= 2 && e.len() >= 2 {
            for (i, &a) in e.iter().enumerate() {
                for &b in &e[i + 1..] {
                    out.push(Turn::two(a, b));
                }
            }
        } else {
            out.extend(e.into_iter().map(Turn::one));
        }
    }

    #[inline]
    fn play(&mut self, m: Turn) {
        self.place(m.a);
        if m.b != NO_CELL && !self.is_over() {
            self.place(m.b);
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        Connect6::key(self)
    }
}

impl Notation for Connect6 {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        notation::parse_position(s)
    }

    fn parse_move(&self, s: &str) -> Result<Turn, GameError> {
        notation::parse_move(self, s)
    }

    fn format_move(&self, m: Turn) -> String {
        notation::format_move(self, m)
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

impl SearchHooks for Connect6 {
    #[inline]
    fn known_outcome(&self) -> Option<Outcome> {
        self.known()
    }

    /// Blocking stones only when the opponent has threats
    /// ([`Connect6::must_block`]); otherwise every empty cell, best first.
    /// In `turn=pair` mode, the pairs that meet every threat, best first.
    fn search_moves(&self, out: &mut Vec<Turn>) {
        if self.params.pairs {
            let mut all = Vec::new();
            self.legal_moves(&mut all);
            let mut ws = Vec::new();
            self.live_windows(self.to_move.opponent(), self.params.p, &mut ws);
            let score = self.cell_scores();
            all.retain(|t| ws.iter().all(|w| t.cells().any(|c| w.contains(c))));
            all.sort_by_key(|t| {
                (
                    std::cmp::Reverse(t.cells().map(|c| score[c as usize] as u64).sum::<u64>()),
                    *t,
                )
            });
            out.extend(all);
            return;
        }
        match self.must_block() {
            Some(cells) => out.extend(
                self.ordered_cells(cells.into_iter())
                    .into_iter()
                    .map(Turn::one),
            ),
            None => out.extend(
                self.ordered_cells(self.empties().iter())
                    .into_iter()
                    .map(Turn::one),
            ),
        }
    }
}

impl Shortcuts for Connect6 {
    /// A VCDT win (see [`claim`]) for `prover`, checked with the rules.
    fn check_claim(&self, prover: Side, witness: &str) -> Result<(), GameError> {
        claim::check(self, prover, witness)
    }

    /// A VCDT win for `prover` found by a small standalone VCDT search.
    fn claim(&self, prover: Side) -> Option<String> {
        if self.is_over() {
            return None;
        }
        vcdt::find_witness(self, prover, vcdt::CLAIM_BUDGET)
    }
}

impl Playout for Connect6 {}

#[cfg(test)]
mod tests;
