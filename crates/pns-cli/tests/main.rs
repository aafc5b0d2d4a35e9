//! The integration tests of the `pns` command line: each subcommand end
//! to end through the built binary.
//!
//! One test binary for the crate, one module per file: each binary links
//! every crate and monomorphises the searches again, which cost CI minutes
//! when every file was a binary of its own.

#[path = "common/piped.rs"]
mod piped;
#[allow(dead_code)] // each module uses part of it
#[path = "../../pns-games/tests/common/shared_data.rs"]
mod shared_data;

mod bench_data;
mod cli;
mod connect6;
mod go_capture;
mod gtp;
mod tune;
mod usi;
