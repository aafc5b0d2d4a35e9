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
//! The highest order may differ between the two halves of a question
//! ([`LambdaParams::escape_order`], `eorder=N`): in an escape proof (the
//! attacker plays every point) every order of every attacker node must be
//! disproven, so orders add work; in a capture proof a higher order gives
//! the defender's zones a threat check below the unrestricted level's.
//! Any order is sound, so the choice changes only what is found within a
//! limit. One question keeps one order ([`LambdaParams::for_question`],
//! applied where a search is built), and its table entries are apart from
//! the other half's by the complete side in the key.
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
//! once; the prunings of attacker moves drop only moves after which the
//! defender escapes at once (the escape rule below) or, below the
//! unrestricted level, moves that cannot be threats of their order (the
//! liberty bound below).
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
//!
//! # The liberty bound
//!
//! With [`LambdaParams::bound`] on (the default), the ladder rule's
//! attacker half at every order `i` below the unrestricted level: where the
//! target has `i + 2` liberties or more, `Fixed(i)` has no moves; where it
//! has `i + 1`, only its liberties. Why, by induction on `i`: at order 0
//! only a capture at once wins, which needs one liberty. An attacker move
//! takes at most one liberty (its stone covers one point; what it captures
//! only frees points), and the defender's pass after it leads to order
//! `i − 1` with the same liberties. So from `i + 2` liberties every move
//! leaves at least `(i − 1) + 2` and its threat check is lost; from `i + 1`
//! only a move on a liberty leaves fewer. The cut moves are lost at that
//! order; and the lower orders only ever prove (see Soundness), so a wrong
//! bound could cost answers, never make one wrong. What it saves: in escape
//! proofs every lower order must be disproven too, and `Fixed(2)` at three
//! liberties otherwise refutes some 250 moves one by one on 19x19.
//!
//! # The escape rule
//!
//! With [`LambdaParams::escape`] on (the default), the same idea for the
//! other side ([`crate::escape`]): a defender to move that can escape in
//! one move (the target reaching the threshold's liberties) has won, and
//! an attacker to move plays, at every order, only the moves that stop
//! each escape the defender would have after an attacker pass; the pass
//! itself goes. Escape proofs, where the attacker plays every point, are
//! what it shortens.
//!
//! # Relevance zones
//!
//! With [`LambdaParams::zones`] and the defender playing every point (the
//! capture half of `attack`/`defend`), a defender node `And(i)` first gets
//! its threat check proven (the pass child, order `i − 1`: from the table,
//! or a small nested search on the same table and in the same key space,
//! so its entries are the pass child's), reads the zone of that proof off
//! the table, and keeps only the defender moves that change the zone
//! (`zone::kept_moves`): any other move leaves the threat to be
//! carried out as if the defender had passed. This is Thomsen's λ-search
//! relevance made exact; the zone's construction and the soundness
//! argument (what a rule reads, and the points vacated on the path, which
//! join the key) are in [`crate::zone`]. The orders bound the recursion:
//! the threat check of order `i − 1` has defender nodes of order at most
//! `i − 1`, down to the ladder rule at order 1. Searches with zones run
//! under NOCYCLE, so that proofs are in the base entries the walk reads.
//!
//! With the attacker playing every point (the escape half), the mirror: an
//! attacker node `Fixed(i)` whose moves neither the liberty bound nor the
//! escape rule cut first gets the defender's node `And(i)` after an
//! attacker pass disproven (at the top order the pass child; below it the
//! node a pass would lead to, were it a move there, so the same key space
//! holds its entries), reads the zone of that disproof, and keeps the
//! attacker moves that change it: any other move is answered as the pass
//! was. The disproof's zone holds, at each defender node, the refuting
//! move's reads and what keeps that one move a move (a lift of the ladder
//! rule is kept by its own reads; a candidate of the generator by the
//! liberty or the short block that made it one, `candidate_reads`: other
//! moves may come or go, one refutation is enough); at each attacker
//! node, every kept move's reads and what kept them (the liberty bound's
//! and the escape rule's reads, where an escape's liberties are counted
//! whole unless it has liberties to spare, `escape::escape_reads`, or the
//! node's own pass zone). An attacker node inside the
//! disproof whose moves no rule cut is read back through its own pass
//! zone; where its pass position is not disproven in the table the walk
//! gives up (the node's zone would be the whole board).
//! Another attacker stone off the zone can only add escapes for the
//! defender and cut more attacker moves, never take a refutation away.
//! Where the defender's pass after an attacker pass ends the problem (two
//! passes, [`Capture::ended`]), the attacker's kept moves at the top order
//! are closed under their own disproofs first, as in [`crate::zone`]
//! ("Two passes"). Below the top order the attacker has no pass: the one
//! that asks for a zone there is played as no pass of the game
//! (`Capture::play_pseudo_pass`), and the defender's pass after it stays
//! the threat check.
//!
//! Below the unrestricted level there is a cheaper zone, Thomsen's
//! relevance of a λ order (2000, §3): a move of order `i` must leave a
//! λⁱ⁻¹ win after a defender pass, so where the lower orders `Fixed(1 ..
//! i)` on the same position are disproven in the table, the attacker's
//! moves off the zone of their disproof are no λⁱ moves and `Fixed(i)`
//! keeps only the others (`LambdaProblem::lower_zone`, read off the
//! table: no nested search). And where the
//! unrestricted level on a position is disproven in the table, every
//! lower order there is lost too (a λⁱ win is a capture in Go): such a
//! node has no moves, and its disproof's zone is that level's
//! (`LambdaProblem::top_lost`).
//!
//! # Simulation
//!
//! With [`LambdaParams::kawano`] the search runs with Kawano's simulation
//! ([`pns_core::dfpn::kawano`]): once a child of a defender node is
//! proven, its proof is replayed on the unsolved siblings, move for move.
//! The paper (§3, "Simulation") uses it for the pass: the threat check
//! (the pass child) proven, the defender's other moves are tried on its
//! proof, and a move that does nothing about the threat is refuted by the
//! same sequence. Here any proven child serves (a proven defence's proof is
//! tried on the pass and the other defences too); the moves of the tree
//! (an order chosen at a `Split` node, a point) are replayed as moves, and
//! the replay checks each against what the sibling generates, so the
//! orders, the ladder rule and the complete side's moves hold as in the
//! search.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pns_core::dfpn::{self, DfpnPolicy, Kawano, PathOptions};
use pns_core::numbers::{Pn, PN_MAX};
use pns_core::prelude::*;
use pns_core::{
    Limits, Outcome, Problem, Repetition, SearchResult, SharedProbe, Stats, Status, Table,
};

use crate::bits::Bits;
use crate::board::Move;
use crate::capture::{generator_delta, Capture, Generator};
use crate::escape;
use crate::zone::{atari_lifts, close_kept, kept_moves, lifted_moves, move_reads};

/// The growth of pseudo λ-search: orders searched strictly one after
/// another (no proof number of a lower order gets this large).
pub const PSEUDO_GROWTH: u64 = 1 << 40;

/// The parameters of λ-df-pn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LambdaParams {
    /// The highest λ order with a threat check; the unrestricted level
    /// sits above it. 0 is plain df-pn (through the pseudo-node layer).
    pub max_order: u8,
    /// The highest order in escape proofs, the searches where the
    /// attacker plays every point (`None`: `max_order`). Every order of
    /// every attacker node must be disproven there, so a higher order only
    /// adds work, while a capture proof gains from it: the defender's
    /// zones come from a threat check of the order below, cheaper than
    /// the unrestricted level's (measured: docs/experiments/lambda.md,
    /// "The highest order").
    pub escape_order: Option<u8>,
    /// Proof-number cost per order above 1 ([`PSEUDO_GROWTH`]: pseudo
    /// λ-search).
    pub growth: u64,
    /// The λ¹ ladder rule (see the module's documentation).
    pub ladder: bool,
    /// The liberty bound at every order below the unrestricted level (see
    /// the module's documentation); at order 1 it is the ladder rule's
    /// attacker half.
    pub bound: bool,
    /// The escape rule ([`crate::escape`]): the attacker's moves cut to
    /// those that stop every escape in one move.
    pub escape: bool,
    /// Relevance zones at the nodes of the side that plays every point,
    /// the defender's or the attacker's (see "Relevance zones" in the
    /// module's documentation).
    pub zones: bool,
    /// Kawano's simulation (see "Simulation" in the module's
    /// documentation).
    pub kawano: bool,
    /// Dual simulation ([`pns_core::dfpn::Kawano::dual`]): a refuted
    /// attacker move's disproof replayed on the attacker's other moves
    /// (with it, proofs are replayed too).
    pub dual: bool,
}

impl Default for LambdaParams {
    fn default() -> Self {
        LambdaParams {
            max_order: 2,
            escape_order: None,
            growth: 2,
            ladder: true,
            bound: true,
            escape: true,
            zones: false,
            kawano: false,
            dual: false,
        }
    }
}

impl LambdaParams {
    /// λ-df-pn with relevance zones, order 3 in capture proofs and order
    /// 2 in escape proofs (`lambda-zones`, the GTP default): on GNU Go's
    /// unconditional cases at 3,000 visits it answers 41 right where the
    /// default answers 27, zones at order 2 35, zones at order 3 in both
    /// halves 40 (docs/experiments/lambda.md, "The highest order").
    pub fn zoned() -> Self {
        LambdaParams {
            max_order: 3,
            escape_order: Some(2),
            zones: true,
            ..Self::default()
        }
    }

    /// Pseudo λ-search with the same orders.
    pub fn pseudo() -> Self {
        LambdaParams {
            growth: PSEUDO_GROWTH,
            ..Self::default()
        }
    }

