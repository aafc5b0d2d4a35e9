//! VCDT: victory by continuous double threats (Wu and Huang; deep-dfpn
//! §5.1: "making continuously double-threat moves and ending with a
//! triple-or-more-threat move or connecting up to six in all
//! variations").
//!
//! [`Vcdt`] is an AND/OR problem searched by df-pn like any other:
//!
//! * at the attacker's nodes the moves are whole turns after which the
//!   attacker has k in a row, or the defender cannot win in its turn and
//!   has at least p threats to meet (a double threat for p = 2); the
//!   attacker's stones come from the windows that its turn can make live
//!   and from the defender's live windows (which its turn must meet);
//! * at the defender's nodes the moves are only the sets of stones that
//!   meet every threat; more threats than stones is a proven leaf.
//!
//! A proven VCDT is a win; a disproven one only means "no VCDT". Searches
//! nested in the zone search run on its table in [`space`] (with its own
//! visit budget); [`prove`] then reads the proof tree off the table (with a
//! sub-search where an entry is gone) as a [`claim::Turn`], the witness
//! the rules-only check accepts and the source of relevance zones
//! ([`zone_of`]). Turns of more than two stones (p = 3) are not searched.

use std::cell::RefCell;

use pns_core::dfpn::{self, key_space, status_of, PathOptions, Plain};
use pns_core::prelude::*;
use pns_core::rng::splitmix64;
use pns_core::{Limits, Problem, Side, Stats, Status, Table};

use crate::claim;
use crate::geometry::CellSet;
use crate::position::{hitting_sets, min_hitting, Connect6, Turn, Window, NO_CELL};

/// Visits a standalone VCDT search for a certificate claim may use.
pub const CLAIM_BUDGET: u64 = 20_000;

/// The key space of nested VCDT searches.
pub fn space() -> u64 {
    key_space(0xc6)
}

/// "`attacker` wins by continuous double threats."
#[derive(Clone, Debug)]
pub struct Vcdt {
    stack: Vec<Connect6>,
    attacker: Side,
    salt: u64,
}

impl Vcdt {
    pub fn new(root: Connect6, attacker: Side) -> Vcdt {
        Vcdt {
            stack: vec![root],
            attacker,
            salt: splitmix64(0x7cd7 ^ (attacker == Side::Second) as u64),
        }
    }

    #[inline]
    pub fn game(&self) -> &Connect6 {
        self.stack.last().expect("root")
    }
}

