//! Cheap exact and heuristic facts about a position, for the search hooks:
//! one-move wins, double threats, the must-play region, and connection
//! distances.
//!
//! Everything rests on two facts about Hex. Stones never go away, so an
//! extra stone of one's own never hurts. And two chains of different
//! colours cannot both join their edges (the Hex theorem), so while one
//! side has a winning cell the other can win at once only on that same
//! cell, and while one side has two winning cells the other has none.

use pns_core::Side;

use super::geometry::{self, Bits};
use super::position::{Analysis, Hex, BLACK};

/// Distance reported when a side can no longer join its edges.
pub const UNREACHABLE: u32 = u32::MAX;

/// One side's contact with its two edges `a` and `b`: the chains touching
/// each edge and the empty cells next to them.
struct Reach {
    /// Empty cells on edge `a` or next to a chain touching it.
    near_a: Bits,
    /// The same for edge `b`.
    near_b: Bits,
    /// The side's stones in chains touching neither edge.
    floating: Bits,
}

impl Reach {
    /// The empty cells that join the edges at once.
    #[inline]
    fn winning(&self) -> Bits {
        self.near_a & self.near_b
    }
}

impl Hex {
    /// The side's stones, the opponent's stones, and the side's two edges.
    #[inline]
    fn sides(&self, side: Side) -> (Bits, Bits, (Bits, Bits)) {
        if side == BLACK {
            (self.black, self.white, self.geom.edges(true))
        } else {
            (self.white, self.black, self.geom.edges(false))
        }
    }

    /// Two flood fills, one from each edge through the side's stones.
    #[inline]
    fn reach(&self, side: Side) -> Reach {
        let g = self.geom;
        let (own, _, (a, b)) = self.sides(side);
        let empty = self.empty_cells();
        let from_a = g.flood(own & a, own);
        let from_b = g.flood(own & b, own);
        Reach {
            near_a: (g.spread(from_a) | a) & empty,
            near_b: (g.spread(from_b) | b) & empty,
            floating: own & !(from_a | from_b),
        }
    }

    /// The empty cells where a stone of `side` would join its two edges at
    /// once (as a bitboard, bit `row * 11 + column`), whoever is to move.
    ///
    /// A cell joins the edges exactly when it touches (or lies on) each edge
    /// or a chain of `side` already touching that edge.
    pub fn winning_cells(&self, side: Side) -> u128 {
        let g = self.geom;
        let (own, _, (a, b)) = self.sides(side);
        let empty = self.empty_cells();
        let from_a = g.flood(own & a, own);
        let near_a = (g.spread(from_a) | a) & empty;
        if near_a == 0 {
            return 0;
        }
        let from_b = g.flood(own & b, own);
        near_a & (g.spread(from_b) | b)
    }

    /// Calls `f(cell, threats)` for each empty cell where a stone of the
    /// side with reach `r` would leave it two or more winning cells
    /// (`threats`), a double threat that blocking one cell cannot stop,
    /// until `f` returns `false`. Requires that the side has no winning
    /// cell now.
    ///
    /// A stone on `c` in `near_a` (not in `near_b`, as nothing wins now)
    /// merges `c`, the chains touching edge `a`, and the floating chains
    /// next to `c`. Its new winning cells are the `near_b` cells next to
    /// `c` or to those floating chains: the chains on edge `a` are next to
    /// no `near_b` cell, or it would be winning already. A stone anywhere
    /// outside `near_a ∪ near_b` changes neither region and creates no
    /// winning cell. So each candidate costs a shift, plus a flood fill
    /// over floating chains when it touches one.
    fn for_each_double_threat(&self, r: &Reach, mut f: impl FnMut(usize, Bits) -> bool) {
        debug_assert_eq!(r.winning(), 0);
        let g = self.geom;
        for (cands, target) in [(r.near_a, r.near_b), (r.near_b, r.near_a)] {
            if target.count_ones() < 2 {
                continue;
            }
            // Only cells with two neighbours in `target`, or touching a
            // floating chain, can qualify; a bit-parallel count finds them.
            let cands = cands & (g.two_neighbours_in(target) | g.spread(r.floating));
            for c in geometry::bits(cands) {
                let cb: Bits = 1 << c;
                let mut around = g.spread(cb);
                if around & r.floating != 0 {
                    around = g.spread(g.flood(cb, r.floating | cb));
                }
                let threats = around & target;
                if threats.count_ones() >= 2 && !f(c, threats) {
                    return;
                }
            }
        }
    }

    /// The empty cells where a stone of `side` would give it two or more
    /// winning cells, as a bitboard; empty when `side` can already win at
    /// once. Such a cell wins for the side to move when the opponent has no
    /// winning cell.
    pub fn double_threat_cells(&self, side: Side) -> u128 {
        let r = self.reach(side);
        let mut cells = 0;
        if r.winning() == 0 {
            self.for_each_double_threat(&r, |c, _| {
                cells |= 1 << c;
                true
            });
        }
        cells
    }

