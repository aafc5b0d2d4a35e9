//! `othello-table-a2`: PN-search, df-pn, DeepPN (R = 0.6), df-pn with the
//! 1+ε trick (ε = 1/8) and df-pn+ (cost_φ = −1) on random Othello endgames
//! with 16 empty squares — the thesis' Appendix A.2, Table A.2.
//!
//! Positions: `--positions` (default [`DEFAULT_POSITIONS`]; the thesis
//! uses 1000) distinct positions after 44 random moves from the start
//! ([`Othello::random_endgame`]), searched with the rules only (see
//! [`super::deeppn_common`] for what is measured and how medians treat runs
//! that hit the [`NODE_LIMIT`]). The thesis ran every algorithm without a
//! transposition table; the df-pn variants run twice here, keyed by path
//! (a tree, as the thesis) and keyed by position (df-pn as it is normally
//! run).

use std::collections::HashSet;

use pns_core::{Rng, RulesOnly};
use pns_games::othello::Othello;

use super::deeppn_common::{comparison, table_configs, Config, Item, PaperRow, TableSpec};
use crate::runner::item_seed;
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "othello-table-a2",
    about: "PN-search, df-pn, DeepPN R=0.6, 1+eps (1/8), df-pn+ (cost -1) on random 16-empty Othello endgames (thesis Table A.2)",
    run,
};

/// Default number of positions (the thesis: 1000).
pub const DEFAULT_POSITIONS: usize = 200;
/// Nodes generated before a search is stopped.
pub const NODE_LIMIT: u64 = 5_000_000;
/// Table per thread for the df-pn variants, MiB.
pub const HASH_MB: usize = 256;
/// Random moves from the start: 16 empty squares remain.
pub const MOVES: usize = 44;

/// The configurations, PN-search first (the base of the rates).
pub fn configs() -> Vec<Config> {
    table_configs("0.60", "0.6", "1/8", "0.125", "-1")
}

/// Table A.2, by configuration (iterations, nodes, rates).
pub fn paper() -> Vec<PaperRow> {
    vec![
        Some((94319, 440233, 1.0, 1.0)),
        Some((90555, 428416, 0.9601, 0.9732)),
        Some((47285, 166103, 0.5013, 0.3773)),
        Some((91459, 419436, 0.9697, 0.9528)),
        Some((65690, 124148, 0.6965, 0.2820)),
    ]
}

/// [`positions`] as experiment items, searched with the rules only (the
/// thesis' primitive solvers), labelled by their .obf string.
pub fn items(n: usize, moves: usize, seed: u64) -> Vec<Item<RulesOnly<Othello>>> {
    positions(n, moves, seed)
        .into_iter()
        .map(|g| Item {
            label: g.to_obf(),
            game: RulesOnly(g),
        })
        .collect()
}

/// `n` distinct positions after `moves` random moves, from `seed`.
pub fn positions(n: usize, moves: usize, seed: u64) -> Vec<Othello> {
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut attempt = 0;
    while out.len() < n {
        let mut rng = Rng::new(item_seed(seed, attempt));
        attempt += 1;
        let g = Othello::random_endgame(&mut rng, moves);
        if seen.insert(g) {
            out.push(g);
        }
    }
    out
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let n = opts.positions_or(DEFAULT_POSITIONS);
    let items = items(n, MOVES, opts.seed);
    let spec = TableSpec {
        name: "othello-table-a2",
        items_word: "positions",
        paper: paper(),
        paper_source: "Thesis columns: Table A.2 (medians over 1000 random positions, no \
                       transposition table).",
        intro: "Random Othello endgames with 16 empty squares (44 random moves from the \
                start), question \"does the side to move win?\" (one goal search), rules \
                only: no move ordering, no heuristic, leaves (1, 1). PN-search and DeepPN \
                keep a tree; the first three df-pn rows key their table by path (no \
                transpositions, as the thesis), the *(table)* rows by position."
            .into(),
        node_limit: NODE_LIMIT,
    };
    comparison(opts, &spec, &items, &configs(), HASH_MB)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_have_16_empties_and_are_distinct() {
        let p = positions(6, MOVES, 5);
        assert!(p.iter().all(|g| g.empties() == 16));
        assert_eq!(p.iter().collect::<HashSet<_>>().len(), 6);
        assert_eq!(p, positions(6, MOVES, 5));
    }

    #[test]
    fn a_tiny_run_writes_its_files() {
        let dir = std::env::temp_dir().join(format!("pns-lab-a2-{}", std::process::id()));
        let opts = ExpOptions {
            positions: Some(2),
            seed: 3,
            out: dir.clone(),
            threads: Some(2),
            progress: None,
        };
        // Positions with fewer empties keep the test fast.
        let items = items(2, 50, 3);
        let spec = TableSpec {
            name: "a2-test",
            items_word: "positions",
            paper: paper(),
            paper_source: "",
            intro: String::new(),
            node_limit: 1_000_000,
        };
        let r = comparison(&opts, &spec, &items, &configs(), 4).unwrap();
        for f in [
            "runs.csv",
            "table.csv",
            "ratios_iterations.svg",
            "ratios_nodes.svg",
            "a2-test.md",
        ] {
            assert!(dir.join(f).exists(), "{f}");
        }
        assert!(r.summary.contains("| PN-search | 2 | 0 |"), "{}", r.summary);
        assert!(r.summary.contains("100.00%"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
