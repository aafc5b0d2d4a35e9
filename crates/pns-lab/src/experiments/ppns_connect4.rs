//! `ppns-connect4`: PNS, MCPNS and PPNS on random Connect Four positions
//! (PPNS paper §4.1–4.2, Fig. 4, Fig. 6, Table 1).
//!
//! Positions: `--positions` (default 100; the paper uses 200) positions
//! after 12 uniformly random plies from the empty board, drawn again while
//! the game is over or the side to move has a known result (a win in one,
//! or no move that avoids an immediate loss), and without duplicates. Each
//! position's exact value comes from our df-pn (`solve` with `Algo::Dfpn`,
//! at most [`DFPN_SECS`] seconds).
//!
//! Every algorithm asks the paper's single question, "does the side to
//! move win?", under two budgets:
//!
//! * **nodes**: [`NODE_LIMIT`] tree nodes (`Limits::nodes`, the paper's
//!   node count, §4.1; it uses 35 M) and a safety time limit that does not
//!   bind. Deterministic: the tallies do not depend on the machine.
//! * **time**: [`TIME_LIMIT_SECS`] seconds and at most [`TIME_NODE_CAP`]
//!   tree nodes, whichever comes first (the paper: 420 s and 35 M nodes).
//!   As in the paper, PNS then runs into the node cap and the Monte Carlo
//!   algorithms into the clock. Depends on the machine and its load.
//!
//! Algorithms: PNS with (1, 1) leaves; MCPNS and PPNS with 60 playouts per
//! leaf (§4.1); PPNS with the paper's rule for θ ∈ {0.01, 0.001} and
//! pr ∈ {none (Algorithm 5), 10⁻³, 10⁻⁴, 10⁻⁵} (Algorithm 6, Fig. 6,
//! Table 1), and PPNS with exact status for both θ. All use our Connect Four
//! move generator (moves that lose at once are left out, wins in one are
//! recognised), so all are stronger than the paper's programs.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::time::Duration;

use pns_core::prelude::*;
use pns_core::solve::{solve, SolveOptions};
use pns_core::{Algo, Limits, Outcome, Rng};
use pns_games::ConnectFour;

use super::ppns_common::{tally_row, tally_table, Bars, Config, Run, Tally};
use crate::output::{self, fmt_f, Table};
use crate::runner::{item_seed, par_map};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "ppns-connect4",
    about: "PNS vs MCPNS vs PPNS (paper rule theta x pr grid, exact status) on random 12-ply Connect Four positions (PPNS paper Fig. 4, 6, Table 1)",
    run,
};

/// Default number of positions (the paper: 200).
pub const DEFAULT_POSITIONS: usize = 100;
/// Random plies from the empty board (§4.1).
pub const PLIES: usize = 12;
/// Playouts per leaf for MCPNS and PPNS (§4.1).
pub const PLAYOUTS: u32 = 60;
/// Tree-node budget of the node scenario.
pub const NODE_LIMIT: u64 = 20_000;
/// Time budget of the time scenario, in seconds.
pub const TIME_LIMIT_SECS: f64 = 0.5;
/// Tree-node cap of the time scenario.
pub const TIME_NODE_CAP: u64 = 1_000_000;
/// Time allowed to df-pn for the exact value of one position.
pub const DFPN_SECS: u64 = 120;

/// The node scenario's configurations: PNS, MCPNS, then per θ the paper's
/// rule without pr and with each pr of Fig. 6, and exact status.
pub fn node_configs() -> Vec<Config> {
    let mut v = vec![Config::Pns, Config::Mcpns { playouts: PLAYOUTS }];
    for theta in [0.01, 0.001] {
        for pr in [Some(0.0), Some(1e-3), Some(1e-4), Some(1e-5), None] {
            v.push(Config::Ppns {
                playouts: PLAYOUTS,
                theta,
                pr,
            });
        }
    }
    v
}

/// The time scenario's configurations (Fig. 4): the paper's three
/// algorithms as first run (PPNS θ = 0.01 without pr) and exact PPNS.
pub fn time_configs() -> Vec<Config> {
    vec![
        Config::Pns,
        Config::Mcpns { playouts: PLAYOUTS },
        Config::Ppns {
            playouts: PLAYOUTS,
            theta: 0.01,
            pr: Some(0.0),
        },
        Config::Ppns {
            playouts: PLAYOUTS,
            theta: 0.01,
            pr: None,
        },
    ]
}

/// Random positions after `PLIES` plies (see the module documentation).
pub fn positions(n: usize, seed: u64) -> Vec<(String, ConnectFour)> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut moves = Vec::new();
    let mut attempt = 0;
    while out.len() < n {
        let mut rng = Rng::new(item_seed(seed ^ 0xc4c4, attempt));
        attempt += 1;
        let mut g = ConnectFour::new();
        let mut text = String::new();
        let mut ok = true;
        for _ in 0..PLIES {
            if g.outcome().is_some() {
                ok = false;
                break;
            }
            moves.clear();
            g.legal_moves(&mut moves);
            let m = moves[rng.below(moves.len() as u64) as usize];
            text.push_str(&g.format_move(m));
            g.play(m);
        }
        if ok && g.known_outcome().is_none() && seen.insert(g) {
            out.push((text, g));
        }
    }
    out
}

