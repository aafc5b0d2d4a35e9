//! # pns-lab
//!
//! The experiment harness: named, seeded experiments that run on all cores
//! and write their results as CSV, SVG plots and markdown tables into a
//! folder (`pns experiment NAME --out DIR`). Each experiment is one module
//! in [`experiments`], registered in [`experiments::ALL`].
//!
//! Building blocks: [`output`] (CSV and markdown), [`plot`] (line charts and
//! heatmaps with plotters), [`runner`] (parallel, ordered, seeded runs with
//! a progress callback), [`stats`] (median, mean, reduction rates).
//!
//! [`tune`] chooses Deep df-pn's (E, D) for a position: the Deep df-pn
//! paper's hill-climbing (§6.4, Algorithm 1) and the full grid (`pns tune`).

pub mod experiments;
pub mod output;
pub mod plot;
pub mod runner;
pub mod stats;
pub mod tune;

use std::path::PathBuf;

/// Options every experiment understands.
#[derive(Clone)]
pub struct ExpOptions {
    /// Number of positions (or trials); `None` = the experiment's default.
    pub positions: Option<usize>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Output folder (created if missing).
    pub out: PathBuf,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    /// Called with (done, total) as work items finish.
    pub progress: Option<runner::ProgressFn>,
}

impl std::fmt::Debug for ExpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpOptions")
            .field("positions", &self.positions)
            .field("seed", &self.seed)
            .field("out", &self.out)
            .field("threads", &self.threads)
            .finish()
    }
}

impl ExpOptions {
    /// The number of positions: the user's, or `default`.
    pub fn positions_or(&self, default: usize) -> usize {
        self.positions.unwrap_or(default)
    }
}

/// What an experiment produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Files written.
    pub files: Vec<PathBuf>,
    /// A short markdown summary (also written to `DIR/NAME.md`).
    pub summary: String,
}

/// A named experiment.
pub struct Experiment {
    pub name: &'static str,
    pub about: &'static str,
    pub run: fn(&ExpOptions) -> Result<Report, String>,
}

/// Finds an experiment by name.
pub fn find(name: &str) -> Option<&'static Experiment> {
    experiments::ALL.iter().find(|e| e.name == name)
}
