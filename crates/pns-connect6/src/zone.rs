//! The relevance-zone-oriented search (deep-dfpn §5.2): the AND/OR problem
//! "the attacker achieves its goal" on Connect6 where
//!
//! * at the attacker's nodes a nested VCDT search ([`crate::vcdt`], on the
//!   same table in its own key space, within a visit budget) proves a win
//!   at once when it finds one;
//! * at the defender's nodes the defender first makes a *null move* (its
//!   turn, or the rest of it, passes); if VCDT then wins for the attacker,
//!   the proof's relevance zone Z ([`crate::vcdt::zone_of`]) is where the
//!   defender must put at least one stone, and only stones in Z are
//!   generated. With a node per stone this is the paper's two steps by
//!   itself: at the turn's first stone the null move gives Z, and after a
//!   stone s in Z the null move of the remaining stone gives Z' (the
//!   paper's seminull move), so the turns searched are s in Z then a stone
//!   in Z'(s). A turn with both stones outside Z loses to the VCDT proof
//!   (Z's construction), and a turn with one stone in Z is searched with
//!   that stone first (a turn's stones are a set).
//!
//! With `propagate` (Wu and Lin, "Relevance-zone-oriented proof search
//! for Connect6", IEEE TCIAIG 2010: zones travel up the proof), a null
//! move without a VCDT is searched by a nested zone search, and when it is
//! proven the zone of its proof ([`ZoneSearch::proof_zone`]) limits the
//! defender's moves the same way. A zone is made for a number of *extra*
//! defender stones (the stones that may lie outside it); a search made for
//! e extra stones asks e + l of the null-move zone at a defender node with
//! l stones left, so nested searches are made for more stones, up to
//! [`MAX_EXTRA`].
//!
//! Zones live in the shared table, in a key space of their own beside the
//! VCDT searches that made them: a 361-cell set is three entries (two
//! payload words each), each carrying a checksum of the whole set, so a
//! zone whose parts were not written together (one part replaced, then the
//! zone derived again) is never assembled; a zone the table lost is derived
//! again, which costs a probe per VCDT node since those searches are in
//! the table too. The VCDT verdict at an attacker node is kept the same
//! way. Nothing the search keeps grows beyond the table's budget.
//!
//! Table keys are the goal adapter's ([`pns_core::problem::goal_key`]),
//! so the certificate builders read this search's entries. `top` keeps
//! only the first N attacker moves of the game's order (the paper's "top 5
//! evaluated moves"): a proof is still a proof, a disproof is not (the
//! driver reports it as unknown).

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pns_core::dfpn::{self, key_space, status_of, DeepDfpn, Epsilon, PathOptions, Plain};
use pns_core::prelude::*;
use pns_core::problem::{goal_key, goal_status};
use pns_core::{
    Goal, GoalContext, Limits, Outcome, Problem, SearchResult, Side, Stats, Status, Table,
};

use crate::geometry::{CellSet, WORDS};
use crate::position::{min_hitting, Connect6, Turn, Window};
use crate::vcdt;

/// What the zone search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneOptions {
    /// Relevance zones at the defender's nodes.
    pub zones: bool,
    /// VCDT at the attacker's nodes.
    pub vcdt: bool,
    /// Visits of each nested VCDT search at an attacker node (one per
    /// node the search creates: kept small, most of them fail).
    pub vcdt_visits: u64,
    /// Visits of each null-move VCDT search that derives a zone (one per
    /// defender node expanded); 0: no null-move VCDT (zones come from
    /// nested zone searches alone, with `propagate`).
    pub zone_visits: u64,
    /// Only the first N attacker moves (unsound for disproofs).
    pub top: Option<usize>,
    /// Propagated zones (Wu and Lin's relevance zones travelling up the
    /// proof): where the null move's VCDT fails, the null-move position
    /// is searched by a nested zone search and, when proven, the zone of
    /// its proof limits the defender's moves.
    pub propagate: bool,
    /// Visits of each nested zone search (its VCDT searches included).
    pub nest_visits: u64,
}

impl Default for ZoneOptions {
    fn default() -> Self {
        ZoneOptions {
            zones: true,
            vcdt: true,
            vcdt_visits: 200,
            zone_visits: 200,
            top: None,
            propagate: false,
            nest_visits: 2_000,
        }
    }
}

