//! Hex (NxN). Work in progress.
