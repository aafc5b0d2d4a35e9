//! Classical λ-search (Thomsen, "Lambda-search in game trees — with
//! application to Go", ICGA Journal 23(4), 2000) on capturing problems, run
//! on the engine's df-pn: one df-pn search per λ order, strictly one order
//! after another, with the attacker's moves filtered by nested threat
//! searches when they are generated.
//!
//! This is the search the λ-df-pn paper (Yoshizoe, Kishimoto and Müller,
//! IJCAI 2007) compares against: §2 gives Thomsen's definitions and the
//! dominance relations between orders, §4 says the paper ran "pseudo
//! λ-search" (λ-df-pn with an initialisation that grows so fast that the
//! orders are searched in increasing order) instead of Thomsen's own
//! alpha-beta search. Here the orders are separate df-pn searches, and a
//! λ move is established by a search run to completion, as in Thomsen's
//! method; λ-df-pn ([`crate::lambda`]) does both inside one df-pn tree
//! instead (pseudo nodes per order, the threat check as the defender's
//! pass child), which is the difference the paper's §3 argues for.
//!
//! # Definitions (Thomsen 2000; the λ-df-pn paper §2)
//!
//! * A λ⁰ win: the attacker captures the target in one move (the rules
//!   decide it: [`Capture::known_outcome`]).
//! * An attacker move is a λⁿ move if, after it and a defender pass, the
//!   attacker has a λⁿ⁻¹ win. Lower-order moves count as λⁿ moves too
//!   (a λⁱ⁻¹ win is a λⁿ⁻¹ win for i ≤ n, by induction from order 0), as in
//!   Thomsen's definition ("a λⁱ tree with value 1, 0 ≤ i ≤ n − 1").
//! * A λⁿ tree: at attacker nodes only λⁿ moves (never the pass); at
//!   defender nodes every move the question allows and the pass.
//! * λ-search searches the λ¹ tree, then the λ² tree, ... up to
//!   [`ThomsenParams::max_order`]; the first order with a win proves the
//!   capture. A λⁿ loss only says that no win of order ≤ n exists, so a
//!   disproof comes from an *unrestricted* search afterwards: df-pn's plain
//!   capturing tree (every attacker move the question allows, the pass
//!   included), the only search here whose disproof is a claim.
//!
//! # Choices, and why
//!
//! * *The threat check* of an attacker move m at order n is a nested df-pn
//!   search of the λⁿ⁻¹ tree of the position after m and a pass, on the
//!   same table, run until it is solved or the whole budget is spent. Its
//!   entries live in the key space of order n − 1 (a salt per order and
//!   node kind is XORed into every key, as [`crate::lambda`] salts its
//!   kinds), so the λⁿ⁻¹ nodes of every search share one space and a check
//!   asked twice is answered by the table; the answers are memoised too, so
//!   that the many re-visits of a df-pn node do not ask them again. Order 0
//!   needs no search (the rules decide), nor does order 1 with the ladder
//!   rule when the target has three liberties or more.
//! * *Defender moves.* Thomsen's λⁿ trees leave out the defender moves after
//!   which the attacker has a win of a lower order. Here they are kept: a
//!   proof must cover every defender move the question allows anyway, and
//!   such a move is refuted inside the λⁿ tree, because λⁱ moves are λⁿ
//!   moves for i < n. The value of the tree is the same, with no search per
//!   defender move to find them.
//! * *The defender's pass* at a node reached by a λⁿ move leads to the λⁿ⁻¹
//!   tree of that position (its root is the threat check's), not back to
//!   the λⁿ tree: the threat check proved that tree already, and a λⁿ⁻¹
//!   proof is a λⁿ proof, so the value is Thomsen's. It is searched in the
//!   tree, not taken from the check: the check ran without the path, and a
//!   repetition with the path (a loss for the attacker) is the outer
//!   search's to see (capturing searches run under DUP, see
//!   [`crate::capture::path_options`]).
//! * *The ladder rule* ([`ThomsenParams::ladder`], as in [`crate::lambda`]):
//!   at order 1 the attacker plays only the target's two liberties (no move
//!   with three or more), and a defender whose target is in atari plays only
//!   the moves that can lift it, and the pass (every other move loses the
//!   target at once: exact, at every order).
//! * *One budget*: one visit limit for the whole λ-search, every order, every
//!   nested threat check and the unrestricted search, so that it compares
//!   with the other solvers at the same `--nodes`. Visits are counted as
//!   they happen (one per node expansion, as df-pn counts them); each search
//!   gets what is left, and once it is spent a stop flag ends the searches
//!   still running at the engine's next look at its limits (a few hundred
//!   visits at most; the visits reported count them all).
//!
//! # Soundness
//!
//! Every defender node of every tree lists every defender move the question
//! allows ([`Capture::with_complete`]) and the pass (the ladder rule drops
//! only moves after which the target is captured at once), so a proof of
//! any order is a capture in Go. The attacker's moves only shrink by the
//! threat checks, which can make an order fail, never a proof wrong; a
//! check cut short by the budget keeps its move (the tree is then larger
//! than λⁿ, so nothing is disproven on an unfinished check). A disproof is
//! claimed only from the unrestricted search, with the attacker's moves as
//! the question allows them. [`crate::capture::attack_with`] and
//! `defend_with` then make the same claims as with plain df-pn.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pns_core::dfpn::{self, Plain};
use pns_core::numbers::Pn;
use pns_core::prelude::*;
use pns_core::{Limits, Outcome, Problem, Repetition, SearchResult, Stats, Status, Table};

