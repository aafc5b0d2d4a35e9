//! Game domains for pns, the umbrella over the game crates: each game
//! module (a crate of its own) implements [`pns_core::Game`]; [`registry`]
//! lists them for front ends that pick a game by name, and [`testsets`]
//! reads their test files.

pub mod registry;
pub mod testsets;

// Each game is its own crate (depend on `pns-core` and one of them to use
// one game); here they keep the paths they had as modules of this crate.
pub use pns_connect4 as connect4;
pub use pns_connect6 as connect6;
pub use pns_go as go;
pub use pns_hex as hex;
pub use pns_othello as othello;
pub use pns_shogi as shogi;
pub use pns_synthetic::{cyclic, synthetic};
pub use pns_tictactoe as tictactoe;

pub use connect4::ConnectFour;
pub use connect6::Connect6;
pub use cyclic::{Cyclic, Graph, GraphParams};
pub use registry::{GameOptions, RegisteredGame};
pub use shogi::Tsume;
pub use synthetic::{Synthetic, TreeParams};
pub use testsets::{TestFormat, TestLine};
pub use tictactoe::TicTacToe;
