//! The integration tests of `pns-go`: the rules, capturing and one-eye
//! problems against exact tree searches, certificates, and the GNU Go and
//! Fuego regression cases.
//!
//! One test binary for the crate, one module per file: each binary links
//! every crate and monomorphises the searches again, which cost CI minutes
//! when every file was a binary of its own.

#[allow(dead_code)] // each module uses part of it
#[path = "../../pns-games/tests/common/shared_data.rs"]
mod shared_data;

mod capture;
mod certificates;
mod fuego_ladder;
mod fuego_superko;
mod gnugo_tactical;
mod one_eye;
mod rules;
