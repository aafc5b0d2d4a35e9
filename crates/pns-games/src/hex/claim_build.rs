//! Finding connection claims ([`super::claim`]) for certificates: a chain
//! of H-search VCs between the prover's groups with disjoint carriers,
//! each link's strategy found by a small exhaustive search inside its
//! carrier.
//!
//! Writing the links out separately is what keeps Hex certificates small:
//! a position-by-position proof of the whole connection has a node for
//! every combination of the links' states (a product), the claim has the
//! links' strategies side by side (a sum).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use pns_core::Side;

use super::claim::{edge_names, Board, End};
use super::geometry::{bits, Bits};
use super::position::{Hex, BLACK};

/// Largest carrier whose strategy is searched (the search is exponential
/// in it).
const MAX_LINK_CARRIER: u32 = 12;
/// Most positions one link's strategy search may visit.
const MAX_STATES: usize = 2_000;
/// Longest strategy text kept for one link (it is a tree, so shared
/// positions are written out again).
const MAX_TEXT: usize = 20_000;
/// Most partial chains the chain search extends.
const MAX_CHAIN_STEPS: usize = 100;

/// One link's strategy search: the opponent moves inside `carrier`, the
/// prover answers inside it, until `a` and `b` are joined.
struct Local<'a> {
    board: Board<'a>,
    a: End,
    b: End,
    /// Whether (own, free) wins for the prover, opponent to move.
    memo: HashMap<(Bits, Bits), bool, BuildHasherDefault<MixHasher>>,
}

/// A fast hasher for the strategy search's bitboard keys (the default
/// SipHash took a quarter of the extraction time).
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(w));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }
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

impl Local<'_> {
    fn joined(&self, own: Bits) -> bool {
        self.board.joined(own, self.a, self.b)
    }

    /// The answers to try after an intrusion at `e`: the cells next to it
    /// first (most links are bridges and edge templates).
    fn answers(&self, e: usize, free: Bits) -> impl Iterator<Item = usize> + 'static {
        let near = self.board.g.spread(1 << e) & free;
        bits(near).chain(bits(free & !near & !(1 << e)))
    }

    /// Whether the prover holds the link; `None` when the budget ran out.
    fn wins(&mut self, own: Bits, free: Bits) -> Option<bool> {
        if self.joined(own) {
            return Some(true);
        }
        if free == 0 {
            return Some(false);
        }
        if let Some(&w) = self.memo.get(&(own, free)) {
            return Some(w);
        }
        if self.memo.len() >= MAX_STATES {
            return None;
        }
        let mut all = true;
        for e in bits(free) {
            let mut held = false;
            for r in self.answers(e, free) {
                let rest = free & !(1 << e | 1 << r);
                if self.wins(own | 1 << r, rest)? {
                    held = true;
                    break;
                }
            }
            if !held {
                all = false;
                break;
            }
        }
        self.memo.insert((own, free), all);
        Some(all)
    }

    /// Writes the strategy of a won state (see the claim format).
    fn write(&self, own: Bits, free: Bits, out: &mut String) -> Option<()> {
        if out.len() > MAX_TEXT {
            return None;
        }
        if self.joined(own) {
            out.push('.');
            return Some(());
        }
        out.push('(');
        for e in bits(free) {
            let r = self.answers(e, free).find(|&r| {
                let rest = free & !(1 << e | 1 << r);
                self.joined(own | 1 << r) || self.memo.get(&(own | 1 << r, rest)) == Some(&true)
            })?;
            push_cell(out, e);
            push_cell(out, r);
            self.write(own | 1 << r, free & !(1 << e | 1 << r), out)?;
        }
        out.push(')');
        Some(())
    }
}

impl Hex {
    /// A claim that `prover` wins here (see [`super::claim`]), when
    /// H-search finds a chain of VCs joining its edges whose links are
    /// small enough to write out.
    ///
    /// H-search runs on the board after fill-in ([`super::inferior`]):
    /// dead cells and the opponent's captured cells go to the opponent (no
    /// carrier may then use them, which is always safe), the prover's
    /// captured cells to the prover. Those are empty on the real board, so
    /// each link takes the prover's captured cells next to it into its
    /// carrier, and its strategy is searched on the real board: the claim
    /// never rests on the fill-in, only on strategies checked cell by cell.
    pub(crate) fn connection_claim(&self, prover: Side) -> Option<String> {
        if self.winner.is_some() {
            return None;
        }
        let own = self.stones(prover);
        let f = super::inferior::fill_in(self.geom, self.black, self.white);
        let (mine, theirs) = if prover == BLACK {
            (f.black, f.white)
        } else {
            (f.white, f.black)
        };
        let opp = self.stones(prover.opponent()) | f.dead | theirs;
        // First without the prover's captured cells (all links are then
        // H-search's own), then with them.
        [0, mine]
            .into_iter()
            .find_map(|captured| self.claim_with(prover, own, captured, opp))
    }

