//! What the three PPNS experiments (`ppns-connect4`, `ppns-othello`,
//! `ppns-synthetic`) share: the algorithm configurations of the PPNS paper
//! (§4.1), one goal search per configuration with the details the paper
//! counts, the solved / unsolved / out tallies of its Fig. 4 and Tables 2–3,
//! and a grouped bar chart.
//!
//! Every search asks the paper's question, "does the side to move win?"
//! (a single goal search, [`Goal::Win`]): *proven* is the paper's "solved",
//! *disproven* its "unsolved" (a conclusion that the side to move does not
//! win), *out* a search that hit a limit.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use pns_core::bestfirst::ppns::{PpnValue, PpnsParams};
use pns_core::bestfirst::{self, Mcpns, PnRule, Ppns, PpnsPaper};
use pns_core::result::SearchResult;
use pns_core::{Game, Goal, GoalProblem, Limits, Status, StopReason};

use crate::output::{fmt_f, Table};

/// One algorithm configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Config {
    /// PN-search with (1, 1) leaves, as the paper's PNS.
    Pns,
    /// MCPNS with `playouts` per leaf (win rates clipped to [0.01, 0.99]).
    Mcpns { playouts: u32 },
    /// PPNS. `pr: None` is our exact-status rule; `Some(pr)` the paper's
    /// Algorithm 6 (`Some(0.0)`: Algorithm 5, "no precision").
    Ppns {
        playouts: u32,
        theta: f64,
        pr: Option<f64>,
    },
}

impl Config {
    /// A short label for tables and charts.
    pub fn label(&self) -> String {
        match *self {
            Config::Pns => "PNS".into(),
            Config::Mcpns { .. } => "MCPNS".into(),
            Config::Ppns {
                theta, pr: None, ..
            } => format!("PPNS exact θ={theta}"),
            Config::Ppns {
                theta,
                pr: Some(0.0),
                ..
            } => format!("PPNS paper θ={theta} no pr"),
            Config::Ppns {
                theta, pr: Some(p), ..
            } => format!("PPNS paper θ={theta} pr={p}"),
        }
    }

    /// The same as an `--algo` string (for the CSV files).
    pub fn algo(&self, seed: u64) -> String {
        match *self {
            Config::Pns => "pns:h=0".into(),
            Config::Mcpns { playouts } => {
                format!("mcpns:playouts={playouts},clip=0.01,seed={seed}")
            }
            Config::Ppns {
                playouts,
                theta,
                pr,
            } => format!(
                "ppns:playouts={playouts},theta={theta},pr={},exact={},seed={seed}",
                pr.unwrap_or(0.0),
                pr.is_none() as u8
            ),
        }
    }

    /// Whether every conclusion of this configuration is a proof.
    pub fn is_exact(&self) -> bool {
        !matches!(self, Config::Ppns { pr: Some(_), .. })
    }
}

/// One goal search.
#[derive(Clone, Debug)]
pub struct Run {
    /// The search's answer (for the paper's rule: Algorithm 6's verdict).
    pub status: Status,
    /// What the tree proves at the root (equal to `status` for exact rules).
    pub exact: Status,
    pub stop: Option<StopReason>,
    /// Tree nodes created (the paper's node count, §4.1).
    pub nodes: u64,
    pub visits: u64,
    pub iterations: u64,
    pub playouts: u64,
    pub ms: f64,
}

impl Run {
    fn from(r: SearchResult, exact: Status) -> Run {
        Run {
            status: r.status,
            exact,
            stop: r.stop,
            nodes: r.stats.nodes,
            visits: r.stats.visits,
            iterations: r.stats.iterations,
            playouts: r.stats.playouts,
            ms: r.stats.time_ms,
        }
    }

    /// Whether the answer contradicts `truth` (does the side to move win?).
    pub fn wrong(&self, truth: Option<bool>) -> bool {
        match (self.status, truth) {
            (Status::Proven, Some(t)) => !t,
            (Status::Disproven, Some(t)) => t,
            _ => false,
        }
    }

    /// Concluded without a proof behind it (the paper's rule only).
    pub fn unproven_conclusion(&self) -> bool {
        self.status.is_solved() && self.exact != self.status
    }
}

