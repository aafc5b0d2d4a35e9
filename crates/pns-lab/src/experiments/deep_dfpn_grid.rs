//! `deep-dfpn-grid`: Deep df-pn's node number and seesaw number over
//! E in 1..=20 and D in 1..=15 (Deep df-pn paper §6.1–6.2, Figs 5–8, as
//! heatmaps), the best cell against df-pn and against the 1+ε trick
//! (Table 2), and the paper's hill-climbing against the grid's best
//! (§6.4, Algorithm 1, Table 3).
//!
//! # Positions
//!
//! The paper's Connect6 positions and its relevance-zone solver are not
//! available. We use random Othello endgames with 16 empty squares (44
//! random moves, as in the DeepPN experiments), searched with the rules
//! only ([`RulesOnly`]; Deep df-pn's leaves take E^(D−depth), df-pn's 1) and
//! the question "does the side to move win?". Like the paper's ("positions
//! which can be solved by df-pn"), they are chosen by df-pn: candidates are
//! drawn in seed order and the first `--positions` (default
//! [`DEFAULT_POSITIONS`], the paper's eight) whose df-pn search needs
//! between [`MIN_VISITS`] and [`MAX_VISITS`] node visits are kept, so that
//! every grid is informative and affordable.
//!
//! # Node number, seesaw number, cut-off
//!
//! node(E, D) is `stats.visits` (node visits including re-traversals, the
//! paper's "node number"), the seesaw number `stats.seesaw_revisits`
//! (visits to a node expanded before). The paper's cut-off rule (§6.1): a
//! search whose node number passes a per-position threshold is stopped, its
//! node number recorded as the threshold and its seesaw number left blank.
//! The paper's thresholds were 500,000 and 160,000, about 3.1 and 2.4 times
//! df-pn's node number on its positions 1 and 2; ours is [`CUTOFF_FACTOR`]
//! times df-pn's. The grid and the climb come from [`crate::tune`] (the
//! same cut-off makes a cell ∞ for the climb).
//!
//! # 1+ε
//!
//! The paper sweeps ε from 0.05 to 15 by 0.05 (300 values); we run the
//! coarser [`EPSILONS`] under the same cut-off and keep the best.

use std::fmt::Write as _;
use std::time::Instant;

use pns_core::dfpn::{self, Epsilon};
use pns_core::{Goal, GoalProblem, Limits, Rng, RulesOnly, Status, Table};
use pns_games::othello::Othello;

use crate::output::{self, fmt_f, Table as OutTable};
use crate::plot::Heatmap;
use crate::runner::{item_seed, par_map};
use crate::tune::{self, HillOptions, Method, TuneOptions, TuneReport};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "deep-dfpn-grid",
    about: "Deep df-pn node and seesaw numbers over E 1..20 x D 1..15 on Othello endgames, vs df-pn and 1+eps, and hill-climbing vs the grid's best (Deep df-pn paper Figs 5-8, Tables 2-3)",
    run,
};

/// Default number of positions (the paper: 8, two of them with figures).
pub const DEFAULT_POSITIONS: usize = 8;
/// Random moves from the start: 16 empty squares.
pub const MOVES: usize = 44;
/// A candidate is kept when df-pn needs at least this many visits...
pub const MIN_VISITS: u64 = 20_000;
/// ... and at most this many.
pub const MAX_VISITS: u64 = 300_000;
/// The cut-off: this many times df-pn's node number.
pub const CUTOFF_FACTOR: u64 = 3;
/// The grid (§6.1).
pub const E_MAX: u64 = 20;
pub const D_MAX: u32 = 15;
/// Table per search, MiB.
pub const HASH_MB: usize = 64;
/// The ε values tried for the 1+ε trick.
pub const EPSILONS: [f64; 16] = [
    0.05, 0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.85, 3.0, 4.05, 5.0, 7.5, 10.0, 15.0,
];
/// Candidates drawn at most, per position wanted.
const MAX_ATTEMPTS_PER_POSITION: usize = 200;

