//! `connect6-deep-dfpn`: Deep df-pn in its home domain (deep-dfpn §5–6):
//! the relevance-zone-oriented search of `pns-connect6` (nested VCDT at
//! the attacker's nodes, relevance zones at the defender's, the attacker's
//! top 5 moves as in §6.1) with Deep df-pn over E 1..20 × D 1..15 (Figs
//! 5–8 as heatmaps), the best cell against df-pn and against the best 1+ε
//! (Table 2, Figs 9–12 as one line chart per position), and hill-climbing
//! (Algorithm 1) against the grid's best (Table 3).
//!
//! # Positions
//!
//! The paper's eight positions are pictures. Ours are seeded openings of
//! the same kinds on the 19x19 board, Black to move: four-move openings
//! (1 + 2 + 2 + 2 stones, even candidates) and six-move ones (odd
//! candidates), Black's stones within 2 of the centre and White's within
//! 3 (`pns_connect6::openings`). As in the paper ("positions which can be
//! solved by df-pn"), a candidate is kept when the zone-oriented df-pn
//! proves Black's win with between [`MIN_VISITS`] and [`MAX_VISITS`] node
//! visits and at least [`MIN_OWN`] of them outside the nested VCDT
//! searches (a root that VCDT settles at once leaves nothing to tune).
//!
//! # Numbers
//!
//! node(E, D) is all node visits, nested VCDT ones included (§6.1: "the
//! node number equals VCDT node number + Deep df-pn node number",
//! re-traversals included); the seesaw number counts the outer search's
//! revisits only ("when a node in Deep df-pn is traversed again"). A run
//! past the cut-off ([`CUTOFF_FACTOR`] × df-pn's node number; the
//! paper's were 500,000 and 160,000) counts as the threshold in the
//! heatmaps, blank seesaw, ∞ for hill-climbing. E = 1 or D ≤ 1 is df-pn
//! (Table 1) and is searched once. The climb runs on the grid's values
//! (every search is deterministic on a cleared table), its time being the
//! sum of the searches it would have run.

use std::fmt::Write as _;
use std::time::Instant;

use pns_core::{Goal, Limits, Rng, Side, Status, Table};
use pns_games::connect6::openings::random_opening;
use pns_games::connect6::zone::{self, Variant, ZoneOptions};
use pns_games::connect6::{notation, vcdt, Connect6, Params};

use crate::output::{self, fmt_f, Table as OutTable};
use crate::plot::{Heatmap, LineChart, Series};
use crate::runner::{item_seed, par_map};
use crate::tune::{self, HillOptions};
use crate::{ExpOptions, Experiment, Report};

use super::deep_dfpn_grid::EPSILONS;

pub const EXPERIMENT: Experiment = Experiment {
    name: "connect6-deep-dfpn",
    about: "Relevance-zone Deep df-pn on Connect6 openings: E 1..20 x D 1..15 node and seesaw numbers, vs df-pn and 1+eps, hill-climbing vs the grid (Deep df-pn paper Figs 5-12, Tables 2-3)",
    run,
};

pub const DEFAULT_POSITIONS: usize = 8;
/// Positions that need an outer search (no VCDT at the root), after the
/// others. Rare: one of the first 140 hard candidates is solved within the
/// window (docs/experiments/connect6.md).
pub const HARD_POSITIONS: usize = 1;
/// df-pn's node number window for a kept hard candidate.
pub const HARD_MIN_VISITS: u64 = 5_000;
pub const HARD_MAX_VISITS: u64 = 80_000;
/// White's stones within this distance of the centre in hard candidates
/// (farther than in the others: with White's stones at hand Black rarely
/// wins within the window without a VCDT).
pub const HARD_WHITE_RADIUS: usize = 6;
/// Black's stones within this distance of the centre in hard candidates.
pub const HARD_BLACK_RADIUS: usize = 2;
/// df-pn's node number window for a kept candidate.
pub const MIN_VISITS: u64 = 1_000;
pub const MAX_VISITS: u64 = 20_000;
/// Outer (non-VCDT) visits a kept candidate needs at least.
pub const MIN_OWN: u64 = 20;
pub const CUTOFF_FACTOR: u64 = 3;
pub const E_MAX: u64 = 20;
pub const D_MAX: u32 = 15;
pub const HASH_MB: usize = 32;
/// Attacker moves searched (§6.1: "only generates the top 5").
pub const TOP: usize = 5;
const MAX_ATTEMPTS_PER_POSITION: usize = 100;