use crate::board::Move;
use crate::capture::{Capture, Effort};
use crate::zone::{atari_lifts, lifted_moves};

/// The parameters of classical λ-search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThomsenParams {
    /// The highest λ order searched before the unrestricted search (0: the
    /// unrestricted search alone, plain df-pn's tree with the ladder rule's
    /// defender cut).
    pub max_order: u8,
    /// The λ¹ ladder rule (see the module's documentation).
    pub ladder: bool,
}

impl Default for ThomsenParams {
    /// Orders 1 and 2, the ladder rule on: λ-df-pn's defaults
    /// ([`crate::lambda::LambdaParams`]), for a like-for-like comparison.
    fn default() -> Self {
        ThomsenParams {
            max_order: 2,
            ladder: true,
        }
    }
}

impl ThomsenParams {
    /// `order=N,ladder=on|off`, each optional, over `self`.
    pub fn parse(mut self, s: &str) -> Result<Self, String> {
        for kv in s.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("'{kv}' is not name=value"))?;
            match k {
                "order" => {
                    let n = v
                        .parse::<u8>()
                        .map_err(|_| format!("order: '{v}' is not a number"))?;
                    if n > 8 {
                        return Err("order: at most 8".into());
                    }
                    self.max_order = n;
                }
                "ladder" => self.ladder = crate::lambda::on_off(k, v)?,
                _ => return Err(format!("unknown option '{k}' (order, ladder)")),
            }
        }
        Ok(self)
    }

    /// `order=N,ladder=on|off`, the form `parse` reads.
    pub fn describe(&self) -> String {
        format!(
            "order={},ladder={}",
            self.max_order,
            if self.ladder { "on" } else { "off" }
        )
    }

    /// The unrestricted level's number (above every λ order).
    fn top(&self) -> u8 {
        self.max_order + 1
    }
}

/// A node's kind and order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The attacker to move in the tree of this order.
    Att(u8),
    /// The defender to move after an attacker move of this order (the
    /// move passed its threat check: the pass leads to the order below).
    Def(u8),
    /// The defender to move at the root of a search (no threat made: the
    /// pass stays in this order).
    Root(u8),
}

