//! Hex on boards up to 11x11, with Benzene's conventions.
//!
//! * Black ([`pns_core::Side::First`]) moves first and joins row 1 to the
//!   last row (north-south); White joins column `a` to the last column
//!   (west-east). No swap rule. Hex has no draws.
//! * Cells are a column letter and a row number, `c3`. The neighbours of
//!   (column x, row y) are (x±1, y), (x, y±1), (x+1, y−1) and (x−1, y+1):
//!   on 4x4, `a4 b3 c2 d1` is a chain (the short diagonal between the
//!   obtuse corners), and those are exactly Black's winning openings.
//! * Positions are written as the board size and the moves, e.g. `6 c3 d4`
//!   (see [`notation`](self#position-notation) below); rectangles `6x7` are
//!   accepted too (6 columns, 7 rows), for Benzene's 6x7 test file.
//!
//! # Position notation
//!
//! The board size (`6`, or `WxH`), then the moves from the empty board,
//! Black first and alternating. `6` alone is the empty 6x6 board. A move may
//! be written with its colour, `b:c3` or `w:d4`, which must agree with the
//! alternation. Errors name the offending token.
//!
//! # Search hooks
//!
//! What the hooks know is set per position by [`Analysis`]:
//!
//! * `Connections` (the default, module `solver`): winning cells and
//!   threats, virtual connections by H-search (module `hsearch`), the
//!   must-play region of the opponent's connections, and inferior-cell
//!   fill-in (dead and captured cells, module `inferior`). A connection
//!   between the mover's edges is a known win. Certificates end such a
//!   line with a *claim* (module `claim`): the connection as H-search
//!   derived it, every link's strategy written out and checked by the
//!   rules (module `claim_build` writes them); cells that cannot matter
//!   may be *conceded* ([`Hex::concede`]) and the prover's captured pairs
//!   *filled* ([`pns_core::Shortcuts::fill`]).
//! * `Threats`: winning cells and double threats only (the must-play region
//!   of the opponent's double threats); no claims.
//! * `Rules` ([`Hex::with_plain_search`]): the rules-only defaults, for the
//!   thesis §3.2.3 Hex(4) experiments.
//!
//! `heuristic` is mobility after the cuts (df-pn+ `h`); `playout` fills the
//! board at random in one go (same distribution as random moves).
//! [`Hex::with_shuffled_order`] shuffles the move order (thesis §3.2.3).
//!
//! # Implementation
//!
//! One `u128` bitboard per colour, bit `row * 11 + column` on every board
//! size ([`STRIDE`]) so that all shifts are constants; win checks, threats
//! and connection distances are flood fills by bit shifts (`geometry`,
//! `analysis`). `Hex` is `Copy` and 64 bytes, with an incremental Zobrist
//! key and a cached winner; the move order is a shared `'static` array.
//! [`read_benzene_tst`] and [`read_openings`] load the external test data,
//! and `pns_games` reads `openings-winner.txt` through its `TestFormat`.

mod analysis;
mod benzene;
mod claim;
mod claim_build;
mod geometry;
mod hsearch;
mod inferior;
mod notation;
mod playout;
mod position;
mod rules;
mod solver;
mod zobrist;

pub use analysis::UNREACHABLE;
pub use benzene::{read_benzene_tst, read_openings};
pub use geometry::{MAX_CELLS, MAX_SIZE, MIN_SIZE, STRIDE};
pub use notation::parse_colour;
pub use position::{Analysis, Cell, Hex, BLACK, WHITE};