    /// [`Hex::connection_claim`] with H-search on `own | captured` against
    /// `opp`.
    fn claim_with(&self, prover: Side, own: Bits, captured: Bits, opp: Bits) -> Option<String> {
        let g = self.geom;
        let (groups, links) = self.group_links(prover, own | captured, opp)?;
        let mut links: Vec<(usize, usize, Bits)> = links
            .into_iter()
            .filter(|l| l.2.count_ones() <= MAX_LINK_CARRIER)
            .collect();
        links.sort_by_key(|l| l.2.count_ones());
        let builder = Builder {
            hex: self,
            prover,
            own,
            captured,
            groups,
            board: Board {
                g,
                edges: g.edges(prover == BLACK),
            },
        };
        let mut written: HashMap<(usize, Bits), Option<(String, Bits)>> = HashMap::new();
        let mut write = |k: usize, used: Bits| {
            let carrier = builder.carrier(links[k], used);
            written
                .entry((k, carrier))
                .or_insert_with(|| builder.write(links[k], carrier))
                .clone()
        };
        let mut texts = Vec::new();
        let mut steps = 0;
        chain(&links, 0, 1, 0, &mut texts, &mut steps, &mut write).then(|| texts.join(";"))
    }
}

/// What writing one link needs.
struct Builder<'a> {
    hex: &'a Hex,
    prover: Side,
    /// The prover's stones on the real board.
    own: Bits,
    /// The prover's captured cells (empty on the real board).
    captured: Bits,
    /// The stones of each H-search group point (after fill-in).
    groups: Vec<Bits>,
    board: Board<'a>,
}

impl Builder<'_> {
    /// The end of a link at group point `p`: an edge, or a real stone of
    /// the group (`None` when the group is all fill-in).
    fn end(&self, p: usize) -> Option<End> {
        match p {
            0 => Some(End::EdgeA),
            1 => Some(End::EdgeB),
            _ => {
                let real = self.groups[p] & self.own;
                (real != 0).then(|| End::Stone(real.trailing_zeros() as u8))
            }
        }
    }

    /// The real-board carrier of link `(x, y, c)` when `used` is taken: `c`
    /// and the free captured cells next to it or to its end groups.
    fn carrier(&self, (x, y, c): (usize, usize, Bits), used: Bits) -> Bits {
        let g = self.hex.geom;
        let near = g.spread(c | self.groups[x] | self.groups[y]) | c;
        c | (near & self.captured & !used)
    }

    /// The link's text and carrier, when its strategy is found in budget.
    fn write(&self, (x, y, _): (usize, usize, Bits), carrier: Bits) -> Option<(String, Bits)> {
        if carrier.count_ones() > MAX_LINK_CARRIER {
            return None;
        }
        let mut local = Local {
            board: self.board,
            a: self.end(x)?,
            b: self.end(y)?,
            memo: HashMap::default(),
        };
        if !local.wins(self.own, carrier)? {
            return None;
        }
        let mut s = String::new();
        let (name_a, name_b) = edge_names(self.prover);
        for (i, e) in [local.a, local.b].into_iter().enumerate() {
            if i == 1 {
                s.push('-');
            }
            match e {
                End::EdgeA => s.push(name_a as char),
                End::EdgeB => s.push(name_b as char),
                End::Stone(cell) => push_cell(&mut s, cell as usize),
            }
        }
        s.push(':');
        for cell in bits(carrier) {
            push_cell(&mut s, cell);
        }
        s.push(':');
        local.write(self.own, carrier, &mut s)?;
        Some((s, carrier))
    }
}

/// Extends the chain (link texts in `texts`) from group point `at` to
/// point 1 (the second edge), depth first, with links whose carriers avoid
/// `used` and whose far ends are not in `visited`; `write` gives a link's
/// text and real carrier, or `None`.
fn chain(
    links: &[(usize, usize, Bits)],
    at: usize,
    visited: u128,
    used: Bits,
    texts: &mut Vec<String>,
    steps: &mut usize,
    write: &mut impl FnMut(usize, Bits) -> Option<(String, Bits)>,
) -> bool {
    for (k, &(x, y, c)) in links.iter().enumerate() {
        let other = match (x == at, y == at) {
            (true, _) => y,
            (_, true) => x,
            _ => continue,
        };
        if c & used != 0 || visited >> other & 1 != 0 {
            continue;
        }
        *steps += 1;
        if *steps > MAX_CHAIN_STEPS {
            return false;
        }
        let Some((text, carrier)) = write(k, used) else {
            continue;
        };
        texts.push(text);
        if other == 1
            || chain(
                links,
                other,
                visited | 1 << other,
                used | carrier,
                texts,
                steps,
                write,
            )
        {
            return true;
        }
        texts.pop();
    }
    false
}
