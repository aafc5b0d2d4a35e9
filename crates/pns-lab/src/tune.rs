//! Choosing Deep df-pn's parameters (E, D) for a position (deep-dfpn
//! §6.4): the paper's hill-climbing (Algorithm 1) and the full grid sweep
//! it is compared with (E in 1..=20, D in 1..=15, §6.1, Tables 2–3).
//!
//! The target function is node(E, D): the *node number* of one goal search
//! with Deep df-pn (E, D) — node visits including re-traversals,
//! `stats.visits` (§6.1) — or ∞ when the search needs more than the cut-off
//! N visits (§6.4: "the target function will return ∞"). The seesaw number
//! (`stats.seesaw_revisits`, §6.1) is recorded with it.
//!
//! [`hill_climb`] and [`grid`] take node(E, D) as a closure, so they can be
//! tested on hand-made functions; [`tune`] measures it on a game position.
//!
//! ## Reading Algorithm 1
//!
//! ```text
//!  1: E = 2; D = 2;
//!  2: while isNotFlat() do
//!  3:   if node(E+1, D) ≤ node(E, D+1) then E' = E+1; D' = D
//!  5:   else E' = E; D' = D+1
//!  8:   if node(E',D') > node(E,D) && node(E'+1,D') > node(E',D')
//!           && node(E',D'+1) > node(E',D') then
//!  9:     return E, D
//! 11:   N = node(E',D'); E = E'; D = D'
//! 12: end while
//! 13: return the minimum E and D on the flat
//! ```
//!
//! * The climb starts at (2, 2) and only ever adds one to E or to D, so
//!   every point it visits has E ≥ 2 and D ≥ 2 (E = 1 or D ≤ 1 is plain
//!   df-pn, Table 1). Ties in line 3 go to E, as written.
//! * Line 8 stops only when the chosen neighbour is worse than the current
//!   point *and* both of that neighbour's own forward neighbours are worse
//!   still. A single worse step is taken on trust ("implemented to ignore
//!   some local optimums", §6.4): if the climb then finds nothing better it
//!   still goes on. The `&&` short-circuits as written, so the last two
//!   values are measured only when needed (they are the next line 3's
//!   candidates anyway, and every value is measured once).
//! * ∞ compares like a number larger than every count and equal to itself:
//!   ∞ > ∞ is false, ∞ ≤ ∞ true.
//! * Line 11's `N = node(E', D')` records the current point's node number;
//!   we read it as the value line 8 calls node(E, D) in the next round, not
//!   as a new cut-off. Lowering the cut-off to the current value would turn
//!   every worse neighbour into ∞, and line 8 could then never stop (∞ > ∞
//!   is false). The cut-off stays the user's N throughout.
//! * isNotFlat (line 2): the path is *flat* when node(E, D) has kept the same
//!   value for `flat_steps` consecutive moves (the paper says "several
//!   times"; default 3). "The minimum E and D on the flat" (line 13): the
//!   flat is that run of equal values at the end of the path; since the path
//!   never decreases E or D, its first point has both the smallest E and the
//!   smallest D.
//! * Additions for a bounded search space, which the paper leaves implicit:
//!   points outside 1..=e_max × 1..=d_max count as ∞ (the grid's bounds,
//!   20 × 15 by default); if line 3 would step outside, the climb ends at
//!   the current point. When the answer of Algorithm 1 has node number ∞
//!   (the climb wandered past the cut-off and found a flat of ∞), the result
//!   is the best point it measured instead, and `fallback` says so.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use pns_core::dfpn::{self, DeepDfpn};
use pns_core::{Game, Goal, GoalProblem, Limits, Table};
use rayon::prelude::*;
use serde::Serialize;

/// One measured (E, D): node(E, D) and the seesaw number, `None` for ∞
/// (cut off, unsolved, or outside the range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Point {
    pub e: u64,
    pub d: u32,
    pub nodes: Option<u64>,
    pub seesaw: Option<u64>,
}

impl Point {
    /// The node number as a comparable value: ∞ is `u64::MAX`.
    pub fn value(&self) -> u64 {
        self.nodes.unwrap_or(u64::MAX)
    }

    /// "E, D" as in the paper's tables.
    pub fn label(&self) -> String {
        format!("{}, {}", self.e, self.d)
    }
}

