//! Connection claims: compact certificate leaves for Hex, and their
//! rules-only check ([`pns_core::Shortcuts::check_claim`]).
//!
//! A claim says that the prover P wins from here because it holds
//! *links*, each a second-player strategy that joins two of its endpoints
//! (an edge of P, or the group of one of P's stones) inside a carrier of
//! empty cells, with the carriers pairwise disjoint, and together joining
//! P's two edges. This is the content of a virtual connection
//! (Anshelevich, "A hierarchical approach to computer Hex", AI 134, 2002,
//! §3: the AND rule over disjoint carriers), with every link's strategy
//! written out so that nothing of H-search has to be trusted.
//!
//! # Why a claim is a win
//!
//! P answers every opponent move inside a link's carrier by that link's
//! strategy, and any other opponent move anywhere (an extra stone never
//! hurts in Hex: stones stay, and the winning condition is monotone in
//! one's own stones). Each strategy ends, at the latest when the board is
//! full, at a position where its endpoints are joined, so the links join
//! the edges. The opponent cannot join its own edges first: its chain
//! would stay to the full board, where both could not be joined (the Hex
//! theorem).
//!
//! A link's strategy may itself split, after some moves, into smaller
//! links with disjoint carriers inside what is left of its carrier (the
//! same argument, one level down). This is how H-search builds its
//! connections (the AND and OR rules), so a connection H-search found is
//! written out rule by rule ([`super::claim_build`]): the size of the text
//! is the size of the derivation, not of the game tree inside the carrier.
//!
//! # Format (one token, no spaces)
//!
//! ```text
//! claim    = [ cell ">" ] [ theirs ] *virtual links  ; a first move when P is to move
//! theirs   = "{-" *cell "}"
//! virtual  = "{" cell [ cell ] "}"
//! links    = link *( ";" link )
//! link     = end "-" end ":" carrier ":" strategy
//! end      = "N" / "S" / "W" / "E" / cell   ; an edge of P, or a stone of P
//! carrier  = *cell                           ; e.g. "c4d3"
//! strategy = "." / "(" *( 1*cell ">" cell strategy ) ")" / "[" links "]"
//! ```
//!
//! Black's edges are `N` (row 1) and `S` (the last row), White's `W`
//! (column `a`) and `E`. A strategy is checked with the opponent to move
//! inside the carrier, with P's stones those on the board, the first move
//! and the answers of the enclosing strategies:
//!
//! * `.` says the endpoints are joined now;
//! * `(` lists groups of intrusions, every empty cell of the carrier in
//!   exactly one group; each group has P's answer (an empty cell of the
//!   carrier outside the group) and one strategy after it, checked on the
//!   carrier without the group's cells and the answer (it then holds
//!   after any of them: the cells the opponent did not play are only more
//!   room for P);
//! * `[` splits the link into links whose carriers are disjoint parts of
//!   the empty cells left in the carrier, whose ends are P's stones or
//!   edges, and which with P's stones join the link's endpoints.
//!
//! The claim's links must likewise have disjoint carriers of empty cells
//! and join P's edges.
//!
//! # The opponent's cells and virtual stones
//!
//! A claim may first count some empty cells as the opponent's (`{-...}`,
//! for instance the opponent's captured cells and dead cells): P never
//! plays there, so they are never P's. P is never forced to: once only
//! such cells are empty, every carrier and virtual stone below is filled,
//! so the links are joined and the game is over. Nothing is checked about
//! these cells, as with a concession, but no carrier may use them.
//!
//! Before its links a claim may count some empty cells as P's stones
//! (what Benzene's fill-in does with dead and captured cells, checked
//! here with a rule of its own): `{x}` when a P stone on x would join
//! nothing new (every neighbour of x that P may still own is in one group
//! of P's, or an empty cell next to it: see `Board::useless`), and `{xy}`,
//! two adjacent cells, when each is so once P owns the other. P answers an
//! opponent move on one cell of a pair with the other. At the end, a chain
//! of P's through a virtual stone the opponent took goes around it through
//! that group instead (taking the stones back in the reverse order of the
//! list, each was checked with only the ones before it), so the links'
//! connection is real. Carriers and later checks see virtual stones as
//! P's. A bridge from the stone `c3` to the stone `d4`, say,
//! is `c3-d4:c4d3:(c4>d3.d3>c4.)`.