/// A chosen position and df-pn's search of it.
#[derive(Clone, Debug)]
pub struct Chosen {
    /// Index of the candidate in the seed order.
    pub candidate: usize,
    pub game: Othello,
    pub win: bool,
    pub dfpn_visits: u64,
    pub dfpn_seesaw: u64,
    pub cutoff: u64,
}

/// One df-pn goal search of "the side to move wins" (rules only), under a
/// visit limit: (status, visits, seesaw revisits).
fn dfpn_search(g: &Othello, tt: &mut Table, limit: u64, eps: Option<f64>) -> (Status, u64, u64) {
    tt.clear();
    let mut p = GoalProblem::new(RulesOnly(*g), Goal::Win);
    let limits = Limits {
        visits: Some(limit),
        ..Limits::default()
    };
    let r = match eps {
        None => dfpn::search(&mut p, dfpn::Plain { heuristic: false }, tt, &limits),
        Some(epsilon) => dfpn::search(
            &mut p,
            Epsilon {
                epsilon,
                heuristic: false,
            },
            tt,
            &limits,
        ),
    };
    (r.status, r.stats.visits, r.stats.seesaw_revisits)
}

/// The candidate positions in seed order: `i` → 44 random moves from
/// `item_seed(seed ^ SALT, i)`.
pub fn candidate(seed: u64, i: usize) -> Othello {
    const SALT: u64 = 0xdeeb_df00;
    Othello::random_endgame(&mut Rng::new(item_seed(seed ^ SALT, i)), MOVES)
}

/// Chooses `n` positions (see the module notes), in parallel batches but
/// in seed order, so the choice does not depend on the threads.
pub fn choose(opts: &ExpOptions, n: usize, min: u64, max: u64) -> Result<Vec<Chosen>, String> {
    let mut out = Vec::new();
    let mut next = 0;
    let batch = 4 * n.max(1);
    while out.len() < n {
        if next >= MAX_ATTEMPTS_PER_POSITION * n.max(1) {
            return Err(format!(
                "only {} of {n} positions found with df-pn between {min} and {max} visits",
                out.len()
            ));
        }
        let idx: Vec<usize> = (next..next + batch).collect();
        next += batch;
        let found = par_map(opts, HASH_MB, &idx, |tt, _, &i| {
            let g = candidate(opts.seed, i);
            let (s, visits, seesaw) = dfpn_search(&g, tt, max + 1, None);
            (s.is_solved() && (min..=max).contains(&visits)).then(|| Chosen {
                candidate: i,
                game: g,
                win: s == Status::Proven,
                dfpn_visits: visits,
                dfpn_seesaw: seesaw,
                cutoff: CUTOFF_FACTOR * visits,
            })
        })?;
        out.extend(found.into_iter().flatten());
    }
    out.truncate(n);
    Ok(out)
}

/// Everything measured on one position.
pub struct PositionResult {
    pub tune: TuneReport,
    /// (ε, visits, seesaw) per ε of [`EPSILONS`]; `None` over the cut-off.
    pub eps: Vec<(f64, Option<(u64, u64)>)>,
    pub eps_ms: f64,
}

/// Grid, climb and ε sweep for one chosen position.
pub fn measure_position(
    c: &Chosen,
    e_max: u64,
    d_max: u32,
    tt: &mut Table,
) -> Result<PositionResult, String> {
    let topts = TuneOptions {
        method: Method::Both,
        hill: HillOptions {
            e_max,
            d_max,
            ..HillOptions::default()
        },
        cutoff: c.cutoff,
        goal: Goal::Win,
        hash_mb: HASH_MB,
        threads: 1,
        ..TuneOptions::default()
    };
    let t = tune::tune(&RulesOnly(c.game), &topts)?;
    let start = Instant::now();
    let eps = EPSILONS
        .iter()
        .map(|&e| {
            let (s, v, ss) = dfpn_search(&c.game, tt, c.cutoff, Some(e));
            (e, (s.is_solved() && v <= c.cutoff).then_some((v, ss)))
        })
        .collect();
    Ok(PositionResult {
        tune: t,
        eps,
        eps_ms: start.elapsed().as_secs_f64() * 1000.0,
    })
}

