//! Synthetic problems for pns: random AND/OR trees ([`synthetic`]) and
//! random game graphs whose positions repeat ([`cyclic`]). Both implement
//! [`pns_core::Game`].

pub mod cyclic;
mod params;
pub mod synthetic;

pub use cyclic::{Cyclic, Graph, GraphParams};
pub use synthetic::{Synthetic, TreeParams};
