//! # pns-go
//!
//! Go for the pns toolkit: the rules on boards up to 19x19 ([`board`]:
//! captures, suicide, simple ko; [`game`]: a game record with situational
//! and positional super-ko), SGF loading ([`sgf`]), a GTP engine ([`gtp`])
//! and the one-eye problems of Kishimoto and Müller's GHI paper, §4
//! ([`oneeye`]).

pub mod benson;
pub mod bits;
pub mod board;
pub mod capture;
pub mod certify;
pub mod either;
pub mod escape;
pub mod game;
pub mod gtp;
mod halves;
pub mod ladder;
pub mod lambda;
pub mod oneeye;
pub mod sgf;
pub mod tactical;
pub mod thomsen;
pub mod zone;

pub use bits::Bits;
pub use board::{Board, Color, Illegal, Move};
pub use game::{GoGame, KoRule};
pub use oneeye::OneEye;
