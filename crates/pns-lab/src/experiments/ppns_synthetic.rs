//! `ppns-synthetic`: PNS, MCPNS and PPNS on seeded random trees, where
//! PPNS's premise is cleanest (PPNS paper §1 and §4.3 cite its first study
//! on random P-game trees; Song et al. 2019).
//!
//! Trees: `--positions` (default [`DEFAULT_TREES`]) trees of each shape in
//! [`shapes`]: balanced (every node has the same number of children, all
//! leaves at the same depth) and unbalanced (1..b children, games that end
//! early, transpositions), both with draws. Leaf values are independent,
//! so the probability that a node is proven really is the AND/OR product of
//! its children's, the assumption behind §3.1; the playouts estimate the
//! leaves' probabilities.
//!
//! Every algorithm asks "does the side to move at the root win?" under
//! [`NODE_LIMIT`] tree nodes, with no time limit (deterministic). The
//! brute-force oracle (`Synthetic::exact`) checks every conclusion. The
//! paper's rule runs with pr from 0 (Algorithm 5) to loose values, to
//! measure how often Algorithm 6 concludes a wrong value; the exact rule
//! runs with a small and a large θ.

use std::fmt::Write as _;

use pns_core::{Limits, Outcome};
use pns_games::{Synthetic, TreeParams};

use super::ppns_common::{run_goal, tally_row, Bars, Config, Run, Tally, TALLY_HEADER};
use crate::output::{self, fmt_f, Table};
use crate::runner::{item_seed, par_map};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "ppns-synthetic",
    about: "PNS vs MCPNS vs PPNS (exact status, paper rule over pr) on balanced and unbalanced random trees, checked by the oracle",
    run,
};

/// Default trees per shape.
pub const DEFAULT_TREES: usize = 100;
/// Playouts per leaf.
pub const PLAYOUTS: u32 = 20;
/// Tree-node budget.
pub const NODE_LIMIT: u64 = 500_000;

/// The two shapes, as tree parameters without the seed.
pub fn shapes() -> Vec<(&'static str, TreeParams)> {
    vec![
        (
            "balanced",
            TreeParams {
                balanced: true,
                depth: 10,
                branching: 4,
                seed: 0,
                pool: 0,
                // Near the fixed point of the two-level AND/OR map for
                // b = 4 with 10% draws, so that the root is not decided
                // by the leaf odds alone (about 40% of the roots win).
                win: 72,
                draw: 10,
                stop: 0,
            },
        ),
        (
            "unbalanced",
            TreeParams {
                balanced: false,
                depth: 24,
                branching: 6,
                seed: 0,
                pool: 50_000,
                win: 40,
                draw: 10,
                stop: 20,
            },
        ),
    ]
}

/// The configurations, in table order.
pub fn configs() -> Vec<Config> {
    let mut v = vec![Config::Pns, Config::Mcpns { playouts: PLAYOUTS }];
    for theta in [0.01, 0.3] {
        v.push(Config::Ppns {
            playouts: PLAYOUTS,
            theta,
            pr: None,
        });
    }
    for pr in [0.0, 1e-5, 1e-3, 1e-2, 0.1] {
        v.push(Config::Ppns {
            playouts: PLAYOUTS,
            theta: 0.01,
            pr: Some(pr),
        });
    }
    v
}

struct Item {
    shape: &'static str,
    tree: Synthetic,
}

