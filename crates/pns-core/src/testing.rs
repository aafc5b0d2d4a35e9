//! Test helpers shared by the game crates' unit tests and the integration
//! tests, so that there is one oracle to trust. Not part of the API.

use std::collections::HashMap;

use crate::game::{Game, Outcome};

/// The exact value of `g` for the side to move, by plain negamax through
/// the public rules (`outcome`, `legal_moves`, `play`, `side_to_move`) and
/// nothing else (a move that keeps the turn keeps the value's side):
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
        // The child's value is for its side to move: flipped only if the
        // move passed the turn (Connect6's two stones keep it).
        let v = solve(&c, memo);
        best = best.max(if c.side_to_move() == g.side_to_move() {
            v
        } else {
            v.flip()
        });
        if best == Outcome::Win {
            break;
        }
    }
    if let Some(m) = memo {
        m.insert(g.clone(), best);
    }
    best
}