/// Counters of the zone machinery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZoneCounts {
    /// Defender nodes where a zone was derived (a zone read back from the
    /// table is not counted again).
    pub zones: u64,
    /// Defender nodes where the null move had no VCDT (no pruning),
    /// counted likewise.
    pub no_zone: u64,
    /// Defender moves left out by zones.
    pub pruned: u64,
    /// Defender moves kept.
    pub kept: u64,
    /// Attacker nodes proven by a nested VCDT.
    pub vcdt_wins: u64,
    /// Defender nodes whose zone is a propagated one (the null-move
    /// position proven by a nested zone search, not by VCDT); counted
    /// among `zones` too.
    pub propagated: u64,
    /// Nested zone searches run (at every nesting level).
    pub nested: u64,
    /// Nested zone searches that proved their position (at every level);
    /// one whose proof could not be read back gives no zone.
    pub nested_proven: u64,
}

/// Table entries a zone takes (two payload words each).
const ZONE_PARTS: usize = WORDS / 2;
const _: () = assert!(WORDS.is_multiple_of(2));

/// Flag of a zone's first entry: the null move had no VCDT (no zone).
const NO_ZONE: u8 = 1;

/// The most extra defender stones a zone is made for. A nested search at
/// a defender node needs one more turn's worth (see `ZoneSearch::extra`),
/// so this bounds the nesting depth; past it only VCDT zones are used.
pub const MAX_EXTRA: usize = 4;

/// Walk steps one propagated zone may take (a proof read off the table).
const WALK_STEPS: u64 = 200_000;

/// The key of the memo of `g` for `attacker` in the key space `space`.
fn memo_key(g: &Connect6, attacker: Side, space: u64) -> u64 {
    let side = match attacker {
        Side::First => 0,
        Side::Second => 0x5eb3_9d2c_71f0_4a86,
    };
    g.key() ^ space ^ side
}

/// A part of a stored cell set: the null-move zone at a defender node
/// (`kind` 0) or the zone of a proven node's proof (`kind` 1), for
/// `extra` extra defender stones.
fn set_key(g: &Connect6, attacker: Side, kind: u64, extra: usize, part: usize) -> u64 {
    memo_key(g, attacker, key_space(0xc6_20 + 2 * kind))
        ^ pns_core::rng::splitmix64(((extra as u64) << 16) | (part as u64 + 1))
}

/// The key of the VCDT verdict at an attacker node.
fn vcdt_memo_key(g: &Connect6, attacker: Side) -> u64 {
    memo_key(g, attacker, key_space(0xc6_21))
}

/// The key space of a nested zone search made for `extra` extra defender
/// stones (the outer search is in the main space).
fn extra_space(extra: usize) -> u64 {
    if extra == 0 {
        0
    } else {
        key_space(0xc6_30 + extra as u64)
    }
}

/// 16 bits of the whole set, stored with each of its parts.
fn zone_checksum(z: &CellSet) -> u16 {
    let mut h = 0u64;
    for &w in &z.0 {
        h = pns_core::rng::splitmix64(h ^ w);
    }
    (h >> 48) as u16
}

/// The relevance-zone-oriented problem.
pub struct ZoneSearch<'t> {
    stack: Vec<Connect6>,
    ctx: GoalContext,
    tt: &'t Table,
    opts: ZoneOptions,
    /// Extra defender stones this search's zones are made for: 0 for the
    /// outer search; a nested search proving the null-move position of a
    /// defender node with `l` stones left, for a search made for `e`,
    /// is made for `e + l` (a defender turn outside the zone adds its
    /// stones to the ones the zone is already asked to stand).
    extra: usize,
    nested: RefCell<Stats>,
    nested_seesaw: RefCell<u64>,
    counts: RefCell<ZoneCounts>,
    /// The budget on the nested searches' visits: the outer search's limit
    /// counts only its own visits, so the problem raises `stop` when the
    /// nested ones alone pass the budget.
    budget: Option<(u64, Arc<AtomicBool>)>,
    spent: Cell<u64>,
    walk_left: Cell<u64>,
}