/// Where the climb starts and the space it may move in.
#[derive(Clone, Debug)]
pub struct HillOptions {
    /// Algorithm 1, line 1: (2, 2).
    pub start: (u64, u32),
    pub e_max: u64,
    pub d_max: u32,
    /// Moves without a change of node(E, D) that make the path flat.
    pub flat_steps: usize,
}

impl Default for HillOptions {
    fn default() -> Self {
        HillOptions {
            start: (2, 2),
            e_max: 20,
            d_max: 15,
            flat_steps: 3,
        }
    }
}

/// Why the climb ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Line 8–9: the next point is worse and so are both of its successors.
    LocalOptimum,
    /// Line 2 and 13: node(E, D) stopped changing.
    Flat,
    /// Line 3 would leave 1..=e_max × 1..=d_max (our addition).
    Boundary,
}

impl End {
    pub fn describe(&self) -> &'static str {
        match self {
            End::LocalOptimum => {
                "line 8: the next point is worse and so are both of its successors"
            }
            End::Flat => "lines 2 and 13: node(E, D) stopped changing (a flat)",
            End::Boundary => "the next point would leave the E x D range",
        }
    }
}

/// One round of the while loop.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// The current (E, D).
    pub at: Point,
    /// Line 3: node(E+1, D) and node(E, D+1).
    pub up_e: Point,
    pub up_d: Point,
    /// Which one was chosen: "E" or "D".
    pub moved: &'static str,
    /// Line 8's node(E'+1, D') and node(E', D'+1), when it needed them.
    pub check_e: Option<Point>,
    pub check_d: Option<Point>,
    /// Whether line 8 stopped the climb here.
    pub stopped: bool,
}

/// The whole climb.
#[derive(Clone, Debug, Serialize)]
pub struct HillResult {
    /// The points the climb stood on, the start first.
    pub path: Vec<Point>,
    /// Every round, with the values it compared.
    pub steps: Vec<Step>,
    /// Every (E, D) measured, in the order measured.
    pub evaluations: Vec<Point>,
    /// What Algorithm 1 returns.
    pub answer: Point,
    /// The answer, or the best point measured if the answer is ∞.
    pub result: Point,
    pub fallback: bool,
    pub end: End,
    /// The best point measured (smallest node number, then smallest E, D).
    pub best_measured: Option<Point>,
}

fn better(a: &Point, b: &Point) -> bool {
    (a.value(), a.e, a.d) < (b.value(), b.e, b.d)
}

fn best_of<'a>(it: impl Iterator<Item = &'a Point>) -> Option<Point> {
    it.filter(|p| p.nodes.is_some())
        .fold(None, |acc: Option<Point>, p| match acc {
            Some(b) if !better(p, &b) => Some(b),
            _ => Some(*p),
        })
}

