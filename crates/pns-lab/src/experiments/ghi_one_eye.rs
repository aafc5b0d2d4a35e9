//! `ghi-one-eye`: the GHI paper's Table 1 (Kishimoto and Müller, "A
//! solution to the GHI problem for depth-first proof-number search", 2005,
//! §4.2): df-pn on one-eye problems under situational super-ko, ignoring
//! the GHI problem (IGNORE) and with the paper's three treatments — DUP
//! (twin entries per path, §3.1-3.2), DUP+SIM (simulation, §3.3),
//! DUP+SIM+NOCYCLE (path-independent results in the base entry, §3.4).
//!
//! The paper's 70 problems are not public; here `--positions` instances
//! (default 140) are drawn from the seeded generator of
//! `pns_go::oneeye::generate`: 70 rooms graded by size, 4 to 10 points
//! (ten of each), each played with the defender first and with the
//! attacker first. Every instance is also solved by the exact tree-method
//! oracle (`tree_oracle`, every line searched in full), and every answer
//! of every variant is checked against it: *wrong* counts the answers that
//! differ.
//!
//! Columns as in Table 1: problems solved (correct + wrong), node
//! expansions (df-pn's `visits`: the paper's df-pn, Fig. 2, generates the
//! moves at every MID call, so every call is an expansion; `runs.csv` also
//! has the distinct nodes expanded), expansions by simulation (`sim_nodes`),
//! simulation calls, failed simulations and time, summed over the
//! instances every variant solved. Limits per search: [`NODE_LIMIT`] node
//! visits and the paper's 5 minutes.

use std::fmt::Write as _;
use std::time::Duration;

use pns_core::solve::{solve, SolveOptions};
use pns_core::{Algo, Limits, Outcome};
use pns_games::go::oneeye::{generate, tree_oracle, GenParams, OneEye};

use crate::output::{fmt_f, Table};
use crate::runner::{item_seed, par_map};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "ghi-one-eye",
    about: "df-pn IGNORE / DUP / DUP+SIM / DUP+SIM+NOCYCLE on 140 generated one-eye problems under situational super-ko, against a tree-method oracle (GHI paper Table 1)",
    run,
};

/// Instances: 70 problems, both colours first (the paper's 140).
pub const DEFAULT_INSTANCES: usize = 140;
/// Node visits per search.
pub const NODE_LIMIT: u64 = 2_000_000;
/// The paper's time limit per problem.
pub const TIME_LIMIT: Duration = Duration::from_secs(300);
/// Positions the oracle may visit per instance.
pub const ORACLE_NODES: u64 = 20_000_000;
/// Table per thread, MiB.
pub const HASH_MB: usize = 64;
/// Room sizes, smallest first; problem `i` has `SIZES[i % len]` points.
pub const SIZES: std::ops::RangeInclusive<usize> = 4..=10;

/// The four variants, in the paper's order: (row label, algorithm).
pub const METHODS: [(&str, &str); 4] = [
    ("IGNORE-GHI", "dfpn:ghi=ignore"),
    ("(a) DUP", "dfpn:ghi=dup"),
    ("(b) (a) + SIM", "dfpn:ghi=sim"),
    ("(c) (b) + NOCYCLE", "dfpn:ghi=nocycle"),
];

/// A row of the paper's Table 1: solved, total nodes, nodes by SIM, SIM
/// calls, failed SIM calls, time (s); `None` where the paper has a dash.
pub type PaperRow = (
    &'static str,
    u64,
    Option<u64>,
    Option<u64>,
    Option<u64>,
    u64,
);

/// Table 1 of the paper.
pub const PAPER: [PaperRow; 4] = [
    ("134 + 2", 3_614_539, None, None, None, 81),
    ("134", 9_411_063, None, None, None, 256),
    (
        "134",
        7_015_856,
        Some(2_699_556),
        Some(239_820),
        Some(2956),
        175,
    ),
    ("136", 3_689_363, Some(2813), Some(356), Some(156), 82),
];

/// The generator's parameters of instance `i` (problem `i / 2`, the
/// defender first for even `i`).
pub fn instance(seed: u64, i: usize) -> GenParams {
    let p = i / 2;
    let sizes: Vec<usize> = SIZES.collect();
    GenParams {
        points: sizes[p % sizes.len()],
        seed: item_seed(seed, p),
        defender_first: i & 1 == 0,
    }
}