impl<'t> ZoneSearch<'t> {
    /// "The side to move at `root` achieves `goal`".
    pub fn new(root: Connect6, goal: Goal, tt: &'t Table, opts: ZoneOptions) -> Self {
        let attacker = root.side_to_move();
        Self::with_attacker(root, goal, attacker, tt, opts)
    }

    pub fn with_attacker(
        root: Connect6,
        goal: Goal,
        attacker: Side,
        tt: &'t Table,
        opts: ZoneOptions,
    ) -> Self {
        ZoneSearch {
            stack: vec![root],
            ctx: GoalContext { attacker, goal },
            tt,
            opts,
            extra: 0,
            nested: RefCell::new(Stats::default()),
            nested_seesaw: RefCell::new(0),
            counts: RefCell::new(ZoneCounts::default()),
            budget: None,
            spent: Cell::new(0),
            walk_left: Cell::new(WALK_STEPS),
        }
    }

    /// Stops the search (through `stop`, which the search's limits must
    /// hold) once the nested searches' visits pass `visits`.
    pub fn set_budget(&mut self, visits: u64, stop: Arc<AtomicBool>) {
        self.budget = Some((visits, stop));
    }

    /// Whether the budget is spent (no more nested searches then: the
    /// search is about to stop).
    fn spent_all(&self) -> bool {
        self.budget
            .as_ref()
            .is_some_and(|(b, _)| self.spent.get() > *b)
    }

