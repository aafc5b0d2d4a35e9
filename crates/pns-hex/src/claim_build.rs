//! Finding connection claims ([`super::claim`]) for certificates, from
//! H-search's own derivation ([`Derivation`]): H-search, run on the board
//! with the fill-in counted as in the claim (the opponent's captured cells
//! and the dead cells as its stones, the prover's captured cells as
//! virtual stones the checker accepts), records how each connection was
//! found, and the claim writes the AND rule as a split into links and the
//! OR rule as groups of intrusions answered by an SC's key.
//!
//! Writing the links out separately is what keeps Hex certificates small:
//! a position-by-position proof of the whole connection has a node for
//! every combination of the links' states (a product), the claim has the
//! links' strategies side by side (a sum).

use pns_core::Side;

use super::claim::{edge_names, Board, End};
use super::geometry::{bits, Bits};
use super::hsearch::{HSearch, How, Rec};
use super::position::{Hex, BLACK};

/// Longest claim written from a derivation (sub-connections used twice are
/// written twice).
const MAX_DERIVED_TEXT: usize = 100_000;

/// The link between `prover`'s edges when they are joined already.
fn joined_link(prover: Side) -> String {
    let (a, b) = edge_names(prover);
    format!("{}-{}::.", a as char, b as char)
}

/// Appends the name of cell `i` (as `Hex::format_cell`) without allocating.
fn push_cell(out: &mut String, i: usize) {
    let (x, y) = (i % super::STRIDE, i / super::STRIDE + 1);
    out.push((b'a' + x as u8) as char);
    if y >= 10 {
        out.push('1');
    }
    out.push((b'0' + (y % 10) as u8) as char);
}

impl Hex {
    /// A claim that `prover` wins here (see [`super::claim`]), when
    /// H-search finds a connection between its edges that wins from here,
    /// written out from its derivation.
    ///
    /// The claim counts the fill-in ([`super::inferior`]) as the solver's
    /// analysis does, in forms the checker accepts without it: the
    /// opponent's captured cells and the dead cells as the opponent's
    /// (`{-...}`: a dead cell helps neither side), then the prover's
    /// captured cells as virtual stones, each pair checked by the rules.
    pub(crate) fn connection_claim(&self, prover: Side) -> Option<String> {
        if self.winner.is_some() {
            return None;
        }
        let f = super::inferior::fill_in(self.geom, self.black, self.white);
        let (mine, theirs) = if prover == BLACK {
            (f.black, f.white)
        } else {
            (f.white, f.black)
        };
        let opp_cells = theirs | f.dead;
        let (virt_text, virt) = self.virtual_stones(prover, mine, opp_cells);
        let own = self.stones(prover) | virt;
        let (first, links) = if self.geom.joins(own, self.geom.edges(prover == BLACK)) {
            // The virtual stones join the edges already.
            (None, joined_link(prover))
        } else {
            self.derived_claim(prover, own, self.stones(prover.opponent()) | opp_cells)?
        };
        let mut text = String::new();
        if let Some(k) = first {
            push_cell(&mut text, k as usize);
            text.push('>');
        }
        if opp_cells != 0 {
            text.push_str("{-");
            for c in bits(opp_cells) {
                push_cell(&mut text, c);
            }
            text.push('}');
        }
        text.push_str(&virt_text);
        text.push_str(&links);
        Some(text)
    }

    /// A fill ([`pns_core::Shortcuts::fill`]) for `prover`: its captured cells
    /// that the rules accept as virtual stones, with the opponent's stones
    /// as they are; `None` when there are none.
    pub(crate) fn fill_for(&self, prover: Side) -> Option<String> {
        if self.winner.is_some() {
            return None;
        }
        let f = super::inferior::fill_in(self.geom, self.black, self.white);
        let mine = if prover == BLACK { f.black } else { f.white };
        let (text, cells) = self.virtual_stones(prover, mine, 0);
        (cells != 0).then_some(text)
    }

    /// The virtual stones (see [`super::claim`]) `prover` may take among
    /// `cand` (its captured cells) when the opponent has `theirs` too:
    /// pairs of adjacent cells first, then single cells, each checked as
    /// the claim checker will, with the ones taken before. Their text and
    /// cells.
    fn virtual_stones(&self, prover: Side, cand: Bits, theirs: Bits) -> (String, Bits) {
        let g = self.geom;
        let board = Board {
            g,
            edges: g.edges(prover == BLACK),
        };
        let opp = self.stones(prover.opponent()) | theirs;
        let mut own = self.stones(prover);
        let mut text = String::new();
        let mut taken: Bits = 0;
        let mut grew = true;
        while grew {
            grew = false;
            for x in bits(cand & !taken) {
                if taken >> x & 1 != 0 {
                    continue;
                }
                let pair = bits(g.neighbours(1 << x) & cand & !taken).find(|&y| {
                    board.useless(x, own | 1 << y, opp) && board.useless(y, own | 1 << x, opp)
                });
                if let Some(y) = pair {
                    text.push('{');
                    push_cell(&mut text, x);
                    push_cell(&mut text, y);
                    text.push('}');
                    taken |= 1 << x | 1 << y;
                    own |= 1 << x | 1 << y;
                    grew = true;
                }
            }
        }
        for x in bits(cand & !taken) {
            if board.useless(x, own, opp) {
                text.push('{');
                push_cell(&mut text, x);
                text.push('}');
                taken |= 1 << x;
                own |= 1 << x;
            }
        }
        (text, taken)
    }

