//! Zobrist keys: one random 64-bit word per (colour, cell); a position's key is the XOR of the
//! keys of its balls, so [`Game::play`](super::Game::play) and
//! [`Game::undo`](super::Game::undo) update it with one XOR.

use crate::rng::{GOLDEN, mix64};

/// `KEYS[color][b]`: the key of a ball of `color` (0 Black, 1 White) at cell bit `b`
/// (`x | y << 3 | z << 6`, from 0). Generated at compile time by splitmix64 from a fixed seed,
/// so keys (and hashes) are the same on every build and platform.
pub(crate) static KEYS: [[u64; 512]; 2] = {
    let mut keys = [[0u64; 512]; 2];
    let mut state: u64 = 0x5345_5155_454e_4345; // "SEQUENCE"
    let mut c = 0;
    while c < 2 {
        let mut b = 0;
        while b < 512 {
            state = state.wrapping_add(GOLDEN);
            keys[c][b] = mix64(state);
            b += 1;
        }
        c += 1;
    }
    keys
};

/// The key of a ball of `color` (0 Black, 1 White) at cell bit `b`.
#[inline(always)]
pub(crate) fn key(color: usize, b: usize) -> u64 {
    KEYS[color & 1][b & 511]
}

#[cfg(test)]
mod tests {
    use super::KEYS;

    #[test]
    fn keys_are_distinct_and_dense() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 1024);
        // Each key has about half its bits set: none is a degenerate word.
        assert!(all.iter().all(|k| (12..=52).contains(&k.count_ones())));
    }
}
