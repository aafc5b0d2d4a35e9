//! λ-df-pn on capturing problems (Yoshizoe, Kishimoto and Müller, "Lambda
//! depth-first proof number search and its application to Go", IJCAI
//! 2007, §3; the clean summary is in `../shared/papers/README.md`, "λ-df-pn
//! in brief"), with λ-search's orders as Thomsen defines them ("Lambda-search
//! in game trees — with application to Go", 2000).
//!
//! # The tree
//!
//! A node is a capturing position ([`Capture`]) with a λ order and a kind:
//!
//! * `Split(l)`, the attacker to move with orders up to `l`: its children
//!   are the *pseudo nodes* `Fixed(1) .. Fixed(l)` (§3: pn = the least pn
//!   of the orders; dn = the dn of the highest order, see costs below).
//! * `Fixed(i)`, the attacker to move at order `i`: its children are the
//!   attacker's moves, each leading to a defender node `And(i)`.
//! * `And(i)`, the defender to move after an attacker move of order `i`:
//!   its children are the defender's moves, each leading to `Split(i)`;
//!   the defender's *pass* leads to `Split(i − 1)` instead. That child is
//!   the paper's threat check c_(i−1): the attacker's move was of order
//!   `i` only if, the defender passing, the attacker wins with order
//!   `i − 1`. A node at order 0 is won only by capturing in one move.
//!
//! On top of the orders 1..=[`LambdaParams::max_order`] sits one more
//! level, *unrestricted*: its pass leads back to itself, so it is plain
//! df-pn's capturing tree (attacker pass included), split into pseudo
//! nodes below. Only it can disprove: a λⁿ loss says only that no win of
//! order ≤ n exists (Thomsen, §2), so the root's disproof number is that
//! of the unrestricted level.
//!
//! # Soundness
//!
//! Every defender node of every order lists all the defender's moves that
//! the question allows (all legal points when the defender is the complete
//! side, [`Capture::with_complete`]) and the pass, so a proof of any
//! order is a capture in Go; and a disproof needs the unrestricted level
//! disproven with the attacker's moves as the question allows them. The
//! two calls of [`crate::capture::attack`] and `defend` then make the same
//! claims as with plain df-pn. The one pruning of defender moves (the
//! ladder rule below) drops only moves after which the attacker captures at
//! once.
//!
//! # Initialisation and pseudo λ-search
//!
//! The paper initialises pseudo nodes of higher orders with larger proof
//! numbers so that cheap low orders are tried first. Here the growth is an
//! edge cost (df-pn+, thesis §2.2.4) on the move `Split → Fixed(i)`:
//! `growth · (i − 1)` added to the proof number, so it lasts after the
//! pseudo node is expanded. The disproof numbers of the lower orders and
//! the proof number of the threat check get a cost of −∞ (they count 1
//! while unsolved, 0 once solved): the paper's dn(n) = dn(c_l) at attacker
//! nodes and pn(n) = pn(c_l) at defender nodes, as far as the engine's sums
//! allow. *Pseudo λ-search* is a growth so large ([`PSEUDO_GROWTH`]) that an
//! order is entered only once every lower one is disproven: orders in
//! strictly increasing order.
//!
//! # The ladder rule (λ¹)
//!
//! With [`LambdaParams::ladder`] on, a special-purpose generator does the
//! work of a ladder search inside the tree: at order 1 the attacker's moves
//! are the target's two liberties (the only moves that put it in atari;
//! with three or more liberties there is no order-1 move), and a defender
//! whose target is in atari, capturable at once, plays only moves that can
//! lift the atari (its liberty, and the last liberties of the attacker
//! blocks next to it that are in atari) and the pass: any other move leaves
//! the target to be captured on the next move.

use pns_core::dfpn::{self, DfpnPolicy};
use pns_core::numbers::{Pn, PN_MAX};
use pns_core::prelude::*;
use pns_core::{Limits, Outcome, Problem, Repetition, SearchResult, Status, Table};

use crate::bits::Bits;
use crate::board::Move;
use crate::capture::{Capture, Effort};

/// The growth of pseudo λ-search: orders searched strictly one after
/// another (no proof number of a lower order gets this large).
pub const PSEUDO_GROWTH: u64 = 1 << 40;

