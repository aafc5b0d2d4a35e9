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

use pns_core::dfpn::{self, key_space, DeepDfpn, Epsilon, Plain};
use pns_core::prelude::*;
use pns_core::problem::{goal_key, goal_status};
use pns_core::{
    Goal, GoalContext, Limits, Outcome, Problem, SearchResult, Side, Stats, Status, Table,
};

use crate::geometry::{CellSet, WORDS};
use crate::position::{Connect6, Turn};
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
    /// defender node expanded).
    pub zone_visits: u64,
    /// Only the first N attacker moves (unsound for disproofs).
    pub top: Option<usize>,
}

impl Default for ZoneOptions {
    fn default() -> Self {
        ZoneOptions {
            zones: true,
            vcdt: true,
            vcdt_visits: 200,
            zone_visits: 2_000,
            top: None,
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
}

/// Table entries a zone takes (two payload words each).
const ZONE_PARTS: usize = WORDS / 2;
const _: () = assert!(WORDS.is_multiple_of(2));

/// Flag of a zone's first entry: the null move had no VCDT (no zone).
const NO_ZONE: u8 = 1;

/// The key of the memo of `g` for `attacker` in the key space `space`.
fn memo_key(g: &Connect6, attacker: Side, space: u64) -> u64 {
    let side = match attacker {
        Side::First => 0,
        Side::Second => 0x5eb3_9d2c_71f0_4a86,
    };
    g.key() ^ space ^ side
}

/// The key space of zones, and a part's salt in it.
fn zone_key(g: &Connect6, attacker: Side, part: usize) -> u64 {
    memo_key(g, attacker, key_space(0xc6_20)) ^ pns_core::rng::splitmix64(part as u64 + 1)
}

/// The key of the VCDT verdict at an attacker node.
fn vcdt_memo_key(g: &Connect6, attacker: Side) -> u64 {
    memo_key(g, attacker, key_space(0xc6_21))
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
    nested: RefCell<Stats>,
    nested_seesaw: RefCell<u64>,
    counts: RefCell<ZoneCounts>,
    /// The budget on the nested searches' visits: the outer search's limit
    /// counts only its own visits, so the problem raises `stop` when the
    /// nested ones alone pass the budget.
    budget: Option<(u64, Arc<AtomicBool>)>,
    spent: Cell<u64>,
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
            nested: RefCell::new(Stats::default()),
            nested_seesaw: RefCell::new(0),
            counts: RefCell::new(ZoneCounts::default()),
            budget: None,
            spent: Cell::new(0),
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

    /// The relevance zone at a defender node (`None`: the null move has no
    /// VCDT for the attacker, or the defender wins in its turn).
    pub fn zone(&self, g: &Connect6) -> Option<CellSet> {
        if let Some(z) = self.stored_zone(g) {
            return z;
        }
        let before = self.spent.get();
        let z = self.derive_zone(g).map(|(z, _)| z);
        self.store_zone(g, z, self.spent.get() - before);
        let mut c = self.counts.borrow_mut();
        if z.is_some() {
            c.zones += 1;
        } else {
            c.no_zone += 1;
        }
        z
    }

    /// The zone of `g` as the table holds it: `Some(None)` for a node
    /// known to have none, `None` when the table does not hold it whole.
    pub fn stored_zone(&self, g: &Connect6) -> Option<Option<CellSet>> {
        let attacker = self.ctx.attacker;
        let mut z = CellSet::default();
        let mut sum = None;
        for part in 0..ZONE_PARTS {
            let h = self.tt.probe(zone_key(g, attacker, part))?;
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

    /// Stores the zone of `g` (its effort, `visits`, is the entries'
    /// worth to the table's replacement).
    fn store_zone(&self, g: &Connect6, z: Option<CellSet>, visits: u64) {
        let attacker = self.ctx.attacker;
        let amount = visits.clamp(1, u32::MAX as u64) as u32;
        match z {
            None => {
                self.tt
                    .store(zone_key(g, attacker, 0), 0, 0, amount, NO_ZONE, 0);
            }
            Some(z) => {
                let sum = zone_checksum(&z);
                for part in 0..ZONE_PARTS {
                    self.tt.store(
                        zone_key(g, attacker, part),
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
        if g.is_over() || g.can_win_now() || self.spent_all() {
            return None;
        }
        let r_def = g.stones_left();
        let mut null = g.clone();
        null.pass_turn();
        let mut st = Stats::default();
        let proof = vcdt::prove(
            &null,
            self.ctx.attacker,
            self.tt,
            self.opts.vcdt_visits,
            vcdt::space(),
            &mut st,
        );
        self.note(&st);
        let proof = proof?;
        Some((vcdt::zone_of(&null, &proof, r_def), proof))
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