use pns_core::{GameError, Side};

#[cfg(test)]
use super::geometry::bits;
use super::geometry::{Bits, Geom};
use super::position::{Hex, BLACK};

/// An endpoint of a link: an edge of the prover, or a stone of the prover
/// (standing for its group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The first edge (`N` for Black, `W` for White).
    EdgeA,
    /// The second edge (`S` or `E`).
    EdgeB,
    /// A cell holding one of the prover's stones.
    Stone(u8),
}

fn err(msg: impl Into<String>) -> GameError {
    GameError::new(format!("hex claim: {}", msg.into()))
}

/// The letters of the prover's two edges: `N`, `S` for Black, `W`, `E`
/// for White.
pub(crate) fn edge_names(prover: Side) -> (u8, u8) {
    if prover == BLACK {
        (b'N', b'S')
    } else {
        (b'W', b'E')
    }
}

/// The board a link is checked on: the prover's stones and edges (shared
/// with the claim search, `claim_build`).
#[derive(Clone, Copy)]
pub(crate) struct Board<'a> {
    pub g: &'a Geom,
    /// The prover's edges (rows for Black, columns for White).
    pub edges: (Bits, Bits),
}

impl Board<'_> {
    /// Whether `a` and `b` are joined through the stones `own`.
    pub(crate) fn joined(&self, own: Bits, a: End, b: End) -> bool {
        self.links_join(own, &[], (a, b))
    }
}

/// A cursor over the claim text.
struct Reader<'a> {
    hex: &'a Hex,
    s: &'a [u8],
    i: usize,
    prover: Side,
    /// Strategies being checked, one inside the other.
    depth: usize,
}

/// Deepest nesting of strategies a claim may have. A derivation nests at
/// most once per AND or OR rule, far fewer than this on any board; the
/// bound keeps a malicious claim from exhausting the stack.
const MAX_DEPTH: usize = 1_000;

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, b: u8) -> Result<(), GameError> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(err(format!(
                "expected '{}' at offset {}",
                b as char, self.i
            )))
        }
    }

    /// A cell name (a letter and one or two digits), as its index, when one
    /// starts here.
    fn cell(&mut self) -> Result<Option<u8>, GameError> {
        match self.peek() {
            Some(b) if b.is_ascii_lowercase() => {}
            _ => return Ok(None),
        }
        let start = self.i;
        self.i += 1;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) && self.i - start < 3 {
            self.i += 1;
        }
        let name = std::str::from_utf8(&self.s[start..self.i]).expect("ASCII");
        let c = self.hex.parse_cell(name).map_err(|e| err(e.0))?;
        Ok(Some(c.index() as u8))
    }

    /// A link's end: an edge of the prover, or a cell in `own`.
    fn end(&mut self, own: Bits) -> Result<End, GameError> {
        let (a, b) = edge_names(self.prover);
        match self.peek() {
            Some(x) if x == a => {
                self.i += 1;
                Ok(End::EdgeA)
            }
            Some(x) if x == b => {
                self.i += 1;
                Ok(End::EdgeB)
            }
            _ => match self.cell()? {
                Some(c) if own >> c & 1 != 0 => Ok(End::Stone(c)),
                Some(_) => Err(err("a link's end cell must hold a stone of the prover")),
                None => Err(err(format!(
                    "expected an edge of the prover ({} or {}) or a cell at offset {}",
                    a as char, b as char, self.i
                ))),
            },
        }
    }
}

/// Checks the strategy at the reader's position for the link `a`-`b` in
/// `carrier`, with `own` the prover's stones and `free` the empty cells of
/// the carrier (the opponent to move there).
fn check_strategy(
    r: &mut Reader,
    board: &Board,
    ends: (End, End),
    own: Bits,
    free: Bits,
) -> Result<(), GameError> {
    if r.depth >= MAX_DEPTH {
        return Err(err("strategies nest too deep"));
    }
    r.depth += 1;
    let checked = strategy_body(r, board, ends, own, free);
    r.depth -= 1;
    checked
}

