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

/// The nine positions of `docs/experiments/connect6-deep-dfpn` (seed 1):
/// eight VCDT wins, then the hard one (no VCDT win at the root), as
/// `pns experiment connect6-deep-dfpn` picks them; the examples measure
/// on them without drawing them again.
pub const EXPERIMENT_POSITIONS: [&str; 9] = [
    "i8 g8m8 h10h11 j9l9 k12l12 j10i13",
    "j8 h8g10 i10j10 k10i12 l11j12 l12m13",
    "h9 h8g10 j10k11 m10l11 j12l12 h12m13",
    "k9 g7l7 h10l10 i8m8 j11l12 k10h13",
    "h10 m9g10 j10h11 i12g13 l11l12 h13m13",
    "l8 g7i9 h9l10 j9l9 k11l12 i11g12",
    "l8 i7j8 k9h11 k8h9 j11j12 l9i11",
    "j9 k10h11 k9j10 j12l13",
    "l8 f9h9 k9j11 i11n11 h12l12 j13n15",
];

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
