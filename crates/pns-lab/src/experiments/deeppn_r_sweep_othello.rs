//! `deeppn-r-sweep-othello`: DeepPN with R = 1.0, 0.95, …, 0.0 on random
//! 16-empty Othello endgames — the thesis' §3.2.2 (Figs 3.3–3.4), §3.2.5
//! (Fig. 3.8, depth of most-proving nodes) and §3.2.6 (Fig. 3.10, root
//! seesaw).
//!
//! Positions as in `othello-table-a2` (the same positions for the same
//! seed); `--positions` (default [`DEFAULT_POSITIONS`]; the thesis: 1000).
//! R = 0.0 is depth-first search and solves almost nothing (the thesis
//! omits it): the [`NODE_LIMIT`] stops it, and the table says how often.

use super::deeppn_common::{sweep, SweepSpec};
use super::othello_table_a2::{items, MOVES};
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "deeppn-r-sweep-othello",
    about: "DeepPN, R from 1.0 to 0.0 by 0.05, on random 16-empty Othello endgames: iterations, nodes, MPN depth, root seesaw (thesis Figs 3.3, 3.4, 3.8, 3.10)",
    run,
};

/// Default number of positions (the thesis: 1000).
pub const DEFAULT_POSITIONS: usize = 100;
/// Nodes generated before a search is stopped.
pub const NODE_LIMIT: u64 = 5_000_000;

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_POSITIONS);
    let items = items(n, MOVES, opts.seed);
    let spec = SweepSpec {
        name: "deeppn-r-sweep-othello",
        items_word: "positions",
        intro: "Random Othello endgames with 16 empty squares (44 random moves from the \
                start; the same positions as othello-table-a2 for the same seed), question \
                \"does the side to move win?\", rules only, leaves (1, 1), explicit tree, no \
                transposition table (thesis §3.2.2)."
            .into(),
        node_limit: NODE_LIMIT,
        figs: ("3.3", "3.4", "3.8", "3.10"),
    };
    sweep(opts, &spec, &items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tiny_sweep_writes_its_figures() {
        let dir = std::env::temp_dir().join(format!("pns-lab-sweep-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(3),
            seed: 4,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        // 10 empty squares keep the test fast.
        let items = items(3, 50, 4);
        let spec = SweepSpec {
            name: "sweep-test",
            items_word: "positions",
            intro: String::new(),
            node_limit: 2_000_000,
            figs: ("3.3", "3.4", "3.8", "3.10"),
        };
        let r = sweep(&opts, &spec, &items).unwrap();
        for f in [
            "runs.csv",
            "sweep.csv",
            "variation.svg",
            "reduction.svg",
            "dispersion_iterations.svg",
            "dispersion_nodes.svg",
            "depth.svg",
            "seesaw.svg",
            "sweep-test.md",
        ] {
            assert!(dir.join(f).exists(), "{f}");
        }
        // 21 values of R, R = 1 is the base.
        let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
        assert_eq!(csv.lines().count(), 22);
        assert!(r.summary.contains("| 1.00 | 3 | 0 |"), "{}", r.summary);
        assert!(r.summary.contains("| 0.00 |"));
        let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
        assert_eq!(runs.lines().count(), 1 + 3 * 21);
        let _ = std::fs::remove_dir_all(dir);
    }
}
