//! Game domains for pns. Each module implements [`pns_core::Game`].

pub mod hex;
pub mod othello;