struct ItemResult {
    win: bool,
    runs: Vec<Run>,
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_TREES);
    let mut items = Vec::new();
    for (si, (shape, params)) in shapes().into_iter().enumerate() {
        for i in 0..n {
            let p = TreeParams {
                seed: item_seed(opts.seed ^ ((si as u64 + 1) << 40), i),
                ..params
            };
            items.push(Item {
                shape,
                tree: Synthetic::new(p),
            });
        }
    }
    let cfgs = configs();
    let limits = Limits {
        nodes: Some(NODE_LIMIT),
        ..Limits::default()
    };
    let results = par_map(opts, 1, &items, |_, i, it| {
        let seed = item_seed(opts.seed, i);
        ItemResult {
            win: it.tree.exact() == Outcome::Win,
            runs: cfgs
                .iter()
                .map(|&c| run_goal(&it.tree, c, seed, &limits))
                .collect(),
        }
    })?;

    let dir = &opts.out;
    let mut files = Vec::new();
    let mut rt = Table::new([
        "index",
        "shape",
        "tree",
        "root_wins",
        "config",
        "algo",
        "status",
        "exact_status",
        "wrong",
        "nodes",
        "visits",
        "playouts",
        "time_ms",
    ]);
    for (i, (it, r)) in items.iter().zip(&results).enumerate() {
        let seed = item_seed(opts.seed, i);
        for (c, run) in cfgs.iter().zip(&r.runs) {
            rt.push([
                i.to_string(),
                it.shape.to_string(),
                it.tree.params().notation(),
                r.win.to_string(),
                c.label(),
                c.algo(seed),
                run.status.name().to_string(),
                run.exact.name().to_string(),
                run.wrong(Some(r.win)).to_string(),
                run.nodes.to_string(),
                run.visits.to_string(),
                run.playouts.to_string(),
                fmt_f(run.ms, 2),
            ]);
        }
    }
    files.push(rt.write_csv(dir, "runs")?);

    let mut table = Table::new(
        ["shape"]
            .into_iter()
            .chain(TALLY_HEADER)
            .chain(["error rate"])
            .collect::<Vec<_>>(),
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# ppns-synthetic\n\n{n} trees per shape (seed {}), {PLAYOUTS} playouts per leaf, \
         limit {NODE_LIMIT} tree nodes, every conclusion checked by the brute-force oracle. \
         *error rate* = wrong / concluded.\n",
        opts.seed
    );
    for (shape, params) in shapes() {
        let idx: Vec<usize> = (0..items.len())
            .filter(|&i| items[i].shape == shape)
            .collect();
        let wins = idx.iter().filter(|&&i| results[i].win).count();
        let _ = writeln!(
            s,
            "* {shape}: `{}` (seed varies), root wins in {wins} of {}",
            TreeParams { seed: 0, ..params }.notation(),
            idx.len()
        );
        let tallies: Vec<Tally> = (0..cfgs.len())
            .map(|k| {
                Tally::of(
                    idx.iter()
                        .map(|&i| (&results[i].runs[k], Some(results[i].win))),
                )
            })
            .collect();
        for (c, t) in cfgs.iter().zip(&tallies) {
            let mut row = vec![shape.to_string()];
            row.extend(tally_row(&c.label(), t));
            row.push(output::pct(t.wrong as f64 / t.concluded().max(1) as f64));
            table.push(row);
        }
        files.push(
            Bars {
                title: format!("{shape} trees ({} trees, {NODE_LIMIT} nodes)", idx.len()),
                y_label: "trees".into(),
                categories: cfgs.iter().map(|c| c.label()).collect(),
                series: vec![
                    (
                        "proven".into(),
                        tallies.iter().map(|t| t.proven as f64).collect(),
                    ),
                    (
                        "disproven".into(),
                        tallies.iter().map(|t| t.disproven as f64).collect(),
                    ),
                    ("out".into(), tallies.iter().map(|t| t.out as f64).collect()),
                    (
                        "wrong".into(),
                        tallies.iter().map(|t| t.wrong as f64).collect(),
                    ),
                ],
            }
            .write(dir, &format!("{shape}.svg"))?,
        );
    }
    files.push(table.write_csv(dir, "summary")?);
    let _ = writeln!(s, "\n{}", table.to_markdown());
    files.push(output::write(dir, "ppns-synthetic.md", &s)?);
    Ok(Report { files, summary: s })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::prelude::*;

    #[test]
    fn shapes_parse_back_and_configurations_are_distinct() {
        for (_, p) in shapes() {
            let g = Synthetic::parse_position(&p.notation()).unwrap();
            assert_eq!(g.params(), p);
        }
        let labels: std::collections::HashSet<String> =
            configs().iter().map(|c| c.label()).collect();
        assert_eq!(labels.len(), configs().len());
    }
}