/// [`check_strategy`] without the depth guard.
fn strategy_body(
    r: &mut Reader,
    board: &Board,
    (a, b): (End, End),
    own: Bits,
    free: Bits,
) -> Result<(), GameError> {
    let joined = board.joined(own, a, b);
    match r.peek() {
        Some(b'.') => {
            r.i += 1;
            return if joined {
                Ok(())
            } else {
                Err(err("a strategy ends where the link's ends are not joined"))
            };
        }
        Some(b'(' | b'[') if joined => {
            return Err(err(
                "a strategy goes on where the link's ends are joined ('.' expected)",
            ))
        }
        Some(b'[') => {
            r.i += 1;
            check_links(r, board, own, free, (a, b))?;
            return r.expect(b']');
        }
        _ => r.expect(b'(')?,
    }
    let mut answered: Bits = 0;
    while r.peek() != Some(b')') {
        let mut group: Bits = 0;
        while let Some(intrusion) = r.cell()? {
            let ib = 1u128 << intrusion;
            if free & ib == 0 || (answered | group) & ib != 0 {
                return Err(err(format!(
                    "intrusion '{}' is not an empty carrier cell, or is listed twice",
                    r.hex.format_cell(super::position::Cell(intrusion))
                )));
            }
            group |= ib;
        }
        if group == 0 {
            return Err(err(format!("expected an intrusion cell at offset {}", r.i)));
        }
        r.expect(b'>')?;
        let answer = r
            .cell()?
            .ok_or_else(|| err(format!("expected an answer cell at offset {}", r.i)))?;
        let ab = 1u128 << answer;
        if free & ab == 0 || group & ab != 0 {
            return Err(err(format!(
                "answer '{}' is not an empty carrier cell",
                r.hex.format_cell(super::position::Cell(answer))
            )));
        }
        answered |= group;
        // One strategy for the whole group: checked without any of the
        // group's cells, it holds after each of them (cells the opponent
        // has not played are only more room for the prover).
        check_strategy(r, board, (a, b), own | ab, free & !(group | ab))?;
    }
    r.i += 1;
    // Every intrusion must be answered; with no empty cell left and the
    // ends apart, the link has failed.
    if free == 0 || answered != free {
        return Err(err("a strategy leaves an intrusion unanswered"));
    }
    Ok(())
}

/// Checks the links at the reader's position (up to the end of the text,
/// `]` or `)`, not read), each with its carrier inside `free` and apart
/// from the others, and that together with the stones `own` they join
/// `target`.
fn check_links(
    r: &mut Reader,
    board: &Board,
    own: Bits,
    free: Bits,
    target: (End, End),
) -> Result<(), GameError> {
    let mut used: Bits = 0;
    let mut ends = Vec::new();
    loop {
        let a = r.end(own)?;
        r.expect(b'-')?;
        let b = r.end(own)?;
        r.expect(b':')?;
        let mut carrier: Bits = 0;
        while let Some(c) = r.cell()? {
            let bit = 1u128 << c;
            if free & bit == 0 || carrier & bit != 0 {
                return Err(err(
                    "a carrier cell is not empty (or not in the enclosing carrier), or is listed twice",
                ));
            }
            carrier |= bit;
        }
        if carrier & used != 0 {
            return Err(err("two carriers overlap"));
        }
        used |= carrier;
        r.expect(b':')?;
        check_strategy(r, board, (a, b), own, carrier)?;
        ends.push((a, b));
        if r.peek() == Some(b';') {
            r.i += 1;
        } else {
            break;
        }
    }
    if board.links_join(own, &ends, target) {
        Ok(())
    } else {
        Err(err(
            "the links do not join the prover's edges or the link's ends",
        ))
    }
}

