//! The registry of experiments. Each experiment is one module; add it to
//! [`ALL`].

use crate::Experiment;

pub mod ppns_common;
pub mod ppns_connect4;
pub mod ppns_othello;
pub mod ppns_synthetic;

/// Every experiment, by name.
pub static ALL: &[Experiment] = &[
    ppns_connect4::EXPERIMENT,
    ppns_othello::EXPERIMENT,
    ppns_synthetic::EXPERIMENT,
];