    /// `order=N,eorder=N,grow=G|pseudo,ladder=on|off,bound=on|off,escape=on|off,
    /// zones=on|off,kawano=on|off,dual=on|off` (`sim` for `kawano`), each optional,
    /// over `self`.
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
                "eorder" | "escape-order" => {
                    let n = num()?;
                    if n > 8 {
                        return Err("eorder: at most 8".into());
                    }
                    self.escape_order = Some(n as u8);
                }
                "grow" | "growth" => {
                    self.growth = if v == "pseudo" {
                        PSEUDO_GROWTH
                    } else {
                        num()?.min(PSEUDO_GROWTH)
                    }
                }
                "ladder" => self.ladder = on_off(k, v)?,
                "bound" => self.bound = on_off(k, v)?,
                "escape" => self.escape = on_off(k, v)?,
                "zones" => self.zones = on_off(k, v)?,
                "kawano" | "sim" => self.kawano = on_off(k, v)?,
                "dual" => self.dual = on_off(k, v)?,
                _ => {
                    return Err(format!(
                        "unknown option '{k}' (order, eorder, grow, ladder, bound, escape, zones, kawano, dual)"
                    ))
                }
            }
        }
        Ok(self)
    }

    /// `order=N,grow=G,ladder=on|off,escape=on|off`, `bound=off` when the
    /// liberty bound is off, and the options that are on: the form `parse`
    /// reads.
    pub fn describe(&self) -> String {
        let g = if self.growth == PSEUDO_GROWTH {
            "pseudo".to_string()
        } else {
            self.growth.to_string()
        };
        let onoff = |b: bool| if b { "on" } else { "off" };
        let mut d = format!(
            "order={},grow={g},ladder={},escape={}",
            self.max_order,
            onoff(self.ladder),
            onoff(self.escape)
        );
        if let Some(e) = self.escape_order {
            d.push_str(&format!(",eorder={e}"));
        }
        if !self.bound {
            d.push_str(",bound=off");
        }
        if self.zones {
            d.push_str(",zones=on");
        }
        if self.kawano {
            d.push_str(",kawano=on");
        }
        if self.dual {
            d.push_str(",dual=on");
        }
        d
    }

    /// The parameters of the search from `g`: `escape_order` as the
    /// highest order where the attacker plays every point.
    pub fn for_question(&self, g: &Capture) -> LambdaParams {
        let mut p = *self;
        if let Some(e) = self.escape_order {
            if g.complete() == Some(g.attacker()) {
                p.max_order = e;
            }
        }
        p
    }

    /// The unrestricted level.
    fn top(&self) -> u8 {
        self.max_order + 1
    }
}

/// `on`/`off` (or `true`/`false`, `1`/`0`) of option `k`.
pub(crate) fn on_off(k: &str, v: &str) -> Result<bool, String> {
    match v.trim() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(format!("{k}: '{v}' is not on or off")),
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

/// A node of the λ tree: the position, its kind and order, and (with
/// zones) the points where stones were captured on the path from the
/// search's root with their key.
#[derive(Clone, Copy)]
struct LNode {
    g: Capture,
    kind: Kind,
    vacated: Bits,
    vkey: u64,
}

impl LNode {
    #[inline]
    fn key(&self) -> u64 {
        self.g.key() ^ self.kind.salt() ^ self.vkey
    }

    /// The node after `m`; `zones`: keep the vacated points (without
    /// zones they stay empty, so the keys are plain λ-df-pn's).
    fn step(&self, m: LMove, top: u8, zones: bool) -> LNode {
        let mut next = *self;
        next.advance(m, top, zones);
        next
    }

    /// This node becomes the node after `m` ([`LNode::step`] in place: a
    /// node is some 250 bytes, copied once per move).
    fn advance(&mut self, m: LMove, top: u8, zones: bool) {
        let kind = self.kind;
        let next = self;
        match (kind, m) {
            (Kind::Split(_), LMove::Order(i)) => next.kind = Kind::Fixed(i, true),
            (Kind::Fixed(i, _), LMove::Play(mv)) | (Kind::And(i), LMove::Play(mv)) => {
                let captured = match kind {
                    // Below the unrestricted level the attacker has no
                    // pass: this one only asks what a pass would leave
                    // (zones), and the defender's pass after it is the
                    // threat check, not the end of the problem.
                    Kind::Fixed(i, _) if mv == Move::Pass && i != top => {
                        next.g.play_pseudo_pass();
                        Bits::EMPTY
                    }
                    _ => next.g.play_capturing(mv),
                };
                next.kind = match kind {
                    Kind::Fixed(..) => Kind::And(i),
                    _ => attacker_kind(if mv == Move::Pass && i != top {
                        i - 1
                    } else {
                        i
                    }),
                };
                if zones && !captured.is_empty() {
                    next.vacated |= captured;
                    next.vkey = crate::zone::vacated_key(&next.vacated);
                }
            }
            _ => panic!("λ tree: move {m:?} at {kind:?}"),
        }
    }
}

/// What a search with zones and its nested searches share.
struct ZoneState<'t> {
    tt: &'t Table,
    /// Nested visits left.
    budget: Cell<u64>,
    walk_left: Cell<u64>,
    memo: RefCell<HashMap<u64, (Bits, bool)>>,
    /// Pass positions whose nested search ended unknown.
    tried: RefCell<HashSet<u64>>,
    /// Nodes generated with a zone, moves kept and left out.
    counts: Cell<(u64, u64, u64)>,
    /// The search's stop flag (`Limits::stop`), which its nested
    /// searches read too: one node's zone may run many of them.
    stop: Option<Arc<AtomicBool>>,
    /// The key space of a search on a line, and of its nested searches
    /// ([`pns_core::dfpn::line_salt`] of the line; 0 without one), in
    /// which the walks read their entries.
    salt: u64,
}

impl ZoneState<'_> {
    /// Whether the table's base entry of `n` holds `claim` (proven or
    /// disproven).
    fn holds(&self, n: &LNode, claim: Status) -> bool {
        entry_holds(self.tt, n.key() ^ self.salt, claim)
    }
}

/// Whether `tt`'s base entry under `key` holds `claim` (proven or
/// disproven).
#[inline]
fn entry_holds(tt: &Table, key: u64, claim: Status) -> bool {
    tt.probe(key).is_some_and(|h| match claim {
        Status::Proven => h.pn == 0,
        _ => h.dn == 0,
    })
}

/// What a narrower question's value says of `g`'s own
/// ([`LambdaProblem::implied`]): with the attacker on every point its
/// escapes (disproofs) hold here, with the defender on every point its
/// captures (proofs); with neither, nothing.
#[inline]
fn carried_claim(g: &Capture) -> Option<Status> {
    match g.complete() {
        Some(c) if c == g.attacker() => Some(Status::Disproven),
        Some(_) => Some(Status::Proven),
        None => None,
    }
}

/// The token of [`LambdaProblem::implied_probe`]: the claim is a proof,
/// a second narrower generator is read, and where the question's sides
/// ([`Capture::sides_code`]) begin.
const IMPLIED_PROVEN: u64 = 1;
const IMPLIED_SECOND: u64 = 2;
const IMPLIED_SIDES_SHIFT: u32 = 2;

/// Nested searches' visits in all, as a multiple of the search's limit.
pub const ZONE_BUDGET_FACTOR: u64 = 4;
/// Visits of one nested search of a threat check.
const ZONE_NESTED_VISITS: u64 = 500;
/// Nested searches inside nested ones, at most this deep.
const ZONE_MAX_NESTING: u8 = 4;
/// A defender node is zoned only with more moves than this.
const ZONE_MIN_MOVES: usize = 6;
/// Node steps of one zone walk, and its depth.
const ZONE_WALK_STEPS: u64 = 100_000;
const ZONE_WALK_DEPTH: usize = 300;
/// Memoised zones (and tried pass positions) before the memo is cleared.
const ZONE_MEMO_MAX: usize = 1 << 17;
/// Keeps the memo's disproof zones apart from its proof zones.
const DISPROOF_MEMO_SALT: u64 = 0x6469_7370_726f_6f66;

/// What playing `m` reads ([`move_reads`]; nothing for an order or the
/// pass).
fn play_reads(b: &crate::board::Board, m: LMove) -> Bits {
    match m {
        LMove::Play(Move::Play(p)) => move_reads(b, p as usize),
        _ => Bits::EMPTY,
    }
}

/// What the generator read to make the defender's move `m` one of its
/// candidates ([`Capture::candidates`]), where it bounds the defender (a
/// disproof zone's reads at a defender node): beyond the target with its
/// liberties ([`crate::zone::target_reads`]) and `m` with its neighbours
/// ([`move_reads`], both in the zone already), nothing when `m` (under
/// H2, `m` or a neighbour) is a liberty of the target or next to one;
/// otherwise an attacker block next to the target, short of the
/// threshold, that has `m` (or that neighbour) among its liberties, with
/// its liberties and their neighbours. Another attacker stone off these
/// points keeps `m` a candidate: it fills no point read, so the target's
/// liberty stays a liberty, and it cannot join the block (its neighbours
/// are read), whose liberties therefore stay short of the threshold.
/// Only the refuting move needs to stay a candidate; reading what made
/// every candidate one (the target's second liberties and every block
/// next to it) kept some 12-15 attacker moves a node.
fn candidate_reads(g: &Capture, m: LMove) -> Bits {
    let b = g.board();
    let mask = b.mask();
    let LMove::Play(Move::Play(p)) = m else {
        // The pass is always a move.
        return Bits::EMPTY;
    };
    if g.generator() == Generator::Board || g.complete() == Some(b.to_move()) {
        return Bits::EMPTY;
    }
    let blk = g.target_block();
    let libs = g.target_libs();
    let at = Bits::single(p as usize);
    let reach = if g.generator() == Generator::H2 {
        at.dilate(mask)
    } else {
        at
    };
    if reach.intersects(&(libs | libs.adjacent(mask))) {
        return Bits::EMPTY;
    }
    let short = b.adjacent_blocks(&blk).find(|a| {
        let l = b.liberties(a);
        l.count() < g.escape_libs() && reach.intersects(&l)
    });
    match short {
        Some(a) => a.dilate(mask),
        // Not a candidate by the reading above (a retake pending): all
        // that the generator reads.
        None => {
            let mut z = libs.dilate(mask);
            for a in b.adjacent_blocks(&blk) {
                z |= a.dilate(mask);
            }
            z
        }
    }
}

/// "The attacker captures the target" as a λ tree.
pub struct LambdaProblem<'t> {
    stack: Vec<LNode>,
    params: LambdaParams,
    zones: Option<Rc<ZoneState<'t>>>,
    nesting: u8,
    nested: RefCell<Stats>,
    /// The history keys of the positions before the root, for a search on
    /// a line ([`search_on_line`]'s `prefix`, which its nested searches
    /// take too); empty otherwise. See [`LambdaProblem::on_line`].
    prefix: Rc<[u64]>,
    /// Whether the defender's nodes may be zoned: not on a line whose
    /// emptied points are not known ([`LambdaProblem::on_line`]).
    defender_zones: bool,
}

impl LambdaProblem<'static> {
    /// The question from `g` (either side to move), every level of orders
    /// open at the root.
    pub fn new(g: Capture, params: LambdaParams) -> Self {
        LambdaProblem::with_table(g, params, None, 0)
    }
}