struct PositionResult {
    value: Option<Outcome>,
    dfpn_ms: f64,
    dfpn_nodes: u64,
    node_runs: Vec<Run>,
    time_runs: Vec<Run>,
}

fn status_name(r: &Run) -> &'static str {
    r.status.name()
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_POSITIONS);
    let pos = positions(n, opts.seed);
    let ncfg = node_configs();
    let tcfg = time_configs();
    let node_limits = Limits {
        nodes: Some(NODE_LIMIT),
        time: Some(Duration::from_secs(600)),
        ..Limits::default()
    };
    let time_limits = Limits {
        nodes: Some(TIME_NODE_CAP),
        time: Some(Duration::from_secs_f64(TIME_LIMIT_SECS)),
        ..Limits::default()
    };
    let results = par_map(opts, 128, &pos, |tt, i, (text, g)| {
        let seed = item_seed(opts.seed, i);
        let sopts = SolveOptions {
            algo: Algo::default(),
            limits: Limits {
                time: Some(Duration::from_secs(DFPN_SECS)),
                ..Limits::default()
            },
            ..Default::default()
        };
        let exact = solve(g, text, &sopts, tt);
        let node_runs = ncfg
            .iter()
            .map(|&c| super::ppns_common::run_goal(g, c, seed, &node_limits))
            .collect();
        let time_runs = tcfg
            .iter()
            .map(|&c| super::ppns_common::run_goal(g, c, seed, &time_limits))
            .collect();
        PositionResult {
            value: exact.value,
            dfpn_ms: exact.stats.time_ms,
            dfpn_nodes: exact.stats.nodes,
            node_runs,
            time_runs,
        }
    })?;
    let truth: Vec<Option<bool>> = results
        .iter()
        .map(|r| r.value.map(|v| v == Outcome::Win))
        .collect();
    let dir = &opts.out;
    let mut files = Vec::new();

    // Per-position and per-run records.
    let mut pt = Table::new(["index", "position", "value", "dfpn_ms", "dfpn_nodes"]);
    let mut rt = Table::new([
        "index",
        "position",
        "budget",
        "config",
        "algo",
        "status",
        "exact_status",
        "stop",
        "wrong",
        "nodes",
        "visits",
        "iterations",
        "playouts",
        "time_ms",
    ]);
    for (i, ((text, _), r)) in pos.iter().zip(&results).enumerate() {
        pt.push([
            i.to_string(),
            text.clone(),
            r.value.map_or("unknown", |v| v.name()).to_string(),
            fmt_f(r.dfpn_ms, 1),
            r.dfpn_nodes.to_string(),
        ]);
        let seed = item_seed(opts.seed, i);
        for (budget, cfgs, runs) in [
            ("nodes", &ncfg, &r.node_runs),
            ("time", &tcfg, &r.time_runs),
        ] {
            for (c, run) in cfgs.iter().zip(runs) {
                rt.push([
                    i.to_string(),
                    text.clone(),
                    budget.to_string(),
                    c.label(),
                    c.algo(seed),
                    status_name(run).to_string(),
                    run.exact.name().to_string(),
                    run.stop.map_or("", |s| s.name()).to_string(),
                    run.wrong(truth[i]).to_string(),
                    run.nodes.to_string(),
                    run.visits.to_string(),
                    run.iterations.to_string(),
                    run.playouts.to_string(),
                    fmt_f(run.ms, 2),
                ]);
            }
        }
    }
    files.push(pt.write_csv(dir, "positions")?);
    files.push(rt.write_csv(dir, "runs")?);

    let tally = |k: usize, node: bool| {
        Tally::of(results.iter().zip(&truth).map(|(r, &t)| {
            (
                if node {
                    &r.node_runs[k]
                } else {
                    &r.time_runs[k]
                },
                t,
            )
        }))
    };
    let node_tallies: Vec<Tally> = (0..ncfg.len()).map(|k| tally(k, true)).collect();
    let time_tallies: Vec<Tally> = (0..tcfg.len()).map(|k| tally(k, false)).collect();
    let mut nt = tally_table();
    for (c, t) in ncfg.iter().zip(&node_tallies) {
        nt.push(tally_row(&c.label(), t));
    }
    let mut tt = tally_table();
    for (c, t) in tcfg.iter().zip(&time_tallies) {
        tt.push(tally_row(&c.label(), t));
    }
    files.push(nt.write_csv(dir, "summary_nodes")?);
    files.push(tt.write_csv(dir, "summary_time")?);

    // Fig. 4 (both budgets) and Fig. 6 (the θ × pr grid) as bar charts.
    let bars = |title: &str, cfgs: &[Config], ts: &[Tally]| Bars {
        title: title.to_string(),
        y_label: "positions".into(),
        categories: cfgs.iter().map(|c| c.label()).collect(),
        series: vec![
            (
                "proven (solved)".into(),
                ts.iter().map(|t| t.proven as f64).collect(),
            ),
            (
                "disproven (unsolved)".into(),
                ts.iter().map(|t| t.disproven as f64).collect(),
            ),
            (
                "out of budget".into(),
                ts.iter().map(|t| t.out as f64).collect(),
            ),
            ("wrong".into(), ts.iter().map(|t| t.wrong as f64).collect()),
        ],
    };
    files.push(
        bars(
            &format!("Connect Four, {n} positions, {NODE_LIMIT} tree nodes"),
            &ncfg,
            &node_tallies,
        )
        .write(dir, "fig4_fig6_nodes.svg")?,
    );
    files.push(
        bars(
            &format!("Connect Four, {n} positions, {TIME_LIMIT_SECS} s / {TIME_NODE_CAP} nodes"),
            &tcfg,
            &time_tallies,
        )
        .write(dir, "fig4_time.svg")?,
    );

    // The cost of a real proof: positions where the paper's rule and the
    // exact rule (same θ) both concluded correctly.
    let mut cost = Table::new([
        "theta",
        "paper pr",
        "both right",
        "paper nodes (mean)",
        "exact nodes (mean)",
        "exact / paper",
    ]);
    for (ti, theta) in [0.01, 0.001].into_iter().enumerate() {
        let exact_k = 2 + ti * 5 + 4;
        for (pi, pr) in [0.0, 1e-3, 1e-4, 1e-5].into_iter().enumerate() {
            let k = 2 + ti * 5 + pi;
            let (mut m, mut a, mut b) = (0usize, 0.0, 0.0);
            for (r, &t) in results.iter().zip(&truth) {
                let (p, e) = (&r.node_runs[k], &r.node_runs[exact_k]);
                if p.status.is_solved() && e.status.is_solved() && !p.wrong(t) && t.is_some() {
                    m += 1;
                    a += p.nodes as f64;
                    b += e.nodes as f64;
                }
            }
            cost.push([
                theta.to_string(),
                if pr == 0.0 {
                    "none".to_string()
                } else {
                    pr.to_string()
                },
                m.to_string(),
                fmt_f(a / m.max(1) as f64, 0),
                fmt_f(b / m.max(1) as f64, 0),
                fmt_f(b / a.max(1.0), 2),
            ]);
        }
    }
    files.push(cost.write_csv(dir, "proof_cost")?);

    // Summary.
    let values = |v: Outcome| results.iter().filter(|r| r.value == Some(v)).count();
    let unknown = results.iter().filter(|r| r.value.is_none()).count();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# ppns-connect4\n\n{n} positions after {PLIES} random plies (seed {}), \
         {PLAYOUTS} playouts per leaf. Exact values (df-pn): {} wins, {} draws, \
         {} losses for the side to move, {unknown} unknown. Every search asks \
         \"does the side to move win?\": proven = the paper's *solved*, disproven \
         = its *unsolved*, out = a limit. *wrong* counts conclusions that \
         contradict df-pn; *not proofs* counts conclusions the tree does not \
         prove (the paper's rule only).\n",
        opts.seed,
        values(Outcome::Win),
        values(Outcome::Draw),
        values(Outcome::Loss),
    );
    let _ = writeln!(
        s,
        "## Node budget: {NODE_LIMIT} tree nodes (Fig. 4, Fig. 6, Table 1)\n\n{}",
        nt.to_markdown()
    );
    let _ = writeln!(
        s,
        "## Time budget: {TIME_LIMIT_SECS} s or {TIME_NODE_CAP} tree nodes (Fig. 4)\n\n{}",
        tt.to_markdown()
    );
    let _ = writeln!(
        s,
        "## The cost of a proof: nodes where the paper's rule and exact status both conclude correctly (node budget)\n\n{}",
        cost.to_markdown()
    );
    files.push(output::write(dir, "ppns-connect4.md", &s)?);
    Ok(Report { files, summary: s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_fresh_running_and_distinct() {
        let p = positions(30, 5);
        assert_eq!(p.len(), 30);
        let set: HashSet<_> = p.iter().map(|x| x.1).collect();
        assert_eq!(set.len(), 30);
        for (text, g) in &p {
            assert_eq!(text.len(), PLIES);
            assert_eq!(ConnectFour::parse_position(text).unwrap(), *g);
            assert!(g.known_outcome().is_none());
        }
        assert_eq!(positions(30, 5)[7].0, p[7].0, "seeded");
    }
}