/// Keeps every entry of λ-search apart from other searches' on one table.
const THOMSEN_SALT: u64 = 0x7468_6f6d_7365_6e00;

/// Memoised threat checks before the memo is cleared.
const MEMO_MAX: usize = 1 << 17;

impl Kind {
    /// The key salt of the kind at `top` (the unrestricted level has codes
    /// of its own, so that order n of one `max_order` never meets the
    /// unrestricted level of another on a shared table).
    fn salt(self, top: u8) -> u64 {
        let o = |l: u8| if l == top { 0xff } else { l as u64 };
        let code = match self {
            Kind::Att(l) => 0x100 | o(l),
            Kind::Def(l) => 0x200 | o(l),
            Kind::Root(l) => 0x300 | o(l),
        };
        pns_core::rng::splitmix64(THOMSEN_SALT ^ code)
    }
}

#[derive(Clone, Copy)]
struct TNode {
    g: Capture,
    kind: Kind,
}

impl TNode {
    fn key(&self, top: u8) -> u64 {
        self.g.key() ^ self.kind.salt(top)
    }

    /// The node after `m` (see the module's documentation for the pass).
    fn step(&self, m: Move, top: u8) -> TNode {
        let mut g = self.g;
        g.play_capturing(m);
        let kind = match self.kind {
            Kind::Att(l) => Kind::Def(l),
            Kind::Def(l) if m == Move::Pass && l != top => Kind::Att(l - 1),
            Kind::Def(l) | Kind::Root(l) => Kind::Att(l),
        };
        TNode { g, kind }
    }
}

/// Threat-check counters of one λ-search (nested searches included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatCounts {
    /// Attacker moves checked.
    pub asked: u64,
    /// Decided by the rules (a capture, an escape, order 0, the ladder
    /// rule's three liberties).
    pub by_rule: u64,
    /// Answered by the memo.
    pub memo: u64,
    /// Nested df-pn searches run, and of those the proven and the unknown
    /// (cut short by the budget: the move is kept).
    pub searched: u64,
    pub proven: u64,
    pub unknown: u64,
    /// Moves kept (λ moves, or kept on an unknown check) and dropped.
    pub kept: u64,
    pub dropped: u64,
}

/// What every search of one λ-search shares: the budget, the stop flag, the
/// memo of threat checks, the counters.
struct Shared {
    limit: u64,
    spent: Cell<u64>,
    stop: Arc<AtomicBool>,
    /// The caller's stop flag (a time limit, the other half of a question
    /// answered, Ctrl-C): read at each visit, it sets `stop`.
    outer: Option<Arc<AtomicBool>>,
    memo: RefCell<HashMap<u64, bool>>,
    counts: Cell<ThreatCounts>,
}

impl Shared {
    fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent.get())
    }

    fn count(&self, f: impl FnOnce(&mut ThreatCounts)) {
        let mut c = self.counts.get();
        f(&mut c);
        self.counts.set(c);
    }
}

/// "The attacker captures the target" as one λ tree (or the unrestricted
/// tree), rooted at the order and kind the search starts with.
pub struct ThomsenProblem<'t> {
    stack: Vec<TNode>,
    params: ThomsenParams,
    tt: &'t Table,
    shared: Rc<Shared>,
    nested: RefCell<Stats>,
}

impl<'t> ThomsenProblem<'t> {
    fn cur(&self) -> &TNode {
        self.stack.last().expect("the root")
    }

    /// The value of `n` by the rules: the terminal cases, order 0 (a capture
    /// in one move or nothing), and order 1 under the ladder rule with three
    /// liberties or more (no λ¹ move).
    fn rule_status(&self, n: &TNode) -> Status {
        let g = &n.g;
        if let Some(o) = g.known_outcome() {
            let attacker_to_move = g.board().to_move() == g.attacker();
            return if (o == Outcome::Win) == attacker_to_move {
                Status::Proven
            } else {
                Status::Disproven
            };
        }
        match n.kind {
            Kind::Att(0) => Status::Disproven,
            Kind::Att(1)
                if 1 != self.params.top() && self.params.ladder && g.target_libs().count() >= 3 =>
            {
                Status::Disproven
            }
            _ => Status::Unknown,
        }
    }

