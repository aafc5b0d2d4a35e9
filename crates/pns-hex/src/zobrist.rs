//! Zobrist keys: one random 64-bit word per (colour, cell), plus a salt per
//! board shape.
//!
//! The key is updated with one XOR per move, so `Rules::key` is a field read.
//! In play the side to move is implied by the stone counts (Black moves
//! when both colours have the same number of stones); [`TURN`] marks the
//! positions made by a concession, where it is not.
//! The table is generated at compile time from a fixed SplitMix64 stream, so
//! keys are identical on every machine and in every build.

use super::geometry::MAX_CELLS;

/// SplitMix64 finaliser (the same mixer as `pns_core::rng::splitmix64`,
/// repeated here because that one is not a `const fn`).
const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> [[u64; MAX_CELLS]; 2] {
    let mut t = [[0u64; MAX_CELLS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            // Distinct inputs for every entry; a fixed odd offset keeps the
            // stream away from small seeds used elsewhere.
            t[c][i] = mix(0x4845_5800_0000_0000 ^ ((c * MAX_CELLS + i) as u64));
            i += 1;
        }
        c += 1;
    }
    t
}

/// `TABLE[0]` for Black stones, `TABLE[1]` for White stones, by cell index.
pub(crate) static TABLE: [[u64; MAX_CELLS]; 2] = build();

/// XORed into the key when the side to move is not the one the stone
/// parity implies (after an odd number of concessions).
pub(crate) const TURN: u64 = mix(0x5455_524E_0000_0001);

/// The key of the empty `width` x `height` board.
pub(crate) fn size_salt(width: usize, height: usize) -> u64 {
    mix(0x5A17_0000_0000_0000 ^ ((width as u64) << 8) ^ height as u64)
}