/// Runs "does the side to move in `root` win?" with `cfg`; `seed` seeds the
/// playouts.
pub fn run_goal<G: Game>(root: &G, cfg: Config, seed: u64, limits: &Limits) -> Run {
    let mut p = GoalProblem::new(root.clone(), Goal::Win);
    match cfg {
        Config::Pns => {
            let (r, _) = bestfirst::search(&mut p, PnRule { heuristic: false }, limits);
            let s = r.status;
            Run::from(r, s)
        }
        Config::Mcpns { playouts } => {
            let rule = Mcpns {
                playouts,
                clip: 0.01,
                seed,
            };
            let (r, _) = bestfirst::search(&mut p, rule, limits);
            let s = r.status;
            Run::from(r, s)
        }
        Config::Ppns {
            playouts,
            theta,
            pr,
        } => {
            let params = PpnsParams {
                playouts,
                theta,
                seed,
            };
            match pr {
                None => {
                    let (r, _) = bestfirst::search(&mut p, Ppns { params }, limits);
                    let s = r.status;
                    Run::from(r, s)
                }
                Some(pr) => {
                    let (r, tree) = bestfirst::search(&mut p, PpnsPaper { params, pr }, limits);
                    let exact = tree.root_value().map_or(r.status, |v: &PpnValue| v.status);
                    Run::from(r, exact)
                }
            }
        }
    }
}

/// Tallies of one configuration over a set of positions.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub n: usize,
    pub proven: usize,
    pub disproven: usize,
    pub out: usize,
    /// Conclusions that contradict the exact value.
    pub wrong: usize,
    /// Conclusions whose exact value is unknown (no reference solution).
    pub unchecked: usize,
    /// Conclusions without a proof behind them (paper rule).
    pub unproven: usize,
    pub mean_ms: f64,
    pub mean_nodes: f64,
    /// Means over the concluded searches only.
    pub mean_ms_concluded: f64,
    pub mean_nodes_concluded: f64,
    pub mean_playouts: f64,
}

impl Tally {
    /// Tallies `runs` against `truths` (does the side to move win? `None`:
    /// not known).
    pub fn of<'a>(runs: impl Iterator<Item = (&'a Run, Option<bool>)>) -> Tally {
        let mut t = Tally::default();
        let (mut ms, mut nodes, mut cms, mut cnodes, mut po) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for (r, truth) in runs {
            t.n += 1;
            match r.status {
                Status::Proven => t.proven += 1,
                Status::Disproven => t.disproven += 1,
                Status::Unknown => t.out += 1,
            }
            if r.status.is_solved() {
                cms += r.ms;
                cnodes += r.nodes as f64;
                if truth.is_none() {
                    t.unchecked += 1;
                }
            }
            t.wrong += r.wrong(truth) as usize;
            t.unproven += r.unproven_conclusion() as usize;
            ms += r.ms;
            nodes += r.nodes as f64;
            po += r.playouts as f64;
        }
        let n = t.n.max(1) as f64;
        let c = (t.proven + t.disproven).max(1) as f64;
        t.mean_ms = ms / n;
        t.mean_nodes = nodes / n;
        t.mean_ms_concluded = cms / c;
        t.mean_nodes_concluded = cnodes / c;
        t.mean_playouts = po / n;
        t
    }

    pub fn concluded(&self) -> usize {
        self.proven + self.disproven
    }

    /// The paper's completion: (solved + unsolved) / positions (Tables 2–3).
    pub fn completion(&self) -> f64 {
        self.concluded() as f64 / self.n.max(1) as f64
    }
}

/// The columns [`tally_row`] fills.
pub const TALLY_HEADER: [&str; 12] = [
    "algorithm",
    "proven (win)",
    "disproven (no win)",
    "out",
    "completion",
    "wrong",
    "unchecked",
    "not proofs",
    "mean time ms",
    "mean nodes",
    "mean ms (concluded)",
    "mean nodes (concluded)",
];

/// A table row for a tally.
pub fn tally_row(label: &str, t: &Tally) -> Vec<String> {
    vec![
        label.to_string(),
        t.proven.to_string(),
        t.disproven.to_string(),
        t.out.to_string(),
        crate::output::pct(t.completion()),
        t.wrong.to_string(),
        t.unchecked.to_string(),
        t.unproven.to_string(),
        fmt_f(t.mean_ms, 1),
        fmt_f(t.mean_nodes, 0),
        fmt_f(t.mean_ms_concluded, 1),
        fmt_f(t.mean_nodes_concluded, 0),
    ]
}