/// Algorithm 1 on the target function `node` (see the module notes).
/// `node(e, d)` returns (node number, seesaw number) or `None` for ∞; it is
/// called at most once per point, and never outside the range.
pub fn hill_climb<F>(mut node: F, opts: &HillOptions) -> Result<HillResult, String>
where
    F: FnMut(u64, u32) -> Option<(u64, u64)>,
{
    let (e0, d0) = opts.start;
    let in_range = |e: u64, d: u32| (1..=opts.e_max).contains(&e) && (1..=opts.d_max).contains(&d);
    if !in_range(e0, d0) {
        return Err(format!(
            "the start ({e0}, {d0}) is outside E 1..={} x D 1..={}",
            opts.e_max, opts.d_max
        ));
    }
    let mut memo: HashMap<(u64, u32), Point> = HashMap::new();
    let mut evaluations = Vec::new();
    let mut eval = |e: u64, d: u32| -> Point {
        if !in_range(e, d) {
            return Point {
                e,
                d,
                nodes: None,
                seesaw: None,
            };
        }
        *memo.entry((e, d)).or_insert_with(|| {
            let v = node(e, d);
            let p = Point {
                e,
                d,
                nodes: v.map(|x| x.0),
                seesaw: v.map(|x| x.1),
            };
            evaluations.push(p);
            p
        })
    };

    let (mut e, mut d) = (e0, d0);
    let mut cur = eval(e, d);
    let mut path = vec![cur];
    let mut steps = Vec::new();
    let (answer, end) = loop {
        // Line 2: isNotFlat.
        let k = opts.flat_steps.max(1);
        if path.len() > k
            && path[path.len() - 1 - k..]
                .iter()
                .all(|p| p.nodes == cur.nodes)
        {
            // Line 13: the first point of the trailing run of equal values.
            let first = path
                .iter()
                .rposition(|p| p.nodes != cur.nodes)
                .map_or(0, |i| i + 1);
            break (path[first], End::Flat);
        }
        // Lines 3–7.
        let up_e = eval(e + 1, d);
        let up_d = eval(e, d + 1);
        let (e2, d2, next, moved) = if up_e.value() <= up_d.value() {
            (e + 1, d, up_e, "E")
        } else {
            (e, d + 1, up_d, "D")
        };
        if !in_range(e2, d2) {
            steps.push(Step {
                at: cur,
                up_e,
                up_d,
                moved,
                check_e: None,
                check_d: None,
                stopped: true,
            });
            break (cur, End::Boundary);
        }
        // Line 8, short-circuiting as written.
        let mut check_e = None;
        let mut check_d = None;
        let mut stop = false;
        if next.value() > cur.value() {
            let ce = eval(e2 + 1, d2);
            check_e = Some(ce);
            if ce.value() > next.value() {
                let cd = eval(e2, d2 + 1);
                check_d = Some(cd);
                stop = cd.value() > next.value();
            }
        }
        steps.push(Step {
            at: cur,
            up_e,
            up_d,
            moved,
            check_e,
            check_d,
            stopped: stop,
        });
        if stop {
            // Line 9.
            break (cur, End::LocalOptimum);
        }
        // Line 11.
        cur = next;
        e = e2;
        d = d2;
        path.push(cur);
    };
    let best_measured = best_of(evaluations.iter());
    let (result, fallback) = match (answer.nodes, best_measured) {
        (None, Some(b)) => (b, true),
        _ => (answer, false),
    };
    Ok(HillResult {
        path,
        steps,
        evaluations,
        answer,
        result,
        fallback,
        end,
        best_measured,
    })
}

/// The grid sweep: node(E, D) for every E in 1..=e_max and D in 1..=d_max.
#[derive(Clone, Debug, Serialize)]
pub struct GridResult {
    pub e_max: u64,
    pub d_max: u32,
    /// E-major: (1,1), (1,2), …, (1,d_max), (2,1), …
    pub cells: Vec<Point>,
    /// The smallest node number (ties: smallest E, then D); `None` if every
    /// run was cut off.
    pub best: Option<Point>,
}

/// Builds the grid from `node`, called once per cell in E-major order.
pub fn grid<F>(mut node: F, e_max: u64, d_max: u32) -> GridResult
where
    F: FnMut(u64, u32) -> Option<(u64, u64)>,
{
    let mut cells = Vec::new();
    for e in 1..=e_max {
        for d in 1..=d_max {
            let v = node(e, d);
            cells.push(Point {
                e,
                d,
                nodes: v.map(|x| x.0),
                seesaw: v.map(|x| x.1),
            });
        }
    }
    let best = best_of(cells.iter());
    GridResult {
        e_max,
        d_max,
        cells,
        best,
    }
}

/// Which method [`tune`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Hill,
    Grid,
    Both,
}

impl Method {
    pub fn parse(s: &str) -> Option<Method> {
        match s {
            "hill" => Some(Method::Hill),
            "grid" => Some(Method::Grid),
            "both" => Some(Method::Both),
            _ => None,
        }
    }
}

/// How to tune.
#[derive(Clone)]
pub struct TuneOptions {
    pub method: Method,
    pub hill: HillOptions,
    /// The cut-off N: a run that needs more visits counts as ∞.
    pub cutoff: u64,
    /// The question searched: the side to move wins, or does not lose.
    pub goal: Goal,
    /// Table size per search, MiB.
    pub hash_mb: usize,
    /// Threads for the grid (each with its own table; results do not
    /// depend on it). The climb is sequential by nature.
    pub threads: usize,
    /// Set from outside (Ctrl-C): the remaining runs count as ∞.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called after every search run.
    pub on_run: Option<RunCallback>,
}

/// A callback shown every search run as it finishes (progress display).
pub type RunCallback = Arc<dyn Fn(&Run) + Send + Sync>;

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            method: Method::Hill,
            hill: HillOptions::default(),
            cutoff: 1_000_000,
            goal: Goal::Win,
            hash_mb: 64,
            threads: 1,
            stop: None,
            on_run: None,
        }
    }
}