impl<'t> LambdaProblem<'t> {
    /// As [`LambdaProblem::new`]; with `params.zones` and a table, the
    /// defender's nodes are zoned, nested searches spending at most
    /// `budget` visits in all.
    pub fn with_table(
        g: Capture,
        params: LambdaParams,
        tt: Option<&'t Table>,
        budget: u64,
    ) -> Self {
        // One order per question, so that a search and the reading back
        // of its move agree on the table's keys.
        let params = params.for_question(&g);
        let top = params.top();
        let kind = if g.board().to_move() == g.attacker() {
            attacker_kind(top)
        } else {
            Kind::And(top)
        };
        let mut stack = Vec::with_capacity(128);
        stack.push(LNode {
            g,
            kind,
            vacated: Bits::EMPTY,
            vkey: 0,
        });
        let zones = match tt {
            Some(tt) if params.zones => Some(Rc::new(ZoneState {
                tt,
                budget: Cell::new(budget),
                walk_left: Cell::new(ZONE_WALK_STEPS),
                memo: RefCell::new(HashMap::new()),
                tried: RefCell::new(HashSet::new()),
                counts: Cell::new((0, 0, 0)),
                stop: None,
                salt: 0,
            })),
            _ => None,
        };
        LambdaProblem {
            stack,
            params,
            zones,
            nesting: 0,
            nested: RefCell::new(Stats::default()),
            prefix: Rc::from([]),
            defender_zones: true,
        }
    }

    /// The search runs on a line: `prefix` holds the history keys of the
    /// positions before the root, and a repetition of one of them is the
    /// attacker's failure. `emptied`, where known: the points empty at the
    /// root that hold a stone in some position of the line.
    ///
    /// What cuts the defender's moves must see the line. A defender move
    /// that repeats a position of it wins at once, and a capture proven
    /// below a line was wrong that way (the test
    /// `lined_searches_agree_with_the_tree_method_on_the_line`): the
    /// ladder rule left out a defender move that made a position before
    /// the root again. So, on a line,
    ///
    /// * the ladder rule keeps the defender's moves that repeat a position
    ///   of the line (after any other move that does not lift the atari
    ///   the target is taken at once, and a position with the target taken
    ///   is on no line);
    /// * the nested searches of the zones run on the same line, so their
    ///   proofs and disproofs hold on it, and their entries, like the
    ///   search's own, are in the line's key space, where the walks and
    ///   the narrower questions' reads look;
    /// * the emptied points join the root's vacated points, which every
    ///   zone keeps: the zones' argument against repetitions (zone.rs,
    ///   "Repetition": a line after a move off the zone repeats a position
    ///   only if that position held a stone on the move's point, emptied
    ///   since) then covers the line's positions too. Without `emptied`
    ///   the defender's nodes get no zone. The attacker's zones stay: a
    ///   repetition is the attacker's failure, so the argument is needed
    ///   only where the defender's moves are cut.
    pub fn on_line(mut self, prefix: &[u64], emptied: Option<Bits>) -> Self {
        if prefix.is_empty() {
            return self;
        }
        self.prefix = Rc::from(prefix);
        self.defender_zones = emptied.is_some();
        if let Some(z) = self.zones.as_mut().and_then(Rc::get_mut) {
            z.salt = dfpn::line_salt(prefix);
        }
        if let (Some(e), true) = (emptied, self.zones.is_some()) {
            let root = self.stack.last_mut().expect("the root");
            root.vacated |= e;
            root.vkey = crate::zone::vacated_key(&root.vacated);
        }
        self
    }

    #[inline]
    fn cur(&self) -> &LNode {
        self.stack.last().expect("the root")
    }

    /// The capture position at the current node.
    pub fn position(&self) -> &Capture {
        &self.cur().g
    }

    /// Nodes generated with a zone (the complete side's), the moves they
    /// kept and the moves they left out (nested searches included).
    pub fn zone_counts(&self) -> (u64, u64, u64) {
        self.zones.as_ref().map_or((0, 0, 0), |z| z.counts.get())
    }

    /// The attacker's moves at order `order`: what the question allows, the
    /// pass only at the unrestricted level, the target's liberties only at
    /// order 1 under the ladder rule.
    fn attacker_moves(&self, g: &Capture, order: u8, out: &mut Vec<LMove>) {
        self.attacker_moves_reading(g, order, out, None);
    }

    /// [`Self::attacker_moves`]; returns whether they are all the moves
    /// the question allows (neither the liberty bound nor the escape rule
    /// cut any), and otherwise adds to `reads` what cutting them read (a
    /// disproof zone's reads: another attacker stone off them can only
    /// cut more).
    fn attacker_moves_reading(
        &self,
        g: &Capture,
        order: u8,
        out: &mut Vec<LMove>,
        mut reads: Option<&mut Bits>,
    ) -> bool {
        let top = self.params.top();
        let b = g.board();
        let bounded = self.params.bound || (order == 1 && self.params.ladder);
        if order != top && bounded {
            // The liberty bound (see the module's documentation): with
            // `order + 2` liberties or more nothing threatens; with
            // `order + 1` only a move on a liberty can.
            let libs = g.target_libs();
            let (n, i) = (libs.count() as u64, order as u64);
            if n > i {
                if let Some(r) = reads.as_deref_mut() {
                    *r |= crate::zone::target_reads(g);
                }
            }
            if n == i + 1 {
                let spoil = self.spoilers_reading(g, reads.as_deref_mut());
                for p in libs.iter() {
                    if let Some(r) = reads.as_deref_mut() {
                        *r |= move_reads(b, p);
                    }
                    if b.is_legal_point(p, true) && spoil.is_none_or(|s| s.get(p)) {
                        out.push(LMove::Play(Move::Play(p as u16)));
                    }
                }
                return false;
            }
            if n >= i + 2 {
                return false;
            }
        }
        let mut ms = Vec::new();
        g.search_moves(&mut ms);
        // The escape rule: only moves that stop every escape in one move
        // (the pass among them never does).
        let spoil = self.spoilers_reading(g, reads.as_deref_mut());
        if let (Some(s), Some(r)) = (spoil, reads) {
            *r |= crate::zone::target_reads(g);
            for p in s.iter() {
                *r |= move_reads(b, p);
            }
        }
        out.extend(
            ms.into_iter()
                .filter(|m| match (m, spoil) {
                    (Move::Pass, None) => order == top,
                    (Move::Pass, Some(_)) => false,
                    (Move::Play(p), s) => s.is_none_or(|s| s.get(*p as usize)),
                })
                .map(LMove::Play),
        );
        spoil.is_none()
    }

    /// The escape rule's kept attacker moves at `g`, when it is on and
    /// the defender has a one-move escape ([`escape::spoilers`]), adding
    /// what they read to `reads` ([`escape::spoilers_reading`]).
    fn spoilers_reading(&self, g: &Capture, reads: Option<&mut Bits>) -> Option<Bits> {
        self.params
            .escape
            .then(|| escape::spoilers_reading(g, reads))
            .flatten()
    }

