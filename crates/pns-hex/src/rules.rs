//! The game traits for Hex (`Rules`, `Notation`, `SearchHooks`,
//! `Shortcuts`, `Playout`): the rules, and the search hooks built on
//! [`super::analysis`] and [`super::playout`].

use pns_core::prelude::*;
use pns_core::{GameError, GoalContext, Outcome, Rng, Side};

use super::geometry::{bits, Bits, MAX_CELLS};
use super::notation;
use super::position::{Analysis, Cell, Hex};

/// Heuristic proof (or disproof) number of a position the side to move has
/// provably lost (see [`SearchHooks::heuristic`] on [`Hex`]).
const LOST: u64 = 1000;

impl Hex {
    /// Appends the cells of `set` in this position's move order.
    #[inline]
    fn cells_in_order(&self, set: Bits, out: &mut Vec<Cell>) {
        // Branch-free: write every cell, advance only past members. Which
        // cells are empty is unpredictable, so a filtering branch would
        // mispredict often; this is about three times faster on 11x11.
        let mut buf = [Cell(0); MAX_CELLS];
        let mut n = 0;
        for &i in self.order_slice() {
            buf[n] = Cell(i);
            n += (set >> i) as usize & 1;
        }
        out.extend_from_slice(&buf[..n]);
    }

    /// The position after up to `plies` uniformly random legal moves from
    /// this one, stopping before a move that would end the game (random
    /// middle games for tests and benchmarks).
    ///
    /// ```
    /// use pns_core::{Rng, Rules};
    /// use pns_hex::Hex;
    /// let g = Hex::new(5).unwrap().random_walk(6, &mut Rng::new(1));
    /// assert!(g.outcome().is_none());
    /// ```
    pub fn random_walk(mut self, plies: u64, rng: &mut Rng) -> Hex {
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            self.legal_moves(&mut moves);
            let mut c = self;
            c.play(moves[rng.below(moves.len() as u64) as usize]);
            if c.outcome().is_some() {
                break;
            }
            self = c;
        }
        self
    }
}

impl Rules for Hex {
    type Move = Cell;

    const NAME: &'static str = "hex";

    /// Hex cannot end in a draw: a full board always has exactly one
    /// connection (the Hex theorem).
    const HAS_DRAWS: bool = false;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.to_move()
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        // The winner is always the player who just moved, so the side to
        // move has lost; written generally anyway.
        self.winner.map(|w| {
            if w == self.to_move() {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        })
    }