/// One Deep df-pn search.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub e: u64,
    pub d: u32,
    /// `proven`, `disproven` or `unknown` (cut off).
    pub status: &'static str,
    pub visits: u64,
    pub seesaw: u64,
    pub time_ms: f64,
    /// Over the cut-off: node(E, D) = ∞.
    pub cut_off: bool,
    /// Not searched: E = 1 or D ≤ 1 is df-pn (Table 1), so the grid runs
    /// df-pn once and copies it to those cells (the tests check that they
    /// are identical searches).
    pub shared: bool,
}

impl Run {
    fn value(&self) -> Option<(u64, u64)> {
        (!self.cut_off).then_some((self.visits, self.seesaw))
    }
}

/// Hill-climbing against the grid's best (Table 3: "the difference between
/// Deep df-pn using hill-climbing and Deep df-pn in the best case").
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    pub hill: Point,
    pub grid_best: Point,
    /// Hill's node number minus the best one (≥ 0); `None` if either is ∞.
    pub nodes_difference: Option<i64>,
    pub seesaw_difference: Option<i64>,
}

/// Everything [`tune`] found.
#[derive(Clone, Debug, Serialize)]
pub struct TuneReport {
    pub method: Method,
    pub goal: &'static str,
    pub cutoff: u64,
    pub e_max: u64,
    pub d_max: u32,
    pub flat_steps: usize,
    pub hill: Option<HillResult>,
    pub grid: Option<GridResult>,
    pub comparison: Option<Comparison>,
    /// Every search run, in the order run.
    pub runs: Vec<Run>,
    pub hill_ms: f64,
    pub grid_ms: f64,
    pub interrupted: bool,
}

/// Runs one goal search with Deep df-pn (E, D) from `root` on a cleared
/// table, stopped at `cutoff` visits.
pub fn measure<G: Game>(
    root: &G,
    goal: Goal,
    e: u64,
    d: u32,
    cutoff: u64,
    tt: &mut Table,
    stop: Option<Arc<AtomicBool>>,
) -> Run {
    tt.clear();
    let mut p = GoalProblem::new(root.clone(), goal);
    let limits = Limits {
        visits: Some(cutoff),
        stop,
        ..Limits::default()
    };
    let r = dfpn::search(&mut p, DeepDfpn { e, d }, tt, &limits);
    // A visit is counted only after a check that the limit is not reached,
    // so a finished search has at most `cutoff` visits; the second test is
    // a guard.
    let cut_off = !r.status.is_solved() || r.stats.visits > cutoff;
    Run {
        e,
        d,
        status: r.status.name(),
        visits: r.stats.visits,
        seesaw: r.stats.seesaw_revisits,
        time_ms: r.stats.time_ms,
        cut_off,
        shared: false,
    }
}