    /// The defender's moves: what the question allows and the pass; under
    /// the ladder rule, with the target capturable at once, only the moves
    /// that can lift the atari.
    ///
    /// Returns whether the ladder rule cut them (zones then stay out).
    fn defender_moves(&self, n: &LNode, out: &mut Vec<LMove>) -> bool {
        let g = &n.g;
        let (ms, laddered) = match atari_lifts(g).filter(|_| self.params.ladder) {
            Some((lift, _)) => {
                let mut ms = lifted_moves(g, &lift);
                if !self.prefix.is_empty() {
                    // On a line, the moves that repeat one of its
                    // positions too (`on_line`). Such a move puts a stone
                    // where the position held one and the node has none:
                    // a point emptied since the line or captured since the
                    // root, so a vacated one where the vacated points are
                    // kept and seeded with the emptied ones (zones, and
                    // the emptied points given); else any move.
                    let only = (self.zones.is_some() && self.defender_zones).then_some(n.vacated);
                    let mut all = Vec::new();
                    if only.is_none_or(|v| !v.is_empty()) {
                        g.search_moves(&mut all);
                    }
                    for m in all {
                        let off = match (m, only) {
                            (Move::Play(p), Some(v)) => !v.get(p as usize),
                            _ => false,
                        };
                        if off || ms.contains(&m) {
                            continue;
                        }
                        let mut c = *g;
                        c.play_capturing(m);
                        if self.prefix.contains(&c.history_key()) {
                            ms.push(m);
                        }
                    }
                }
                (ms, true)
            }
            None => {
                let mut ms = Vec::new();
                g.search_moves(&mut ms);
                (ms, false)
            }
        };
        out.extend(ms.into_iter().map(LMove::Play));
        laddered
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

impl<'t> LambdaProblem<'t> {
    /// The value of `n` by the rules (the terminal cases and order 0).
    fn rule_status(&self, n: &LNode) -> Status {
        let g = &n.g;
        let attacker_to_move = g.board().to_move() == g.attacker();
        if let Some(o) = g.known_outcome() {
            return if (o == Outcome::Win) == attacker_to_move {
                Status::Proven
            } else {
                Status::Disproven
            };
        }
        // The escape rule: a defender that escapes at once. (An attacker
        // that cannot stop every such escape is left without moves.)
        if self.params.escape && !attacker_to_move && escape::escape_now(g).is_some() {
            return Status::Disproven;
        }
        match n.kind {
            // Order 0: capture in one move or nothing (and no such move,
            // or `known_outcome` would have said so).
            Kind::Fixed(0, _) | Kind::Split(0) => Status::Disproven,
            _ => Status::Unknown,
        }
    }

    /// Whether `n` has the value `claim` (proven or disproven), by the
    /// rules or the table's base entry.
    fn settled(&self, z: &ZoneState<'_>, n: &LNode, claim: Status) -> bool {
        match self.rule_status(n) {
            Status::Unknown => z.holds(n, claim),
            s => s == claim,
        }
    }

    /// The value of `n` that the table holds for the same node under a
    /// narrower generator. `capture::widen` asks a question again with
    /// the bounded side's generator widened (h1, h2, the board) on the
    /// same table, the generator in the keys. Each generator's points
    /// hold the narrower one's (h2 is h1 dilated), so with the attacker on
    /// every point a narrower escape is an escape here (the defender's
    /// moves are still there, the attacker's the same), and with the
    /// defender on every point a narrower capture is a capture here. The
    /// other way round nothing carries over. Only with zones (the table is
    /// then the search's). Returns the value and the narrower node.
    fn implied(&self, n: &LNode) -> Option<(LNode, Status)> {
        let z = self.zones.as_ref()?;
        let g = &n.g;
        let claim = carried_claim(g)?;
        g.generator().narrower().iter().find_map(|&gen| {
            let mut m = *n;
            m.g = m.g.with_generator(gen);
            z.holds(&m, claim).then_some((m, claim))
        })
    }

    /// [`Self::rule_status`], else what a narrower question settled
    /// ([`Self::implied`]): the value of a node when it is created.
    ///
    /// Not at the attacker's order nodes (`Fixed`): there the search went
    /// worse with it. On `reading 124` (`attack G3`) the widened search
    /// with both sides on every point stayed unknown at 300,000 visits,
    /// where it proves the capture in 11,000 without this reading. Each of
    /// the 442 values it read at 30,000 visits was right (every node
    /// searched again alone, on a fresh table, without reading), so the
    /// loss is in the course the search takes, not in what it knows; why
    /// was not found.
    ///
    /// A zone walk that meets a node a narrower question settles walks the
    /// narrower node in its place ([`Self::walk`], [`Self::walk_disproof`];
    /// at every kind of node), but `settled` does not count the value:
    /// with it, `trevor 671` (`defend G1`) went unknown at 300,000 visits,
    /// answered in 81,565 without (docs/experiments/lambda.md, "The
    /// widened questions read the narrower ones").
    fn status_implied(&self, n: &LNode) -> Status {
        match self.rule_status(n) {
            Status::Unknown if !matches!(n.kind, Kind::Fixed(..)) => {
                self.implied(n).map_or(Status::Unknown, |(_, s)| s)
            }
            s => s,
        }
    }

    /// What [`Self::status_implied`] reads of the table at `n` beyond
    /// [`Self::rule_status`], as the engine's shared probe: the same node
    /// under the first narrower generator (its key, prefetched by the
    /// expansion), and in the token the claim, whether a second narrower
    /// generator is read too (prefetched here) and the question's sides.
    /// An expansion creates some 250 children a node where one side plays
    /// every point, and reading each child's narrower entries at once
    /// stalled on a cache miss per child: a quarter of the time of the
    /// widened searches (`reading 130`).
    fn implied_probe(&self, n: &LNode) -> Option<SharedProbe> {
        let z = self.zones.as_ref()?;
        if matches!(n.kind, Kind::Fixed(..)) {
            return None;
        }
        let g = &n.g;
        let claim = match carried_claim(g)? {
            Status::Proven => IMPLIED_PROVEN,
            _ => 0,
        };
        let (&first, rest) = g.generator().narrower().split_first()?;
        let sides = g.sides_code();
        let key = n.key() ^ generator_delta(sides, g.generator(), first);
        debug_assert_eq!(key, {
            let mut m = *n;
            m.g = m.g.with_generator(first);
            m.key()
        });
        // (The line's key space: entries of searches on the same line.)
        let key = key ^ z.salt;
        let mut token = claim | sides << IMPLIED_SIDES_SHIFT;
        if let Some(&second) = rest.first() {
            debug_assert_eq!((first, second), (Generator::H1, Generator::H2));
            z.tt.prefetch(key ^ generator_delta(sides, first, second));
            token |= IMPLIED_SECOND;
        }
        Some(SharedProbe { key, token })
    }

    /// The zone of the pass position's `claim` at `n`: at the defender's
    /// node the threat check's proof (the attacker to move at the order
    /// below); at the attacker's node `Fixed(i)` the disproof of the
    /// defender's node `And(i)` after an attacker pass (at the top order
    /// its pass child; below it the node a pass would lead to, were it a
    /// move there). A nested search runs first when the table does not
    /// hold the claim.
    fn pass_zone(&self, n: &LNode, claim: Status) -> Option<(Bits, bool)> {
        let z = self.zones.as_ref()?;
        let c = n.step(LMove::Play(Move::Pass), self.params.top(), true);
        if !self.settle(&c, claim) {
            return None;
        }
        z.walk_left.set(ZONE_WALK_STEPS);
        // A pass that ends the problem at once (two passes) loops too: the
        // defender answers any other attacker move by passing.
        self.zone_looping(z, &c, 0, claim)
            .map(|(zone, l)| (zone, l || c.g.ended()))
    }

    /// Whether `c` has the value `claim` by the rules or the table, running
    /// a nested search there first when neither says (not where one ran
    /// before and ended otherwise, nor on the path, nor past the nesting
    /// limit or the budget).
    fn settle(&self, c: &LNode, claim: Status) -> bool {
        let Some(z) = self.zones.as_ref() else {
            return false;
        };
        if self.settled(z, c, claim) {
            return true;
        }
        let key = c.key();
        let left = z.budget.get();
        if self.rule_status(c) != Status::Unknown
            || left == 0
            || z.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            || self.nesting >= ZONE_MAX_NESTING
            || z.tried.borrow().contains(&key)
            || self.stack.iter().any(|s| s.key() == key)
        {
            return false;
        }
        let mut sub = LambdaProblem {
            stack: vec![*c],
            params: self.params,
            zones: Some(z.clone()),
            nesting: self.nesting + 1,
            nested: RefCell::new(Stats::default()),
            prefix: self.prefix.clone(),
            defender_zones: self.defender_zones,
        };
        let limits = Limits {
            visits: Some(ZONE_NESTED_VISITS.min(left)),
            stop: z.stop.clone(),
            ..Default::default()
        };
        let paths = PathOptions {
            prefix: &self.prefix,
            ..zone_paths()
        };
        let r = dfpn::search_with(&mut sub, LambdaPolicy, z.tt, &limits, &paths);
        z.budget.set(left.saturating_sub(r.stats.visits.max(1)));
        self.nested.borrow_mut().note_nested(&r.stats);
        if r.status != claim {
            let mut tried = z.tried.borrow_mut();
            if tried.len() >= ZONE_MEMO_MAX {
                tried.clear();
            }
            tried.insert(key);
            return false;
        }
        true
    }

    /// The moves the complete side keeps at its node `n` and what keeping
    /// them read: from the zone `z0` of the pass position's `claim`, and
    /// where that is the defender's pass at once (two passes end the
    /// problem: `looping`), closed under the disproofs of the kept moves
    /// and the legality of the moves on the zone ([`close_kept`]), so that
    /// no move left out changes the zone of the node's whole disproof
    /// ([`crate::zone`], "Two passes"). `walk`: `None` in the search,
    /// which runs nested searches for kept moves the table does not hold;
    /// in a walk its depth, the walk's own steps and depth bounding the
    /// reads.
    fn kept_closed(
        &self,
        z: &ZoneState<'_>,
        n: &LNode,
        z0: Bits,
        looping: bool,
        walk: Option<usize>,
        claim: Status,
    ) -> Option<(Vec<Move>, Bits)> {
        if !looping {
            let (kept, reads) = kept_moves(&n.g, &n.vacated, &z0);
            return Some((kept, z0 | reads));
        }
        let top = self.params.top();
        close_kept(&n.g, &n.vacated, z0, |m| {
            let c = n.step(LMove::Play(m), top, true);
            let ok = match walk {
                None => self.settle(&c, claim),
                Some(_) => self.settled(z, &c, claim),
            };
            if !ok {
                return None;
            }
            let depth = match walk {
                None => {
                    z.walk_left.set(ZONE_WALK_STEPS);
                    0
                }
                Some(d) => d + 1,
            };
            self.zone(z, &c, depth, claim)
        })
    }

    /// The zone of `n`'s proof ("the attacker captures") or disproof, as
    /// `claim` says, read back from the table; `None` when it cannot be
    /// read whole.
    fn zone(&self, z: &ZoneState<'_>, n: &LNode, depth: usize, claim: Status) -> Option<Bits> {
        self.zone_looping(z, n, depth, claim).map(|(zone, _)| zone)
    }

    /// [`Self::zone`], and whether the disproof read is, at the
    /// defender's node `n`, its pass ending the problem at once.
    fn zone_looping(
        &self,
        z: &ZoneState<'_>,
        n: &LNode,
        depth: usize,
        claim: Status,
    ) -> Option<(Bits, bool)> {
        let left = z.walk_left.get();
        if depth > ZONE_WALK_DEPTH || left == 0 {
            return None;
        }
        z.walk_left.set(left - 1);
        let key = n.key()
            ^ match claim {
                Status::Proven => 0,
                _ => DISPROOF_MEMO_SALT,
            };
        if let Some(zone) = z.memo.borrow().get(&key) {
            return Some(*zone);
        }
        let zone = match claim {
            Status::Proven => (self.walk(z, n, depth)?, false),
            _ => self.walk_disproof(z, n, depth)?,
        };
        let mut memo = z.memo.borrow_mut();
        if memo.len() >= ZONE_MEMO_MAX {
            memo.clear();
        }
        memo.insert(key, zone);
        Some(zone)
    }

    fn walk(&self, z: &ZoneState<'_>, n: &LNode, depth: usize) -> Option<Bits> {
        let g = &n.g;
        let proven = Status::Proven;
        let mut zone = crate::zone::target_reads(g);
        match self.rule_status(n) {
            Status::Proven => return Some(zone),
            Status::Disproven => return None,
            Status::Unknown => {}
        }
        // Settled by a narrower question: that proof's zone (a proof
        // there is one here with the same reads).
        if let Some((m, proven)) = self.implied(n) {
            return (proven == Status::Proven)
                .then(|| self.zone(z, &m, depth + 1, proven))
                .flatten();
        }
        match n.kind {
            Kind::Split(_) | Kind::Fixed(..) => {
                let mut ms = Vec::new();
                match n.kind {
                    Kind::Split(l) => self.node_orders(n, l, &mut ms),
                    Kind::Fixed(i, _) => self.attacker_moves(g, i, &mut ms),
                    Kind::And(_) => unreachable!(),
                }
                self.zone_of_one(z, n, ms, depth, proven, |_| Bits::EMPTY)
                    .map(|(c, _)| c | zone)
            }
            Kind::And(_) => {
                let kept: Vec<Move> = match atari_lifts(g).filter(|_| self.params.ladder) {
                    Some((lift, reads)) => {
                        zone |= reads;
                        lifted_moves(g, &lift)
                    }
                    None => {
                        let (ms, reads) = self.kept_by_pass(z, n, depth, proven)?;
                        zone |= reads;
                        ms
                    }
                };
                let kept = kept.into_iter().map(LMove::Play).collect();
                self.zone_of_all(z, n, kept, depth, proven, zone)
            }
        }
    }

    /// The zone of `n`'s disproof (the defender saves the target), in a
    /// search where the attacker plays every point: at the defender's
    /// nodes one refuting move and what made it a move there; at the
    /// attacker's nodes every order and every move, the moves as the
    /// liberty bound, the escape rule or the node's own pass zone left
    /// them (`None` where that pass zone is not there: the node's zone
    /// would be the board).
    fn walk_disproof(&self, z: &ZoneState<'_>, n: &LNode, depth: usize) -> Option<(Bits, bool)> {
        let g = &n.g;
        let top = self.params.top();
        let disproven = Status::Disproven;
        let mut zone = crate::zone::target_reads(g);
        match self.rule_status(n) {
            Status::Disproven => {
                // Escaped, order 0, or an escape at once (what it plays).
                if self.params.escape && g.outcome().is_none() {
                    if let Some(r) = escape::escape_now_reads(g) {
                        zone |= r;
                    }
                }
                return Some((zone, false));
            }
            Status::Proven => return None,
            Status::Unknown => {}
        }
        // Settled by a narrower question: that disproof's zone (an
        // attacker stone off it leaves the narrower disproof standing,
        // which is a disproof here).
        if let Some((m, disproven)) = self.implied(n) {
            return (disproven == Status::Disproven)
                .then(|| self.zone_looping(z, &m, depth + 1, disproven))
                .flatten();
        }
        // Below the unrestricted level, lost there: that node's zone.
        let below = match n.kind {
            Kind::Split(l) => l < top,
            Kind::Fixed(i, _) => i < top,
            Kind::And(_) => false,
        };
        if below {
            if let Some(s) = self.top_lost(n) {
                if let Some(c) = self.zone(z, &s, depth + 1, disproven) {
                    return Some((c | zone, false));
                }
            }
        }
        let mut ms = Vec::new();
        match n.kind {
            Kind::Split(l) => self.node_orders(n, l, &mut ms),
            Kind::Fixed(i, _) => {
                if self.attacker_moves_reading(g, i, &mut ms, Some(&mut zone)) {
                    // As the search cut: by the lower orders' zone where
                    // the table holds it, else by the pass zone.
                    let (kept, reads) = match self.lower_zone(z, n, Some(depth)) {
                        Some(lz) => {
                            let (kept, reads) = kept_moves(g, &n.vacated, &lz);
                            (kept, lz | reads)
                        }
                        None => self.kept_by_pass(z, n, depth, disproven)?,
                    };
                    zone |= reads;
                    ms.clear();
                    ms.extend(
                        kept.into_iter()
                            .filter(|m| *m != Move::Pass || i == top)
                            .map(LMove::Play),
                    );
                }
            }
            Kind::And(_) => {
                // What keeps the refutation a move. Where the ladder rule
                // cut, it is a lift of the atari: the target's liberty, or
                // the last liberty of an attacker block next to it, which
                // its own reads hold whole (`move_reads`); another
                // attacker stone keeps the target in atari (it only takes
                // liberties) and the lift a lift (other lifts may come or
                // go: one refutation is enough). And a candidate of the
                // generator.
                self.defender_moves(n, &mut ms);
                let top = self.params.top();
                return self
                    .zone_of_one(z, n, ms, depth, disproven, |m| candidate_reads(g, m))
                    .map(|(c, m)| {
                        let ends = m == LMove::Play(Move::Pass) && n.step(m, top, true).g.ended();
                        (c | zone, ends)
                    });
            }
        }
        self.zone_of_all(z, n, ms, depth, disproven, zone)
            .map(|zone| (zone, false))
    }

    /// Inside a walk, at a node of the complete side: the moves its pass
    /// child's `claim` zone keeps, and that zone with what keeping them
    /// read; `None` when the pass child is not settled or its zone does
    /// not read back.
    fn kept_by_pass(
        &self,
        z: &ZoneState<'_>,
        n: &LNode,
        depth: usize,
        claim: Status,
    ) -> Option<(Vec<Move>, Bits)> {
        let c = n.step(LMove::Play(Move::Pass), self.params.top(), true);
        if !self.settled(z, &c, claim) {
            return None;
        }
        let (z0, looping) = self.zone_looping(z, &c, depth + 1, claim)?;
        let looping = looping || c.g.ended();
        self.kept_closed(z, n, z0, looping, Some(depth), claim)
    }

    /// The zone of the first of `n`'s children by `ms` that has `claim` and
    /// reads back, with that move's reads and `why` it is a move there
    /// (where one child decides); `None` when none does.
    fn zone_of_one(
        &self,
        z: &ZoneState<'_>,
        n: &LNode,
        ms: Vec<LMove>,
        depth: usize,
        claim: Status,
        why: impl Fn(LMove) -> Bits,
    ) -> Option<(Bits, LMove)> {
        let (b, top) = (n.g.board(), self.params.top());
        ms.into_iter().find_map(|m| {
            let c = n.step(m, top, true);
            if !self.settled(z, &c, claim) {
                return None;
            }
            let cz = self.zone(z, &c, depth + 1, claim)?;
            Some((cz | play_reads(b, m) | why(m), m))
        })
    }

    /// `zone` with the zones of all of `n`'s children by `ms` and their
    /// moves' reads (where every child must have `claim`); `None` when one
    /// does not, or does not read back.
    fn zone_of_all(
        &self,
        z: &ZoneState<'_>,
        n: &LNode,
        ms: Vec<LMove>,
        depth: usize,
        claim: Status,
        mut zone: Bits,
    ) -> Option<Bits> {
        let (b, top) = (n.g.board(), self.params.top());
        for m in ms {
            let c = n.step(m, top, true);
            if !self.settled(z, &c, claim) {
                return None;
            }
            zone |= self.zone(z, &c, depth + 1, claim)? | play_reads(b, m);
        }
        Some(zone)
    }

    /// Where the side to move at `n` plays every point (the defender's
    /// nodes of a capture proof, `claim` proven; the attacker's of an
    /// escape proof, `claim` disproven): its moves, `out[start..]`, cut
    /// to those the zone of the pass position's `claim` leaves, with the
    /// pass child first (`pass`: it is settled already).
    fn cut_to_zone(
        &self,
        n: &LNode,
        out: &mut Vec<LMove>,
        start: usize,
        claim: Status,
        pass: bool,
    ) {
        let g = &n.g;
        let before = out.len() - start;
        if before <= ZONE_MIN_MOVES
            || self.zones.is_none()
            || g.complete() != Some(g.board().to_move())
            || (claim == Status::Proven && !self.defender_zones)
        {
            return;
        }
        let Some((z0, looping)) = self.pass_zone(n, claim) else {
            return;
        };
        let Some(z) = self.zones.as_ref() else {
            return;
        };
        let Some((kept, _)) = self.kept_closed(z, n, z0, looping, None, claim) else {
            return;
        };
        out.truncate(start);
        if pass {
            out.push(LMove::Play(Move::Pass));
        }
        out.extend(
            kept.into_iter()
                .filter(|m| *m != Move::Pass)
                .map(LMove::Play),
        );
        self.count_zoned(before, out.len() - start);
    }

    /// At the attacker's node `n` (playing every point) below the
    /// unrestricted level: its moves, `out[start..]`, cut to those that
    /// change the lower orders' disproof ([`Self::lower_zone`]). Returns
    /// whether it cut.
    fn cut_to_lower(&self, n: &LNode, out: &mut Vec<LMove>, start: usize) -> bool {
        let g = &n.g;
        let Some(z) = self.zones.as_ref() else {
            return false;
        };
        if out.len() - start <= ZONE_MIN_MOVES || g.complete() != Some(g.board().to_move()) {
            return false;
        }
        let Some(zone) = self.lower_zone(z, n, None) else {
            return false;
        };
        let (kept, _) = kept_moves(g, &n.vacated, &zone);
        let before = out.len() - start;
        keep_among(out, start, &kept);
        self.count_zoned(before, out.len() - start);
        true
    }

    /// Counts a node generated with a zone: `before` moves, `now` kept.
    fn count_zoned(&self, before: usize, now: usize) {
        if let Some(z) = &self.zones {
            let (nodes, k, p) = z.counts.get();
            let (before, now) = (before as u64, now as u64);
            z.counts
                .set((nodes + 1, k + now, p + before.saturating_sub(now)));
        }
    }

    /// The attacker's node of the unrestricted level on the position of
    /// `n`, an attacker's node below that level, when the table holds it
    /// disproven (path-independent, its base entry). A λⁱ win is a capture
    /// in Go (every defender node lists all the moves the question allows),
    /// so where the attacker cannot capture at all it has no win of any
    /// order: `n` is lost too, and its disproof's zone is that node's.
    /// Escape proofs gain most: every order of every attacker node must be
    /// disproven there, and the lower orders' zones fail the most often.
    fn top_lost(&self, n: &LNode) -> Option<LNode> {
        let z = self.zones.as_ref()?;
        let top = self.params.top();
        let below = match n.kind {
            Kind::Split(l) => l <= top,
            Kind::Fixed(i, _) => i < top,
            Kind::And(_) => false,
        };
        if !below {
            return None;
        }
        let s = LNode {
            kind: Kind::Fixed(top, true),
            ..*n
        };
        z.tt.probe(s.key() ^ z.salt)
            .filter(|h| h.dn == 0)
            .map(|_| s)
    }

    /// At the attacker's node `n = Fixed(i)` below the unrestricted level:
    /// the zone of the disproof of the lower orders `Fixed(1..i)` on the
    /// same position, where the table holds each disproven and its zone
    /// reads back (`walk`: as in [`Self::kept_closed`]). Thomsen's
    /// relevance for λⁱ (2000, §3): a λⁱ move must leave a λⁱ⁻¹ win after a
    /// defender pass, and an attacker move off this zone leaves the lower
    /// orders' disproof standing (an attacker stone off a disproof's zone
    /// takes no refutation away, see "Relevance zones"), so its defender
    /// node `And(i)` is refuted by the pass. The position after the move
    /// and the pass differs from `n`'s in that stone, two plies and the
    /// pass itself, so the cut holds only where none of those can count:
    /// no ko ban at `n` (the pass would lift it) and no horizon (the ply
    /// would change the threshold); below the top the attacker never
    /// passes, so the pass cannot end the problem.
    fn lower_zone(&self, z: &ZoneState<'_>, n: &LNode, walk: Option<usize>) -> Option<Bits> {
        let Kind::Fixed(i, _) = n.kind else {
            return None;
        };
        let g = &n.g;
        if i < 2
            || i >= self.params.top()
            || g.board().ko_point().is_some()
            || g.horizon().is_some()
        {
            return None;
        }
        let mut zone = Bits::EMPTY;
        for j in 1..i {
            let s = LNode {
                kind: Kind::Fixed(j, true),
                ..*n
            };
            if !self.settled(z, &s, Status::Disproven) {
                return None;
            }
            let depth = match walk {
                None => {
                    z.walk_left.set(ZONE_WALK_STEPS);
                    0
                }
                Some(d) => d + 1,
            };
            zone |= self.zone(z, &s, depth, Status::Disproven)?;
        }
        Some(zone)
    }

    /// The orders of the `Split(l)` node `n`: only the unrestricted level
    /// where [`Self::top_lost`] says that it is lost (none below that
    /// level).
    fn node_orders(&self, n: &LNode, l: u8, out: &mut Vec<LMove>) {
        if self.top_lost(n).is_some() {
            if l == self.params.top() {
                out.push(LMove::Order(l));
            }
            return;
        }
        self.orders(l, out)
    }

    /// The orders below a `Split(l)` node.
    fn orders(&self, l: u8, out: &mut Vec<LMove>) {
        for i in 1..=l.min(self.params.max_order) {
            out.push(LMove::Order(i));
        }
        if l == self.params.top() {
            out.push(LMove::Order(l));
        }
    }
}

/// Keeps, of `out[start..]`, the moves on the board that `kept` holds
/// (and the orders), in their order.
fn keep_among(out: &mut Vec<LMove>, start: usize, kept: &[Move]) {
    let tail: Vec<LMove> = out
        .drain(start..)
        .filter(|m| match m {
            LMove::Play(mv) => kept.contains(mv),
            LMove::Order(_) => true,
        })
        .collect();
    out.extend(tail);
}

/// The GHI treatment of searches with zones: NOCYCLE (path-independent
/// results in the base entries, which the zone walk reads; under DUP every
/// result is a twin).
fn zone_paths() -> PathOptions<'static> {
    PathOptions::default()
}

impl Problem for LambdaProblem<'_> {
    type Move = LMove;