    /// The moves of the side to move that the position's [`Analysis`]
    /// cannot rule out, as a bitboard: what
    /// [`pns_core::SearchHooks::search_moves`] lists. Never empty while the game
    /// is on: when every move provably loses, one cell is kept so that the
    /// search still has a move to refute. Empty when the game is over.
    pub fn candidate_moves(&self) -> u128 {
        match self.analysis {
            Analysis::Rules => self.empty_cells(),
            Analysis::Threats => self.threat_moves(),
            Analysis::Connections => self.verdict().moves,
        }
    }

    /// The moves that threat analysis cannot rule out. Every cut is proven;
    /// with M the side to move and O the opponent:
    ///
    /// 1. M has a winning cell: only the winning cells.
    /// 2. O has exactly one winning cell: only it (any other move lets O
    ///    win there next).
    /// 3. O has two or more: every move loses; all empty cells.
    /// 4. Otherwise, M has a double-threat cell (after it M has two or more
    ///    winning cells and O none): only that one; it wins.
    /// 5. Otherwise, for each O double-threat cell `c` with threats `T`, a
    ///    move of M outside `{c} ∪ T` loses (O plays `c`; M's stone did not
    ///    touch `T`, so O still has two winning cells, and then M can have
    ///    none: two chains of different colours cannot both join their
    ///    edges). So only the intersection of these sets is kept (the
    ///    "must-play" region of Benzene, for these small carriers). If it
    ///    is empty every move loses, and one is kept.
    pub(crate) fn threat_moves(&self) -> u128 {
        if self.winner.is_some() {
            return 0;
        }
        let me = self.to_move();
        let mine = self.reach(me);
        let wins = mine.winning();
        if wins != 0 {
            return wins;
        }
        let empty = self.empty_cells();
        let theirs = self.reach(me.opponent());
        let threats = theirs.winning();
        match threats.count_ones() {
            0 => {}
            1 => return threats,
            _ => return empty,
        }
        let mut double = 0;
        self.for_each_double_threat(&mine, |c, _| {
            double = 1 << c;
            false
        });
        if double != 0 {
            return double;
        }
        let mut must = empty;
        self.for_each_double_threat(&theirs, |c, t| {
            must &= (1 << c) | t;
            must != 0
        });
        if must == 0 {
            return self.first_in_order(empty);
        }
        must
    }

    /// The first cell of `set` (non-empty) in the move order, as a bit.
    pub(crate) fn first_in_order(&self, set: Bits) -> Bits {
        let first = self
            .order_slice()
            .iter()
            .find(|&&i| set >> i & 1 != 0)
            .expect("non-empty set");
        1 << first
    }

    /// The empty cells that are dead: a stone of either colour there would
    /// change nothing, so a move there is no better than passing (see the
    /// pattern in `geometry`). As a bitboard.
    ///
    /// Not used by the search hooks: cutting these moves was measured to
    /// make df-pn slightly slower on 5x5 (dead cells of this simple kind
    /// are rare, and the cut perturbs the search more than it saves).
    pub fn dead_cells(&self) -> u128 {
        super::inferior::dead_cells(self.geom, self.black, self.white)
    }

    /// The connection distance of `side`: the fewest empty cells it must
    /// still fill to join its edges, its own stones costing nothing and the
    /// opponent's blocking ([`UNREACHABLE`] when no path is left; 0 once
    /// joined).
    ///
    /// A breadth-first search by cost layers on bitboards (a 0-1 BFS): layer
    /// `k` is every cell reachable with `k` empty cells, closed under
    /// adjacent own stones by a flood fill. At most one layer per empty cell
    /// of the answer, so a few hundred word operations on 11x11.
    pub fn distance(&self, side: Side) -> u32 {
        let (own, opp, _) = self.sides(side);
        self.distance_with(side, own, opp)
    }

    /// [`Hex::distance`] for `side` with stones `own` against `opp`
    /// (not necessarily this position's).
    pub(crate) fn distance_with(&self, side: Side, own: Bits, opp: Bits) -> u32 {
        let g = self.geom;
        let (a, b) = g.edges(side == BLACK);
        let free = g.board & !opp;
        let mut reached = g.flood(own & a, own);
        let mut d = 0;
        loop {
            if reached & b != 0 {
                return d;
            }
            let step = (g.spread(reached) | a) & free;
            let next = g.flood(reached | step, reached | step | own);
            if next == reached {
                return UNREACHABLE;
            }
            reached = next;
            d += 1;
        }
    }
}