/// A table with the header above.
pub fn tally_table() -> Table {
    Table::new(TALLY_HEADER)
}

/// A grouped bar chart: one group per category, one bar per series.
pub struct Bars {
    pub title: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<(String, Vec<f64>)>,
}

const COLOURS: [RGBColor; 6] = [
    RGBColor(44, 160, 44),
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(127, 127, 127),
];

fn perr<E: std::fmt::Debug>(e: E) -> String {
    format!("plot: {e:?}")
}

impl Bars {
    /// Writes the chart to `DIR/FILE` (an `.svg` name).
    pub fn write(&self, dir: &Path, file: &str) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(perr)?;
        let path = dir.join(file);
        {
            let width = (160 + 90 * self.categories.len() as u32).max(700);
            let root = SVGBackend::new(&path, (width, 560)).into_drawing_area();
            root.fill(&WHITE).map_err(perr)?;
            let ymax = self
                .series
                .iter()
                .flat_map(|s| s.1.iter().copied())
                .filter(|v| v.is_finite())
                .fold(0.0, f64::max)
                .max(1.0)
                * 1.15;
            let n = self.categories.len();
            let cats = self.categories.clone();
            let mut chart = ChartBuilder::on(&root)
                .caption(&self.title, ("sans-serif", 20))
                .margin(12)
                .x_label_area_size(110)
                .y_label_area_size(60)
                .build_cartesian_2d(0f64..n as f64, 0f64..ymax)
                .map_err(perr)?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(n.max(1) * 2 + 1)
                .x_label_formatter(&|x| {
                    let i = x.floor() as usize;
                    if (x - i as f64 - 0.5).abs() < 1e-6 {
                        cats.get(i).cloned().unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                .x_label_style(
                    ("sans-serif", 11)
                        .into_font()
                        .transform(FontTransform::Rotate90),
                )
                .y_desc(&self.y_label)
                .draw()
                .map_err(perr)?;
            let k = self.series.len().max(1) as f64;
            for (j, (name, vals)) in self.series.iter().enumerate() {
                let c = COLOURS[j % COLOURS.len()];
                let w = 0.8 / k;
                chart
                    .draw_series(vals.iter().enumerate().map(|(i, &v)| {
                        let x0 = i as f64 + 0.1 + w * j as f64;
                        Rectangle::new([(x0, 0.0), (x0 + w * 0.92, v)], c.filled())
                    }))
                    .map_err(perr)?
                    .label(name.clone())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], c.filled())
                    });
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .border_style(BLACK)
                .background_style(WHITE.mix(0.85))
                .draw()
                .map_err(perr)?;
            root.present().map_err(perr)?;
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::prelude::*;
    use pns_games::Synthetic;

    #[test]
    fn configurations_run_and_tally() {
        let g = Synthetic::parse_position("depth=6,branching=3,seed=4,draw=10").unwrap();
        let truth = g.exact() == pns_core::Outcome::Win;
        let cfgs = [
            Config::Pns,
            Config::Mcpns { playouts: 4 },
            Config::Ppns {
                playouts: 4,
                theta: 0.01,
                pr: None,
            },
            Config::Ppns {
                playouts: 4,
                theta: 0.01,
                pr: Some(0.0),
            },
        ];
        let runs: Vec<Run> = cfgs
            .iter()
            .map(|&c| run_goal(&g, c, 3, &Limits::default()))
            .collect();
        for (c, r) in cfgs.iter().zip(&runs) {
            assert!(r.status.is_solved(), "{}", c.label());
            if c.is_exact() {
                assert!(!r.wrong(Some(truth)), "{}", c.label());
                assert_eq!(r.status, r.exact);
            }
        }
        let t = Tally::of(runs.iter().map(|r| (r, Some(truth))));
        assert_eq!(t.n, 4);
        assert_eq!(t.out, 0);
        assert_eq!(tally_row("x", &t).len(), TALLY_HEADER.len());
        let dir = std::env::temp_dir().join(format!("pns-lab-bars-{}", std::process::id()));
        let b = Bars {
            title: "t".into(),
            y_label: "positions".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![("s".into(), vec![1.0, 2.0]), ("u".into(), vec![0.0, 3.0])],
        };
        let p = b.write(&dir, "bars.svg").unwrap();
        assert!(std::fs::read_to_string(p).unwrap().contains("<rect"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