impl Board<'_> {
    /// Whether a prover stone on the empty cell `x` would join nothing new,
    /// however the game goes on, with the prover's stones `own` and the
    /// opponent's `opp`: the neighbours of `x` the prover may still own
    /// (its stones and edges, and empty cells) are all in one group G (a
    /// group with the edges it touches and the groups on those edges), or
    /// empty cells next to G (or on an edge of G). A path of the prover's
    /// through `x` then goes through G instead, now and after any moves
    /// (stones stay, and a new stone on such a neighbour joins G). The
    /// answer never turns false as the prover adds stones.
    pub(crate) fn useless(&self, x: usize, own: Bits, opp: Bits) -> bool {
        let g = self.g;
        let bit = 1u128 << x;
        let near = g.neighbours(bit) & !opp;
        let (stones, empties) = (near & own, near & !own);
        let on_edge = [self.edges.0 & bit != 0, self.edges.1 & bit != 0];
        // G: the group of one neighbouring stone, else of a touched edge,
        // with every stone joined to an edge G reaches (one group through
        // that edge).
        let (mut group, mut joins) = if stones != 0 {
            (g.flood(stones & stones.wrapping_neg(), own), [false; 2])
        } else if on_edge[0] {
            (0, [true, false])
        } else if on_edge[1] {
            (0, [false, true])
        } else {
            // Only empty neighbours: a stone joins nothing if it has one.
            return empties.count_ones() <= 1;
        };
        let edges = [self.edges.0, self.edges.1];
        loop {
            let mut grown = group;
            for k in 0..2 {
                joins[k] |= group & edges[k] != 0;
                if joins[k] {
                    grown |= g.flood(own & edges[k], own);
                }
            }
            if grown == group {
                break;
            }
            group = grown;
        }
        let mut next_to = g.spread(group);
        for k in 0..2 {
            if joins[k] {
                next_to |= edges[k];
            } else if on_edge[k] {
                return false;
            }
        }
        stones & !group == 0 && empties & !next_to == 0
    }

    /// Whether links with ends `ends`, each held, and the stones `own`
    /// join the two ends of `target`: grows the set of stones (and edges)
    /// joined to the first end until nothing changes.
    fn links_join(&self, own: Bits, ends: &[(End, End)], (from, to): (End, End)) -> bool {
        // Stones joined to `from`, and whether each edge is.
        let mut reached: (Bits, [bool; 2]) = (0, [false; 2]);
        let add = |e: End, (set, edges): &mut (Bits, [bool; 2])| match e {
            End::EdgeA => {
                edges[0] = true;
                *set |= self.g.flood(own & self.edges.0, own);
            }
            End::EdgeB => {
                edges[1] = true;
                *set |= self.g.flood(own & self.edges.1, own);
            }
            End::Stone(c) => *set |= self.g.flood(1 << c, own),
        };
        let touches = |e: End, &(set, edges): &(Bits, [bool; 2])| match e {
            End::EdgeA => edges[0] || set & self.edges.0 != 0,
            End::EdgeB => edges[1] || set & self.edges.1 != 0,
            End::Stone(c) => set >> c & 1 != 0,
        };
        add(from, &mut reached);
        let mut done = vec![false; ends.len()];
        loop {
            if touches(to, &reached) {
                return true;
            }
            let mut changed = false;
            for (k, &(a, b)) in ends.iter().enumerate() {
                if !done[k] && (touches(a, &reached) || touches(b, &reached)) {
                    done[k] = true;
                    changed = true;
                    add(a, &mut reached);
                    add(b, &mut reached);
                }
            }
            if !changed {
                return false;
            }
        }
    }
}

/// Reads virtual stones `{x}` and `{xy}` at the reader's position (see the
/// module documentation), checking each with the ones before it, and adds
/// them to `own` (and takes them from `empty`).
fn read_virtual(
    r: &mut Reader,
    board: &Board,
    own: &mut Bits,
    empty: &mut Bits,
    opp: Bits,
) -> Result<(), GameError> {
    while r.peek() == Some(b'{') {
        r.i += 1;
        let x = r
            .cell()?
            .ok_or_else(|| err(format!("expected a cell at offset {}", r.i)))?;
        let y = r.cell()?;
        r.expect(b'}')?;
        let cells = (1u128 << x) | y.map_or(0, |y| 1u128 << y);
        if cells & !*empty != 0 || y == Some(x) {
            return Err(err(
                "a virtual stone is not on an empty cell, or is listed twice",
            ));
        }
        let ok = match y {
            None => board.useless(x as usize, *own, opp),
            Some(y) => {
                board.g.neighbours(1 << x) >> y & 1 != 0
                    && board.useless(x as usize, *own | 1 << y, opp)
                    && board.useless(y as usize, *own | 1 << x, opp)
            }
        };
        if !ok {
            return Err(err(
                "a virtual stone is not useless to the prover (or a pair's cells are not captured)",
            ));
        }
        *own |= cells;
        *empty &= !cells;
    }
    Ok(())
}

