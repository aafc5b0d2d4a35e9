//! Seeded opening positions for tests and experiments: the paper's
//! "four-moves openings" (Black 2 moves, White 2 moves: 1 + 2 + 2 + 2
//! stones, Black to move; deep-dfpn §6.1) and six-move ones, drawn near
//! the centre. Black's stones fall within `black_radius` of the centre
//! and White's within `white_radius` (Chebyshev distance), so that a
//! small radius for Black gives the attacking shapes the paper's solved
//! positions have. A draw that ends the game or leaves the side to move a
//! win in one is redrawn.

use pns_core::{GameError, Rng};

use crate::position::{Connect6, Params};

/// A random opening of `turns` turns (4 = the paper's four-move opening).
pub fn random_opening(
    params: Params,
    turns: usize,
    black_radius: usize,
    white_radius: usize,
    rng: &mut Rng,
) -> Result<Connect6, GameError> {
    'again: for _ in 0..1000 {
        let mut g = Connect6::new(params)?;
        let geo = g.geometry();
        let (cx, cy) = (geo.width / 2, geo.height / 2);
        for t in 0..turns {
            let radius = if t % 2 == 0 {
                black_radius
            } else {
                white_radius
            };
            let cells: Vec<u16> = g
                .empties()
                .iter()
                .filter(|&c| {
                    let (x, y) = geo.col_row(c);
                    x.abs_diff(cx) <= radius && y.abs_diff(cy) <= radius
                })
                .collect();
            let n = if t == 0 { params.q } else { params.p };
            if cells.len() < n {
                continue 'again;
            }
            let mut pick = cells;
            for _ in 0..n {
                let i = rng.below(pick.len() as u64) as usize;
                g.place(pick.swap_remove(i));
                if g.is_over() {
                    continue 'again;
                }
            }
        }
        if g.can_win_now() {
            continue;
        }
        return Ok(g);
    }
    Err(GameError::new("no opening found"))
}
