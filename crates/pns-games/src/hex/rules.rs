//! `impl Game for Hex`: the rules, and the search hooks built on
//! [`super::analysis`] and [`super::playout`].

use pns_core::{Game, GameError, GoalContext, Outcome, Rng, Side};

use super::geometry::{bits, Bits, MAX_CELLS};
use super::notation;
use super::position::{Cell, Hex};

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
}

impl Game for Hex {
    type Move = Cell;

    const NAME: &'static str = "hex";

    /// Hex cannot end in a draw: a full board always has exactly one
    /// connection (the Hex theorem).
    const HAS_DRAWS: bool = false;

    fn parse_position(s: &str) -> Result<Self, GameError> {
        notation::parse_position(s)
    }

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

    /// Exact facts found by two pairs of flood fills:
    /// * the side to move has a cell that joins its edges → `Win`;
    /// * otherwise, the opponent has two or more such cells → `Loss` (one
    ///   stone can fill only one of them, and a stone of ours elsewhere does
    ///   not change whether the opponent's cell joins the opponent's edges).
    ///
    /// Only the rules' outcome under [`Hex::with_plain_search`].
    fn known_outcome(&self) -> Option<Outcome> {
        if self.winner.is_some() || self.plain {
            return self.outcome();
        }
        let me = self.to_move();
        if self.winning_cells(me) != 0 {
            return Some(Outcome::Win);
        }
        if self.winning_cells(me.opponent()).count_ones() >= 2 {
            return Some(Outcome::Loss);
        }
        None
    }

    /// The empty cells in centre-first order (or the shuffled order),
    /// keeping only those that threat analysis cannot rule out (under
    /// [`Hex::with_plain_search`], all legal moves in `legal_moves` order).
    /// Every cut is proven; with M the side to move and O the opponent:
    ///
    /// 1. M has a winning cell: list only the winning cells.
    /// 2. O has exactly one winning cell: list only it (any other move lets
    ///    O win there next).
    /// 3. O has two or more: every move loses; list all.
    /// 4. Otherwise, M has a double-threat cell (after it M has two or more
    ///    winning cells and O none): list only one; it wins.
    /// 5. Otherwise, for each O double-threat cell `c` with threats `T`, a
    ///    move of M outside `{c} ∪ T` loses (O plays `c`; M's stone did not
    ///    touch `T`, so O still has two winning cells, and then M can have
    ///    none: two chains of different colours cannot both join their
    ///    edges). So only the intersection of these sets is listed (the
    ///    "must-play" region of Benzene, for these small carriers). If it is
    ///    empty every move loses, and one is kept.
    ///
    /// Dead, captured and otherwise inferior cells and larger virtual
    /// connections are not used (see [`Hex::dead_cells`] for why not that
    /// one).
    fn search_moves(&self, out: &mut Vec<Cell>) {
        if self.plain {
            self.legal_moves(out);
        } else {
            self.cells_in_order(self.candidate_moves(), out);
        }
    }

    /// df-pn+ `h` (thesis §2.2.4) from mobility after the proven cuts of
    /// `search_moves`: with `n` the number of moves `search_moves` would
    /// list here, an attacker node gets `(1, n)` and a defender node
    /// `(n, 1)`, i.e. the values plain df-pn would give after expanding the
    /// node once. Forced positions (one reply to a threat) thus look cheap,
    /// which is where Hex proofs are found.
    ///
    /// Connection distance ([`Hex::distance`]) was tried first, as
    /// `(attacker's distance, defender's distance)` and in several
    /// variants (squared, tempo-adjusted, difference-based, mixed with
    /// mobility): on all 25 5x5 openings it searched 47M nodes against 43M
    /// for no heuristic at all, while mobility searches 9.7M. Hex has no
    /// draws, so `Goal::NotLose` is the same question as `Goal::Win`.
    fn heuristic(&self, ctx: GoalContext) -> (u64, u64) {
        if self.plain {
            return (1, 1);
        }
        let n = (self.candidate_moves().count_ones() as u64).max(1);
        if self.to_move() == ctx.attacker {
            (1, n)
        } else {
            (n, 1)
        }
    }

    fn playout(&self, rng: &mut Rng) -> Outcome {
        self.random_fill_outcome(rng)
    }
}
