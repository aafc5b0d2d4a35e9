//! Tsume-shogi for pns: shogi rules ([`position`]), the mate problem as a
//! game of the engine ([`tsume`]), the tsume answer (the mate's length
//! against the longest defence, [`answer`]) and the USI protocol of a mate
//! engine ([`usi`]). Solved positions are shared in the table by proof
//! and disproof pieces ([`hands`]).
//!
//! Not done: Microcosmos (the 1525-ply mate of
//! `../shared/data/shogi/long-problems.tsv`) is proven a mate by df-pn in
//! about 9 minutes with an 8 GiB table, but its line and length are not
//! given (the exact length search cannot reach 1525 plies) and no
//! certificate is made; docs/PERFORMANCE.md gives the measurements and
//! what it would need next.
//!
//! Specification: the DeepPN thesis ch. 4 (df-pn on tsume-shogi) and the
//! GHI paper §1.2 (a repetition by perpetual check is a loss for the
//! attacker: the first-player-loss rule).

#![allow(clippy::needless_range_loop)] // squares and directions index several tables at once

pub mod answer;
pub mod hands;
pub mod position;
pub mod solve;
pub mod tsume;
pub mod usi;

pub use answer::{MateLength, MateLine};
pub use position::{Color, Move, Position, STARTPOS};
pub use solve::{solve, TsumeOptions, TsumeReport};
pub use tsume::Tsume;
