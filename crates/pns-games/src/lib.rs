//! Game domains for pns. Each module implements [`pns_core::Game`];
//! [`registry`] lists them for front ends that pick a game by name.

pub mod connect4;
pub mod cyclic;
pub mod hex;
pub mod othello;
pub mod registry;
pub mod synthetic;
pub mod testsets;
pub mod tictactoe;

pub use connect4::ConnectFour;
pub use cyclic::{Cyclic, Graph, GraphParams};
pub use registry::{GameOptions, RegisteredGame};
pub use synthetic::{Synthetic, TreeParams};
pub use testsets::{TestFormat, TestLine};
pub use tictactoe::TicTacToe;
