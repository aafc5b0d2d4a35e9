//! `hex-table-a3`: PN-search, df-pn, DeepPN (R = 0.95), df-pn with the
//! 1+ε trick (ε = 1) and df-pn+ (cost_φ = −5) on the empty 4x4 Hex board,
//! the legal moves shuffled anew for every trial — the thesis' Appendix
//! A.2, Table A.3.
//!
//! Trials: `--positions` (default [`DEFAULT_TRIALS`]; Table A.3 used 10,
//! §3.2.3 used 100); trial `i` orders the moves by the permutation of
//! [`Hex::with_shuffled_order`] seeded with `item_seed(seed, i)`. The
//! searches are rules only (see [`super::deeppn_common`]): a position is
//! decided when a player has joined their edges, and every empty cell is a
//! move. As in `othello-table-a2`, the df-pn variants run keyed by path (no
//! transpositions, as the thesis) and keyed by position.

use pns_core::RulesOnly;
use pns_games::hex::Hex;

use super::deeppn_common::{comparison, table_configs, Config, Item, PaperRow, TableSpec};
use crate::runner::item_seed;
use crate::{ExpOptions, Experiment, Report};

pub const EXPERIMENT: Experiment = Experiment {
    name: "hex-table-a3",
    about: "PN-search, df-pn, DeepPN R=0.95, 1+eps (1), df-pn+ (cost -5) on empty Hex 4x4 with shuffled move order (thesis Table A.3)",
    run,
};

/// Default number of trials (Table A.3: 10; §3.2.3: 100).
pub const DEFAULT_TRIALS: usize = 100;
/// Nodes generated before a search is stopped.
pub const NODE_LIMIT: u64 = 20_000_000;
/// Table per thread for the df-pn variants, MiB.
pub const HASH_MB: usize = 256;
/// Board size.
pub const SIZE: usize = 4;

/// The configurations, PN-search first (the base of the rates).
pub fn configs() -> Vec<Config> {
    table_configs("0.95", "0.95", "1", "1", "-5")
}

/// Table A.3, by configuration (iterations, nodes, rates).
pub fn paper() -> Vec<PaperRow> {
    vec![
        Some((2671655, 24049320, 1.0, 1.0)),
        Some((3086234, 26348012, 1.1552, 1.0993)),
        Some((973190, 7764919, 0.3643, 0.3229)),
        Some((794448, 4381527, 0.2974, 0.1822)),
        Some((2483241, 22660719, 0.9295, 0.9423)),
    ]
}

/// The trials: the empty board with the moves of trial `i` shuffled by
/// `item_seed(seed, i)`, searched with the rules only.
pub fn trials(n: usize, seed: u64) -> Vec<Item<RulesOnly<Hex>>> {
    (0..n)
        .map(|i| {
            let s = item_seed(seed, i);
            Item {
                label: format!("{s:#018x}"),
                game: RulesOnly(Hex::new(SIZE).expect("board size").with_shuffled_order(s)),
            }
        })
        .collect()
}

pub fn run(opts: &ExpOptions) -> Result<Report, String> {
    let items = trials(opts.positions_or(DEFAULT_TRIALS), opts.seed);
    let spec = TableSpec {
        name: "hex-table-a3",
        items_word: "trials",
        paper: paper(),
        paper_source: "Thesis columns: Table A.3 (medians over 10 trials, no transposition \
                       table).",
        intro: "The empty 4x4 Hex board, the legal moves in a random order drawn anew for \
                each trial (the *trials* column of runs.csv is the shuffle seed), question \
                \"does the side to move (Black) win?\" (one goal search), rules only: a \
                position is decided when a player has joined their edges, every empty \
                cell is a move, leaves (1, 1). PN-search and DeepPN keep a tree; the first \
                three df-pn rows key their table by path (no transpositions, as the \
                thesis), the *(table)* rows by position."
            .into(),
        node_limit: NODE_LIMIT,
    };
    comparison(opts, &spec, &items, &configs(), HASH_MB)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pns_core::prelude::*;

    #[test]
    fn trials_differ_only_in_move_order() {
        let t = trials(3, 9);
        let orders: Vec<Vec<_>> = t
            .iter()
            .map(|i| {
                let mut m = Vec::new();
                i.game.legal_moves(&mut m);
                m
            })
            .collect();
        assert_eq!(orders[0].len(), 16);
        assert_ne!(orders[0], orders[1]);
        assert_eq!(t[0].game, t[1].game, "same position");
        assert_eq!(trials(3, 9)[2].label, t[2].label);
    }
}
