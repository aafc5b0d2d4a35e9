//! Helpers shared by the integration tests.

// Each test binary includes this module and uses only some of it.
#![allow(dead_code, unused_imports)]

mod shared_data;

use std::collections::HashMap;

use pns_core::prelude::*;
use pns_core::{Game, Outcome};
use proptest::prelude::*;

pub use shared_data::{read_shared, shared_data};

/// The exact value of `g` for the side to move, by plain negamax through
/// the public rules (`outcome`, `legal_moves`, `play`) and nothing else:
/// the oracle the searches are checked against. Exponential; for small
/// games and positions near the end.
pub fn negamax<G: Game>(g: &G) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(
        !moves.is_empty(),
        "an unfinished game without a move: {g:?}"
    );
    let mut best = Outcome::Loss;
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        best = best.max(negamax(&c).flip());
        if best == Outcome::Win {
            break;
        }
    }
    best
}

/// [`negamax`] remembering every position it solves in `memo` (which the
/// caller may read afterwards), for games with many transpositions.
pub fn negamax_memo<G: Game>(g: &G, memo: &mut HashMap<G, Outcome>) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    if let Some(&o) = memo.get(g) {
        return o;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(
        !moves.is_empty(),
        "an unfinished game without a move: {g:?}"
    );
    let mut best = Outcome::Loss;
    for m in moves {
        let mut c = g.clone();
        c.play(m);
        best = best.max(negamax_memo(&c, memo).flip());
        if best == Outcome::Win {
            break;
        }
    }
    memo.insert(g.clone(), best);
    best
}

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
