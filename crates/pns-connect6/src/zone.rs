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
//! Zones are kept with the search (a cache by position key, since a table
//! entry's two payload words cannot hold a 361-cell set); the VCDT
//! searches that made them stay in the table's VCDT key space, so a zone
//! recomputed after the cache is cleared costs a probe per VCDT node.
//!
//! Table keys are the goal adapter's ([`pns_core::problem::goal_key`]),
//! so the certificate builders read this search's entries. `top` keeps
//! only the first N attacker moves of the game's order (the paper's "top 5
//! evaluated moves"): a proof is still a proof, a disproof is not (the
//! driver reports it as unknown).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pns_core::dfpn::{self, DeepDfpn, Epsilon, Plain};
use pns_core::prelude::*;
use pns_core::problem::{goal_key, goal_status};
use pns_core::{
    Goal, GoalContext, Limits, Outcome, Problem, SearchResult, Side, Stats, Status, Table,
};

use crate::geometry::CellSet;
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
    /// Defender nodes where a zone was derived.
    pub zones: u64,
    /// Defender nodes where the null move had no VCDT (no pruning).
    pub no_zone: u64,
    /// Defender moves left out by zones.
    pub pruned: u64,
    /// Defender moves kept.
    pub kept: u64,
    /// Attacker nodes proven by a nested VCDT.
    pub vcdt_wins: u64,
}

/// The relevance-zone-oriented problem.
pub struct ZoneSearch<'t> {
    stack: Vec<Connect6>,
    ctx: GoalContext,
    tt: &'t Table,
    opts: ZoneOptions,
    nested: RefCell<Stats>,
    nested_seesaw: RefCell<u64>,
    cache: RefCell<HashMap<u64, Option<CellSet>>>,
    /// VCDT results at attacker nodes: a search that ran out of its budget
    /// would otherwise run again every time the node is looked at.
    vcdt_cache: RefCell<HashMap<u64, bool>>,
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
            cache: RefCell::new(HashMap::new()),
            vcdt_cache: RefCell::new(HashMap::new()),
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
        let key = g.key();
        if let Some(z) = self.cache.borrow().get(&key) {
            return *z;
        }
        let z = self.derive_zone(g).map(|(z, _)| z);
        self.cache.borrow_mut().insert(key, z);
        let mut c = self.counts.borrow_mut();
        if z.is_some() {
            c.zones += 1;
        } else {
            c.no_zone += 1;
        }
        z
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
            let key = g.key();
            let cached = self.vcdt_cache.borrow().get(&key).copied();
            let won = match cached {
                Some(w) => w,
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
                    self.vcdt_cache.borrow_mut().insert(key, w);
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
