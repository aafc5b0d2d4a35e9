//! # pns-core
//!
//! The proof-number search engine. It knows no game: a domain implements
//! [`game::Game`] (two-player rules) or [`problem::Problem`] (an AND/OR
//! problem directly), and every algorithm runs over it.

pub mod game;
pub mod rng;

pub use game::{Game, GameError, Goal, GoalContext, Outcome, Side};
pub use rng::Rng;