impl Hex {
    /// What checking a witness for `prover` starts from: its board, a
    /// reader over `w`, its stones and the empty cells.
    fn checker<'a>(
        &'a self,
        prover: Side,
        w: &'a str,
    ) -> Result<(Board<'a>, Reader<'a>, Bits, Bits), GameError> {
        if self.winner.is_some() {
            return Err(err("the game is over"));
        }
        let board = Board {
            g: self.geom,
            edges: self.geom.edges(prover == BLACK),
        };
        let r = Reader {
            hex: self,
            s: w.as_bytes(),
            i: 0,
            prover,
            depth: 0,
        };
        Ok((board, r, self.stones(prover), self.empty_cells()))
    }

    /// Checks a fill ([`pns_core::Shortcuts::fill`]): virtual stones `{x}`,
    /// `{xy}` (see the module documentation) that `prover` may take now,
    /// and nothing else. Returns their cells.
    pub(crate) fn check_fill(&self, prover: Side, w: &str) -> Result<Bits, GameError> {
        let (board, mut r, mut own, mut empty) = self.checker(prover, w)?;
        if r.peek() != Some(b'{') {
            return Err(err("a fill lists virtual stones ('{' expected)"));
        }
        let opp = self.stones(prover.opponent());
        read_virtual(&mut r, &board, &mut own, &mut empty, opp)?;
        match r.peek() {
            None => Ok(own & !self.stones(prover)),
            Some(_) => Err(err(format!("unexpected text at offset {}", r.i))),
        }
    }

    /// Checks a claim that `prover` wins (see the module documentation)
    /// with the rules of Hex only.
    pub(crate) fn check_connection_claim(&self, prover: Side, w: &str) -> Result<(), GameError> {
        let (board, mut r, mut own, mut empty) = self.checker(prover, w)?;
        // A leading move `cell>` (the prover to move).
        let start = r.i;
        match r.cell()? {
            Some(c) if r.peek() == Some(b'>') => {
                r.i += 1;
                if self.to_move() != prover {
                    return Err(err("a claim's first move, but the prover is not to move"));
                }
                if empty >> c & 1 == 0 {
                    return Err(err("a claim's first move is not on an empty cell"));
                }
                own |= 1 << c;
                empty &= !(1 << c);
            }
            _ => r.i = start,
        }
        // Cells counted as the opponent's, `{-...}`: no check needed (the
        // prover never plays there, see the module documentation).
        let mut opp = self.stones(prover.opponent());
        if r.s[r.i..].starts_with(b"{-") {
            r.i += 2;
            while let Some(c) = r.cell()? {
                if empty >> c & 1 == 0 {
                    return Err(err("a cell counted as the opponent's is not empty"));
                }
                opp |= 1 << c;
                empty &= !(1 << c);
            }
            r.expect(b'}')?;
        }
        read_virtual(&mut r, &board, &mut own, &mut empty, opp)?;
        check_links(&mut r, &board, own, empty, (End::EdgeA, End::EdgeB))?;
        match r.peek() {
            None => Ok(()),
            Some(_) => Err(err(format!("unexpected text at offset {}", r.i))),
        }
    }
}

#[cfg(test)]
mod tests {
    use pns_core::prelude::*;

    use super::*;
    use crate::WHITE;

    /// 3x3 after Black b2: bridges to both of Black's edges.
    const BRIDGES: &str = "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)";

    fn check(pos: &str, prover: Side, w: &str) -> Result<(), String> {
        Hex::parse_position(pos)
            .unwrap()
            .check_claim(prover, w)
            .map_err(|e| e.0)
    }

