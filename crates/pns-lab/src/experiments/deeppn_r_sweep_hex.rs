//! `deeppn-r-sweep-hex`: DeepPN with R = 1.0, 0.95, …, 0.0 on the empty 4x4
//! Hex board with shuffled move order — the thesis' §3.2.3 (Figs 3.5,
//! 3.7), §3.2.5 (Fig. 3.9, depth of most-proving nodes) and §3.2.6
//! (Fig. 3.11, root seesaw).
//!
//! Trials as in `hex-table-a3` (the same move orders for the same seed);
//! `--positions` (default [`DEFAULT_TRIALS`]; the thesis: 100). The thesis
//! could not solve Hex(4) at R = 0.0 within 500 million nodes; the
//! [`NODE_LIMIT`] here is far lower, and the table says how often it is
//! hit.

use super::deeppn_common::{sweep, SweepSpec};
use super::hex_table_a3::trials;
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "deeppn-r-sweep-hex",
    about: "DeepPN, R from 1.0 to 0.0 by 0.05, on empty Hex 4x4 with shuffled move order: iterations, nodes, MPN depth, root seesaw (thesis Figs 3.5, 3.7, 3.9, 3.11)",
    run,
};

/// Default number of trials (the thesis: 100).
pub const DEFAULT_TRIALS: usize = 20;
/// Nodes generated before a search is stopped.
pub const NODE_LIMIT: u64 = 20_000_000;

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let items = trials(opts.positions_or(DEFAULT_TRIALS), opts.seed);
    let spec = SweepSpec {
        name: "deeppn-r-sweep-hex",
        items_word: "trials",
        intro: "The empty 4x4 Hex board, the legal moves in a random order drawn anew for \
                each trial (the same orders as hex-table-a3 for the same seed), question \
                \"does Black, to move, win?\", rules only, leaves (1, 1), explicit tree, no \
                transposition table (thesis §3.2.3)."
            .into(),
        node_limit: NODE_LIMIT,
        figs: ("3.5", "3.7", "3.9", "3.11"),
    };
    sweep(opts, &spec, &items)
}
