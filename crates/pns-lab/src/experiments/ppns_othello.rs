//! `ppns-othello`: PNS, MCPNS and PPNS on random Othello positions at six
//! stages of the game (PPNS paper §4.1, §4.3, Tables 2–3, Figs. 7–8).
//!
//! Positions: for each stage of [`STAGES`] (18, 22, 26, 32, 36 and 40
//! random disc placements from the start, the paper's stages),
//! `--positions` (default [`DEFAULT_POSITIONS`]; the paper uses 200)
//! positions from `random_endgame`, without duplicates. Every algorithm asks
//! "does the side to move win?" under [`NODE_LIMIT`] tree nodes or
//! [`TIME_LIMIT_SECS`] seconds, whichever comes first (the paper: 8 M nodes
//! or 600 s). Completion is the paper's (solved + unsolved) / positions.
//!
//! Algorithms: PNS with (1, 1) leaves; MCPNS and PPNS with 60 playouts per
//! leaf; PPNS with the paper's rule as the paper ran it on Othello
//! (θ = 0.01, pr = 10⁻⁵, §4.3) and PPNS with exact status (θ = 0.01).
//!
//! Checking: the exact value comes from our df-pn where it can be had
//! (stages with at most [`DFPN_MAX_EMPTIES`] empty squares, at most
//! [`DFPN_SECS`] seconds each); elsewhere from any conclusion of an exact
//! algorithm (PNS, MCPNS and exact PPNS conclude only with a proof). A
//! conclusion of the paper's rule that neither can check is counted as
//! unchecked, and separately as *not a proof* when its own tree does not
//! prove it.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Duration;

use pns_core::{Algo, Goal, GoalProblem, Limits, Rng, Status};
use pns_games::othello::{random_endgame, Othello};

use super::ppns_common::{run_goal, tally_row, tally_table, Bars, Config, Run, Tally};
use crate::output::{self, fmt_f, Table};
use crate::plot::{LineChart, Series};
use crate::runner::{item_seed, par_map};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "ppns-othello",
    about: "PNS vs MCPNS vs PPNS (paper rule and exact status) on random Othello positions after 18-40 moves (PPNS paper Tables 2-3)",
    run,
};

/// Random disc placements from the start (Tables 2–3).
pub const STAGES: [usize; 6] = [18, 22, 26, 32, 36, 40];
/// Default positions per stage (the paper: 200).
pub const DEFAULT_POSITIONS: usize = 20;
/// Playouts per leaf (§4.1).
pub const PLAYOUTS: u32 = 60;
/// Tree-node budget (the paper: 8 M). As in the paper, PNS runs into it
/// and the Monte Carlo algorithms into the clock.
pub const NODE_LIMIT: u64 = 2_000_000;
/// Time budget in seconds (the paper: 600). Depends on the machine and its
/// load.
pub const TIME_LIMIT_SECS: f64 = 1.0;
/// df-pn gives exact values for positions with at most this many empties.
pub const DFPN_MAX_EMPTIES: u32 = 24;
/// Time allowed to df-pn for one position.
pub const DFPN_SECS: u64 = 10;

/// The configurations, in table order.
pub fn configs() -> Vec<Config> {
    vec![
        Config::Pns,
        Config::Mcpns { playouts: PLAYOUTS },
        Config::Ppns {
            playouts: PLAYOUTS,
            theta: 0.01,
            pr: Some(1e-5),
        },
        Config::Ppns {
            playouts: PLAYOUTS,
            theta: 0.01,
            pr: None,
        },
    ]
}

/// `n` distinct positions after `moves` placements.
pub fn positions(n: usize, moves: usize, seed: u64) -> Vec<Othello> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut attempt = 0;
    while out.len() < n {
        let mut rng = Rng::new(item_seed(seed ^ (moves as u64) << 32, attempt));
        attempt += 1;
        let g = random_endgame(&mut rng, moves);
        if seen.insert(g) {
            out.push(g);
        }
    }
    out
}

struct Item {
    stage: usize,
    game: Othello,
}