    #[test]
    fn a_chain_of_bridges_is_accepted() {
        check("3 b2", BLACK, BRIDGES).unwrap();
        // The links may come in any order and name their ends either way.
        check(
            "3 b2",
            BLACK,
            "S-b2:a3b3:(b3>a3.a3>b3.);b2-N:b1c1:(b1>c1.c1>b1.)",
        )
        .unwrap();
        // Black to move as well as White.
        check("3 b2 a2", BLACK, BRIDGES).unwrap();
        check("3 b2 a2 c3", BLACK, BRIDGES).unwrap();
    }

    #[test]
    fn flawed_claims_are_rejected() {
        let bad = [
            // An intrusion left unanswered.
            ("N-b2:b1c1:(b1>c1.);b2-S:a3b3:(a3>b3.b3>a3.)", "unanswered"),
            // An answer outside the carrier.
            (
                "N-b2:b1c1:(b1>a1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)",
                "answer",
            ),
            // Overlapping carriers.
            (
                "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c1:(a3>b3.b3>a3.)",
                "overlap",
            ),
            // The links do not reach the south edge.
            ("N-b2:b1c1:(b1>c1.c1>b1.)", "do not join"),
            // '.' where the ends are apart.
            ("N-b2:b1c1:.;b2-S:a3b3:(a3>b3.b3>a3.)", "not joined"),
            // No cell left and the ends apart.
            ("N-b2::();b2-S:a3b3:(a3>b3.b3>a3.)", "unanswered"),
            // An end that is not a Black stone.
            ("N-a1:b1c1:(b1>c1.c1>b1.)", "stone of the prover"),
            // White's edges for Black.
            ("W-b2:b1c1:(b1>c1.c1>b1.)", "edge of the prover"),
            // Trailing text and malformed cells.
            (
                "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)x",
                "unexpected",
            ),
            ("N-b2:b1z9:(b1>c1.c1>b1.)", "off the"),
            ("", "edge of the prover"),
        ];
        for (w, why) in bad {
            let e = check("3 b2", BLACK, w).unwrap_err();
            assert!(e.contains(why), "{w}: {e}");
        }
        // The same text is not White's claim.
        assert!(check("3 b2", WHITE, BRIDGES).is_err());
        // A claim on an occupied carrier cell, and after the game is over.
        assert!(check("3 b2 b1", BLACK, BRIDGES)
            .unwrap_err()
            .contains("not empty"));
        let over = "3 b2 a1 b1 c1 b3";
        assert!(check(over, BLACK, BRIDGES).unwrap_err().contains("over"));
    }

    #[test]
    fn first_moves_groups_and_splits_are_checked() {
        // Black to move on the empty 3x3 board: b2, then both bridges.
        let first = "b2>N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)";
        check("3", BLACK, first).unwrap();
        // Not when White is to move, nor on an occupied cell.
        assert!(check("3 a1", BLACK, first)
            .unwrap_err()
            .contains("not to move"));
        let taken = "b2>N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)";
        assert!(check("3 b2 a1", BLACK, taken)
            .unwrap_err()
            .contains("empty"));
        // One answer for a group of intrusions: c3 is in the carrier but
        // useless to White, and is answered like a3.
        check(
            "3 b2",
            BLACK,
            "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c3:(a3c3>b3.b3>a3.)",
        )
        .unwrap();
        // A link split into two with disjoint carriers.
        let split = "N-S:b1c1a3b3:[N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)]";
        check("3 b2", BLACK, split).unwrap();
        let bad = [
            // The group's answer is one of its cells.
            ("N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c3:(a3b3>b3.)", "answer"),
            // A carrier cell in no group.
            (
                "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c3:(a3>b3.b3>a3.)",
                "unanswered",
            ),
            // A cell in two groups.
            (
                "N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.a3b3>a3.)",
                "twice",
            ),
            // A split whose parts overlap, leave the enclosing carrier, or
            // do not join the link's ends.
            (
                "N-S:b1c1a3b3:[N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c1:(a3>b3.b3>a3.)]",
                "overlap",
            ),
            (
                "N-S:b1c1a3b3:[N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3c3:(a3c3>b3.b3>a3.)]",
                "enclosing",
            ),
            ("N-S:b1c1a3b3:[N-b2:b1c1:(b1>c1.c1>b1.)]", "do not join"),
            // An unclosed split.
            (
                "N-S:b1c1a3b3:[N-b2:b1c1:(b1>c1.c1>b1.);b2-S:a3b3:(a3>b3.b3>a3.)",
                "']'",
            ),
        ];
        for (w, why) in bad {
            let e = check("3 b2", BLACK, w).unwrap_err();
            assert!(e.contains(why), "{w}: {e}");
        }
    }

