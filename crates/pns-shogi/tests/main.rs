//! The integration tests of `pns-shogi`: move generation, counting, the
//! mate search and the tsume problems in ../shared/data/shogi.
//!
//! One test binary for the crate, one module per file: each binary links
//! every crate and monomorphises the searches again, which cost CI minutes
//! when every file was a binary of its own.

#[path = "common/microcosmos.rs"]
mod common;
#[allow(dead_code)] // each module uses part of it
#[path = "../../pns-games/tests/common/shared_data.rs"]
mod shared_data;

mod antma;
mod counting;
mod delays;
mod hands;
mod leaf_estimate;
mod microcosmos;
mod movegen;
mod perft;
