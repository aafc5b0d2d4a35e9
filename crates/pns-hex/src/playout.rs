//! Fast random playouts.
//!
//! Random play to the end of a Hex game gives the same winner as filling
//! every empty cell at once, alternately, in a uniformly random order, and
//! then asking who connects: stones are never removed, so whoever connects
//! first during the fill is still connected on the full board, and the Hex
//! theorem says exactly one side is connected there. The moves after the
//! first connection do not change the winner, and the moves before it are
//! a uniformly random sequence either way. So a playout needs one random
//! subset (the cells the side to move would fill) and one flood fill, with
//! no per-move win check and no allocation.

use pns_core::{Outcome, Rng};

use super::geometry::{bits, MAX_CELLS};
use super::position::{Hex, BLACK};

impl Hex {
    /// The result, for the side to move, of uniformly random play to the
    /// end (see the module documentation). Deterministic given `rng`'s
    /// state; draws `ceil(E/2)` numbers from `rng` for `E` empty cells.
    pub fn random_fill_outcome(&self, rng: &mut Rng) -> Outcome {
        if let Some(w) = self.winner {
            return if w == self.to_move() {
                Outcome::Win
            } else {
                Outcome::Loss
            };
        }
        let mut cells = [0u8; MAX_CELLS];
        let mut n = 0;
        for i in bits(self.empty_cells()) {
            cells[n] = i as u8;
            n += 1;
        }
        // The side to move makes the first, third, … of the remaining
        // moves, so it gets the larger half. A partial Fisher–Yates shuffle
        // picks a uniform subset of that size.
        let mine = n.div_ceil(2);
        let mut chosen = 0u128;
        for i in 0..mine {
            let j = i + rng.below((n - i) as u64) as usize;
            cells.swap(i, j);
            chosen |= 1u128 << cells[i];
        }
        let me = self.to_move();
        let own = self.stones(me) | chosen;
        if self.geom.joins(own, self.geom.edges(me == BLACK)) {
            Outcome::Win
        } else {
            Outcome::Loss
        }
    }
}