/// The attacker's VCDT turns from `g` (attacker to move), most threats
/// first.
///
/// No turn is played out: the windows free of defender stones that `r`
/// more stones can make live (at least k − p − r attacker stones) are
/// listed once, and a turn is judged on them alone. Before the turn the
/// attacker has no live window (else it wins now, a leaf), so every live
/// window after it is one of these holding a stone of the turn. The turn
/// must also meet every live window of the defender (else the defender
/// wins in its turn).
pub fn attack_turns(g: &Connect6, out: &mut Vec<Turn>) {
    let x = g.side_to_move();
    let d = x.opponent();
    let (k, p) = (g.params().k, g.params().p);
    let r = g.stones_left();
    if r > 2 || p > 2 {
        return;
    }
    let mut near = Vec::new();
    g.windows(x, k.saturating_sub(p + r), &mut near);
    let mut dlive = Vec::new();
    g.live_windows(d, p, &mut dlive);
    if min_hitting(&dlive, r) > r {
        return;
    }
    let mut cand = CellSet::default();
    for w in near.iter().chain(&dlive) {
        for &c in w.empties() {
            cand.insert(c);
        }
    }
    // For each candidate cell, the near windows holding it (a bit mask);
    // cells in more of them, and in fuller ones, first.
    let words = near.len().div_ceil(64).max(1);
    let mut cells: Vec<u16> = cand.iter().collect();
    let mut index = vec![u16::MAX; g.geometry().cells()];
    for (i, &c) in cells.iter().enumerate() {
        index[c as usize] = i as u16;
    }
    let mut masks = vec![0u64; cells.len() * words];
    let mut weight = vec![0u32; cells.len()];
    for (wi, w) in near.iter().enumerate() {
        for &c in w.empties() {
            let i = index[c as usize] as usize;
            masks[i * words + wi / 64] |= 1 << (wi % 64);
            weight[i] += 1 << (2 * (8 - w.n as u32));
        }
    }
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(weight[i]), cells[i]));
    let sorted: Vec<u16> = order.iter().map(|&i| cells[i]).collect();
    let remap: Vec<u16> = {
        let mut v = vec![0u16; cells.len()];
        for (new, &old) in order.iter().enumerate() {
            v[new] = old as u16;
        }
        v
    };
    for (new, &c) in sorted.iter().enumerate() {
        index[c as usize] = remap[new];
    }
    cells = sorted;
    let mut scored: Vec<(usize, Turn)> = Vec::new();
    let mut live: Vec<Window> = Vec::new();
    let mut judge = |t: Turn, scored: &mut Vec<(usize, Turn)>| {
        let has = |c: u16| c == t.a || c == t.b;
        if !dlive.iter().all(|w| w.empties().iter().any(|&c| has(c))) {
            return;
        }
        live.clear();
        let ia = index[t.a as usize] as usize;
        let ib = (t.b != NO_CELL).then(|| index[t.b as usize] as usize);
        for wd in 0..words {
            let mut m = masks[ia * words + wd] | ib.map_or(0, |i| masks[i * words + wd]);
            while m != 0 {
                let wi = wd * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                let e = near[wi].empties();
                let hits = e.iter().filter(|&&c| has(c)).count();
                let left = e.len() - hits;
                if left > p {
                    continue;
                }
                if left == 0 {
                    scored.push((usize::MAX, t)); // k in a row
                    return;
                }
                let mut nw = Window {
                    cells: [0; 8],
                    n: 0,
                };
                for &c in e.iter().filter(|&&c| !has(c)) {
                    nw.cells[nw.n as usize] = c;
                    nw.n += 1;
                }
                live.push(nw);
            }
        }
        let h = min_hitting(&live, p);
        if h >= p {
            scored.push((h, t));
        }
    };
    if r == 1 {
        for &a in &cells {
            judge(Turn::one(a), &mut scored);
        }
    } else {
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                judge(Turn::two(a, b), &mut scored);
            }
        }
    }
    // Stable: among equals, the cell order (best cells first).
    scored.sort_by_key(|&(h, _)| std::cmp::Reverse(h));
    out.extend(scored.into_iter().map(|(_, t)| t));
}

impl Problem for Vcdt {
    type Move = Turn;

    #[inline]
    fn is_or(&self) -> bool {
        self.game().side_to_move() == self.attacker
    }

    fn evaluate(&self) -> Status {
        let g = self.game();
        if g.winner() == Some(self.attacker) {
            return Status::Proven;
        }
        if g.is_over() {
            return Status::Disproven;
        }
        let p = g.params().p;
        let r = g.stones_left();
        let mut ws = Vec::new();
        if self.is_or() {
            if g.can_win_now() {
                return Status::Proven;
            }
            g.live_windows(self.attacker.opponent(), p, &mut ws);
            if min_hitting(&ws, r) > r {
                return Status::Disproven;
            }
            Status::Unknown
        } else {
            if g.can_win_now() || r > 2 {
                return Status::Disproven;
            }
            g.live_windows(self.attacker, p, &mut ws);
            let h = min_hitting(&ws, r);
            if h > r {
                Status::Proven
            } else if h < r {
                Status::Disproven
            } else {
                Status::Unknown
            }
        }
    }

    fn generate(&self, out: &mut Vec<Turn>) {
        let g = self.game();
        if self.is_or() {
            attack_turns(g, out);
        } else {
            let mut ws = Vec::new();
            g.live_windows(self.attacker, g.params().p, &mut ws);
            for s in hitting_sets(&ws, g.stones_left()) {
                out.push(match s.as_slice() {
                    [a] => Turn::one(*a),
                    [a, b] => Turn::two(*a, *b),
                    _ => continue,
                });
            }
        }
    }

