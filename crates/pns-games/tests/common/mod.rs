//! Helpers shared by the integration tests.

// Each test binary includes this module and uses only some of it.
#![allow(dead_code, unused_imports)]

mod shared_data;

use pns_core::prelude::*;
use pns_core::{Game, Outcome};
use proptest::prelude::*;

pub use pns_core::testing::{negamax, negamax_memo};
pub use shared_data::{read_shared, shared_data};

/// Seeded synthetic trees in `Synthetic`'s notation: balanced or not,
/// depth 1 to `max_depth`, branching 1 to `max_branching`, with and without
/// transpositions (`pool`), draws and early stops. The bounds keep the
/// slowest algorithms (PN*, depth-first Deep df-pn) fast.
pub fn tree(max_depth: u16, max_branching: u8) -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        1u16..=max_depth,
        1u8..=max_branching,
        any::<u64>(),
        prop_oneof![Just(0u32), 3u32..60],
        0u8..=100,
        0u8..40,
        0u8..60,
    )
        .prop_map(|(balanced, depth, branching, seed, pool, win, draw, stop)| {
            let draw = draw.min(100 - win);
            format!(
                "shape={},depth={depth},branching={branching},seed={seed},pool={pool},win={win},draw={draw},stop={stop}",
                if balanced { "balanced" } else { "unbalanced" }
            )
        })
}

/// The labelled positions of a Connect Four test set in `../shared/data`
/// (Pons' `MOVES SCORE` lines, read by the game's own `TestFormat`).
pub fn connect4_set(name: &str) -> Vec<(String, Outcome)> {
    use pns_games::TestFormat;
    read_shared(&format!("connect4/{name}"))
        .lines()
        .filter_map(|l| pns_games::ConnectFour::parse_test_line(l).unwrap())
        .map(|t| (t.position, t.expected.expect("a labelled line")))
        .collect()
}
