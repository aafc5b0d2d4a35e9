//! Random play: fast playouts for PPNS/MCPNS and random endgame positions
//! for experiments.

use pns_core::{Outcome, Rng};

use super::board::{self, nth_set_bit};
use super::{outcome_of_difference, Othello};

/// Plays uniformly random legal moves to the end of the game and returns
/// the result for the side to move in `g`.
///
/// It makes exactly the choices of the trait's default playout: the k-th
/// legal move in square order with k = `rng.below(number of moves)`, and a
/// forced pass also draws `rng.below(1)` as the default does. So the same
/// seed gives the same game whichever version runs, which the tests check;
/// this one only avoids the move list and the repeated end-of-game test.
pub(crate) fn playout(g: &Othello, rng: &mut Rng) -> Outcome {
    let (mut me, mut opp) = (g.me, g.opp);
    // Whether `me` currently belongs to the side that was to move in `g`.
    let mut same_side = true;
    let mut moves = board::legal_moves(me, opp);
    loop {
        if moves == 0 {
            let replies = board::legal_moves(opp, me);
            if replies == 0 {
                let diff = me.count_ones() as i32 - opp.count_ones() as i32;
                let o = outcome_of_difference(diff);
                return if same_side { o } else { o.flip() };
            }
            rng.below(1);
            std::mem::swap(&mut me, &mut opp);
            same_side = !same_side;
            moves = replies;
            continue;
        }
        let sq = nth_set_bit(moves, rng.below(u64::from(moves.count_ones())));
        let f = board::flips(me, opp, sq);
        let placed = me | f | (1u64 << sq);
        me = opp & !f;
        opp = placed;
        same_side = !same_side;
        moves = board::legal_moves(me, opp);
    }
}

/// A position after `moves` random disc placements from the start, with
/// the game still running and exactly `4 + moves` discs on the board.
///
/// Each placement is uniform among the legal ones (`rng.below`). Forced
/// passes are played as they come and are not counted, and one that falls
/// due right after the last placement is played too, so the side to move
/// in the result always has a disc to place. When a game ends too early,
/// play restarts from the start with the same generator, so the result is
/// a function of the seed alone. The thesis's endgames use `moves = 44`
/// (16 empty squares).
///
/// # Panics
/// When `moves > 59`: 60 placements fill the board, which ends the game.
pub fn random_endgame(rng: &mut Rng, moves: usize) -> Othello {
    assert!(
        moves <= 59,
        "random_endgame: {moves} placements leave no running game (at most 59)"
    );
    'game: loop {
        let mut g = Othello::start();
        let mut placed = 0;
        loop {
            let legal = g.legal_squares();
            if legal == 0 {
                if board::legal_moves(g.opp, g.me) == 0 {
                    continue 'game;
                }
                g.pass();
                continue;
            }
            if placed == moves {
                return g;
            }
            g.place(nth_set_bit(legal, rng.below(u64::from(legal.count_ones()))));
            placed += 1;
        }
    }
}