/// The parameters of λ-df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LambdaParams {
    /// The highest λ order with a threat check; the unrestricted level
    /// sits above it. 0 is plain df-pn (through the pseudo-node layer).
    pub max_order: u8,
    /// Proof-number cost per order above 1 ([`PSEUDO_GROWTH`]: pseudo
    /// λ-search).
    pub growth: u64,
    /// The λ¹ ladder rule (see the module's documentation).
    pub ladder: bool,
}

impl Default for LambdaParams {
    fn default() -> Self {
        LambdaParams {
            max_order: 2,
            growth: 2,
            ladder: true,
        }
    }
}

impl LambdaParams {
    /// Pseudo λ-search with the same orders.
    pub fn pseudo() -> Self {
        LambdaParams {
            growth: PSEUDO_GROWTH,
            ..Self::default()
        }
    }

    /// `order=N,grow=G|pseudo,ladder=on|off`, each optional, over `self`.
    pub fn parse(mut self, s: &str) -> Result<Self, String> {
        for kv in s.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("'{kv}' is not name=value"))?;
            let num = || {
                v.parse::<u64>()
                    .map_err(|_| format!("{k}: '{v}' is not a number"))
            };
            match k {
                "order" => {
                    let n = num()?;
                    if n > 8 {
                        return Err("order: at most 8".into());
                    }
                    self.max_order = n as u8;
                }
                "grow" | "growth" => {
                    self.growth = if v == "pseudo" {
                        PSEUDO_GROWTH
                    } else {
                        num()?.min(PSEUDO_GROWTH)
                    }
                }
                "ladder" => {
                    self.ladder = match v {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("ladder: '{v}' is not on or off")),
                    }
                }
                _ => return Err(format!("unknown option '{k}' (order, grow, ladder)")),
            }
        }
        Ok(self)
    }

    /// `order=N,grow=G,ladder=on|off`, the form `parse` reads.
    pub fn describe(&self) -> String {
        let g = if self.growth == PSEUDO_GROWTH {
            "pseudo".to_string()
        } else {
            self.growth.to_string()
        };
        format!(
            "order={},grow={g},ladder={}",
            self.max_order,
            if self.ladder { "on" } else { "off" }
        )
    }

    /// The unrestricted level.
    fn top(&self) -> u8 {
        self.max_order + 1
    }
}

/// A node's kind and order (see the module's documentation). `Fixed`'s
/// flag: a pseudo node, reached from `Split` without a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Split(u8),
    Fixed(u8, bool),
    And(u8),
}

impl Kind {
    fn salt(self) -> u64 {
        let code = match self {
            Kind::Split(l) => 0x100 | l as u64,
            Kind::Fixed(l, pseudo) => 0x200 | ((pseudo as u64) << 12) | l as u64,
            Kind::And(l) => 0x300 | l as u64,
        };
        pns_core::rng::splitmix64(0x1a3b_da00_0000 ^ code)
    }
}

/// A move of the λ tree: choosing an order at a `Split` node, or a move on
/// the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LMove {
    Order(u8),
    Play(Move),
}

/// Costs that make a number count 1 while unsolved (see the module's
/// documentation).
const FLAT: i64 = -(PN_MAX as i64);

/// Keeps a pseudo node's line key apart from its parent's: the same
/// position, not a repetition.
const PSEUDO_LINE_SALT: u64 = 0x7073_6575_646f_0001;

/// "The attacker captures the target" as a λ tree.
pub struct LambdaProblem {
    stack: Vec<(Capture, Kind)>,
    params: LambdaParams,
}

impl LambdaProblem {
    /// The question from `g` (either side to move), every level of orders
    /// open at the root.
    pub fn new(g: Capture, params: LambdaParams) -> Self {
        let top = params.top();
        let kind = if g.board().to_move() == g.attacker() {
            attacker_kind(top)
        } else {
            Kind::And(top)
        };
        let mut stack = Vec::with_capacity(128);
        stack.push((g, kind));
        LambdaProblem { stack, params }
    }

    #[inline]
    fn cur(&self) -> &(Capture, Kind) {
        self.stack.last().expect("the root")
    }

    /// The capture position at the current node.
    pub fn position(&self) -> &Capture {
        &self.cur().0
    }