/// "n (r%)": `n` and its reduction against `base` (the paper's Table 2
/// percentages: (base − n) / base).
fn with_reduction(n: u64, base: u64) -> String {
    if base == 0 {
        return n.to_string();
    }
    let r = 100.0 * (base as f64 - n as f64) / base as f64;
    format!("{n} ({r:.1}%)")
}

/// "n (d)": `n` and its difference from `best` (Table 3).
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
    )
}

/// [`run`] with the selection window and grid size as parameters (tests
/// use a small grid).
pub fn run_with(
    opts: &ExpOptions,
    n: usize,
    min: u64,
    max: u64,
    e_max: u64,
    d_max: u32,
) -> Result<Report, String> {
    let chosen = choose(opts, n, min, max)?;
    let results = par_map(opts, HASH_MB, &chosen, |tt, _, c| {
        measure_position(c, e_max, d_max, tt)
    })?
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    let dir = &opts.out;
    let mut files = Vec::new();

    let mut pt = OutTable::new([
        "position",
        "candidate",
        "obf",
        "side to move wins",
        "df-pn node number",
        "df-pn seesaw",
        "cut-off",
    ]);
    for (k, c) in chosen.iter().enumerate() {
        pt.push([
            (k + 1).to_string(),
            c.candidate.to_string(),
            c.game.to_obf(),
            c.win.to_string(),
            c.dfpn_visits.to_string(),
            c.dfpn_seesaw.to_string(),
            c.cutoff.to_string(),
        ]);
    }
    files.push(pt.write_csv(dir, "positions")?);

    let mut gt = OutTable::new([
        "position",
        "E",
        "D",
        "status",
        "node_number",
        "seesaw",
        "cut_off",
        "shared",
        "time_ms",
    ]);
    let mut et = OutTable::new(["position", "epsilon", "node_number", "seesaw", "cut_off"]);
    let mut ht = OutTable::new(["position", "step", "E", "D", "node_number", "seesaw"]);
    for (k, (c, r)) in chosen.iter().zip(&results).enumerate() {
        let mut runs = r.tune.runs.clone();
        runs.sort_by_key(|x| (x.e, x.d));
        for x in &runs {
            gt.push([
                (k + 1).to_string(),
                x.e.to_string(),
                x.d.to_string(),
                x.status.to_string(),
                // The paper records the threshold for a cut-off run.
                if x.cut_off { c.cutoff } else { x.visits }.to_string(),
                if x.cut_off {
                    String::new()
                } else {
                    x.seesaw.to_string()
                },
                x.cut_off.to_string(),
                x.shared.to_string(),
                fmt_f(x.time_ms, 2),
            ]);
        }
        for (e, v) in &r.eps {
            et.push([
                (k + 1).to_string(),
                e.to_string(),
                v.map_or(c.cutoff, |x| x.0).to_string(),
                v.map_or(String::new(), |x| x.1.to_string()),
                v.is_none().to_string(),
            ]);
        }
        if let Some(h) = &r.tune.hill {
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
        }
    }
    files.push(gt.write_csv(dir, "grid")?);
    files.push(et.write_csv(dir, "epsilon")?);
    files.push(ht.write_csv(dir, "hill_path")?);

    // Table 2: the best grid cell and the best ε against df-pn.
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
    let mut sums = [0f64; 7];
    let mut cnt = [0usize; 2];
    for (k, (c, r)) in chosen.iter().zip(&results).enumerate() {
        let g = r.tune.grid.as_ref().expect("grid");
        let best = g.best;
        let eps_best = r
            .eps
            .iter()
            .filter_map(|(e, v)| v.map(|x| (x.0, x.1, *e)))
            .min_by(|a, b| a.0.cmp(&b.0).then(a.2.total_cmp(&b.2)));
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
        if let Some(h) = &r.tune.hill {
            let p = h.result;
            t3.push([
                (k + 1).to_string(),
                with_difference(p.nodes, bn),
                with_difference(p.seesaw, bs),
                p.label(),
                fmt_f(r.tune.hill_ms / 1000.0, 1),
                format!("{:?}{}", h.end, if h.fallback { " (fallback)" } else { "" }),
                h.evaluations.len().to_string(),
            ]);
            if let (Some(n), Some(s), Some(b)) = (p.nodes, p.seesaw, bn) {
                sums[4] += n as f64;
                sums[5] += s as f64;
                sums[6] += (n - b) as f64;
                cnt[1] += 1;
            }
        }
    }
    if cnt[0] > 0 {
        let m = |x: f64| x / cnt[0] as f64;
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
            String::new(),
            String::new(),
            String::new(),
        ]);
    }
    if cnt[1] > 0 {
        let m = |x: f64| x / cnt[1] as f64;
        let ms: f64 = results.iter().map(|r| r.tune.hill_ms).sum::<f64>() / results.len() as f64;
        t3.push([
            "average".to_string(),
            format!("{} ({})", fmt_f(m(sums[4]), 1), fmt_f(m(sums[6]), 1)),
            fmt_f(m(sums[5]), 1),
            String::new(),
            fmt_f(ms / 1000.0, 1),
            String::new(),
            String::new(),
        ]);
    }
    files.push(t2.write_csv(dir, "table2")?);
    files.push(t3.write_csv(dir, "table3")?);

    // The climb again from (2, 3), on the grid's values (no new searches).
    // At D = 2 only the root's children get a value other than 1, all the
    // same one, so node(E, 2) hardly depends on E and the paper's start
    // (2, 2) tends to sit on a flat; this shows what a start one step
    // deeper finds.
    let mut t3b = OutTable::new([
        "position",
        "node number",
        "seesaw",
        "E, D",
        "search time (s)",
        "end",
        "searches",
    ]);
    for (k, r) in results.iter().enumerate() {
        let g = r.tune.grid.as_ref().expect("grid");
        let value = |e: u64, d: u32| {
            g.cells
                .iter()
                .find(|p| p.e == e && p.d == d)
                .and_then(|p| Some((p.nodes?, p.seesaw?)))
        };
        let h = tune::hill_climb(
            value,
            &HillOptions {
                start: (2, 3.min(d_max)),
                e_max,
                d_max,
                ..HillOptions::default()
            },
        )?;
        let ms: f64 = h
            .evaluations
            .iter()
            .filter_map(|p| {
                r.tune
                    .runs
                    .iter()
                    .find(|x| (x.e, x.d) == (p.e, p.d) && !x.shared)
                    .map(|x| x.time_ms)
            })
            .sum();
        let best = g.best;
        t3b.push([
            (k + 1).to_string(),
            with_difference(h.result.nodes, best.and_then(|b| b.nodes)),
            with_difference(h.result.seesaw, best.and_then(|b| b.seesaw)),
            h.result.label(),
            fmt_f(ms / 1000.0, 1),
            format!("{:?}{}", h.end, if h.fallback { " (fallback)" } else { "" }),
            h.evaluations.len().to_string(),
        ]);
    }
    files.push(t3b.write_csv(dir, "table3_start_2_3")?);

    // Figs 5–8 as heatmaps: rows D, columns E.
    for (k, (c, r)) in chosen.iter().zip(&results).enumerate() {
        let g = r.tune.grid.as_ref().expect("grid");
        let cell = |e: u64, d: u32| g.cells.iter().find(|p| p.e == e && p.d == d);
        let mut nodes = Vec::new();
        let mut seesaw = Vec::new();
        for d in 1..=d_max {
            let (mut rn, mut rs) = (Vec::new(), Vec::new());
            for e in 1..=e_max {
                let p = cell(e, d);
                rn.push(p.and_then(|p| p.nodes).unwrap_or(c.cutoff) as f64);
                // Seesaw 0 is drawn as 1 on the logarithmic scale.
                rs.push(
                    p.and_then(|p| p.seesaw)
                        .map_or(f64::NAN, |s| s.max(1) as f64),
                );
            }
            nodes.push(rn);
            seesaw.push(rs);
        }
        let x_ticks: Vec<String> = (1..=e_max).map(|e| e.to_string()).collect();
        let y_ticks: Vec<String> = (1..=d_max).map(|d| d.to_string()).collect();
        files.push(
            Heatmap {
                title: format!(
                    "Position {}: node number (cut-off {} = threshold; df-pn at E=1 or D=1)",
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
                title: format!("Position {}: seesaw number (blank = cut off)", k + 1),
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

    let mut md = String::new();
    let _ = writeln!(
        md,
        "# deep-dfpn-grid\n\n{} random Othello endgames with 16 empty squares (seed {}; \
         candidates in seed order, kept when df-pn needs {min}..{max} node visits), rules \
         only, question \"does the side to move win?\". Deep df-pn over E 1..{e_max} x D \
         1..{d_max}; node number = visits including re-traversals, seesaw number = visits \
         to nodes expanded before (Deep df-pn §6.1). Cut-off per position = {CUTOFF_FACTOR} \
         x df-pn's node number: a run past it counts as the threshold in the heatmaps, \
         blank seesaw, and ∞ for hill-climbing. Percentages in Table 2 are the paper's: \
         reduction against df-pn, (df-pn − x) / df-pn. Table 3: Algorithm 1 from (2, 2), \
         in brackets the difference from the grid's best; iteration time is the whole climb \
         on this machine.\n",
        chosen.len(),
        opts.seed,
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
        "## Table 3 again, the climb starting at (2, 3)\n\nOn the grid's values (search \
         time = the time of the searches it would run). At D = 2 every child of the root \
         starts at E and every deeper leaf at 1, so node(E, 2) barely depends on E: the \
         paper's start (2, 2) can sit on a flat.\n\n{}",
        t3b.to_markdown()
    );
    let _ = writeln!(
        md,
        "Heatmaps (Figs 5–8): `nodes_pK.svg` and `seesaw_pK.svg` for position K; grid.csv \
         holds every cell, epsilon.csv the 1+ε runs ({} values), hill_path.csv the climbs.",
        EPSILONS.len()
    );
    files.push(output::write(dir, "deep-dfpn-grid.md", &md)?);
    Ok(Report { files, summary: md })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_grid_writes_its_tables() {
        let dir = std::env::temp_dir().join(format!("pns-lab-ddg-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(1),
            seed: 2,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        let r = run_with(&opts, 1, 2_000, 60_000, 4, 3).unwrap();
        for f in [
            "positions.csv",
            "grid.csv",
            "table2.csv",
            "table3.csv",
            "nodes_p1.svg",
            "seesaw_p1.svg",
        ] {
            assert!(dir.join(f).exists(), "{f}");
        }
        assert!(r.summary.contains("## Table 3"));
        let grid = std::fs::read_to_string(dir.join("grid.csv")).unwrap();
        // 4 x 3 cells and the header.
        assert_eq!(grid.lines().count(), 13);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn reductions_follow_the_papers_convention() {
        // Table 2, position 1: 5568 is a 96.5% reduction from df-pn.
        assert_eq!(with_reduction(5568, 159_086), "5568 (96.5%)");
        assert_eq!(with_difference(Some(10529), Some(5568)), "10529 (4961)");
        assert_eq!(with_difference(None, Some(1)), "∞");
    }
}
