//! Connection claims: compact certificate leaves for Hex, and their
//! rules-only check ([`pns_core::Game::check_claim`]).
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
//! # Format (one token, no spaces)
//!
//! ```text
//! claim    = link *( ";" link )
//! link     = end "-" end ":" carrier ":" strategy
//! end      = "N" / "S" / "W" / "E" / cell   ; an edge of P, or a stone of P
//! carrier  = *cell                           ; e.g. "c4d3"
//! strategy = "." / "(" *( cell cell strategy ) ")"
//! ```
//!
//! Black's edges are `N` (row 1) and `S` (the last row), White's `W`
//! (column `a`) and `E`. A strategy is checked with the opponent to move
//! inside the carrier: `.` says the endpoints are joined now (through P's
//! stones on the board and those played in this link); otherwise `(` lists,
//! for *every* empty cell of the carrier, that cell (the opponent's
//! intrusion), P's answer (another empty cell of the carrier) and the
//! strategy after both, in any order. A bridge from the stone `c3` to the
//! stone `d4`, say, is `c3-d4:c4d3:(c4d3.d3c4.)`.

use pns_core::{GameError, Side};

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
        let seed = match a {
            End::EdgeA => own & self.edges.0,
            End::EdgeB => own & self.edges.1,
            End::Stone(c) => 1 << c,
        };
        let reach = self.g.flood(seed, own);
        let target = match b {
            End::EdgeA => self.edges.0,
            End::EdgeB => self.edges.1,
            End::Stone(c) => 1 << c,
        };
        reach & target != 0
    }
}

/// A cursor over the claim text.
struct Reader<'a> {
    hex: &'a Hex,
    s: &'a [u8],
    i: usize,
}

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

    fn end(&mut self, prover: Side) -> Result<End, GameError> {
        let (a, b) = edge_names(prover);
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
                Some(c) if self.hex.stones(prover) >> c & 1 != 0 => Ok(End::Stone(c)),
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
    (a, b): (End, End),
    own: Bits,
    free: Bits,
) -> Result<(), GameError> {
    let joined = board.joined(own, a, b);
    if r.peek() == Some(b'.') {
        r.i += 1;
        return if joined {
            Ok(())
        } else {
            Err(err("a strategy ends where the link's ends are not joined"))
        };
    }
    if joined {
        return Err(err(
            "a strategy goes on where the link's ends are joined ('.' expected)",
        ));
    }
    r.expect(b'(')?;
    let mut answered: Bits = 0;
    while r.peek() != Some(b')') {
        let intrusion = r
            .cell()?
            .ok_or_else(|| err(format!("expected an intrusion cell at offset {}", r.i)))?;
        let answer = r
            .cell()?
            .ok_or_else(|| err(format!("expected an answer cell at offset {}", r.i)))?;
        let (ib, ab) = (1u128 << intrusion, 1u128 << answer);
        if free & ib == 0 || answered & ib != 0 {
            return Err(err(format!(
                "intrusion '{}' is not an empty carrier cell, or is listed twice",
                r.hex.format_cell(super::position::Cell(intrusion))
            )));
        }
        if free & ab == 0 || ab == ib {
            return Err(err(format!(
                "answer '{}' is not an empty carrier cell",
                r.hex.format_cell(super::position::Cell(answer))
            )));
        }
        answered |= ib;
        check_strategy(r, board, (a, b), own | ab, free & !(ib | ab))?;
    }
    r.i += 1;
    // Every intrusion must be answered; with no empty cell left and the
    // ends apart, the link has failed.
    if free == 0 || answered != free {
        return Err(err("a strategy leaves an intrusion unanswered"));
    }
    Ok(())
}