    fn play(&mut self, m: Turn) {
        let mut c = self.game().clone();
        for s in m.cells() {
            if !c.is_over() {
                c.place(s);
            }
        }
        self.stack.push(c);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.game().key() ^ self.salt
    }
}

/// One VCDT search from `g` for `attacker` on `tt` in key space `space`,
/// its statistics noted in `stats` as a nested search.
pub fn search(
    g: &Connect6,
    attacker: Side,
    tt: &Table,
    visits: u64,
    space: u64,
    stats: &mut Stats,
) -> Status {
    let mut p = Vcdt::new(g.clone(), attacker);
    let limits = Limits {
        visits: Some(visits),
        ..Limits::default()
    };
    let r = dfpn::search_with(
        &mut p,
        Plain::default(),
        tt,
        &limits,
        &PathOptions {
            space,
            ..PathOptions::default()
        },
    );
    stats.note_nested(&r.stats);
    r.status
}

/// The status of the current node of `p` from its own evaluation or the
/// table.
fn known_status(p: &Vcdt, tt: &Table, space: u64) -> Status {
    let s = p.evaluate();
    if s.is_solved() {
        return s;
    }
    match tt.probe(p.key() ^ space) {
        Some(h) => status_of(h.pn, h.dn),
        None => Status::Unknown,
    }
}

struct Prover<'t> {
    tt: &'t Table,
    visits: u64,
    space: u64,
    stats: RefCell<Stats>,
}

impl Prover<'_> {
    fn sub(&self, p: &Vcdt) -> Status {
        search(
            p.game(),
            p.attacker,
            self.tt,
            self.visits,
            self.space,
            &mut self.stats.borrow_mut(),
        )
    }

    /// The proof below an attacker node known to be proven.
    fn or_node(&self, p: &mut Vcdt, depth: usize) -> Option<claim::Turn> {
        if depth > 200 {
            return None;
        }
        let g = p.game().clone();
        if g.can_win_now() {
            return Some(claim::Turn {
                cells: until_win(&g, g.winning_cells()?),
                replies: Vec::new(),
            });
        }
        let mut moves = Vec::new();
        p.generate(&mut moves);
        let mut chosen = None;
        for &m in &moves {
            p.play(m);
            let s = known_status(p, self.tt, self.space);
            p.undo();
            if s == Status::Proven {
                chosen = Some(m);
                break;
            }
        }
        if chosen.is_none() {
            for &m in &moves {
                p.play(m);
                let s = self.sub(p);
                p.undo();
                if s == Status::Proven {
                    chosen = Some(m);
                    break;
                }
            }
        }
        let m = chosen?;
        p.play(m);
        let replies = self.and_node(p, depth + 1);
        p.undo();
        Some(claim::Turn {
            cells: until_win(&g, m.cells().collect()),
            replies: replies?,
        })
    }

    /// The replies below a defender node known to be proven.
    fn and_node(&self, p: &mut Vcdt, depth: usize) -> Option<Vec<(Vec<u16>, claim::Turn)>> {
        match p.evaluate() {
            // k in a row, or more threats than the defender's stones.
            Status::Proven => return Some(Vec::new()),
            Status::Disproven => return None,
            Status::Unknown => {}
        }
        let mut moves = Vec::new();
        p.generate(&mut moves);
        let mut out = Vec::new();
        for m in moves {
            p.play(m);
            if known_status(p, self.tt, self.space) != Status::Proven
                && self.sub(p) != Status::Proven
            {
                p.undo();
                return None;
            }
            let t = self.or_node(p, depth + 1);
            p.undo();
            let mut d: Vec<u16> = m.cells().collect();
            d.sort_unstable();
            out.push((d, t?));
        }
        Some(out)
    }
}

/// `cells` up to the stone that wins, if one does (a witness stops there).
fn until_win(g: &Connect6, cells: Vec<u16>) -> Vec<u16> {
    let side = g.side_to_move();
    let mut c = g.clone();
    let mut out = Vec::new();
    for s in cells {
        out.push(s);
        c.place(s);
        if c.winner() == Some(side) {
            break;
        }
    }
    out
}