    fn spend(&self, n: u64) {
        let s = self.spent.get() + n;
        self.spent.set(s);
        if let Some((b, stop)) = &self.budget {
            if s > *b {
                stop.store(true, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    pub fn game(&self) -> &Connect6 {
        self.stack.last().expect("root")
    }

    pub fn counts(&self) -> ZoneCounts {
        *self.counts.borrow()
    }

    /// Seesaw revisits of the nested VCDT searches so far (the paper's
    /// seesaw number counts Deep df-pn's own nodes only).
    pub fn nested_seesaw(&self) -> u64 {
        *self.nested_seesaw.borrow()
    }

    fn note(&self, s: &Stats) {
        self.spend(s.visits);
        *self.nested_seesaw.borrow_mut() += s.seesaw_revisits;
        self.nested.borrow_mut().accumulate(s);
    }

    /// Extra defender stones the null-move zone at defender node `g` is
    /// made for: this search's own, and the defender's stones left.
    fn null_extra(&self, g: &Connect6) -> usize {
        self.extra + g.stones_left()
    }

    /// The relevance zone at a defender node (`None`: the null move has no
    /// VCDT for the attacker, nor a proof by a nested search when
    /// propagation is on, or the defender wins in its turn).
    pub fn zone(&self, g: &Connect6) -> Option<CellSet> {
        if let Some(z) = self.stored_zone(g) {
            return z;
        }
        let before = self.spent.get();
        let z = self.derive(g);
        self.store_set(
            g,
            0,
            self.null_extra(g),
            z.map(|(z, _)| z),
            self.spent.get() - before,
        );
        let mut c = self.counts.borrow_mut();
        match z {
            Some((_, propagated)) => {
                c.zones += 1;
                c.propagated += propagated as u64;
            }
            None => c.no_zone += 1,
        }
        z.map(|(z, _)| z)
    }

    /// The zone of `g` as the table holds it: `Some(None)` for a node
    /// known to have none, `None` when the table does not hold it whole.
    pub fn stored_zone(&self, g: &Connect6) -> Option<Option<CellSet>> {
        self.stored_set(g, 0, self.null_extra(g))
    }

    fn stored_set(&self, g: &Connect6, kind: u64, extra: usize) -> Option<Option<CellSet>> {
        let attacker = self.ctx.attacker;
        let mut z = CellSet::default();
        let mut sum = None;
        for part in 0..ZONE_PARTS {
            let h = self.tt.probe(set_key(g, attacker, kind, extra, part))?;
            if part == 0 && h.flags & NO_ZONE != 0 {
                return Some(None);
            }
            if *sum.get_or_insert(h.best) != h.best {
                return None;
            }
            z.0[2 * part] = h.pn;
            z.0[2 * part + 1] = h.dn;
        }
        (sum == Some(zone_checksum(&z))).then_some(Some(z))
    }

    /// Stores a set (its effort, `visits`, is the entries' worth to the
    /// table's replacement).
    fn store_set(&self, g: &Connect6, kind: u64, extra: usize, z: Option<CellSet>, visits: u64) {
        let attacker = self.ctx.attacker;
        let amount = visits.clamp(1, u32::MAX as u64) as u32;
        match z {
            None => {
                self.tt.store(
                    set_key(g, attacker, kind, extra, 0),
                    0,
                    0,
                    amount,
                    NO_ZONE,
                    0,
                );
            }
            Some(z) => {
                let sum = zone_checksum(&z);
                for part in 0..ZONE_PARTS {
                    self.tt.store(
                        set_key(g, attacker, kind, extra, part),
                        z.0[2 * part],
                        z.0[2 * part + 1],
                        amount,
                        0,
                        sum,
                    );
                }
            }
        }
    }

    /// The zone and the VCDT proof after the null move at `g` (defender
    /// to move).
    pub fn derive_zone(&self, g: &Connect6) -> Option<(CellSet, crate::claim::Turn)> {
        if g.is_over() || g.can_win_now() || self.spent_all() || self.opts.zone_visits == 0 {
            return None;
        }
        let mut null = g.clone();
        null.pass_turn();
        let mut st = Stats::default();
        let proof = vcdt::prove(
            &null,
            self.ctx.attacker,
            self.tt,
            self.opts.zone_visits,
            vcdt::space(),
            &mut st,
        );
        self.note(&st);
        let proof = proof?;
        Some((vcdt::zone_of(&null, &proof, self.null_extra(g)), proof))
    }

    /// The null-move zone at `g`: from a VCDT proof, else (with
    /// propagation) from the proof of a nested zone search of the
    /// null-move position (`true`).
    fn derive(&self, g: &Connect6) -> Option<(CellSet, bool)> {
        if let Some((z, _)) = self.derive_zone(g) {
            return Some((z, false));
        }
        let extra = self.null_extra(g);
        if !self.opts.propagate
            || g.params().pairs
            || extra > MAX_EXTRA
            || g.is_over()
            || g.can_win_now()
            || self.spent_all()
        {
            return None;
        }
        let mut null = g.clone();
        null.pass_turn();
        let n = nested_proof_zone(
            &null,
            self.ctx.attacker,
            self.tt,
            self.opts,
            extra,
            self.opts.nest_visits,
        );
        self.note(&n.stats);
        let mut c = self.counts.borrow_mut();
        c.nested += 1 + n.counts.nested;
        c.nested_proven += (n.status == Status::Proven) as u64 + n.counts.nested_proven;
        drop(c);
        n.zone.map(|z| (z, true))
    }

    /// Whether `g` is proven: by the rules, the VCDT verdict kept at an
    /// attacker node, or this search's table entry.
    fn proven(&self, g: &Connect6) -> bool {
        if let Some(o) = g.known() {
            return goal_status(g, o, self.ctx) == Status::Proven;
        }
        let x = self.ctx.attacker;
        if self.opts.vcdt
            && g.side_to_move() == x
            && self
                .tt
                .probe(vcdt_memo_key(g, x))
                .is_some_and(|h| h.pn == 1)
        {
            return true;
        }
        self.tt
            .probe(goal_key(g, self.ctx) ^ extra_space(self.extra))
            .is_some_and(|h| status_of(h.pn, h.dn) == Status::Proven)
    }

    /// The relevance zone of the proof of `g`, a node this search proved
    /// ("the attacker wins"), read off the table (Wu and Lin's zones
    /// travelling up the proof). It is made for `self.extra` extra
    /// defender stones: with at most that many defender stones added on
    /// empty cells outside it (same side to move, same stones left), `g`
    /// is still won, since every rule the proof read gives the same answer
    /// there:
    ///
    /// * a won leaf: the cells of the winning line still to fill, and the
    ///   windows the extra stones could give the defender a line in;
    /// * a VCDT win: its zone ([`vcdt::zone_of`]);
    /// * an attacker node: the move and its child's zone;
    /// * a defender node that loses by the threat count: the attacker's
    ///   threats and the windows where the defender could win in its turn;
    /// * a defender node searched with a null-move zone (made for `extra`
    ///   plus its stones): that zone, and each searched stone with its
    ///   child's zone (a turn outside the zone is the null-move position
    ///   with more extra stones; a turn with a stone inside is that
    ///   child's);
    /// * a defender node searched with the blocking rule: the threats (the
    ///   rule reads them), the windows where it could win in its turn, and
    ///   each blocking stone with its child's zone.
    ///
    /// `None` when the proof cannot be read back whole (an entry lost, the
    /// walk's steps spent) or a defender node had every move searched.
    pub fn proof_zone(&self, g: &Connect6, depth: usize) -> Option<CellSet> {
        if depth > 500 || self.walk_left.get() == 0 {
            return None;
        }
        self.walk_left.set(self.walk_left.get() - 1);
        if let Some(Some(z)) = self.stored_set(g, 1, self.extra) {
            return Some(z);
        }
        let z = self.walk(g, depth)?;
        self.store_set(g, 1, self.extra, Some(z), 1);
        #[cfg(test)]
        WALKED.with(|w| {
            w.borrow_mut()
                .push((g.clone(), self.ctx.attacker, self.extra, z))
        });
        Some(z)
    }

    fn walk(&self, g: &Connect6, depth: usize) -> Option<CellSet> {
        let x = self.ctx.attacker;
        let d = x.opponent();
        let r = self.extra;
        let (k, p) = (g.params().k, g.params().p);
        let mut z = CellSet::default();
        let add = |z: &mut CellSet, ws: &[Window]| {
            for w in ws {
                for &c in w.empties() {
                    z.insert(c);
                }
            }
        };
        if g.params().pairs || self.ctx.goal != Goal::Win {
            return None;
        }
        if g.winner() == Some(x) {
            // The extra stones must not give the defender a line too.
            let mut ws = Vec::new();
            g.windows(d, k.saturating_sub(r), &mut ws);
            add(&mut z, &ws);
            return Some(z);
        }
        if g.is_over() {
            return None;
        }
        if g.side_to_move() == x {
            if let Some(cells) = g.winning_cells() {
                for c in cells {
                    z.insert(c);
                }
                let mut ws = Vec::new();
                g.windows(d, k.saturating_sub(r), &mut ws);
                add(&mut z, &ws);
                return Some(z);
            }
            if !self.proven(g) {
                return None;
            }
            if self.opts.vcdt
                && self
                    .tt
                    .probe(vcdt_memo_key(g, x))
                    .is_some_and(|h| h.pn == 1)
            {
                let mut st = Stats::default();
                let t = vcdt::prove(
                    g,
                    x,
                    self.tt,
                    self.opts.vcdt_visits.max(self.opts.zone_visits),
                    vcdt::space(),
                    &mut st,
                );
                self.note(&st);
                if let Some(t) = t {
                    return Some(vcdt::zone_of(g, &t, r));
                }
            }
            let mut moves = Vec::new();
            g.search_moves(&mut moves);
            for m in moves {
                let mut c = g.clone();
                c.play(m);
                if !self.proven(&c) {
                    continue;
                }
                if let Some(cz) = self.proof_zone(&c, depth + 1) {
                    z = cz;
                    for s in m.cells() {
                        z.insert(s);
                    }
                    return Some(z);
                }
            }
            return None;
        }
        // The defender's node.
        let l = g.stones_left();
        if g.can_win_now() {
            return None;
        }
        let mut live = Vec::new();
        g.live_windows(x, p, &mut live);
        let mut danger = Vec::new();
        g.windows(d, k.saturating_sub(l + r), &mut danger);
        if min_hitting(&live, l) > l {
            add(&mut z, &live);
            add(&mut z, &danger);
            return Some(z);
        }
        let zone = if self.opts.zones { self.zone(g) } else { None };
        let cells: Vec<u16> = match zone {
            Some(nz) => {
                z = nz;
                g.empties().iter().filter(|&c| nz.contains(c)).collect()
            }
            None => {
                let cells = g.must_block()?;
                add(&mut z, &live);
                add(&mut z, &danger);
                cells
            }
        };
        for s in cells {
            let mut c = g.clone();
            c.play(Turn::one(s));
            if !self.proven(&c) {
                return None;
            }
            let cz = self.proof_zone(&c, depth + 1)?;
            z.union_with(&cz);
            z.insert(s);
        }
        Some(z)
    }
}

impl Problem for ZoneSearch<'_> {
    type Move = Turn;

    #[inline]
    fn is_or(&self) -> bool {
        self.game().side_to_move() == self.ctx.attacker
    }

    fn evaluate(&self) -> Status {
        let g = self.game();
        if let Some(o) = g.known() {
            return goal_status(g, o, self.ctx);
        }
        if self.opts.vcdt && self.is_or() && !self.spent_all() {
            // The verdict is kept in the table: a search that ran out of
            // its budget would otherwise run again every time the node is
            // looked at.
            let key = vcdt_memo_key(g, self.ctx.attacker);
            let won = match self.tt.probe(key) {
                Some(h) => h.pn == 1,
                None => {
                    let mut st = Stats::default();
                    let s = vcdt::search(
                        g,
                        self.ctx.attacker,
                        self.tt,
                        self.opts.vcdt_visits,
                        vcdt::space(),
                        &mut st,
                    );
                    self.note(&st);
                    let w = s == Status::Proven;
                    let amount = st.visits.clamp(1, u32::MAX as u64) as u32;
                    self.tt.store(key, w as u64, 0, amount, 0, 0);
                    if w {
                        self.counts.borrow_mut().vcdt_wins += 1;
                    }
                    w
                }
            };
            if won {
                return Status::Proven;
            }
        }
        Status::Unknown
    }

    fn generate(&self, out: &mut Vec<Turn>) {
        let g = self.game();
        let start = out.len();
        g.search_moves(out);
        if self.is_or() {
            if let Some(n) = self.opts.top {
                out.truncate(start + n.max(1));
            }
            return;
        }
        if !self.opts.zones {
            return;
        }
        let Some(z) = self.zone(g) else {
            return;
        };
        // The zone replaces the game's blocking rule (both are sound
        // alone; their intersection is not: a turn may block with one
        // stone and enter the zone with the other).
        out.truncate(start);
        let before = if g.params().pairs {
            let mut all = Vec::new();
            g.search_moves(&mut all);
            let n = all.len();
            out.extend(all.into_iter().filter(|t| t.cells().any(|c| z.contains(c))));
            n
        } else {
            let empties = g.empties();
            let n = empties.len();
            let cells: Vec<u16> = empties.iter().filter(|&c| z.contains(c)).collect();
            out.extend(
                g.ordered_cells(cells.into_iter())
                    .into_iter()
                    .map(Turn::one),
            );
            n
        };
        let kept = (out.len() - start) as u64;
        let mut c = self.counts.borrow_mut();
        c.kept += kept;
        c.pruned += before as u64 - kept;
    }

    fn play(&mut self, m: Turn) {
        let mut c = self.game().clone();
        c.play(m);
        self.stack.push(c);
    }

    fn undo(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    #[inline]
    fn key(&self) -> u64 {
        goal_key(self.game(), self.ctx)
    }

    fn nested_stats(&mut self) -> Option<Stats> {
        Some(std::mem::take(self.nested.get_mut()))
    }
}

#[cfg(test)]
thread_local! {
    /// Every zone the walk derives, for the tests: the node, the attacker,
    /// the extra stones and the zone.
    pub(crate) static WALKED: RefCell<Vec<(Connect6, Side, usize, CellSet)>> =
        const { RefCell::new(Vec::new()) };
}

/// What a nested zone search gives: its status, the zone of its proof,
/// its statistics (all of them, as a nested search's) and counters.
pub struct Nested {
    pub status: Status,
    pub zone: Option<CellSet>,
    pub stats: Stats,
    pub counts: ZoneCounts,
}

/// A zone search of "`attacker` wins from `g`" made for `extra` extra
/// defender stones (in its own key space on `tt`, within `visits` visits,
/// its nested searches' included) and, when it proves the win, the zone
/// of its proof ([`ZoneSearch::proof_zone`]): at most `extra` defender
/// stones added outside it leave `g` won.
pub fn nested_proof_zone(
    g: &Connect6,
    attacker: Side,
    tt: &Table,
    opts: ZoneOptions,
    extra: usize,
    visits: u64,
) -> Nested {
    let stop = Arc::new(AtomicBool::new(false));
    // Always "the attacker wins": a win is also a not-lose, and the walk
    // knows the leaves of wins only.
    let mut sub = ZoneSearch::with_attacker(g.clone(), Goal::Win, attacker, tt, opts);
    sub.extra = extra;
    sub.set_budget(visits, stop.clone());
    let limits = Limits {
        visits: Some(visits),
        stop: Some(stop),
        ..Limits::default()
    };
    let r = dfpn::search_with(
        &mut sub,
        Plain { heuristic: false },
        tt,
        &limits,
        &PathOptions {
            space: extra_space(extra),
            ..PathOptions::default()
        },
    );
    let zone = if r.status == Status::Proven {
        sub.proof_zone(g, 0)
    } else {
        None
    };
    let mut stats = Stats::default();
    stats.note_nested(&r.stats);
    // The walk's own VCDT searches, made after the search closed.
    stats.accumulate(&sub.nested.borrow());
    Nested {
        status: r.status,
        zone,
        stats,
        counts: sub.counts(),
    }
}

/// The df-pn variant the zone search runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    Dfpn,
    Deep { e: u64, d: u32 },
    Epsilon(f64),
}

/// One goal search with the zone problem: the result, the zone counters
/// and the outer search's own seesaw number (nested ones taken out).
pub struct ZoneRun {
    pub result: SearchResult,
    pub counts: ZoneCounts,
    pub seesaw: u64,
}

/// Runs one goal search of `root` with the zone problem. A visit limit
/// bounds all visits, the nested VCDT searches' included (the paper's
/// node number, deep-dfpn §6.1).
pub fn search(
    root: &Connect6,
    goal: Goal,
    variant: Variant,
    tt: &Table,
    limits: &Limits,
    opts: ZoneOptions,
) -> ZoneRun {
    let mut p = ZoneSearch::new(root.clone(), goal, tt, opts);
    let mut limits = limits.clone();
    if let Some(v) = limits.visits {
        let stop = limits
            .stop
            .clone()
            .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
        limits.stop = Some(stop.clone());
        p.set_budget(v, stop);
    }
    let limits = &limits;
    let mut r = match variant {
        Variant::Dfpn => dfpn::search(&mut p, Plain { heuristic: false }, tt, limits),
        Variant::Deep { e, d } => dfpn::search(&mut p, DeepDfpn { e, d }, tt, limits),
        Variant::Epsilon(epsilon) => dfpn::search(
            &mut p,
            Epsilon {
                epsilon,
                heuristic: false,
            },
            tt,
            limits,
        ),
    };
    if opts.top.is_some() && r.status == Status::Disproven {
        // Attacker moves were left out: not a disproof.
        r.status = Status::Unknown;
    }
    if let Some(v) = limits.visits {
        if r.stats.visits > v && r.status.is_solved() {
            // Solved just past the budget: over the cut-off all the same.
            r.status = Status::Unknown;
        }
    }
    let seesaw = r.stats.seesaw_revisits.saturating_sub(p.nested_seesaw());
    ZoneRun {
        result: r,
        counts: p.counts(),
        seesaw,
    }
}

/// Win / draw / loss for the side to move with the zone search: "win?",
/// then, unless proven, "not lose?". `None` when a search is cut off.
pub fn solve(
    root: &Connect6,
    variant: Variant,
    tt: &Table,
    limits: &Limits,
    opts: ZoneOptions,
) -> (Option<Outcome>, Vec<(Goal, ZoneRun)>) {
    let mut runs = Vec::new();
    let w = search(root, Goal::Win, variant, tt, limits, opts);
    let ws = w.result.status;
    runs.push((Goal::Win, w));
    let value = match ws {
        Status::Proven => Some(Outcome::Win),
        Status::Unknown => None,
        Status::Disproven => {
            let n = search(root, Goal::NotLose, variant, tt, limits, opts);
            let ns = n.result.status;
            runs.push((Goal::NotLose, n));
            match ns {
                Status::Proven => Some(Outcome::Draw),
                Status::Disproven => Some(Outcome::Loss),
                Status::Unknown => None,
            }
        }
    };
    (value, runs)
}