/// Tunes (E, D) for `root` (see the module notes).
pub fn tune<G: Game + Sync>(root: &G, opts: &TuneOptions) -> Result<TuneReport, String> {
    if opts.cutoff == 0 {
        return Err("the cut-off must be at least 1".into());
    }
    if opts.hill.e_max == 0 || opts.hill.d_max == 0 {
        return Err("e-max and d-max must be at least 1".into());
    }
    let stopped = |o: &TuneOptions| o.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
    let mut runs: Vec<Run> = Vec::new();
    let mut memo: HashMap<(u64, u32), Run> = HashMap::new();
    let mut tt = Table::with_mb(opts.hash_mb);
    let mut interrupted = false;
    let record = |run: Run, runs: &mut Vec<Run>, memo: &mut HashMap<(u64, u32), Run>| {
        if let Some(f) = &opts.on_run {
            f(&run);
        }
        runs.push(run.clone());
        memo.insert((run.e, run.d), run);
    };

    let mut hill = None;
    let mut hill_ms = 0.0;
    if opts.method != Method::Grid {
        let t = Instant::now();
        let h = hill_climb(
            |e, d| {
                if stopped(opts) {
                    interrupted = true;
                    return None;
                }
                let run = measure(
                    root,
                    opts.goal,
                    e,
                    d,
                    opts.cutoff,
                    &mut tt,
                    opts.stop.clone(),
                );
                let v = run.value();
                record(run, &mut runs, &mut memo);
                v
            },
            &opts.hill,
        )?;
        hill_ms = t.elapsed().as_secs_f64() * 1000.0;
        hill = Some(h);
    }

    let mut grid_result = None;
    let mut grid_ms = 0.0;
    if opts.method != Method::Hill {
        let t = Instant::now();
        let (e_max, d_max) = (opts.hill.e_max, opts.hill.d_max);
        // Cells still to search: not measured by the climb, and only one
        // of the df-pn cells (E = 1 or D = 1), which are all the same search.
        let dfpn_cell = (1u64, 1u32);
        let is_dfpn = |e: u64, d: u32| e == 1 || d <= 1;
        let todo: Vec<(u64, u32)> = (1..=e_max)
            .flat_map(|e| (1..=d_max).map(move |d| (e, d)))
            .filter(|&(e, d)| {
                if is_dfpn(e, d) {
                    (e, d) == dfpn_cell && !memo.keys().any(|&(a, b)| is_dfpn(a, b))
                } else {
                    !memo.contains_key(&(e, d))
                }
            })
            .collect();
        let fresh: Vec<Run> = if opts.threads <= 1 {
            todo.iter()
                .map(|&(e, d)| {
                    let run = if stopped(opts) {
                        interrupted = true;
                        stopped_run(e, d)
                    } else {
                        measure(
                            root,
                            opts.goal,
                            e,
                            d,
                            opts.cutoff,
                            &mut tt,
                            opts.stop.clone(),
                        )
                    };
                    if let Some(f) = &opts.on_run {
                        f(&run);
                    }
                    run
                })
                .collect()
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(opts.threads)
                .stack_size(crate::runner::STACK_BYTES)
                .build()
                .map_err(|e| format!("cannot start threads: {e}"))?;
            let flag = AtomicBool::new(false);
            let v = pool.install(|| {
                todo.par_iter()
                    .map_init(
                        || Table::with_mb(opts.hash_mb),
                        |tt, &(e, d)| {
                            let run = if stopped(opts) {
                                flag.store(true, Ordering::Relaxed);
                                stopped_run(e, d)
                            } else {
                                measure(root, opts.goal, e, d, opts.cutoff, tt, opts.stop.clone())
                            };
                            if let Some(f) = &opts.on_run {
                                f(&run);
                            }
                            run
                        },
                    )
                    .collect()
            });
            interrupted |= flag.load(Ordering::Relaxed);
            v
        };
        for run in fresh {
            runs.push(run.clone());
            memo.insert((run.e, run.d), run);
        }
        let shared_dfpn = memo
            .iter()
            .find(|(&(e, d), _)| is_dfpn(e, d))
            .map(|(_, r)| r.clone());
        let g = grid(
            |e, d| match memo.get(&(e, d)) {
                Some(r) => r.value(),
                None => {
                    // A df-pn cell: the one df-pn search's value.
                    let r = shared_dfpn.as_ref().expect("the df-pn cell was searched");
                    r.value()
                }
            },
            e_max,
            d_max,
        );
        // Note which cells are copies of the df-pn search.
        for c in &g.cells {
            if is_dfpn(c.e, c.d) && !memo.contains_key(&(c.e, c.d)) {
                if let Some(r) = &shared_dfpn {
                    runs.push(Run {
                        e: c.e,
                        d: c.d,
                        shared: true,
                        time_ms: 0.0,
                        ..r.clone()
                    });
                }
            }
        }
        grid_ms = t.elapsed().as_secs_f64() * 1000.0;
        grid_result = Some(g);
    }

    let comparison = match (&hill, &grid_result) {
        (Some(h), Some(g)) => g.best.map(|b| {
            let diff = |a: Option<u64>, b: Option<u64>| Some(a? as i64 - b? as i64);
            Comparison {
                hill: h.result,
                grid_best: b,
                nodes_difference: diff(h.result.nodes, b.nodes),
                seesaw_difference: diff(h.result.seesaw, b.seesaw),
            }
        }),
        _ => None,
    };
    Ok(TuneReport {
        method: opts.method,
        goal: opts.goal.name(),
        cutoff: opts.cutoff,
        e_max: opts.hill.e_max,
        d_max: opts.hill.d_max,
        flat_steps: opts.hill.flat_steps,
        hill,
        grid: grid_result,
        comparison,
        runs,
        hill_ms,
        grid_ms,
        interrupted,
    })
}