    #[inline]
    fn is_or(&self) -> bool {
        !matches!(self.cur().kind, Kind::And(_))
    }

    fn evaluate(&self) -> Status {
        self.status_implied(self.cur())
    }

    /// The rules alone: what a narrower question settled is read by the
    /// shared probe (`implied_probe`).
    fn evaluate_child(&self) -> Status {
        self.rule_status(self.cur())
    }

    /// The narrower questions' entries are read as shared entries; none
    /// are stored (the narrower searches' own entries are what is read).
    const SHARES_SOLVED: bool = true;
    const STORES_SHARED: bool = false;

    /// Base entries of the narrower questions, in the key space the zone
    /// code reads (`space` is not applied: `implied` reads the same
    /// keys).
    fn shared_probe(&self, _space: u64) -> Option<SharedProbe> {
        self.implied_probe(self.cur())
    }

    /// `implied` for the probe's node: the claim where a narrower
    /// question's entry holds it.
    fn shared_lookup(tt: &Table, probe: SharedProbe) -> Status {
        let claim = if probe.token & IMPLIED_PROVEN != 0 {
            Status::Proven
        } else {
            Status::Disproven
        };
        if entry_holds(tt, probe.key, claim) {
            return claim;
        }
        if probe.token & IMPLIED_SECOND != 0 {
            let sides = probe.token >> IMPLIED_SIDES_SHIFT;
            let second = probe.key ^ generator_delta(sides, Generator::H1, Generator::H2);
            if entry_holds(tt, second, claim) {
                return claim;
            }
        }
        Status::Unknown
    }