    #[test]
    fn opponent_cells_and_virtual_stones_are_checked() {
        // With b1 and c1 a captured pair, b2 is on Black's north edge.
        let pair = "{b1c1}b2-S:a3b3:(a3>b3.b3>a3.)";
        check("3 b2", BLACK, pair).unwrap();
        // Counting c3 as White's changes nothing here; a cell so counted
        // cannot be in a carrier.
        check("3 b2", BLACK, &format!("{{-c3}}{pair}")).unwrap();
        let bad = [
            // a2 and b1: b1 would join a2's group to the north edge.
            ("{a2b1}b2-S:a3b3:(a3>b3.b3>a3.)", "useless"),
            // Not adjacent, occupied, listed twice.
            ("{a1c1}b2-S:a3b3:(a3>b3.b3>a3.)", "useless"),
            ("{b2c1}b2-S:a3b3:(a3>b3.b3>a3.)", "empty"),
            ("{b1c1}{c1}b2-S:a3b3:(a3>b3.b3>a3.)", "empty"),
            // A single cell that would join b2 to the north edge.
            ("{b1}b2-S:a3b3:(a3>b3.b3>a3.)", "useless"),
            // White's cells in a carrier, or on a stone.
            ("{-a3}{b1c1}b2-S:a3b3:(a3>b3.b3>a3.)", "carrier"),
            ("{-b2}N-b2:b1c1:(b1>c1.c1>b1.)", "not empty"),
        ];
        for (w, why) in bad {
            let e = check("3 b2", BLACK, w).unwrap_err();
            assert!(e.contains(why), "{w}: {e}");
        }
        // The same virtual stones as a fill, and nothing more.
        let g = Hex::parse_position("3 b2").unwrap();
        assert_eq!(g.check_fill(BLACK, "{b1c1}").unwrap().count_ones(), 2);
        assert!(g.check_fill(BLACK, "{a2b1}").is_err());
        assert!(g.check_fill(BLACK, "{b1c1}N-b2::.").is_err());
        assert!(g.check_fill(BLACK, "").is_err());
        let mut f = g;
        f.fill(BLACK, "{b1c1}").unwrap();
        assert_eq!(f.to_move(), g.to_move());
        assert_eq!(f.stones(BLACK).count_ones(), 3);
    }

    #[test]
    fn a_useless_cell_stays_useless_as_the_prover_adds_stones() {
        // The claim checker relies on this: virtual stones checked before
        // a claim's first move still hold after it.
        let mut rng = pns_core::Rng::new(7);
        let mut useless = 0;
        for n in [3usize, 4, 5, 6] {
            let g = super::super::geometry::geom(n, n);
            for _ in 0..2000 {
                let (own, opp) = g.random_stones(&mut rng, 4);
                for prover in [BLACK, WHITE] {
                    let board = Board {
                        g,
                        edges: g.edges(prover == BLACK),
                    };
                    let empty: Vec<usize> = bits(g.board & !(own | opp)).collect();
                    if empty.len() < 2 {
                        continue;
                    }
                    let x = empty[rng.below(empty.len() as u64) as usize];
                    if !board.useless(x, own, opp) {
                        continue;
                    }
                    useless += 1;
                    for &z in &empty {
                        if z != x {
                            assert!(board.useless(x, own | 1 << z, opp), "{n}x{n}");
                        }
                    }
                }
            }
        }
        assert!(useless > 500, "{useless}");
    }

    #[test]
    fn a_claim_nested_without_end_is_an_error_not_a_crash() {
        // The same split inside itself, a hundred thousand times.
        let n = 100_000;
        let w = format!(
            "{}N-b2:b1c1:(b1>c1.c1>b1.){}",
            "N-b2:b1c1:[".repeat(n),
            "]".repeat(n)
        );
        let e = check("3 b2", BLACK, &w).unwrap_err();
        assert!(e.contains("too deep"), "{e}");
    }
}