/// A VCDT proof for `attacker` from `g`: searched on `tt` in key space
/// `space` within `visits` (and as many again to rebuild lost entries),
/// its statistics added to `stats`. At an attacker node the proof is a
/// turn; at a defender node a turn without cells and with the replies.
pub fn prove(
    g: &Connect6,
    attacker: Side,
    tt: &Table,
    visits: u64,
    space: u64,
    stats: &mut Stats,
) -> Option<claim::Turn> {
    if search(g, attacker, tt, visits, space, stats) != Status::Proven {
        return None;
    }
    let pr = Prover {
        tt,
        visits,
        space,
        stats: RefCell::new(Stats::default()),
    };
    let mut p = Vcdt::new(g.clone(), attacker);
    let t = if p.is_or() {
        pr.or_node(&mut p, 0)
    } else {
        pr.and_node(&mut p, 0).map(|replies| claim::Turn {
            cells: Vec::new(),
            replies,
        })
    };
    let extra = pr.stats.into_inner();
    if extra.nested_searches > 0 {
        stats.accumulate(&extra);
    }
    t
}

/// Writes a proof from [`prove`] as a claim witness for `g`.
pub fn witness(g: &Connect6, attacker: Side, t: &claim::Turn) -> String {
    let mut s = String::new();
    if g.side_to_move() == attacker {
        claim::write_turn(g, t, &mut s);
    } else {
        claim::write_replies(g, &t.replies, &mut s);
    }
    s
}

thread_local! {
    static CLAIM_TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

/// A checked VCDT witness for `prover` from `g`, by a standalone search of
/// at most `visits` on a table of this thread's.
pub fn find_witness(g: &Connect6, prover: Side, visits: u64) -> Option<String> {
    CLAIM_TABLE.with(|t| {
        let mut t = t.borrow_mut();
        let tt = t.get_or_insert_with(|| Table::with_mb(8));
        tt.clear();
        let mut stats = Stats::default();
        let proof = prove(g, prover, tt, visits, 0, &mut stats)?;
        let w = witness(g, prover, &proof);
        claim::check(g, prover, &w).ok().map(|_| w)
    })
}

/// The relevance zone of a VCDT proof `t` for the attacker from `g`
/// (attacker to move, reached by the defender's null move of `r_def`
/// stones, or, in a propagated zone, with `r_def` extra defender stones
/// allowed outside the zone): the cells where `r_def` defender stones
/// could change the proof (deep-dfpn §5.2, Fig. 2; Wu and Lin). It holds, along every line
/// of the proof, the attacker's stones, the empty cells of its live
/// windows (they fix the threats and the replies) and the empty cells of
/// the windows free of attacker stones where the defender has at least
/// k − p − `r_def` stones (there `r_def` more stones could give it a win
/// in its turn). Defender stones on cells outside the zone leave every
/// check of the proof ([`claim`]) unchanged, so the same proof wins.
pub fn zone_of(g: &Connect6, t: &claim::Turn, r_def: usize) -> CellSet {
    let mut z = CellSet::default();
    let attacker = g.side_to_move();
    walk_zone(g, attacker, t, r_def, &mut z);
    z
}

fn walk_zone(g: &Connect6, x: Side, t: &claim::Turn, r_def: usize, z: &mut CellSet) {
    let mut c = g.clone();
    for &s in &t.cells {
        z.insert(s);
        if !c.is_over() {
            c.place(s);
        }
    }
    if c.winner() == Some(x) || c.is_over() {
        return;
    }
    let (k, p) = (c.params().k, c.params().p);
    let mut ws = Vec::new();
    c.live_windows(x, p, &mut ws);
    c.windows(x.opponent(), k.saturating_sub(p + r_def), &mut ws);
    for w in &ws {
        for &e in w.empties() {
            z.insert(e);
        }
    }
    for (d, sub) in &t.replies {
        let mut cc = c.clone();
        for &s in d {
            z.insert(s);
            if !cc.is_over() {
                cc.place(s);
            }
        }
        walk_zone(&cc, x, sub, r_def, z);
    }
}