    fn generate(&self, out: &mut Vec<LMove>) {
        let n = *self.cur();
        let g = &n.g;
        match n.kind {
            Kind::Split(l) => self.node_orders(&n, l, out),
            // Lost at the unrestricted level: no move of a lower order wins.
            Kind::Fixed(i, _) if i != self.params.top() && self.top_lost(&n).is_some() => {}
            Kind::Fixed(i, _) => {
                let start = out.len();
                // Zones cut only where neither the bound nor the escape
                // rule has cut already; the pass is a move at the top.
                if self.attacker_moves_reading(g, i, out, None) {
                    let pass = i == self.params.top();
                    // The lower orders' zone first: read off the table,
                    // it needs no nested search of the pass position.
                    if !self.cut_to_lower(&n, out, start) {
                        self.cut_to_zone(&n, out, start, Status::Disproven, pass);
                    }
                }
            }
            Kind::And(_) => {
                let start = out.len();
                // Zones cut only where the ladder rule has not cut
                // already; the pass child is the threat check.
                if !self.defender_moves(&n, out) {
                    self.cut_to_zone(&n, out, start, Status::Proven, true);
                }
            }
        }
    }

    fn play(&mut self, m: LMove) {
        let (top, zones) = (self.params.top(), self.zones.is_some());
        let n = *self.cur();
        self.stack.push(n);
        self.stack
            .last_mut()
            .expect("the node just pushed")
            .advance(m, top, zones);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.cur().key()
    }

    /// The distance initialisation of plain df-pn ([`Capture`]'s
    /// heuristic): orders differ by their edge costs.
    fn heuristic(&self) -> (Pn, Pn) {
        self.cur().g.distance()
    }

    /// The distance is one flood fill of the target: read as each child is
    /// played for its key, not by playing it again.
    const CHEAP_ESTIMATE: bool = true;