    /// The attacker's moves at order `order`: what the question allows, the
    /// pass only at the unrestricted level, the target's liberties only at
    /// order 1 under the ladder rule.
    fn attacker_moves(&self, g: &Capture, order: u8, out: &mut Vec<LMove>) {
        let top = self.params.top();
        if order == 1 && order != top && self.params.ladder {
            let libs = g.target_libs();
            if libs.count() == 2 {
                for p in libs.iter() {
                    if g.board().is_legal_point(p, true) {
                        out.push(LMove::Play(Move::Play(p as u16)));
                    }
                }
                return;
            }
            if libs.count() >= 3 {
                return;
            }
        }
        let mut ms = Vec::new();
        g.search_moves(&mut ms);
        out.extend(
            ms.into_iter()
                .filter(|m| order == top || *m != Move::Pass)
                .map(LMove::Play),
        );
    }

    /// The defender's moves: what the question allows and the pass; under
    /// the ladder rule, with the target capturable at once, only the moves
    /// that can lift the atari.
    fn defender_moves(&self, g: &Capture, out: &mut Vec<LMove>) {
        let mut ms = Vec::new();
        g.search_moves(&mut ms);
        if self.params.ladder {
            if let Some(lift) = atari_lifts(g) {
                ms.retain(|m| match m {
                    Move::Play(p) => lift.get(*p as usize),
                    Move::Pass => true,
                });
            }
        }
        out.extend(ms.into_iter().map(LMove::Play));
    }
}

/// The kind of an attacker node reached by a move at order `l` (one order
/// needs no split).
fn attacker_kind(l: u8) -> Kind {
    if l <= 1 {
        Kind::Fixed(l, false)
    } else {
        Kind::Split(l)
    }
}

/// With the defender to move and the target in atari, capturable at once
/// by the attacker after any defender move that leaves that liberty: the
/// points where a defender move can give the target a second liberty (the
/// liberty itself, and the liberties of the adjacent attacker blocks in
/// atari, whose capture frees points next to the target). `None` when the
/// target is not in atari.
fn atari_lifts(g: &Capture) -> Option<Bits> {
    let b = g.board();
    let blk = g.target_block();
    let libs = b.liberties(&blk);
    if libs.count() != 1 {
        return None;
    }
    // The attacker's capture there is legal after any defender move that
    // leaves it: a capture is never suicide, and a defender move can set
    // the ko point only on a point it emptied, never on the empty liberty.
    let mut lift = libs;
    for a in b.adjacent_blocks(&blk) {
        let al = b.liberties(&a);
        if al.count() == 1 {
            lift |= al;
        }
    }
    Some(lift)
}

impl Problem for LambdaProblem {
    type Move = LMove;

    #[inline]
    fn is_or(&self) -> bool {
        !matches!(self.cur().1, Kind::And(_))
    }

    fn evaluate(&self) -> Status {
        let (g, k) = self.cur();
        if let Some(o) = g.known_outcome() {
            let attacker_to_move = g.board().to_move() == g.attacker();
            return if (o == Outcome::Win) == attacker_to_move {
                Status::Proven
            } else {
                Status::Disproven
            };
        }
        match k {
            // Order 0: capture in one move or nothing (and no such move,
            // or `known_outcome` would have said so).
            Kind::Fixed(0, _) | Kind::Split(0) => Status::Disproven,
            _ => Status::Unknown,
        }
    }

    fn generate(&self, out: &mut Vec<LMove>) {
        let (g, k) = self.cur();
        let top = self.params.top();
        match *k {
            Kind::Split(l) => {
                for i in 1..=l.min(self.params.max_order) {
                    out.push(LMove::Order(i));
                }
                if l == top {
                    out.push(LMove::Order(top));
                }
            }
            Kind::Fixed(i, _) => self.attacker_moves(g, i, out),
            Kind::And(_) => self.defender_moves(g, out),
        }
    }

    fn play(&mut self, m: LMove) {
        let (g, k) = *self.cur();
        let top = self.params.top();
        let next = match (k, m) {
            (Kind::Split(_), LMove::Order(i)) => (g, Kind::Fixed(i, true)),
            (Kind::Fixed(i, _), LMove::Play(mv)) => {
                let mut c = g;
                c.play(mv);
                (c, Kind::And(i))
            }
            (Kind::And(i), LMove::Play(mv)) => {
                let mut c = g;
                c.play(mv);
                let l = if mv == Move::Pass && i != top {
                    i - 1
                } else {
                    i
                };
                (c, attacker_kind(l))
            }
            _ => panic!("λ tree: move {m:?} at {k:?}"),
        };
        self.stack.push(next);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        let (g, k) = self.cur();
        g.key() ^ k.salt()
    }