impl Hex {
    /// Checks a claim that `prover` wins (see the module documentation)
    /// with the rules of Hex only.
    pub(crate) fn check_connection_claim(&self, prover: Side, w: &str) -> Result<(), GameError> {
        if self.winner.is_some() {
            return Err(err("the game is over"));
        }
        let g = self.geom;
        let board = Board {
            g,
            edges: g.edges(prover == BLACK),
        };
        let own = self.stones(prover);
        let empty = self.empty_cells();
        let mut r = Reader {
            hex: self,
            s: w.as_bytes(),
            i: 0,
        };
        let mut used: Bits = 0;
        let mut ends = Vec::new();
        loop {
            let a = r.end(prover)?;
            r.expect(b'-')?;
            let b = r.end(prover)?;
            r.expect(b':')?;
            let mut carrier: Bits = 0;
            while let Some(c) = r.cell()? {
                let bit = 1u128 << c;
                if empty & bit == 0 || carrier & bit != 0 {
                    return Err(err("a carrier cell is not empty, or is listed twice"));
                }
                carrier |= bit;
            }
            if carrier & used != 0 {
                return Err(err("two carriers overlap"));
            }
            used |= carrier;
            r.expect(b':')?;
            check_strategy(&mut r, &board, (a, b), own, carrier)?;
            ends.push((a, b));
            match r.peek() {
                None => break,
                Some(b';') => r.i += 1,
                Some(_) => return Err(err(format!("unexpected text at offset {}", r.i))),
            }
        }
        // The links, with the groups on the board, must join the edges:
        // grow the set of ends joined to edge A until nothing changes.
        let group = |e: End| match e {
            End::Stone(c) => g.flood(1 << c, own),
            _ => 0,
        };
        let touches = |set: Bits, e: End| match e {
            End::EdgeA => set & board.edges.0 != 0,
            End::EdgeB => set & board.edges.1 != 0,
            End::Stone(c) => set >> c & 1 != 0,
        };
        // `reached`: stones joined to edge A; `edge_b`: whether B is.
        let mut reached = g.flood(own & board.edges.0, own);
        let mut edge_a_in = vec![false; ends.len()];
        loop {
            let mut changed = false;
            for (k, &(a, b)) in ends.iter().enumerate() {
                if edge_a_in[k] {
                    continue;
                }
                let in_a = a == End::EdgeA || touches(reached, a);
                let in_b = b == End::EdgeA || touches(reached, b);
                if in_a || in_b {
                    edge_a_in[k] = true;
                    changed = true;
                    for e in [a, b] {
                        if e == End::EdgeB {
                            return Ok(());
                        }
                        reached |= group(e);
                    }
                }
            }
            if touches(reached, End::EdgeB) {
                return Ok(());
            }
            if !changed {
                return Err(err("the links do not join the prover's edges"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pns_core::Game;

    use super::*;
    use crate::hex::WHITE;

    /// 3x3 after Black b2: bridges to both of Black's edges.
    const BRIDGES: &str = "N-b2:b1c1:(b1c1.c1b1.);b2-S:a3b3:(a3b3.b3a3.)";

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
            "S-b2:a3b3:(b3a3.a3b3.);b2-N:b1c1:(b1c1.c1b1.)",
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
            ("N-b2:b1c1:(b1c1.);b2-S:a3b3:(a3b3.b3a3.)", "unanswered"),
            // An answer outside the carrier.
            ("N-b2:b1c1:(b1a1.c1b1.);b2-S:a3b3:(a3b3.b3a3.)", "answer"),
            // Overlapping carriers.
            ("N-b2:b1c1:(b1c1.c1b1.);b2-S:a3b3c1:(a3b3.b3a3.)", "overlap"),
            // The links do not reach the south edge.
            ("N-b2:b1c1:(b1c1.c1b1.)", "do not join"),
            // '.' where the ends are apart.
            ("N-b2:b1c1:.;b2-S:a3b3:(a3b3.b3a3.)", "not joined"),
            // No cell left and the ends apart.
            ("N-b2::();b2-S:a3b3:(a3b3.b3a3.)", "unanswered"),
            // An end that is not a Black stone.
            ("N-a1:b1c1:(b1c1.c1b1.)", "stone of the prover"),
            // White's edges for Black.
            ("W-b2:b1c1:(b1c1.c1b1.)", "edge of the prover"),
            // Trailing text and malformed cells.
            (
                "N-b2:b1c1:(b1c1.c1b1.);b2-S:a3b3:(a3b3.b3a3.)x",
                "unexpected",
            ),
            ("N-b2:b1z9:(b1c1.c1b1.)", "off the"),
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
}