    fn edge_cost(&self, m: LMove) -> (i64, i64) {
        let top = self.params.top();
        match (self.cur().kind, m) {
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
        let n = self.cur();
        match n.kind {
            Kind::Fixed(_, true) => n.g.history_key() ^ PSEUDO_LINE_SALT,
            _ => n.g.history_key(),
        }
    }

    fn nested_stats(&mut self) -> Option<Stats> {
        Some(std::mem::take(self.nested.get_mut()))
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
///
/// With zones, nested searches may spend [`ZONE_BUDGET_FACTOR`] times
/// `visits` more, and the search runs under NOCYCLE (see `zone_paths`).
pub fn search(g: &Capture, params: &LambdaParams, visits: u64, tt: &Table) -> SearchResult {
    search_counted(g, params, visits, tt).0
}

/// [`search`] and its zone counters ([`LambdaProblem::zone_counts`]).
pub fn search_counted(
    g: &Capture,
    params: &LambdaParams,
    visits: u64,
    tt: &Table,
) -> (SearchResult, (u64, u64, u64)) {
    search_on_line(g, params, visits, tt, &[], None)
}

/// [`search_counted`] from `g` reached by a line: `prefix` holds the
/// history keys of the positions before it, oldest first, and a
/// repetition of one of them is the attacker's failure (a certificate's
/// sub-search below its root, `either::split_capture`'s searches).
/// `emptied`, where known: the points empty at `g` that hold a stone in
/// some position of the line; without it the defender's nodes are not
/// zoned ([`LambdaProblem::on_line`]).
pub fn search_on_line(
    g: &Capture,
    params: &LambdaParams,
    visits: u64,
    tt: &Table,
    prefix: &[u64],
    emptied: Option<Bits>,
) -> (SearchResult, (u64, u64, u64)) {
    let limits = Limits {
        visits: Some(visits),
        ..Default::default()
    };
    search_limited(g, params, &limits, tt, (prefix, emptied))
}

/// [`search_on_line`] within `limits` (its visits, and a stop flag set
/// from outside: `capture`'s two halves of a question at once), on the
/// line `(prefix, emptied)` (`(&[], None)`: none); the nested searches'
/// budget is [`ZONE_BUDGET_FACTOR`] times its visits.
pub fn search_limited(
    g: &Capture,
    params: &LambdaParams,
    limits: &Limits,
    tt: &Table,
    (prefix, emptied): (&[u64], Option<Bits>),
) -> (SearchResult, (u64, u64, u64)) {
    let visits = limits.visits.unwrap_or(u64::MAX);
    let budget = visits.saturating_mul(ZONE_BUDGET_FACTOR);
    let mut p = LambdaProblem::with_table(*g, *params, Some(tt), budget).on_line(prefix, emptied);
    if let Some(z) = p.zones.as_mut().and_then(Rc::get_mut) {
        z.stop.clone_from(&limits.stop);
    }
    let paths = PathOptions {
        prefix,
        ..if params.zones {
            zone_paths()
        } else {
            crate::capture::path_options()
        }
    };
    let r = if params.kawano || params.dual {
        let pol = Kawano::new(LambdaPolicy).with_dual(params.dual);
        dfpn::search_with(&mut p, pol, tt, limits, &paths)
    } else {
        dfpn::search_with(&mut p, LambdaPolicy, tt, limits, &paths)
    };
    let c = p.zone_counts();
    (r, c)
}

/// After a proof from `g` (the attacker to move) on `tt`: a first move
/// that captures. A move whose defender node the table holds proven (at
/// any order) is taken at once; otherwise (DUP keeps path-dependent
/// results apart from the base entry) each move is searched again from
/// its own defender node, the target's liberties first, by
/// `capture::read_back` (1/20 of the limit, then all of it).
pub fn proven_move(
    g: &Capture,
    params: &LambdaParams,
    visits: u64,
    tt: &Table,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<Move> {
    let all = match table_move(g, params, tt) {
        Ok(m) => return Some(m),
        Err(all) => all,
    };
    crate::capture::read_back(g, &all, visits, Status::Proven, |c, budget| {
        let limits = Limits {
            visits: Some(budget),
            stop: stop.cloned(),
            ..Default::default()
        };
        search_limited(c, params, &limits, tt, (&[], None)).0.status
    })
}

/// [`proven_move`] read from the table alone, no search: a move whose
/// defender node `tt` holds proven (a certificate's choice, right after
/// the search that proved `g`).
pub fn move_in_table(g: &Capture, params: &LambdaParams, tt: &Table) -> Option<Move> {
    table_move(g, params, tt).ok()
}

/// The move the table proves from `g`, or else every move read (in the
/// search's order), for [`proven_move`] to search.
fn table_move(g: &Capture, params: &LambdaParams, tt: &Table) -> Result<Move, Vec<Move>> {
    // With the table, so that the keys carry the vacated points as the
    // search's did (no nested search: no budget).
    let mut p = LambdaProblem::with_table(*g, *params, Some(tt), 0);
    let mut orders = Vec::new();
    if matches!(p.cur().kind, Kind::Split(_)) {
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
                    return Ok(mv);
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
    Err(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color};
    use crate::capture::Generator;
    use pns_core::rng::Rng;

    /// A random position on a `size` board, stones on about 4 points in
    /// 10, a random stone the target with threshold `libs`, the attacker
    /// to move; `None` where it is decided already.
    fn random_position(rng: &mut Rng, size: usize, libs: u32) -> Option<Capture> {
        let b = Board::random(rng, size, 2, 2);
        let stones: Vec<usize> = (b.stones(Color::Black) | b.stones(Color::White))
            .iter()
            .collect();
        let t = *stones.get(rng.below(stones.len().max(1) as u64) as usize)?;
        let g = Capture::new(b, t, libs, Generator::Board).ok()?;
        let g = g.with_first(g.attacker());
        g.outcome().is_none().then_some(g)
    }

    /// Whether the attacker to move at `g` has a chain of threats of order
    /// `k`: a move that captures, or after which (the defender passing) it
    /// has a chain of order `k − 1`; at order 0, a capture in one move.
    /// Every win of order `k` starts with such a chain (the threat checks
    /// along the passes), so without one there is no win of order `k`.
    fn threat_chain(g: &Capture, k: u8) -> bool {
        let mut ms = Vec::new();
        g.legal_moves(&mut ms);
        ms.into_iter().any(|m| {
            let mut c = *g;
            c.play(m);
            if c.captured() {
                return true;
            }
            if k == 0 || m == Move::Pass {
                return false;
            }
            c.play(Move::Pass);
            threat_chain(&c, k - 1)
        })
    }

    /// `lambda-zones` and `eorder`: parsed and written back, and the
    /// escape order taken only where the attacker plays every point.
    #[test]
    fn the_escape_order_applies_where_the_attacker_plays_every_point() {
        let z = LambdaParams::zoned();
        assert_eq!((z.max_order, z.escape_order, z.zones), (3, Some(2), true));
        // `describe` writes what `parse` reads.
        let back = LambdaParams::default().parse(&z.describe()).unwrap();
        assert_eq!(back, z);
        assert!(LambdaParams::default().parse("eorder=9").is_err());
        assert_eq!(
            crate::capture::Solver::parse("lambda-zones"),
            Ok(crate::capture::Solver::Lambda(z))
        );
        let mut rng = Rng::new(7);
        let g = loop {
            if let Some(g) = random_position(&mut rng, 5, 3) {
                break g;
            }
        };
        let on = |c| z.for_question(&g.with_complete(c)).max_order;
        assert_eq!(on(Some(g.attacker())), 2);
        assert_eq!(on(Some(g.defender())), 3);
        assert_eq!(on(None), 3);
        // Without an escape order, every question has the one order.
        let plain = LambdaParams::default().parse("order=4").unwrap();
        assert_eq!(
            plain
                .for_question(&g.with_complete(Some(g.attacker())))
                .max_order,
            4
        );
    }

    /// The liberty bound cuts only moves that are no threats of their
    /// order: after each move it cuts at order `i` (the defender passing)
    /// the attacker has no chain of threats of order `i − 1`, found by
    /// playing every move ([`threat_chain`]). Moves it keeps are moves
    /// the unbounded generator has.
    #[test]
    fn the_liberty_bound_cuts_only_moves_that_are_no_threats() {
        let mut rng = Rng::new(20261127);
        let base = LambdaParams::default()
            .parse("order=3,ladder=off,escape=off")
            .unwrap();
        let on = LambdaParams {
            bound: true,
            ..base
        };
        let off = LambdaParams {
            bound: false,
            ..base
        };
        let top = base.top();
        let (mut cut, mut kept, mut none) = ([0u32; 4], 0, 0);
        for i in 0..300 {
            let Some(g) = random_position(&mut rng, 5 + i % 2, 4 + (i % 3) as u32 / 2) else {
                continue;
            };
            let (p_on, p_off) = (LambdaProblem::new(g, on), LambdaProblem::new(g, off));
            for order in 1..top {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                p_on.attacker_moves(&g, order, &mut a);
                p_off.attacker_moves(&g, order, &mut b);
                assert!(a.iter().all(|m| b.contains(m)), "{}", g.render());
                kept += a.len();
                none += usize::from(a.is_empty() && !b.is_empty());
                for m in b.into_iter().filter(|m| !a.contains(m)) {
                    let LMove::Play(mv) = m else {
                        panic!("{m:?} at order {order}");
                    };
                    let mut c = g;
                    c.play(mv);
                    assert!(!c.captured(), "order {order}, {mv:?}\n{}", g.render());
                    c.play(Move::Pass);
                    assert!(
                        !threat_chain(&c, order - 1),
                        "order {order}, {mv:?}\n{}",
                        g.render()
                    );
                    cut[order as usize] += 1;
                }
            }
        }
        assert!(cut[1] > 500 && cut[2] > 500 && cut[3] > 100, "{cut:?}");
        assert!(kept > 200 && none > 50, "{kept} kept, {none} emptied");
    }

    /// λ-df-pn with zones, and the same without them: the search the
    /// zone tests check each cut move with.
    fn zoned_and_plain() -> (LambdaParams, LambdaParams) {
        let params = LambdaParams::default().parse("zones=on").unwrap();
        let plain = LambdaParams {
            zones: false,
            ..params
        };
        (params, plain)
    }

    /// λ-df-pn without zones from node `c` (a cut move's child), with its
    /// own table and no points vacated: what the zone tests check a cut
    /// against.
    fn unzoned(c: LNode, plain: LambdaParams) -> SearchResult {
        let mut sub = LambdaProblem::new(c.g, plain);
        sub.stack = vec![LNode {
            vacated: Bits::EMPTY,
            vkey: 0,
            ..c
        }];
        let limits = Limits {
            visits: Some(100_000),
            ..Default::default()
        };
        dfpn::search_with(
            &mut sub,
            LambdaPolicy,
            &Table::with_mb(4),
            &limits,
            &crate::capture::path_options(),
        )
    }

    /// What [`candidate_reads`] and [`move_reads`] claim, checked point by
    /// point: on random boards with the defender bounded by H1 or H2, for
    /// each of its candidate moves `m` and each attacker stone that can be
    /// added off the target's reads, `m`'s reads and its candidate reads
    /// (and capturing no block that meets them, as `zone::kept_moves`
    /// keeps such captures), `m` is still a legal candidate and captures
    /// the same stones; with the target in atari, a lift `m` of the ladder
    /// rule ([`atari_lifts`]) is still one, its reads being the same.
    #[test]
    fn a_stone_off_the_reads_keeps_a_candidate() {
        let mut rng = Rng::new(20261128);
        let (mut checked, mut by_block, mut lifts) = (0u32, 0u32, 0u32);
        for i in 0..400 {
            let b = Board::random(&mut rng, 7 + i % 3, 2, 2);
            let stones: Vec<usize> = (b.stones(Color::Black) | b.stones(Color::White))
                .iter()
                .collect();
            let Some(&t) = stones.get(rng.below(stones.len().max(1) as u64) as usize) else {
                continue;
            };
            let gen = [Generator::H1, Generator::H2][i % 2];
            let Ok(g) = Capture::new(b, t, 5, gen) else {
                continue;
            };
            let g = g.with_first(g.defender());
            if g.outcome().is_some() {
                continue;
            }
            let b = g.board();
            let near = {
                let libs = g.target_libs();
                libs | libs.adjacent(b.mask())
            };
            for m in g.candidates().iter() {
                if !b.is_legal_point(m, true) {
                    continue;
                }
                let mv = LMove::Play(Move::Play(m as u16));
                let lifted = atari_lifts(&g).is_some_and(|(l, _)| l.get(m));
                lifts += u32::from(lifted);
                let reads =
                    crate::zone::target_reads(&g) | move_reads(b, m) | candidate_reads(&g, mv);
                let mut played = *b;
                let taken = played.play(Move::Play(m as u16), true).unwrap();
                by_block += u32::from(!near.get(m));
                for q in (b.empty().minus(&reads)).iter() {
                    let mut h = g.with_first(g.attacker());
                    if !h.board().is_legal_point(q, true) {
                        continue;
                    }
                    // A capture of a block that meets the zone is kept
                    // (`zone::kept_moves`), never cut.
                    let mut hq = *h.board();
                    let freed = hq.play(Move::Play(q as u16), true).unwrap();
                    h.play(Move::Play(q as u16));
                    if h.captured() || freed.intersects(&reads) {
                        continue;
                    }
                    let hb = *h.board();
                    if lifted {
                        assert!(
                            atari_lifts(&h).is_none_or(|(l, _)| l.get(m)),
                            "{} lost as a lift after {}\n{}",
                            b.vertex(m),
                            b.vertex(q),
                            g.render()
                        );
                    }
                    assert!(
                        h.candidates().get(m) && hb.is_legal_point(m, true),
                        "{} lost as a candidate after {}\n{}",
                        b.vertex(m),
                        b.vertex(q),
                        g.render()
                    );
                    let mut after = hb;
                    let taken_after = after.play(Move::Play(m as u16), true).unwrap();
                    assert_eq!(taken_after, taken, "{} after {}", b.vertex(m), b.vertex(q));
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 20_000 && by_block > 100 && lifts > 20,
            "{checked} checked, {by_block} by a block, {lifts} lifts"
        );
    }

    /// The defender's zones cut only moves that lose (the capture half's
    /// mirror of the test below): at the defender's first node `And(i)`
    /// of random open positions where the defender plays every point,
    /// with every order open and after the attacker's first move at a
    /// lower order, each move the zone of the threat check leaves out is
    /// searched from its attacker node by λ-df-pn without zones, and none
    /// is a save.
    #[test]
    fn defender_zones_cut_only_losing_moves() {
        let mut rng = Rng::new(20261128);
        let (params, plain) = zoned_and_plain();
        let top = params.top();
        let (mut zoned, mut cut, mut proven) = (0, 0, 0);
        for i in 0..500 {
            let size = 6 + i % 4;
            let Some(g) = random_position(&mut rng, size, 3 + (i % 3) as u32) else {
                continue;
            };
            let g = g.with_complete(Some(g.defender()));
            let tt = Table::with_mb(8);
            // The defender first at the top order; or the attacker's first
            // liberty move at the order below, then the defender.
            let mut roots = vec![(g.with_first(g.defender()), None)];
            if let Some(l) = g.target_libs().first() {
                roots.push((g, Some((top - 1, LMove::Play(Move::Play(l as u16))))));
            }
            for (root, first) in roots {
                let mut p = LambdaProblem::with_table(root, params, Some(&tt), 20_000);
                if let Some((order, m)) = first {
                    p.play(LMove::Order(order));
                    let mut ms = Vec::new();
                    p.generate(&mut ms);
                    if !ms.contains(&m) {
                        continue;
                    }
                    p.play(m);
                }
                let from = *p.cur();
                if !matches!(from.kind, Kind::And(_)) || p.rule_status(&from) != Status::Unknown {
                    continue;
                }
                let (mut all, mut kept) = (Vec::new(), Vec::new());
                p.defender_moves(&from, &mut all);
                p.generate(&mut kept);
                if kept.len() == all.len() {
                    continue;
                }
                zoned += 1;
                for m in all.into_iter().filter(|m| !kept.contains(m)) {
                    let r = unzoned(from.step(m, top, false), plain);
                    assert_ne!(
                        r.status,
                        Status::Disproven,
                        "cut {m:?} at {:?}\n{}",
                        from.kind,
                        from.g.render()
                    );
                    proven += usize::from(r.status == Status::Proven);
                    cut += 1;
                }
            }
        }
        eprintln!("defender zones: {zoned} nodes zoned, {cut} moves cut, {proven} proven");
        assert!(zoned > 40 && cut > 500, "{zoned} zoned, {cut} cut");
        assert!(proven * 10 >= cut * 9, "{proven} of {cut} proven");
    }

    /// What [`LambdaProblem::top_lost`] rests on: on random positions,
    /// the attacker playing every point or bounded, where the unrestricted
    /// level is disproven (searched with zones, on the table the shortcut
    /// reads), no lower order is proven by λ-df-pn without zones; and with
    /// the shortcut the lower orders are disproven at once, without a
    /// visit of their own moves.
    #[test]
    fn a_position_lost_at_the_top_is_lost_at_every_order() {
        let mut rng = Rng::new(20261131);
        let (params, plain) = zoned_and_plain();
        let top = params.top();
        let (mut lost, mut checked) = (0, 0);
        for i in 0..800 {
            let size = 5 + i % 3;
            let Some(g) = random_position(&mut rng, size, 3 + (i % 3) as u32) else {
                continue;
            };
            let gen = [Generator::Board, Generator::H1, Generator::H2][i % 3];
            let complete = [Some(g.attacker()), Some(g.defender())][i / 3 % 2];
            let g = g.with_complete(complete).with_generator(gen);
            let tt = Table::with_mb(8);
            let p = LambdaProblem::with_table(g, params, Some(&tt), 20_000);
            let root = *p.cur();
            let at_top = LNode {
                kind: Kind::Fixed(top, true),
                ..root
            };
            // (Lost by the rules alone, the lower orders are too; a loss
            // that depends on the path is no base entry.)
            if p.rule_status(&at_top) != Status::Unknown
                || !p.settle(&at_top, Status::Disproven)
                || tt.probe(at_top.key()).is_none_or(|h| h.dn != 0)
            {
                continue;
            }
            lost += 1;
            for order in 1..top {
                let below = LNode {
                    kind: Kind::Fixed(order, true),
                    ..root
                };
                assert!(p.top_lost(&below).is_some(), "order {order}");
                let r = unzoned(below, plain);
                assert_ne!(r.status, Status::Proven, "order {order}\n{}", g.render());
                checked += 1;
                // The search's own node: no moves, so lost at once.
                let mut q = LambdaProblem::with_table(g, params, Some(&tt), 0);
                q.stack = vec![below];
                let mut ms = Vec::new();
                q.generate(&mut ms);
                assert!(ms.is_empty(), "order {order}: {ms:?}");
            }
        }
        eprintln!("lost at the top: {lost} positions, {checked} lower orders checked");
        assert!(lost > 80, "{lost} positions lost at the top");
    }

    /// The narrower questions' entries read through the engine's shared
    /// probe ([`LambdaProblem::implied_probe`], what an expansion asks of
    /// each child it creates) say what [`LambdaProblem::implied`] says:
    /// on random positions, after searches with h1 (and h2) on one table,
    /// every node three plies deep under h2 and the board, either side
    /// complete, gets the same value both ways, and some get it from a
    /// narrower question (else nothing was compared).
    #[test]
    fn the_shared_probe_reads_what_the_narrower_questions_settled() {
        let mut rng = Rng::new(20261201);
        let params = LambdaParams::default().parse("zones=on").unwrap();
        let (mut compared, mut read) = (0, 0);
        for i in 0..60 {
            let Some(g) = random_position(&mut rng, 5 + i % 2, 3 + (i % 2) as u32) else {
                continue;
            };
            let complete = [g.attacker(), g.defender()][i % 2];
            let g = g.with_complete(Some(complete));
            let tt = Table::with_mb(8);
            let limits = Limits {
                visits: Some(2_000),
                ..Default::default()
            };
            for gen in Generator::ALL {
                let w = g.with_generator(gen);
                if gen != Generator::H1 {
                    let mut p = LambdaProblem::with_table(w, params, Some(&tt), 0);
                    let (c, r) = compare_reads(&mut p, &tt, 3);
                    compared += c;
                    read += r;
                }
                search_limited(&w, &params, &limits, &tt, (&[], None));
            }
        }
        eprintln!("{compared} nodes compared, {read} read from a narrower question");
        assert!(compared > 1_000, "{compared} nodes compared");
        assert!(read > 0, "no node was read from a narrower question");
    }

    /// [`the_shared_probe_reads_what_the_narrower_questions_settled`]'s
    /// walk: `p`'s node and those below it, `depth` plies deep; returns
    /// the nodes compared and those the probe settled.
    fn compare_reads(p: &mut LambdaProblem<'_>, tt: &Table, depth: u32) -> (u64, u64) {
        let whole = p.evaluate();
        let mut by_probe = p.evaluate_child();
        let mut read = 0;
        if by_probe == Status::Unknown {
            by_probe = p.shared_status(tt, 0);
            read += u64::from(by_probe.is_solved());
        }
        assert_eq!(
            whole,
            by_probe,
            "{:?}\n{}",
            p.cur().kind,
            p.cur().g.render()
        );
        let mut compared = 1;
        if whole == Status::Unknown && depth > 0 {
            let mut ms = Vec::new();
            p.generate(&mut ms);
            for m in ms {
                p.play(m);
                let (c, r) = compare_reads(p, tt, depth - 1);
                p.undo();
                compared += c;
                read += r;
            }
        }
        (compared, read)
    }

    /// Thomsen's relevance at `Fixed(2)` ([`LambdaProblem::lower_zone`]):
    /// on random positions whose target has two liberties, the attacker
    /// playing every point and `Fixed(1)` disproven first, the moves off
    /// the zone of that disproof are no λ² moves. Each cut move's defender
    /// node `And(2)` is searched without zones and must not be proven.
    #[test]
    fn lower_order_zones_cut_only_losing_moves() {
        let mut rng = Rng::new(20261130);
        let (params, plain) = zoned_and_plain();
        let top = params.top();
        let (mut zoned, mut cut, mut disproven) = (0, 0, 0);
        for i in 0..3000 {
            let size = 5 + i % 4;
            let Some(g) = random_position(&mut rng, size, 3 + (i % 3) as u32) else {
                continue;
            };
            // With three liberties or more the liberty bound cuts first.
            if g.target_libs().count() != 2 {
                continue;
            }
            let gen = [Generator::Board, Generator::H1, Generator::H2][i / 4 % 3];
            let g = g.with_complete(Some(g.attacker())).with_generator(gen);
            let tt = Table::with_mb(8);
            let mut p = LambdaProblem::with_table(g, params, Some(&tt), 20_000);
            p.play(LMove::Order(2));
            let at = *p.cur();
            let below = LNode {
                kind: Kind::Fixed(1, true),
                ..at
            };
            let z = p.zones.clone().unwrap();
            if !p.settle(&below, Status::Disproven) {
                continue;
            }
            let Some(zone) = p.lower_zone(&z, &at, None) else {
                continue;
            };
            let (kept, _) = kept_moves(&g, &at.vacated, &zone);
            let mut all = Vec::new();
            if !p.attacker_moves_reading(&g, 2, &mut all, None) {
                continue;
            }
            let off: Vec<LMove> = all
                .into_iter()
                .filter(|m| matches!(m, LMove::Play(mv) if !kept.contains(mv)))
                .collect();
            if off.is_empty() {
                continue;
            }
            zoned += 1;
            for m in off {
                let r = unzoned(at.step(m, top, false), plain);
                assert_ne!(r.status, Status::Proven, "cut {m:?}\n{}", g.render());
                disproven += usize::from(r.status == Status::Disproven);
                cut += 1;
            }
        }
        eprintln!("lower-order zones: {zoned} nodes, {cut} moves cut, {disproven} disproven");
        assert!(zoned > 40 && cut > 500, "{zoned} zoned, {cut} cut");
        assert!(disproven * 10 >= cut * 9, "{disproven} of {cut} disproven");
    }

    /// The attacker's zones cut only moves that lose: at `Fixed(i)` of
    /// random open positions where the attacker plays every point, each
    /// move the zone leaves out is searched from its defender node by
    /// λ-df-pn without zones (itself checked against the tree method in
    /// `tests/capture.rs`), and none is a win for the attacker.
    #[test]
    fn attacker_zones_cut_only_losing_moves() {
        let mut rng = Rng::new(20261129);
        let (params, plain) = zoned_and_plain();
        let top = params.top();
        let (mut zoned, mut cut, mut disproven) = (0, 0, 0);
        for i in 0..1000 {
            let size = 6 + i % 4;
            let Some(g) = random_position(&mut rng, size, 3 + (i % 3) as u32) else {
                continue;
            };
            // The defender bounded by each generator in turn: what makes
            // a refutation one of its moves is read too.
            let gen = [Generator::Board, Generator::H1, Generator::H2][i / 4 % 3];
            let g = g.with_complete(Some(g.attacker())).with_generator(gen);
            let tt = Table::with_mb(8);
            for order in [top, top - 1] {
                let mut p = LambdaProblem::with_table(g, params, Some(&tt), 20_000);
                p.play(LMove::Order(order));
                let (mut all, mut kept) = (Vec::new(), Vec::new());
                p.attacker_moves(&g, order, &mut all);
                p.generate(&mut kept);
                if kept.len() == all.len() {
                    continue;
                }
                zoned += 1;
                let from = *p.cur();
                for m in all.into_iter().filter(|m| !kept.contains(m)) {
                    let r = unzoned(from.step(m, top, false), plain);
                    assert_ne!(
                        r.status,
                        Status::Proven,
                        "order {order}, cut {m:?}\n{}",
                        g.render()
                    );
                    disproven += usize::from(r.status == Status::Disproven);
                    cut += 1;
                }
            }
        }
        eprintln!("attacker zones: {zoned} nodes zoned, {cut} moves cut, {disproven} disproven");
        assert!(zoned > 40 && cut > 500, "{zoned} zoned, {cut} cut");
        assert!(disproven * 10 >= cut * 9, "{disproven} of {cut} disproven");
    }
}