    /// The distance initialisation of plain df-pn ([`Capture`]'s
    /// heuristic): orders differ by their edge costs.
    fn heuristic(&self) -> (Pn, Pn) {
        let g = &self.cur().0;
        let libs = g.target_libs().count().min(g.escape_libs()) as u64;
        (libs.max(1), (g.escape_libs() as u64 - libs).max(1))
    }

    fn edge_cost(&self, m: LMove) -> (i64, i64) {
        let top = self.params.top();
        match (self.cur().1, m) {
            (Kind::Split(_), LMove::Order(i)) => {
                let rank = if i == top {
                    self.params.max_order + 1
                } else {
                    i
                };
                let grow = self
                    .params
                    .growth
                    .saturating_mul(rank as u64 - 1)
                    .min(PN_MAX / 2) as i64;
                (grow, if i == top { 0 } else { FLAT })
            }
            (Kind::And(i), LMove::Play(Move::Pass)) if i != top => (FLAT, 0),
            _ => (0, 0),
        }
    }

    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }

    #[inline]
    fn history_key(&self) -> u64 {
        let (g, k) = self.cur();
        match k {
            Kind::Fixed(_, true) => g.key() ^ PSEUDO_LINE_SALT,
            _ => g.key(),
        }
    }
}

/// df-pn with edge costs and the problem's initialisation: the search
/// λ-df-pn runs on.
#[derive(Clone, Copy, Debug, Default)]
pub struct LambdaPolicy;

impl DfpnPolicy for LambdaPolicy {
    const USES_COST: bool = true;
}

/// λ-df-pn on "the attacker captures" from `g` (either side to move), at
/// most `visits` node visits, on `tt` (key space 0).
pub fn search(g: &Capture, params: &LambdaParams, visits: u64, tt: &Table) -> SearchResult {
    let mut p = LambdaProblem::new(*g, *params);
    let limits = Limits {
        visits: Some(visits),
        ..Default::default()
    };
    dfpn::search_with(
        &mut p,
        LambdaPolicy,
        tt,
        &limits,
        &crate::capture::path_options(),
    )
}

/// [`search`]'s status, its effort added to `effort`.
pub fn attack_status(
    g: &Capture,
    params: &LambdaParams,
    visits: u64,
    tt: &Table,
    effort: &mut Effort,
) -> Status {
    let r = search(g, params, visits, tt);
    effort.visits += r.stats.visits;
    effort.searches += 1;
    r.status
}

/// After a proof from `g` (the attacker to move) on `tt`: a first move
/// that captures. A move whose defender node the table holds proven (at
/// any order) is taken at once; otherwise (DUP keeps path-dependent
/// results apart from the base entry) each move is searched again from
/// its own defender node, at most `visits / 20` visits each, the target's
/// liberties first.
pub fn proven_move(g: &Capture, params: &LambdaParams, visits: u64, tt: &Table) -> Option<Move> {
    let mut p = LambdaProblem::new(*g, *params);
    let mut orders = Vec::new();
    if matches!(p.cur().1, Kind::Split(_)) {
        p.generate(&mut orders);
    } else {
        orders.push(LMove::Order(0));
    }
    let mut all = Vec::new();
    for o in orders {
        let split = o != LMove::Order(0);
        if split {
            p.play(o);
        }
        let mut ms = Vec::new();
        p.generate(&mut ms);
        for m in ms {
            p.play(m);
            let proven =
                p.evaluate() == Status::Proven || tt.probe(p.key()).is_some_and(|h| h.pn == 0);
            p.undo();
            if let LMove::Play(mv) = m {
                if proven {
                    return Some(mv);
                }
                if !all.contains(&mv) {
                    all.push(mv);
                }
            }
        }
        if split {
            p.undo();
        }
    }
    for mv in all {
        let mut c = *g;
        c.play(mv);
        if search(&c, params, (visits / 20).max(50), tt).status == Status::Proven {
            return Some(mv);
        }
    }
    None
}
