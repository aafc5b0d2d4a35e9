//! Othello (8x8). Work in progress.