struct ItemResult {
    /// df-pn's answer to "does the side to move win?", when it had one.
    dfpn: Option<bool>,
    dfpn_ms: f64,
    runs: Vec<Run>,
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_POSITIONS);
    let mut items = Vec::new();
    for &stage in &STAGES {
        for game in positions(n, stage, opts.seed) {
            items.push(Item { stage, game });
        }
    }
    let cfgs = configs();
    let limits = Limits {
        nodes: Some(NODE_LIMIT),
        time: Some(Duration::from_secs_f64(TIME_LIMIT_SECS)),
        ..Limits::default()
    };
    let results = par_map(opts, 128, &items, |tt, i, it| {
        let seed = item_seed(opts.seed, i);
        let (dfpn, dfpn_ms) = if it.game.empties() <= DFPN_MAX_EMPTIES {
            // Only the paper's question: one goal search, not a full solve.
            let dl = Limits {
                time: Some(Duration::from_secs(DFPN_SECS)),
                ..Limits::default()
            };
            tt.clear();
            let mut p = GoalProblem::new(it.game, Goal::Win);
            let r = Algo::default().run(&mut p, tt, &dl);
            let win = r.status.is_solved().then_some(r.status == Status::Proven);
            (win, r.stats.time_ms)
        } else {
            (None, 0.0)
        };
        let runs = cfgs
            .iter()
            .map(|&c| run_goal(&it.game, c, seed, &limits))
            .collect();
        ItemResult {
            dfpn,
            dfpn_ms,
            runs,
        }
    })?;

    // The reference: df-pn, else any proof by an exact configuration.
    let truth: Vec<Option<bool>> = results
        .iter()
        .map(|r| {
            r.dfpn.or_else(|| {
                cfgs.iter()
                    .zip(&r.runs)
                    .filter(|(c, run)| c.is_exact() && run.status.is_solved())
                    .map(|(_, run)| run.status == Status::Proven)
                    .next()
            })
        })
        .collect();
    // Exact configurations never disagree with each other or with df-pn.
    for (r, t) in results.iter().zip(&truth) {
        for (c, run) in cfgs.iter().zip(&r.runs) {
            if c.is_exact() && run.wrong(*t) {
                return Err(format!("{} concluded a wrong value", c.label()));
            }
        }
    }

    let dir = &opts.out;
    let mut files = Vec::new();
    let mut rt = Table::new([
        "index",
        "stage",
        "position",
        "empties",
        "dfpn_win",
        "reference_win",
        "config",
        "algo",
        "status",
        "exact_status",
        "stop",
        "wrong",
        "nodes",
        "visits",
        "playouts",
        "time_ms",
    ]);
    let opt_bool = |b: Option<bool>| b.map_or("", |b| if b { "true" } else { "false" });
    for (i, ((it, r), t)) in items.iter().zip(&results).zip(&truth).enumerate() {
        let seed = item_seed(opts.seed, i);
        for (c, run) in cfgs.iter().zip(&r.runs) {
            rt.push([
                i.to_string(),
                it.stage.to_string(),
                it.game.to_obf(),
                it.game.empties().to_string(),
                opt_bool(r.dfpn).to_string(),
                opt_bool(*t).to_string(),
                c.label(),
                c.algo(seed),
                run.status.name().to_string(),
                run.exact.name().to_string(),
                run.stop.map_or("", |s| s.name()).to_string(),
                run.wrong(*t).to_string(),
                run.nodes.to_string(),
                run.visits.to_string(),
                run.playouts.to_string(),
                fmt_f(run.ms, 2),
            ]);
        }
    }
    files.push(rt.write_csv(dir, "runs")?);

    // Tables 2–3: one tally per stage and configuration.
    let mut table = Table::new(
        ["moves"]
            .into_iter()
            .chain(super::ppns_common::TALLY_HEADER)
            .collect::<Vec<_>>(),
    );
    let mut completion: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cfgs.len()];
    let mut proof_completion: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cfgs.len()];
    let mut overall: Vec<Vec<(&Run, Option<bool>)>> = vec![Vec::new(); cfgs.len()];
    let mut dfpn_solved = Vec::new();
    for &stage in &STAGES {
        let idx: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].stage == stage)
            .collect();
        dfpn_solved.push((
            stage,
            idx.iter().filter(|&&i| results[i].dfpn.is_some()).count(),
            idx.iter().map(|&i| results[i].dfpn_ms).sum::<f64>() / idx.len().max(1) as f64,
        ));
        for (k, c) in cfgs.iter().enumerate() {
            let t = Tally::of(idx.iter().map(|&i| (&results[i].runs[k], truth[i])));
            for &i in &idx {
                overall[k].push((&results[i].runs[k], truth[i]));
            }
            let mut row = vec![stage.to_string()];
            row.extend(tally_row(&c.label(), &t));
            table.push(row);
            completion[k].push((stage as f64, 100.0 * t.completion()));
            let proofs = t.concluded() - t.unproven;
            proof_completion[k].push((stage as f64, 100.0 * proofs as f64 / t.n.max(1) as f64));
        }
    }
    files.push(table.write_csv(dir, "summary")?);
    let mut all = tally_table();
    let tallies: Vec<Tally> = overall
        .iter()
        .map(|v| Tally::of(v.iter().copied()))
        .collect();
    for (c, t) in cfgs.iter().zip(&tallies) {
        all.push(tally_row(&c.label(), t));
    }
    files.push(all.write_csv(dir, "summary_all")?);

    // Fig. 7: completion per stage; beside it, completion by proofs only.
    let mut series: Vec<Series> = cfgs
        .iter()
        .zip(&completion)
        .map(|(c, pts)| Series {
            name: c.label(),
            points: pts.clone(),
        })
        .collect();
    let k_paper = 2;
    series.push(Series {
        name: format!("{} (proofs only)", cfgs[k_paper].label()),
        points: proof_completion[k_paper].clone(),
    });
    files.push(
        LineChart {
            title: format!(
                "Othello completion, {n} positions per stage, {NODE_LIMIT} nodes / {TIME_LIMIT_SECS} s"
            ),
            x_label: "random moves played".into(),
            y_label: "completion (%)".into(),
            series,
            x_reversed: false,
            y_log: false,
        }
        .write(dir, "fig7_completion.svg")?,
    );
    files.push(
        Bars {
            title: format!("Othello, all stages ({} positions)", items.len()),
            y_label: "positions".into(),
            categories: cfgs.iter().map(|c| c.label()).collect(),
            series: vec![
                (
                    "proven (solved)".into(),
                    tallies.iter().map(|t| t.proven as f64).collect(),
                ),
                (
                    "disproven (unsolved)".into(),
                    tallies.iter().map(|t| t.disproven as f64).collect(),
                ),
                ("out".into(), tallies.iter().map(|t| t.out as f64).collect()),
                (
                    "not proofs".into(),
                    tallies.iter().map(|t| t.unproven as f64).collect(),
                ),
                (
                    "wrong".into(),
                    tallies.iter().map(|t| t.wrong as f64).collect(),
                ),
            ],
        }
        .write(dir, "tables2_3_all.svg")?,
    );

    let mut comp = Table::new(
        ["moves"]
            .into_iter()
            .map(String::from)
            .chain(cfgs.iter().map(|c| c.label()))
            .collect::<Vec<_>>(),
    );
    for (si, &stage) in STAGES.iter().enumerate() {
        let mut row = vec![stage.to_string()];
        for (k, _) in cfgs.iter().enumerate() {
            row.push(format!("{:.1}%", completion[k][si].1));
        }
        comp.push(row);
    }
    files.push(comp.write_csv(dir, "completion")?);
    let mut dt = Table::new(["moves", "df-pn solved", "df-pn mean ms"]);
    for (stage, solved, ms) in &dfpn_solved {
        dt.push([stage.to_string(), format!("{solved}/{n}"), fmt_f(*ms, 0)]);
    }

    let mut s = String::new();
    let _ = writeln!(
        s,
        "# ppns-othello\n\n{n} positions per stage (seed {}), {PLAYOUTS} playouts per leaf, \
         limits {NODE_LIMIT} tree nodes or {TIME_LIMIT_SECS} s. Question: \"does the side to \
         move win?\". Completion = (proven + disproven) / positions (the paper's \
         (solved + unsolved) / 200). *wrong*: contradicts df-pn or a proof by an exact \
         algorithm; *unchecked*: a conclusion with no reference; *not proofs*: a \
         conclusion its own tree does not prove (the paper's rule).\n",
        opts.seed
    );
    let _ = writeln!(
        s,
        "## Completion per stage (Fig. 7, Tables 2–3)\n\n{}",
        comp.to_markdown()
    );
    let _ = writeln!(s, "## Per stage\n\n{}", table.to_markdown());
    let _ = writeln!(s, "## All stages\n\n{}", all.to_markdown());
    let _ = writeln!(
        s,
        "## Reference values (df-pn, at most {DFPN_MAX_EMPTIES} empties, {DFPN_SECS} s)\n\n{}",
        dt.to_markdown()
    );
    files.push(output::write(dir, "ppns-othello.md", &s)?);
    Ok(Report { files, summary: s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_the_stage_and_are_distinct() {
        let p = positions(5, 40, 3);
        assert_eq!(p.len(), 5);
        for g in &p {
            assert_eq!(g.empties(), 60 - 40);
        }
        let set: HashSet<_> = p.iter().copied().collect();
        assert_eq!(set.len(), 5);
    }
}