/// The zone search's settings in this experiment.
pub fn zone_options() -> ZoneOptions {
    ZoneOptions {
        top: Some(TOP),
        ..ZoneOptions::default()
    }
}

/// The settings on the hard positions: propagated zones too (a zone where
/// the null move's VCDT fails comes from a nested zone search, Wu and Lin).
pub fn hard_zone_options() -> ZoneOptions {
    ZoneOptions {
        propagate: true,
        ..zone_options()
    }
}

/// Hard candidate `i`: a four-move (even `i`) or six-move (odd) opening
/// with White's stones farther out.
pub fn hard_candidate(seed: u64, i: usize) -> Connect6 {
    // The stream the first scan used (examples/c6_pick.rs); with another
    // salt no candidate of the first 300 was solved within the window.
    const SALT: u64 = 0xc6_4a2a;
    let turns = if i.is_multiple_of(2) { 4 } else { 6 };
    random_opening(
        Params::default(),
        turns,
        HARD_BLACK_RADIUS,
        HARD_WHITE_RADIUS,
        &mut Rng::new(item_seed(seed ^ SALT, i)),
    )
    .expect("openings exist on 19x19")
}

/// Candidate `i`: a four-move (even `i`) or six-move (odd) opening.
pub fn candidate(seed: u64, i: usize) -> Connect6 {
    const SALT: u64 = 0xc6_dee9;
    let turns = if i.is_multiple_of(2) { 4 } else { 6 };
    random_opening(
        Params::default(),
        turns,
        2,
        3,
        &mut Rng::new(item_seed(seed ^ SALT, i)),
    )
    .expect("openings exist on 19x19")
}

/// One search: (solved within the cut-off, node number, seesaw, ms).
pub fn measure(
    g: &Connect6,
    v: Variant,
    cutoff: u64,
    tt: &mut Table,
    zo: ZoneOptions,
) -> (bool, u64, u64, f64) {
    tt.clear();
    let limits = Limits {
        visits: Some(cutoff),
        ..Limits::default()
    };
    let t = Instant::now();
    let r = zone::search(g, Goal::Win, v, tt, &limits, zo);
    let ok = r.result.status == Status::Proven && r.result.stats.visits <= cutoff;
    (
        ok,
        r.result.stats.visits,
        r.seesaw,
        t.elapsed().as_secs_f64() * 1000.0,
    )
}

/// A chosen position and df-pn's numbers on it.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub candidate: usize,
    /// A hard candidate (no VCDT at the root; propagated zones).
    pub hard: bool,
    pub game: Connect6,
    pub dfpn_visits: u64,
    pub dfpn_own: u64,
    pub dfpn_seesaw: u64,
    pub dfpn_ms: f64,
    pub cutoff: u64,
}

/// The first `n` candidates in seed order that df-pn proves within the
/// window (parallel batches; the choice does not depend on the threads).
pub fn choose(opts: &ExpOptions, n: usize, min: u64, max: u64) -> Result<Vec<Chosen>, String> {
    choose_from(opts, n, min, max, false)
}

/// [`choose`] among the hard candidates ([`hard_candidate`]): those where a
/// standalone VCDT search of [`vcdt::CLAIM_BUDGET`] visits does not win
/// at the root, proven by df-pn with [`hard_zone_options`].
pub fn choose_hard(opts: &ExpOptions, n: usize, min: u64, max: u64) -> Result<Vec<Chosen>, String> {
    choose_from(opts, n, min, max, true)
}