    /// A claim written from the derivation of a connection H-search finds
    /// for `prover` with stones `own` against `opp` ([`Derivation`]): a VC
    /// between the edges, or with `prover` to move an SC after its key.
    /// The first move (an SC's key), if any, and the links.
    fn derived_claim(&self, prover: Side, own: Bits, opp: Bits) -> Option<(Option<u8>, String)> {
        let board = Board {
            g: self.geom,
            edges: self.geom.edges(prover == BLACK),
        };
        self.recorded_hsearch(prover, own, opp, |h, conns| {
            let mut d = Derivation {
                h,
                board,
                prover,
                out: String::new(),
            };
            let mut vcs = conns.vc[..conns.nvc].to_vec();
            vcs.sort_by_key(|c| c.count_ones());
            for c in vcs {
                d.out.clear();
                if d.link(0, 1, c, own).is_some() {
                    return Some((None, d.out));
                }
            }
            if prover != self.to_move() {
                return None;
            }
            let mut scs: Vec<Rec> = h
                .recs(0, 1)
                .iter()
                .filter(|r| r.key.is_some())
                .copied()
                .collect();
            scs.sort_by_key(|r| r.carrier.count_ones());
            for sc in scs {
                let key = sc.key.expect("an SC");
                let own = own | 1 << key;
                if d.board.joined(own, End::EdgeA, End::EdgeB) {
                    return Some((Some(key), joined_link(prover)));
                }
                d.out.clear();
                if d.split(0, 1, sc.how, own).is_some() {
                    return Some((Some(key), d.out));
                }
            }
            None
        })
        .flatten()
    }
}

/// Writes connections from an H-search record ([`HSearch::run`] with `record`)
/// as claim text (see [`super::claim`]).
struct Derivation<'a> {
    h: &'a HSearch,
    board: Board<'a>,
    prover: Side,
    out: String,
}

impl Derivation<'_> {
    /// The claim's name for H-search point `p`: an edge, a stone of a
    /// group, or an empty-cell point (the prover's stone by the time the
    /// derivation uses it as an end: it is the key of an enclosing SC).
    fn end(&self, p: usize) -> End {
        match p {
            0 => End::EdgeA,
            1 => End::EdgeB,
            _ if p < self.h.group_count() => {
                End::Stone(self.h.group_stones(p).trailing_zeros() as u8)
            }
            _ => End::Stone(self.h.point_cell(p)),
        }
    }

    fn push_end(&mut self, p: usize) {
        let (a, b) = edge_names(self.prover);
        match self.end(p) {
            End::EdgeA => self.out.push(a as char),
            End::EdgeB => self.out.push(b as char),
            End::Stone(c) => push_cell(&mut self.out, c as usize),
        }
    }

    /// Writes the link for VC(`x`, `y`, `carrier`) with the prover's stones
    /// `own`.
    fn link(&mut self, x: usize, y: usize, carrier: Bits, own: Bits) -> Option<()> {
        if self.out.len() > MAX_DERIVED_TEXT {
            return None;
        }
        self.push_end(x);
        self.out.push('-');
        self.push_end(y);
        self.out.push(':');
        for c in bits(carrier) {
            push_cell(&mut self.out, c);
        }
        self.out.push(':');
        if self.board.joined(own, self.end(x), self.end(y)) {
            self.out.push('.');
            return Some(());
        }
        let rec = *self
            .h
            .recs(x, y)
            .iter()
            .find(|r| r.key.is_none() && r.carrier == carrier)?;
        match rec.how {
            // Adjacent points are joined once both are the prover's.
            How::Base => None,
            How::And { .. } => {
                self.out.push('[');
                self.split(x, y, rec.how, own)?;
                self.out.push(']');
                Some(())
            }
            How::Or => self.or(x, y, carrier, own),
        }
    }

    /// Writes the AND rule `how` of a connection between `x` and `y` as its
    /// two links (the caller puts `[...]` around them inside a strategy).
    fn split(&mut self, x: usize, y: usize, how: How, own: Bits) -> Option<()> {
        let How::And { e, m, ce, cw } = how else {
            return None;
        };
        let (e, m) = (e as usize, m as usize);
        let w = if e == x { y } else { x };
        self.link(e, m, ce, own)?;
        self.out.push(';');
        self.link(m, w, cw, own)
    }

    /// Writes the OR rule for VC(`x`, `y`, `carrier`): every cell of the
    /// carrier misses the carrier of some recorded SC inside it, whose key
    /// answers it; the SC's two links follow.
    fn or(&mut self, x: usize, y: usize, carrier: Bits, own: Bits) -> Option<()> {
        let mut scs: Vec<Rec> = self
            .h
            .recs(x, y)
            .iter()
            .filter(|r| r.key.is_some() && r.carrier & !carrier == 0)
            .copied()
            .collect();
        scs.sort_by_key(|r| r.carrier.count_ones());
        self.out.push('(');
        let mut left = carrier;
        while left != 0 {
            let sc = *scs
                .iter()
                .max_by_key(|r| (left & !r.carrier).count_ones())?;
            let group = left & !sc.carrier;
            if group == 0 {
                return None;
            }
            left &= sc.carrier;
            for c in bits(group) {
                push_cell(&mut self.out, c);
            }
            self.out.push('>');
            let key = sc.key.expect("an SC");
            push_cell(&mut self.out, key as usize);
            let own = own | 1 << key;
            if self.board.joined(own, self.end(x), self.end(y)) {
                self.out.push('.');
            } else {
                self.out.push('[');
                self.split(x, y, sc.how, own)?;
                self.out.push(']');
            }
        }
        self.out.push(')');
        Some(())
    }
}
