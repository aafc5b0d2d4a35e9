//! Test helpers shared by the game crates' unit tests and the integration
//! tests, so that there is one oracle to trust. Not part of the API.

use std::collections::HashMap;

use crate::game::{Game, Outcome};

/// The exact value of `g` for the side to move, by plain negamax through
/// the public rules (`outcome`, `legal_moves`, `play`) and nothing else:
/// the oracle the searches are checked against. Exponential; for small
/// games and positions near the end.
pub fn negamax<G: Game>(g: &G) -> Outcome {
    solve(g, &mut None)
}

/// [`negamax`] remembering every position it solves in `memo` (which the
/// caller may read afterwards), for games with many transpositions.
pub fn negamax_memo<G: Game>(g: &G, memo: &mut HashMap<G, Outcome>) -> Outcome {
    solve(g, &mut Some(memo))
}

fn solve<G: Game>(g: &G, memo: &mut Option<&mut HashMap<G, Outcome>>) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    if let Some(&o) = memo.as_ref().and_then(|m| m.get(g)) {
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
        best = best.max(solve(&c, memo).flip());
        if best == Outcome::Win {
            break;
        }
    }
    if let Some(m) = memo {
        m.insert(g.clone(), best);
    }
    best
}