fn stopped_run(e: u64, d: u32) -> Run {
    Run {
        e,
        d,
        status: "unknown",
        visits: 0,
        seesaw: 0,
        time_ms: 0.0,
        cut_off: true,
        shared: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::prelude::*;
    use pns_core::rng::splitmix64;
    use pns_games::{ConnectFour, Synthetic};

    fn bowl(e0: i64, d0: i64) -> impl FnMut(u64, u32) -> Option<(u64, u64)> {
        move |e, d| {
            let (de, dd) = (e as i64 - e0, d as i64 - d0);
            Some(((100 + de * de + dd * dd) as u64, (de * de) as u64))
        }
    }

    fn opts(e_max: u64, d_max: u32) -> HillOptions {
        HillOptions {
            e_max,
            d_max,
            ..HillOptions::default()
        }
    }

    #[test]
    fn a_bowl_is_climbed_to_its_bottom_and_stops_by_line_8() {
        let h = hill_climb(bowl(7, 4), &opts(20, 15)).unwrap();
        assert_eq!((h.result.e, h.result.d), (7, 4));
        assert_eq!(h.result.nodes, Some(100));
        assert_eq!(h.end, End::LocalOptimum);
        assert!(!h.fallback);
        // The path starts at (2, 2) and each step adds one to E or D.
        assert_eq!((h.path[0].e, h.path[0].d), (2, 2));
        for w in h.path.windows(2) {
            assert_eq!((w[1].e + w[1].d as u64) - (w[0].e + w[0].d as u64), 1);
        }
        // (6,2) → D: node(7,2) = 104 > node(6,3) = 102; (6,3) → E on a tie.
        let s = h.steps.iter().find(|s| (s.at.e, s.at.d) == (6, 2)).unwrap();
        assert_eq!(s.moved, "D");
        let s = h.steps.iter().find(|s| (s.at.e, s.at.d) == (6, 3)).unwrap();
        assert_eq!(s.moved, "E");
        let last = h.steps.last().unwrap();
        assert!(last.stopped);
        assert_eq!(last.check_e.map(|p| (p.e, p.d)), Some((9, 4)));
        assert_eq!(last.check_d.map(|p| (p.e, p.d)), Some((8, 5)));
    }

    #[test]
    fn every_point_is_measured_once() {
        let mut calls = HashMap::new();
        let mut f = bowl(9, 6);
        let h = hill_climb(
            |e, d| {
                *calls.entry((e, d)).or_insert(0) += 1;
                f(e, d)
            },
            &opts(20, 15),
        )
        .unwrap();
        assert!(calls.values().all(|&n| n == 1));
        assert_eq!(calls.len(), h.evaluations.len());
    }

    #[test]
    fn a_single_worse_step_is_taken_on_trust() {
        // Descending in E, with a bump at E = 5 (worse than E = 4) whose
        // successor E = 6 is better again: line 8 does not stop there.
        // Raising D is always much worse.
        let f = |e: u64, d: u32| {
            let v = if e == 5 { 1000 } else { 500 - 10 * e };
            Some((v + 10_000 * (d as u64 - 2), 0))
        };
        let h = hill_climb(f, &opts(12, 15)).unwrap();
        assert!(h.path.iter().any(|p| p.e == 5));
        // At E = e_max, line 3 turns to D, which is worse, and so are its
        // successors (E + 1 is outside the range: ∞).
        assert_eq!((h.result.e, h.result.d), (12, 2));
        assert_eq!(h.end, End::LocalOptimum);
    }

    #[test]
    fn a_plateau_is_a_flat_and_its_first_point_is_returned() {
        // Decreasing until E + D = 8, constant beyond.
        let f = |e: u64, d: u32| Some(((1000 - 50 * (e + d as u64).min(8)), 7));
        let h = hill_climb(f, &opts(20, 15)).unwrap();
        assert_eq!(h.end, End::Flat);
        assert_eq!(h.result.e + h.result.d as u64, 8);
        assert_eq!(h.path.len(), 4 + 1 + 3);
        // A constant function: the start is the whole flat's minimum.
        let h = hill_climb(|_, _| Some((5, 0)), &opts(20, 15)).unwrap();
        assert_eq!((h.result.e, h.result.d, h.end), (2, 2, End::Flat));
    }

    #[test]
    fn past_the_cut_off_the_best_measured_point_is_kept() {
        // Only the start is finite: the climb walks into ∞, finds a flat of
        // ∞, and falls back on the start.
        let f = |e: u64, d: u32| ((e, d) == (2, 2)).then_some((42, 1));
        let h = hill_climb(f, &opts(20, 15)).unwrap();
        assert_eq!(h.answer.nodes, None);
        assert!(h.fallback);
        assert_eq!((h.result.e, h.result.d, h.result.nodes), (2, 2, Some(42)));
    }

    #[test]
    fn the_climb_stops_at_the_corner() {
        let f = |e: u64, d: u32| Some((100 - e - d as u64, 0));
        let h = hill_climb(f, &opts(3, 3)).unwrap();
        assert_eq!((h.result.e, h.result.d, h.end), (3, 3, End::Boundary));
        assert!(hill_climb(f, &opts(1, 3)).is_err());
    }

    #[test]
    fn hill_is_never_better_than_the_grid_on_random_landscapes() {
        for seed in 0..200u64 {
            let f = |e: u64, d: u32| {
                let h = splitmix64(seed ^ (e << 8) ^ d as u64);
                (!h.is_multiple_of(7)).then_some((h % 1000, h % 13))
            };
            let h = hill_climb(f, &opts(8, 6)).unwrap();
            let g = grid(f, 8, 6);
            assert_eq!(g.cells.len(), 48);
            if let (Some(b), Some(n)) = (g.best, h.result.nodes) {
                assert!(n >= b.nodes.unwrap(), "seed {seed}");
            }
            // The grid's best is the minimum of its cells.
            let min = g.cells.iter().filter_map(|c| c.nodes).min();
            assert_eq!(g.best.and_then(|b| b.nodes), min);
        }
    }

    fn sanity<G: Game + Sync>(root: &G, cutoff: u64) {
        let opts = TuneOptions {
            method: Method::Both,
            hill: opts(6, 5),
            cutoff,
            hash_mb: 4,
            ..TuneOptions::default()
        };
        let r = tune(root, &opts).unwrap();
        let h = r.hill.as_ref().unwrap();
        let g = r.grid.as_ref().unwrap();
        let c = r.comparison.as_ref().unwrap();
        assert!(c.nodes_difference.unwrap() >= 0);
        assert_eq!(g.cells.len(), 30);
        // The climb's measurements are the grid's: same search, same table.
        for p in &h.evaluations {
            let cell = g.cells.iter().find(|c| (c.e, c.d) == (p.e, p.d)).unwrap();
            assert_eq!(cell, p);
        }
        // Each cell is one search of the cell's (E, D), ∞ over the cut-off.
        for c in &g.cells {
            let mut tt = Table::with_mb(4);
            let run = measure(root, Goal::Win, c.e, c.d, u64::MAX, &mut tt, None);
            let want = (run.visits <= cutoff).then_some(run.visits);
            assert_eq!(c.nodes, want, "({}, {})", c.e, c.d);
        }
        // The df-pn cells share one search.
        let dfpn: Vec<_> = g.cells.iter().filter(|c| c.e == 1 || c.d == 1).collect();
        assert!(dfpn.windows(2).all(|w| w[0].nodes == w[1].nodes));
        assert!(r.runs.iter().any(|r| r.shared));
        // Same grid with two threads.
        let r2 = tune(
            root,
            &TuneOptions {
                method: Method::Grid,
                threads: 2,
                ..opts
            },
        )
        .unwrap();
        assert_eq!(r2.grid.unwrap().cells, g.cells);
    }

    #[test]
    fn tuning_a_synthetic_tree_is_sane() {
        let g = Synthetic::parse_position("shape=unbalanced,depth=12,branching=4,seed=3,pool=300")
            .unwrap();
        sanity(&g, 500);
    }

    #[test]
    fn tuning_an_easy_connect_four_position_is_sane() {
        // From Pons' Test_L2_R2: a loss, about 4,000 visits for df-pn; the
        // cut-off makes a few cells ∞.
        let g = ConnectFour::parse_position("7225753363613131156611").unwrap();
        sanity(&g, 5000);
    }
}