    /// Every empty cell: in index order (row-major, `a1`, `b1`, …), or in the
    /// shuffled order of [`Hex::with_shuffled_order`].
    fn legal_moves(&self, out: &mut Vec<Cell>) {
        let empty = self.empty_cells();
        if self.shuffled {
            self.cells_in_order(empty, out);
        } else {
            let mut buf = [Cell(0); MAX_CELLS];
            let mut n = 0;
            for i in bits(empty) {
                buf[n] = Cell(i as u8);
                n += 1;
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[inline]
    fn play(&mut self, m: Cell) {
        self.place(m);
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }
}

impl Notation for Hex {
    fn parse_position(s: &str) -> Result<Self, GameError> {
        notation::parse_position(s)
    }

    fn parse_move(&self, s: &str) -> Result<Cell, GameError> {
        let c = self.parse_cell(s.trim())?;
        self.check_legal(c)?;
        Ok(c)
    }

    fn format_move(&self, m: Cell) -> String {
        self.format_cell(m)
    }

    fn render(&self) -> String {
        notation::render(self)
    }
}

impl SearchHooks for Hex {
    /// Exact facts, by [`Analysis`]:
    /// * `Connections` (the default, see `super::solver`): a winning
    ///   cell (or the mover's filled stones joining its edges) is a `Win`;
    ///   two opponent winning cells, or a VC between the opponent's edges
    ///   found by H-search, are a `Loss`. The mover's own connections are
    ///   not looked for here, in a position the search has only generated,
    ///   but when it expands it (`search_moves`; `Hex::child_verdict` in the solver module);
    /// * `Threats`: a winning cell is a `Win`; otherwise two opponent
    ///   winning cells are a `Loss` (one stone can fill only one of them,
    ///   and a stone of ours elsewhere does not stop the other);
    /// * `Rules`: only the rules' outcome.
    fn known_outcome(&self) -> Option<Outcome> {
        if self.winner.is_some() {
            return self.outcome();
        }
        match self.analysis {
            Analysis::Rules => None,
            Analysis::Threats => {
                let me = self.to_move();
                if self.winning_cells(me) != 0 {
                    Some(Outcome::Win)
                } else if self.winning_cells(me.opponent()).count_ones() >= 2 {
                    Some(Outcome::Loss)
                } else {
                    None
                }
            }
            Analysis::Connections => self.child_verdict().known,
        }
    }

    /// The moves the analysis cannot rule out, in centre-first order (or
    /// the shuffled order):
    /// * `Connections`: the block of a single threat; otherwise the
    ///   must-play region of the opponent's virtual connections, less
    ///   dead, captured and vulnerable cells (see `super::solver` for the
    ///   proofs). At a won position, the moves of the winning connection,
    ///   the most forcing first (`Hex::winning_order`);
    /// * `Threats`: see `Hex::threat_moves`;
    /// * `Rules`: all legal moves in `legal_moves` order.
    fn search_moves(&self, out: &mut Vec<Cell>) {
        match self.analysis {
            Analysis::Rules => self.legal_moves(out),
            Analysis::Threats => self.cells_in_order(self.threat_moves(), out),
            Analysis::Connections => {
                let v = self.verdict();
                if v.won {
                    let mut order = Vec::new();
                    self.winning_order(v.moves, &mut order);
                    out.extend(order.into_iter().map(Cell));
                } else {
                    self.cells_in_order(v.moves, out);
                }
            }
        }
    }

    /// df-pn+ `h` (thesis §2.2.4) from mobility after the cuts of
    /// `search_moves`: with `n` the number of moves `search_moves` would
    /// list here, an attacker node gets `(1, n)` and a defender node
    /// `(n, 1)`, i.e. the values plain df-pn would give after expanding the
    /// node once. Forced positions (one reply to a threat, a small
    /// must-play region) thus look cheap, which is where Hex proofs are
    /// found. Under `Connections`, a position the side to move has
    /// provably lost without a known outcome (the must-play region of the
    /// opponent's SCs is empty, but it holds no VC: that would be a known
    /// loss) gets `(LOST, n)` or `(n, LOST)`: the search should not try to
    /// save it.
    ///
    /// Connection distance ([`Hex::distance`]) was tried first, as
    /// `(attacker's distance, defender's distance)` and in several
    /// variants (squared, tempo-adjusted, difference-based, mixed with
    /// mobility): on all 25 5x5 openings (threat analysis) it searched 47M
    /// nodes against 43M for no heuristic at all, while mobility searches
    /// 9.7M. Hex has no draws, so `Goal::NotLose` is the same question as
    /// `Goal::Win`.
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        let mover = self.to_move() == ctx.attacker;
        let (moves, lost) = match self.analysis {
            Analysis::Rules => return (1, 1),
            Analysis::Threats => (self.threat_moves(), false),
            Analysis::Connections => {
                let v = self.child_verdict();
                if v.won {
                    return if mover { (1, LOST) } else { (LOST, 1) };
                }
                (v.moves, v.lost)
            }
        };
        let n = (moves.count_ones() as u64).max(1);
        match (lost, mover) {
            (true, true) => (LOST, n),
            (true, false) => (n, LOST),
            (false, true) => (1, n),
            (false, false) => (n, 1),
        }
    }
}

impl Shortcuts for Hex {
    /// Hex is monotone, so a certificate may concede cells to the
    /// prover's opponent ([`Hex::concede`]).
    fn concede(&mut self, to: Side, m: Cell) -> Result<(), GameError> {
        Hex::concede(self, to, m)
    }

    /// Under `Connections`: the opponent's captured cells and the dead
    /// cells, and when `prover` holds a connection between its edges (a VC,
    /// or an SC with `prover` to move) every empty cell outside its carrier
    /// and the prover's captured cells (see `Hex::concessions_for`). A
    /// certificate then plays out only the defences that matter, which
    /// keeps it small.
    fn concessions(&self, prover: Side, out: &mut Vec<Cell>) {
        if self.analysis == Analysis::Connections {
            out.extend(self.cells_of(self.concessions_for(prover)));
        }
    }

    /// Virtual stones (`super::claim`): cells useless to the prover and
    /// captured pairs, checked with the rules only, become the prover's
    /// stones (no turn passes).
    fn fill(&mut self, prover: Side, witness: &str) -> Result<(), GameError> {
        let cells = self.check_fill(prover, witness)?;
        for c in bits(cells) {
            // Once the prover's stones join its edges it has won; the rest
            // of the fill changes nothing.
            if self.winner.is_some() {
                break;
            }
            Hex::concede(self, prover, Cell(c as u8))?;
        }
        Ok(())
    }

    /// Under `Connections`, the prover's captured cells that the rules
    /// accept as virtual stones (`Hex::fill_for`).
    fn fill_witness(&self, prover: Side) -> Option<String> {
        match self.analysis {
            Analysis::Connections => self.fill_for(prover),
            _ => None,
        }
    }

    /// Connection claims (`super::claim`), checked with the rules only.
    fn check_claim(&self, prover: Side, witness: &str) -> Result<(), GameError> {
        self.check_connection_claim(prover, witness)
    }

    /// Under `Connections`, a connection H-search finds between `prover`'s
    /// edges, written out from its derivation (`Hex::connection_claim`).
    fn claim(&self, prover: Side) -> Option<String> {
        match self.analysis {
            Analysis::Connections => self.connection_claim(prover),
            _ => None,
        }
    }
}

impl Playout for Hex {
    fn playout(&self, rng: &mut Rng) -> Outcome {
        self.random_fill_outcome(rng)
    }
}
