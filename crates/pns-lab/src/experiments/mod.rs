//! The registry of experiments. Each experiment is one module; add it to
//! [`ALL`].

use crate::Experiment;

/// Every experiment, by name.
pub static ALL: &[Experiment] = &[];
