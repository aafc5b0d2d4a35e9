//! Tsume-shogi for pns: shogi rules ([`position`]), the mate problem as a
//! game of the engine ([`tsume`]), the tsume answer (the mate's length
//! against the longest defence, [`answer`]) and the USI protocol of a mate
//! engine ([`usi`]). Solved positions are shared in the table by proof
//! and disproof pieces ([`hands`]).
//!
//! A proven mate whose exact length search ([`answer`]) passes its budget
//! gets its answer from the proof itself, read back from the table
//! ([`proof`]): a certificate the rules-only verifier checks, and the
//! shortest mate it holds against the longest defence, which is a mate
//! but not proven the shortest. Microcosmos (the 1525-ply mate of
//! `../shared/data/shogi/long-problems.tsv`) is proven by df-pn in about
//! two minutes with an 8 GiB table (1.45 times KomoringHeights' time on
//! one thread, side by side), and reading its proof (40 s) gives a
//! 1525-ply line and a certificate the verifier accepts; docs/PERFORMANCE.md
//! gives the measurements and what is missing (a proof that the length is
//! the shortest).
//!
//! Specification: the DeepPN thesis ch. 4 (df-pn on tsume-shogi) and the
//! GHI paper §1.2 (a repetition by perpetual check is a loss for the
//! attacker: the first-player-loss rule).

#![allow(clippy::needless_range_loop)] // squares and directions index several tables at once

pub mod answer;
pub mod hands;
pub mod position;
pub mod proof;
pub mod solve;
pub mod tsume;
pub mod usi;

pub use answer::{MateLength, MateLine};
pub use position::{Color, Move, Position, STARTPOS};
pub use solve::{solve, TsumeOptions, TsumeReport};
pub use tsume::Tsume;