fn choose_from(
    opts: &ExpOptions,
    n: usize,
    min: u64,
    max: u64,
    hard: bool,
) -> Result<Vec<Chosen>, String> {
    let mut out = Vec::new();
    let mut next = 0;
    let batch = 4 * n.max(1);
    while out.len() < n {
        if next >= MAX_ATTEMPTS_PER_POSITION * n.max(1) {
            return Err(format!(
                "only {} of {n} openings found that df-pn proves in {min}..{max} visits",
                out.len()
            ));
        }
        let idx: Vec<usize> = (next..next + batch).collect();
        next += batch;
        let found = par_map(opts, HASH_MB, &idx, |tt, _, &i| {
            let g = if hard {
                hard_candidate(opts.seed, i)
            } else {
                candidate(opts.seed, i)
            };
            tt.clear();
            if hard {
                let mut st = pns_core::Stats::default();
                let root = vcdt::search(&g, Side::First, tt, vcdt::CLAIM_BUDGET, 0, &mut st);
                if root == Status::Proven {
                    return None;
                }
                tt.clear();
            }
            let zo = if hard {
                hard_zone_options()
            } else {
                zone_options()
            };
            let limits = Limits {
                visits: Some(max),
                ..Limits::default()
            };
            let t = Instant::now();
            let r = zone::search(&g, Goal::Win, Variant::Dfpn, tt, &limits, zo);
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            let s = &r.result.stats;
            let own = s.visits - s.nested_visits;
            (r.result.status == Status::Proven && (min..=max).contains(&s.visits) && own >= MIN_OWN)
                .then(|| Chosen {
                    candidate: i,
                    hard,
                    game: g,
                    dfpn_visits: s.visits,
                    dfpn_own: own,
                    dfpn_seesaw: r.seesaw,
                    dfpn_ms: ms,
                    cutoff: CUTOFF_FACTOR * s.visits,
                })
        })?;
        out.extend(found.into_iter().flatten());
    }
    out.truncate(n);
    Ok(out)
}

#[derive(Clone, Copy, Debug)]
enum Job {
    Deep(usize, u64, u32),
    Eps(usize, usize),
}

fn with_reduction(n: u64, base: u64) -> String {
    if base == 0 {
        return n.to_string();
    }
    let r = 100.0 * (base as f64 - n as f64) / base as f64;
    format!("{n} ({r:.1}%)")
}

fn with_difference(n: Option<u64>, best: Option<u64>) -> String {
    match (n, best) {
        (Some(a), Some(b)) => format!("{a} ({})", a as i64 - b as i64),
        (Some(a), None) => a.to_string(),
        _ => "∞".to_string(),
    }
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    run_with(
        opts,
        opts.positions_or(DEFAULT_POSITIONS),
        MIN_VISITS,
        MAX_VISITS,
        E_MAX,
        D_MAX,
        HARD_POSITIONS,
    )
}

