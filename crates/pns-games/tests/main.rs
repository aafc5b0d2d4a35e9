//! The integration tests of `pns-games`: every game domain against its
//! external answers and oracles, and every algorithm over them.
//!
//! One test binary for the crate, one module per file: each binary links
//! every crate and monomorphises the searches again, which cost CI minutes
//! when every file was a binary of its own.

mod common;

mod connect4_sets;
mod cyclic;
mod hex_data;
mod hex_reference;
mod hex_rules;
mod hex_solve;
mod nested;
mod oracle;
mod othello_fforum;
mod othello_rules;
mod othello_search;
mod othello_solve;
mod parallel;
mod ppns;
mod variants;