    /// The attacker's candidate moves at order `l` (before the threat
    /// checks): what the question allows, the pass only in the unrestricted
    /// tree, the target's two liberties only at order 1 under the ladder
    /// rule.
    fn attacker_candidates(&self, g: &Capture, l: u8, out: &mut Vec<Move>) {
        let top = self.params.top();
        if l == 1 && l != top && self.params.ladder {
            let libs = g.target_libs();
            if libs.count() == 2 {
                // Liberties are always among the question's moves (every
                // generator holds them).
                for p in libs.iter() {
                    if g.board().is_legal_point(p, true) {
                        out.push(Move::Play(p as u16));
                    }
                }
                return;
            }
            if libs.count() >= 3 {
                return;
            }
        }
        let start = out.len();
        g.search_moves(out);
        if l != top {
            let mut i = start;
            while i < out.len() {
                if out[i] == Move::Pass {
                    out.remove(i);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Whether `m` from the attacker's node `n` at order `l` (1 ≤ l < top) is
    /// a λˡ move: after it and a defender pass, the attacker wins the λˡ⁻¹
    /// tree. A check the budget cuts short counts as yes (the move is kept:
    /// see "Soundness").
    fn is_threat(&self, n: &TNode, m: Move, l: u8) -> bool {
        let s = &self.shared;
        s.count(|c| c.asked += 1);
        let top = self.params.top();
        let after = n.step(m, top);
        if let Some(o) = after.g.outcome() {
            // The move captures (a threat of every order) or, which cannot
            // happen by an attacker move, lets the target escape.
            s.count(|c| c.by_rule += 1);
            return o == Outcome::Loss;
        }
        let q = TNode {
            g: {
                let mut g = after.g;
                g.play_capturing(Move::Pass);
                g
            },
            kind: Kind::Att(l - 1),
        };
        match self.rule_status(&q) {
            Status::Proven => {
                s.count(|c| c.by_rule += 1);
                return true;
            }
            Status::Disproven => {
                s.count(|c| c.by_rule += 1);
                return false;
            }
            Status::Unknown => {}
        }
        let key = q.key(top);
        if let Some(&won) = s.memo.borrow().get(&key) {
            s.count(|c| c.memo += 1);
            return won;
        }
        let left = s.left();
        if left == 0 {
            s.count(|c| c.unknown += 1);
            return true;
        }
        let mut sub = ThomsenProblem {
            stack: vec![q],
            params: self.params,
            tt: self.tt,
            shared: s.clone(),
            nested: RefCell::new(Stats::default()),
        };
        let r = run(&mut sub, left);
        self.nested.borrow_mut().note_nested(&r.stats);
        s.count(|c| c.searched += 1);
        let won = match r.status {
            Status::Proven => true,
            Status::Disproven => false,
            Status::Unknown => {
                s.count(|c| c.unknown += 1);
                return true;
            }
        };
        s.count(|c| c.proven += u64::from(won));
        let mut memo = s.memo.borrow_mut();
        if memo.len() >= MEMO_MAX {
            memo.clear();
        }
        memo.insert(key, won);
        won
    }
}

impl Problem for ThomsenProblem<'_> {
    type Move = Move;

    #[inline]
    fn is_or(&self) -> bool {
        matches!(self.cur().kind, Kind::Att(_))
    }

    fn evaluate(&self) -> Status {
        self.rule_status(self.cur())
    }

    fn generate(&self, out: &mut Vec<Move>) {
        // One expansion is one visit (df-pn generates a node's moves on
        // every visit): the budget counts them as they happen.
        let s = &self.shared;
        s.spent.set(s.spent.get() + 1);
        if s.spent.get() >= s.limit || s.outer.as_ref().is_some_and(|o| o.load(Ordering::Relaxed)) {
            s.stop.store(true, Ordering::Relaxed);
        }
        let n = *self.cur();
        let g = &n.g;
        let top = self.params.top();
        match n.kind {
            Kind::Att(l) => {
                let start = out.len();
                self.attacker_candidates(g, l, out);
                if l == top {
                    return;
                }
                let cands: Vec<Move> = out.drain(start..).collect();
                for m in cands {
                    if self.is_threat(&n, m, l) {
                        s.count(|c| c.kept += 1);
                        out.push(m);
                    } else {
                        s.count(|c| c.dropped += 1);
                    }
                }
            }
            Kind::Def(_) | Kind::Root(_) => match atari_lifts(g).filter(|_| self.params.ladder) {
                // Every other defender move leaves the target to be captured
                // at once.
                Some((lift, _)) => out.extend(lifted_moves(g, &lift)),
                None => g.search_moves(out),
            },
        }
    }

    fn play(&mut self, m: Move) {
        let next = self.cur().step(m, self.params.top());
        self.stack.push(next);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.cur().key(self.params.top())
    }

    /// The distance initialisation of plain df-pn ([`Capture::distance`]).
    fn heuristic(&self) -> (Pn, Pn) {
        self.cur().g.distance()
    }

    fn repetition(&self) -> Repetition {
        Repetition::FirstPlayerLoss
    }

    /// The position alone (the order is not part of it).
    #[inline]
    fn history_key(&self) -> u64 {
        self.cur().g.history_key()
    }

    fn nested_stats(&mut self) -> Option<Stats> {
        Some(std::mem::take(self.nested.get_mut()))
    }
}

/// One df-pn search of `p`'s tree with at most `visits` visits of its own
/// (the shared budget's stop flag ends it too), under DUP as every
/// capturing search.
fn run(p: &mut ThomsenProblem<'_>, visits: u64) -> SearchResult {
    let limits = Limits {
        visits: Some(visits),
        stop: Some(p.shared.stop.clone()),
        ..Default::default()
    };
    let tt = p.tt;
    dfpn::search_with(
        p,
        Plain::default(),
        tt,
        &limits,
        &crate::capture::path_options(),
    )
}

/// The answer of a λ-search.
#[derive(Clone, Debug)]
pub struct ThomsenResult {
    /// Proven (a capture), Disproven (by the unrestricted search) or
    /// Unknown (the budget spent).
    pub status: Status,
    /// The order whose tree proved the capture; `None` for the unrestricted
    /// search's answers (and unknown).
    pub order: Option<u8>,
    /// The λ orders whose search ended (disproven, or proven: the last);
    /// `max_order` when the unrestricted search ran.
    pub orders_searched: u8,
    /// Every search's statistics summed (nested searches included: `visits`
    /// is every visit of the λ-search).
    pub stats: Stats,
    pub threats: ThreatCounts,
}

/// Classical λ-search on "the attacker captures" from `g` (either side to
/// move), at most `visits` visits in all, on `tt`: the λ¹ .. λ^max_order
/// trees one after another, then the unrestricted search.
pub fn search(g: &Capture, params: &ThomsenParams, visits: u64, tt: &Table) -> ThomsenResult {
    search_until(g, params, visits, tt, None)
}

/// [`search`], ended early (unknown) once `stop` is set.
pub fn search_until(
    g: &Capture,
    params: &ThomsenParams,
    visits: u64,
    tt: &Table,
    stop: Option<&Arc<AtomicBool>>,
) -> ThomsenResult {
    let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let shared = Rc::new(Shared {
        limit: visits,
        spent: Cell::new(0),
        stop: Arc::new(AtomicBool::new(visits == 0 || stopped)),
        outer: stop.cloned(),
        memo: RefCell::new(HashMap::new()),
        counts: Cell::new(ThreatCounts::default()),
    });
    let top = params.top();
    let attacker_first = g.board().to_move() == g.attacker();
    let mut stats = Stats::default();
    let result = |status, order, searched, stats: Stats| ThomsenResult {
        status,
        order,
        orders_searched: searched,
        stats,
        threats: shared.counts.get(),
    };
    for l in (1..=params.max_order).chain(std::iter::once(top)) {
        let kind = match (attacker_first, l == top) {
            (true, _) => Kind::Att(l),
            (false, false) => Kind::Root(l),
            // The unrestricted tree's pass stays in it.
            (false, true) => Kind::Def(l),
        };
        let mut p = ThomsenProblem {
            stack: vec![TNode { g: *g, kind }],
            params: *params,
            tt,
            shared: shared.clone(),
            nested: RefCell::new(Stats::default()),
        };
        let left = shared.left();
        let r = if left == 0 && p.evaluate() == Status::Unknown {
            None
        } else {
            Some(run(&mut p, left.max(1)))
        };
        let Some(r) = r else {
            return result(Status::Unknown, None, l - 1, stats);
        };
        stats.accumulate(&r.stats);
        match (r.status, l == top) {
            (Status::Proven, false) => return result(Status::Proven, Some(l), l, stats),
            (Status::Disproven, false) => continue,
            // The unrestricted search ran: every order ended before it.
            (st, true) => return result(st, None, params.max_order, stats),
            (st, false) => return result(st, None, l - 1, stats),
        }
    }
    unreachable!("the unrestricted search ends the loop")
}

/// [`search_until`]'s status, its visits (every order's, every nested
/// search's) added to `effort`.
pub fn attack_status(
    g: &Capture,
    params: &ThomsenParams,
    visits: u64,
    tt: &Table,
    effort: &mut Effort,
    stop: Option<&Arc<AtomicBool>>,
) -> Status {
    let r = search_until(g, params, visits, tt, stop);
    effort.count(&r.stats, r.status)
}

/// After a proof from `g` (the attacker to move) on `tt`: a first move that
/// captures. A move whose defender node the table holds proven (at any
/// order, or in the unrestricted tree) is taken at once; otherwise each move
/// is searched again from its own position, the target's liberties first,
/// by `capture::read_back` (1/20 of the limit, then all of it: DUP keeps
/// path-dependent proofs apart from the base entry).
pub fn proven_move(
    g: &Capture,
    params: &ThomsenParams,
    visits: u64,
    tt: &Table,
    stop: Option<&Arc<AtomicBool>>,
) -> Option<Move> {
    let top = params.top();
    let mut ms = Vec::new();
    g.search_moves(&mut ms);
    ms.retain(|m| *m != Move::Pass);
    for &m in &ms {
        for l in (1..=params.max_order).chain(std::iter::once(top)) {
            let c = TNode {
                g: *g,
                kind: Kind::Att(l),
            }
            .step(m, top);
            let proven = c.g.known_outcome().is_some_and(|o| o == Outcome::Loss)
                || tt.probe(c.key(top)).is_some_and(|h| h.pn == 0);
            if proven {
                return Some(m);
            }
        }
    }
    crate::capture::read_back(g, &ms, visits, Status::Proven, |c, budget| {
        search_until(c, params, budget, tt, stop).status
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_read_back() {
        let p = ThomsenParams::default()
            .parse("order=3,ladder=off")
            .unwrap();
        assert_eq!(
            p,
            ThomsenParams {
                max_order: 3,
                ladder: false
            }
        );
        assert_eq!(ThomsenParams::default().parse(&p.describe()), Ok(p));
        assert!(ThomsenParams::default().parse("order=9").is_err());
        assert!(ThomsenParams::default().parse("grow=2").is_err());
    }
}