/// [`run`] with the window and the grid as parameters (tests use a small
/// grid).
pub fn run_with(
    opts: &ExpOptions,
    n: usize,
    min: u64,
    max: u64,
    e_max: u64,
    d_max: u32,
    hard: usize,
) -> Result<Report, String> {
    let mut chosen = choose(opts, n, min, max)?;
    if hard > 0 {
        chosen.extend(choose_hard(opts, hard, HARD_MIN_VISITS, HARD_MAX_VISITS)?);
    }
    let zo = |k: usize| {
        if chosen[k].hard {
            hard_zone_options()
        } else {
            zone_options()
        }
    };
    let mut jobs = Vec::new();
    for k in 0..chosen.len() {
        for e in 2..=e_max {
            for d in 2..=d_max {
                jobs.push(Job::Deep(k, e, d));
            }
        }
        for i in 0..EPSILONS.len() {
            jobs.push(Job::Eps(k, i));
        }
    }
    let results = par_map(opts, HASH_MB, &jobs, |tt, _, &j| match j {
        Job::Deep(k, e, d) => measure(
            &chosen[k].game,
            Variant::Deep { e, d },
            chosen[k].cutoff,
            tt,
            zo(k),
        ),
        Job::Eps(k, i) => measure(
            &chosen[k].game,
            Variant::Epsilon(EPSILONS[i]),
            chosen[k].cutoff,
            tt,
            zo(k),
        ),
    })?;
    // Per position: (e, d) -> result; ε index -> result.
    let deep = |k: usize, e: u64, d: u32| -> (bool, u64, u64, f64) {
        let c = &chosen[k];
        if e == 1 || d <= 1 {
            return (true, c.dfpn_visits, c.dfpn_seesaw, c.dfpn_ms);
        }
        let i = jobs
            .iter()
            .position(|j| matches!(*j, Job::Deep(a, b, c) if a == k && b == e && c == d))
            .expect("job");
        results[i]
    };
    let eps = |k: usize, i: usize| {
        let j = jobs
            .iter()
            .position(|j| matches!(*j, Job::Eps(a, b) if a == k && b == i))
            .expect("job");
        results[j]
    };
    let value = |r: (bool, u64, u64, f64)| r.0.then_some((r.1, r.2));

    let dir = &opts.out;
    let mut files = Vec::new();
    let mut pt = OutTable::new([
        "position",
        "candidate",
        "kind",
        "position (notation)",
        "df-pn node number",
        "of which outside VCDT",
        "df-pn seesaw",
        "cut-off",
    ]);
    for (k, c) in chosen.iter().enumerate() {
        pt.push([
            (k + 1).to_string(),
            c.candidate.to_string(),
            format!(
                "{}{}",
                if c.candidate.is_multiple_of(2) {
                    "four-move"
                } else {
                    "six-move"
                },
                if c.hard { ", hard" } else { "" }
            ),
            notation::format_position(&c.game),
            c.dfpn_visits.to_string(),
            c.dfpn_own.to_string(),
            c.dfpn_seesaw.to_string(),
            c.cutoff.to_string(),
        ]);
    }
    files.push(pt.write_csv(dir, "positions")?);

    let mut gt = OutTable::new([
        "position",
        "E",
        "D",
        "node_number",
        "seesaw",
        "cut_off",
        "time_ms",
    ]);
    let mut et = OutTable::new(["position", "epsilon", "node_number", "seesaw", "cut_off"]);
    let mut ht = OutTable::new(["position", "step", "E", "D", "node_number", "seesaw"]);
    let mut t2 = OutTable::new([
        "position",
        "df-pn node number",
        "df-pn seesaw",
        "Deep df-pn node number",
        "Deep df-pn seesaw",
        "E, D",
        "1+ε node number",
        "1+ε seesaw",
        "ε",
    ]);
    let mut t3 = OutTable::new([
        "position",
        "node number",
        "seesaw",
        "E, D",
        "iteration time (s)",
        "end",
        "searches",
    ]);
    let mut sums = [0f64; 9];
    let mut cnt = [0usize; 3];
    let mut eps_series = Vec::new();
    for (k, c) in chosen.iter().enumerate() {
        for e in 1..=e_max {
            for d in 1..=d_max {
                let r = deep(k, e, d);
                gt.push([
                    (k + 1).to_string(),
                    e.to_string(),
                    d.to_string(),
                    if r.0 { r.1 } else { c.cutoff }.to_string(),
                    if r.0 { r.2.to_string() } else { String::new() },
                    (!r.0).to_string(),
                    fmt_f(r.3, 1),
                ]);
            }
        }
        let mut pts = Vec::new();
        for (i, &e) in EPSILONS.iter().enumerate() {
            let r = eps(k, i);
            et.push([
                (k + 1).to_string(),
                e.to_string(),
                if r.0 { r.1 } else { c.cutoff }.to_string(),
                if r.0 { r.2.to_string() } else { String::new() },
                (!r.0).to_string(),
            ]);
            pts.push((e, if r.0 { r.1 } else { c.cutoff } as f64));
        }
        eps_series.push(Series {
            name: format!("position {}", k + 1),
            points: pts,
        });
        let g = tune::grid(|e, d| value(deep(k, e, d)), e_max, d_max);
        let mut ms_spent = 0.0;
        let h = tune::hill_climb(
            |e, d| {
                let r = deep(k, e, d);
                ms_spent += r.3;
                value(r)
            },
            &HillOptions {
                e_max,
                d_max,
                ..HillOptions::default()
            },
        )?;
        for (i, p) in h.path.iter().enumerate() {
            ht.push([
                (k + 1).to_string(),
                i.to_string(),
                p.e.to_string(),
                p.d.to_string(),
                p.nodes.map_or("∞".into(), |v| v.to_string()),
                p.seesaw.map_or(String::new(), |v| v.to_string()),
            ]);
        }
        let eps_best = (0..EPSILONS.len())
            .filter_map(|i| value(eps(k, i)).map(|(n, s)| (n, s, EPSILONS[i])))
            .min_by(|a, b| a.0.cmp(&b.0).then(a.2.total_cmp(&b.2)));
        let best = g.best;
        let (bn, bs) = best.map_or((None, None), |b| (b.nodes, b.seesaw));
        t2.push([
            (k + 1).to_string(),
            c.dfpn_visits.to_string(),
            c.dfpn_seesaw.to_string(),
            bn.map_or("∞".into(), |v| with_reduction(v, c.dfpn_visits)),
            bs.map_or("".into(), |v| with_reduction(v, c.dfpn_seesaw)),
            best.map_or(String::new(), |b| b.label()),
            eps_best.map_or("∞".into(), |x| with_reduction(x.0, c.dfpn_visits)),
            eps_best.map_or("".into(), |x| with_reduction(x.1, c.dfpn_seesaw)),
            eps_best.map_or(String::new(), |x| x.2.to_string()),
        ]);
        if let (Some(n), Some(s)) = (bn, bs) {
            sums[0] += c.dfpn_visits as f64;
            sums[1] += c.dfpn_seesaw as f64;
            sums[2] += n as f64;
            sums[3] += s as f64;
            cnt[0] += 1;
        }
        if let Some(x) = eps_best {
            sums[7] += x.0 as f64;
            sums[8] += x.1 as f64;
            cnt[2] += 1;
        }
        let p = h.result;
        t3.push([
            (k + 1).to_string(),
            with_difference(p.nodes, bn),
            with_difference(p.seesaw, bs),
            p.label(),
            fmt_f(ms_spent / 1000.0, 1),
            format!("{:?}{}", h.end, if h.fallback { " (fallback)" } else { "" }),
            h.evaluations.len().to_string(),
        ]);
        if let (Some(n), Some(s), Some(b)) = (p.nodes, p.seesaw, bn) {
            sums[4] += n as f64;
            sums[5] += s as f64;
            sums[6] += (n - b) as f64;
            cnt[1] += 1;
        }

        // Figs 5–8: heatmaps, rows D, columns E.
        let mut nodes = Vec::new();
        let mut seesaw = Vec::new();
        for d in 1..=d_max {
            let (mut rn, mut rs) = (Vec::new(), Vec::new());
            for e in 1..=e_max {
                let r = deep(k, e, d);
                rn.push(if r.0 { r.1 } else { c.cutoff } as f64);
                rs.push(if r.0 { r.2.max(1) as f64 } else { f64::NAN });
            }
            nodes.push(rn);
            seesaw.push(rs);
        }
        let x_ticks: Vec<String> = (1..=e_max).map(|e| e.to_string()).collect();
        let y_ticks: Vec<String> = (1..=d_max).map(|d| d.to_string()).collect();
        files.push(
            Heatmap {
                title: format!(
                    "Connect6 position {}: node number (cut-off {} = threshold; df-pn at E=1 or D=1)",
                    k + 1,
                    c.cutoff
                ),
                x_label: "E".into(),
                y_label: "D".into(),
                x_ticks: x_ticks.clone(),
                y_ticks: y_ticks.clone(),
                values: nodes,
                log: true,
            }
            .write(dir, &format!("nodes_p{}.svg", k + 1))?,
        );
        files.push(
            Heatmap {
                title: format!(
                    "Connect6 position {}: seesaw number (blank = cut off; 0 drawn as 1)",
                    k + 1
                ),
                x_label: "E".into(),
                y_label: "D".into(),
                x_ticks,
                y_ticks,
                values: seesaw,
                log: true,
            }
            .write(dir, &format!("seesaw_p{}.svg", k + 1))?,
        );
    }
    files.push(gt.write_csv(dir, "grid")?);
    files.push(et.write_csv(dir, "epsilon")?);
    files.push(ht.write_csv(dir, "hill_path")?);
    if cnt[0] > 0 {
        let m = |x: f64| x / cnt[0] as f64;
        let m2 = |x: f64| x / cnt[2].max(1) as f64;
        t2.push([
            "average".to_string(),
            fmt_f(m(sums[0]), 1),
            fmt_f(m(sums[1]), 1),
            format!(
                "{} ({:.1}%)",
                fmt_f(m(sums[2]), 1),
                100.0 * (1.0 - sums[2] / sums[0])
            ),
            format!(
                "{} ({:.1}%)",
                fmt_f(m(sums[3]), 1),
                100.0 * (1.0 - sums[3] / sums[1].max(1.0))
            ),
            String::new(),
            format!(
                "{} ({:.1}%)",
                fmt_f(m2(sums[7]), 1),
                100.0 * (1.0 - sums[7] / sums[0])
            ),
            format!(
                "{} ({:.1}%)",
                fmt_f(m2(sums[8]), 1),
                100.0 * (1.0 - sums[8] / sums[1].max(1.0))
            ),
            String::new(),
        ]);
    }
    if cnt[1] > 0 {
        let m = |x: f64| x / cnt[1] as f64;
        let base = m(sums[4]) - m(sums[6]);
        t3.push([
            "average".to_string(),
            format!("{} ({})", fmt_f(m(sums[4]), 1), fmt_f(m(sums[6]), 1)),
            fmt_f(m(sums[5]), 1),
            format!(
                "{:.1}% above the grid's best",
                if base > 0.0 {
                    100.0 * m(sums[6]) / base
                } else {
                    0.0
                }
            ),
            String::new(),
            String::new(),
            String::new(),
        ]);
    }
    files.push(t2.write_csv(dir, "table2")?);
    files.push(t3.write_csv(dir, "table3")?);
    files.push(
        LineChart {
            title: "1+ε: node number per ε (cut-off = threshold)".into(),
            x_label: "ε".into(),
            y_label: "node number".into(),
            series: eps_series,
            x_reversed: false,
            y_log: true,
        }
        .write(dir, "epsilon.svg")?,
    );

    let mut md = String::new();
    let _ = writeln!(
        md,
        "# connect6-deep-dfpn\n\n{} Connect6 openings on 19x19 (seed {}; four-move and \
         six-move openings alternately, Black to move; kept when the relevance-zone \
         df-pn proves Black's win in {min}..{max} node visits with at least {MIN_OWN} \
         outside VCDT). Relevance-zone search: nested VCDT ({} visits each) at Black's \
         nodes, zones at White's (null-move VCDT of {} visits), Black's top {TOP} moves. Deep df-pn over E 1..{e_max} x D \
         1..{d_max}; node number = all visits, VCDT's included; seesaw number = the outer \
         search's revisits (deep-dfpn §6.1). Cut-off = {CUTOFF_FACTOR} x df-pn's node \
         number. Table 2 percentages: reduction against df-pn. Table 3: Algorithm 1 from \
         (2, 2) on the grid's values, in brackets the difference from the grid's best.\n\n\
         The last {hard} position(s) (\"hard\") are openings with White's stones within \
         {HARD_WHITE_RADIUS} of the centre where a standalone VCDT search of {} visits does \
         not win at the root, kept when df-pn proves Black's win in \
         {HARD_MIN_VISITS}..{HARD_MAX_VISITS} visits; they are searched with propagated \
         zones too (a nested zone search of {} visits where the null move's VCDT fails).\n",
        chosen.len(),
        opts.seed,
        zone_options().vcdt_visits,
        zone_options().zone_visits,
        vcdt::CLAIM_BUDGET,
        hard_zone_options().nest_visits,
    );
    let _ = writeln!(md, "## Positions\n\n{}", pt.to_markdown());
    let _ = writeln!(
        md,
        "## Table 2: best case against df-pn\n\n{}",
        t2.to_markdown()
    );
    let _ = writeln!(
        md,
        "## Table 3: hill-climbing against the grid's best\n\n{}",
        t3.to_markdown()
    );
    let _ = writeln!(
        md,
        "Heatmaps (Figs 5–8): `nodes_pK.svg`, `seesaw_pK.svg`; `epsilon.svg` (Figs 9–12, \
         {} values of ε); grid.csv, epsilon.csv and hill_path.csv hold every run.",
        EPSILONS.len()
    );
    files.push(output::write(dir, "connect6-deep-dfpn.md", &md)?);
    Ok(Report { files, summary: md })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_grid_writes_its_tables() {
        let dir = std::env::temp_dir().join(format!("pns-lab-c6-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(1),
            seed: 1,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        let r = run_with(&opts, 1, 500, 20_000, 3, 3, 0).unwrap();
        for f in [
            "positions.csv",
            "grid.csv",
            "table2.csv",
            "table3.csv",
            "nodes_p1.svg",
            "epsilon.svg",
        ] {
            assert!(dir.join(f).exists(), "{f}");
        }
        assert!(r.summary.contains("## Table 2"));
        let grid = std::fs::read_to_string(dir.join("grid.csv")).unwrap();
        assert_eq!(grid.lines().count(), 10);
        // Every chosen position is a proven win of Black's.
        let pos = std::fs::read_to_string(dir.join("positions.csv")).unwrap();
        assert_eq!(pos.lines().count(), 2);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn candidates_are_openings_with_black_to_move() {
        for i in 0..6 {
            let g = candidate(1, i);
            assert_eq!(g.stones(), if i.is_multiple_of(2) { 7 } else { 11 });
            assert_eq!(g.stones_left(), 2);
            assert_eq!(
                pns_core::prelude::Rules::side_to_move(&g),
                pns_core::Side::First
            );
        }
    }
}
