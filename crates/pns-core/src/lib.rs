//! # pns-core
//!
//! The proof-number search engine. It knows no game: a domain implements
//! [`game::Game`] (two-player rules, split by concern into
//! [`game::Rules`], [`game::Notation`], [`game::SearchHooks`],
//! [`game::Shortcuts`] and [`game::Playout`]) or [`problem::Problem`] (an AND/OR
//! problem directly), and every algorithm runs over it.
//!
//! * [`dfpn`] — df-pn and its variants as policies on one loop.
//! * [`bestfirst`] — PN-search and its variants as value rules on one
//!   explicit-tree loop.
//! * [`tt`] — the fixed-memory transposition table.
//! * [`certificate`] and [`verify`] — proofs that an independent checker
//!   accepts using the game rules alone.
//! * [`solve`] — win / draw / loss from goal searches.
//!
//! ```
//! use pns_core::prelude::*; // the game traits
//! use pns_core::{algo::Algo, solve::{solve, SolveOptions}, Outcome, Table};
//! # use pns_core::{GameError, Side};
//! # // A tiny game: take 1 or 2 stones, taking the last one wins.
//! # #[derive(Clone, Debug, PartialEq, Eq, Hash)]
//! # struct Nim(u8, u8);
//! # impl Rules for Nim {
//! #     type Move = u8;
//! #     const NAME: &'static str = "nim";
//! #     const HAS_DRAWS: bool = false;
//! #     fn side_to_move(&self) -> Side { if self.1 % 2 == 0 { Side::First } else { Side::Second } }
//! #     fn outcome(&self) -> Option<Outcome> { (self.0 == 0).then_some(Outcome::Loss) }
//! #     fn legal_moves(&self, out: &mut Vec<u8>) { out.extend((1..=2).filter(|&k| k <= self.0)) }
//! #     fn play(&mut self, m: u8) { self.0 -= m; self.1 += 1 }
//! #     fn key(&self) -> u64 { pns_core::rng::splitmix64(((self.0 as u64) << 8) | (self.1 % 2) as u64) }
//! # }
//! # impl Notation for Nim {
//! #     fn parse_position(s: &str) -> Result<Self, GameError> {
//! #         s.parse().map(|n| Nim(n, 0)).map_err(|_| GameError::new("bad"))
//! #     }
//! #     fn parse_move(&self, s: &str) -> Result<u8, GameError> { s.parse().map_err(|_| GameError::new("bad")) }
//! #     fn format_move(&self, m: u8) -> String { m.to_string() }
//! # }
//! # // No search hooks, certificate shortcuts or custom playouts: defaults.
//! # impl SearchHooks for Nim {}
//! # impl Shortcuts for Nim {}
//! # impl Playout for Nim {}
//! // Nim with 7 stones, take 1 or 2: the first player wins (7 is not a
//! // multiple of 3) by taking 1.
//! let root = Nim::parse_position("7").unwrap();
//! let opts = SolveOptions { algo: Algo::default(), best_move: true, ..Default::default() };
//! let report = solve(&root, "7", &opts, &mut Table::with_mb(1));
//! assert_eq!(report.value, Some(Outcome::Win));
//! assert_eq!(report.best_move, Some(1));
//! ```

pub mod algo;
pub mod bestfirst;
pub mod certificate;
pub mod dfpn;
pub mod game;
pub mod limits;
pub mod numbers;
pub mod problem;
pub mod result;
pub mod rng;
pub mod rules_only;
pub mod solve;
pub mod stats;
#[doc(hidden)]
pub mod testing;
pub mod tt;
pub mod verify;
pub mod zeroed;

/// The game traits, for calling their methods on concrete types
/// (`use pns_core::prelude::*;`).
pub mod prelude {
    pub use crate::game::{Game, Notation, Playout, Rules, SearchHooks, Shortcuts};
}

pub use algo::Algo;
pub use game::{
    Game, GameError, Goal, GoalContext, Notation, Outcome, Playout, Repetition, Rules, SearchHooks,
    SharedProbe, Shortcuts, Side,
};
pub use limits::{Limits, StopReason};
pub use problem::{GoalProblem, Problem, Status};
pub use result::SearchResult;
pub use rng::Rng;
pub use rules_only::RulesOnly;
pub use stats::Stats;
pub use tt::Table;