/// One search's figures.
#[derive(Clone, Debug, Default)]
struct Run {
    value: Option<Outcome>,
    expanded: u64,
    visits: u64,
    sim_nodes: u64,
    sim_calls: u64,
    sim_failed: u64,
    repetitions: u64,
    ms: f64,
}

struct Item {
    params: GenParams,
    game: OneEye,
}

struct ItemResult {
    /// The oracle: whether the side to move wins; `None` past its budget.
    oracle: Option<bool>,
    runs: Vec<Run>,
}

fn wrong(r: &Run, oracle: Option<bool>) -> bool {
    matches!((r.value, oracle), (Some(v), Some(w)) if (v == Outcome::Win) != w)
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_INSTANCES);
    let items: Vec<Item> = (0..n)
        .map(|i| {
            let params = instance(opts.seed, i);
            generate(params)
                .map(|game| Item { params, game })
                .map_err(|e| format!("{}: {e}", params.notation()))
        })
        .collect::<Result<_, _>>()?;
    let algos: Vec<Algo> = METHODS
        .iter()
        .map(|(_, a)| Algo::parse(a).expect("a known algorithm"))
        .collect();
    let limits = Limits {
        visits: Some(NODE_LIMIT),
        time: Some(TIME_LIMIT),
        ..Limits::default()
    };
    let results = par_map(opts, HASH_MB, &items, |tt, _, it| {
        let runs = algos
            .iter()
            .map(|algo| {
                let o = SolveOptions {
                    algo: algo.clone(),
                    limits: limits.clone(),
                    ..Default::default()
                };
                let r = solve(&it.game, &it.params.notation(), &o, tt);
                Run {
                    value: r.value,
                    expanded: r.stats.expanded,
                    visits: r.stats.visits,
                    sim_nodes: r.stats.sim_nodes,
                    sim_calls: r.stats.sim_calls,
                    sim_failed: r.stats.sim_failed,
                    repetitions: r.stats.repetitions,
                    ms: r.total_ms,
                }
            })
            .collect();
        ItemResult {
            oracle: tree_oracle(&it.game, ORACLE_NODES),
            runs,
        }
    })?;
    let dir = &opts.out;
    let mut files = Vec::new();

    let mut rt = Table::new([
        "index",
        "problem",
        "points",
        "first",
        "oracle",
        "method",
        "value",
        "wrong",
        "expanded",
        "visits",
        "sim_nodes",
        "sim_calls",
        "sim_failed",
        "repetitions",
        "time_ms",
    ]);
    for (i, (it, r)) in items.iter().zip(&results).enumerate() {
        for ((label, _), run) in METHODS.iter().zip(&r.runs) {
            rt.push([
                i.to_string(),
                it.params.notation(),
                it.params.points.to_string(),
                if it.params.defender_first {
                    "defender".into()
                } else {
                    "attacker".to_string()
                },
                match r.oracle {
                    Some(true) => "win".into(),
                    Some(false) => "loss".into(),
                    None => "unknown".to_string(),
                },
                label.to_string(),
                run.value.map_or("unknown", |v| v.name()).to_string(),
                wrong(run, r.oracle).to_string(),
                run.expanded.to_string(),
                run.visits.to_string(),
                run.sim_nodes.to_string(),
                run.sim_calls.to_string(),
                run.sim_failed.to_string(),
                run.repetitions.to_string(),
                fmt_f(run.ms, 2),
            ]);
        }
    }
    files.push(rt.write_csv(dir, "runs")?);

    // The subset every variant solved (rightly or not), as the paper.
    let common: Vec<usize> = (0..items.len())
        .filter(|&i| results[i].runs.iter().all(|r| r.value.is_some()))
        .collect();
    let mut t = Table::new([
        "Method used",
        "Problems solved",
        "Wrong answers",
        "Total nodes",
        "Nodes by SIM",
        "SIM calls",
        "Failed SIM calls",
        "Total time (s)",
    ]);
    let mut totals = Vec::new();
    for (m, (label, _)) in METHODS.iter().enumerate() {
        let solved = results.iter().filter(|r| r.runs[m].value.is_some()).count();
        let bad = results
            .iter()
            .filter(|r| wrong(&r.runs[m], r.oracle))
            .count();
        let sum =
            |f: fn(&Run) -> u64| -> u64 { common.iter().map(|&i| f(&results[i].runs[m])).sum() };
        let secs: f64 = common.iter().map(|&i| results[i].runs[m].ms).sum::<f64>() / 1000.0;
        let sim = m >= 2;
        let dash = |v: u64| if sim { v.to_string() } else { "–".into() };
        totals.push(sum(|r| r.visits));
        t.push([
            label.to_string(),
            if bad > 0 {
                format!("{} + {bad}", solved - bad)
            } else {
                solved.to_string()
            },
            bad.to_string(),
            sum(|r| r.visits).to_string(),
            dash(sum(|r| r.sim_nodes)),
            dash(sum(|r| r.sim_calls)),
            dash(sum(|r| r.sim_failed)),
            fmt_f(secs, 2),
        ]);
    }
    files.push(t.write_csv(dir, "table1")?);

    let mut p = Table::new([
        "Method used",
        "Problems solved",
        "Total nodes",
        "Nodes by SIM",
        "SIM calls",
        "Failed SIM calls",
        "Total time (s)",
    ]);
    let opt = |v: Option<u64>| v.map_or("–".to_string(), |x| x.to_string());
    for ((label, _), row) in METHODS.iter().zip(PAPER) {
        p.push([
            label.to_string(),
            row.0.to_string(),
            row.1.to_string(),
            opt(row.2),
            opt(row.3),
            opt(row.4),
            row.5.to_string(),
        ]);
    }

    let no_oracle = results.iter().filter(|r| r.oracle.is_none()).count();
    let wins = results.iter().filter(|r| r.oracle == Some(true)).count();
    let reps: u64 = results.iter().map(|r| r.runs[3].repetitions).sum();
    let ratio = |m: usize| totals[m] as f64 / totals[0].max(1) as f64;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# ghi-one-eye\n\n{n} one-eye instances (seed {}): rooms of {} to {} points, \
         both colours first, situational super-ko as current-player-loss. Limits per \
         search: {NODE_LIMIT} node visits, {} s. The tree-method oracle solved {} of \
         {n} ({wins} wins for the side to move); {no_oracle} over its budget of \
         {ORACLE_NODES} positions are not checked. Totals are over the {} instances \
         every variant solved; *Total nodes* is node expansions (MID calls).\n",
        opts.seed,
        SIZES.start(),
        SIZES.end(),
        TIME_LIMIT.as_secs(),
        n - no_oracle,
        common.len(),
    );
    s.push_str(&t.to_markdown());
    let _ = writeln!(
        s,
        "\nNode expansions relative to IGNORE: DUP {:.2}, DUP+SIM {:.2}, \
         DUP+SIM+NOCYCLE {:.3}. Repetitions met by NOCYCLE: {reps}.\n\n\
         The paper's Table 1 (70 problems × 2, 5 min each, statistics over the 134 \
         solved by all):\n",
        ratio(1),
        ratio(2),
        ratio(3)
    );
    s.push_str(&p.to_markdown());
    files.push(crate::output::write(dir, "ghi-one-eye.md", &s)?);
    Ok(Report { files, summary: s })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_pair_up_and_grade_by_size() {
        let a = instance(1, 0);
        let b = instance(1, 1);
        assert_eq!((a.points, a.seed), (b.points, b.seed));
        assert!(a.defender_first && !b.defender_first);
        let sizes: Vec<usize> = (0..DEFAULT_INSTANCES)
            .step_by(2)
            .map(|i| instance(1, i).points)
            .collect();
        for k in SIZES {
            assert_eq!(sizes.iter().filter(|&&s| s == k).count(), 10);
        }
    }

    #[test]
    fn a_small_run_has_no_wrong_answer_from_a_ghi_safe_variant() {
        let dir = std::env::temp_dir().join(format!("ghi-one-eye-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(12),
            seed: 1,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        let r = run(&opts).unwrap();
        let csv = std::fs::read_to_string(dir.join("table1.csv")).unwrap();
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(rows.len(), 4);
        for row in &rows[1..] {
            assert_eq!(row[2], "0", "{row:?}");
            assert_eq!(row[1], "12", "{row:?}");
        }
        assert!(r.summary.contains("| (c) (b) + NOCYCLE |"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
