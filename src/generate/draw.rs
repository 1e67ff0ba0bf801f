//! The generator's random numbers: a counter-based seed per candidate puzzle, and the
//! ChaCha8 stream drawn from it.
//!
//! Candidate `i` of block `b` of a run with seed `S` gets its own 63-bit seed,
//! [`candidate_seed`]`(S, b, i)` (XXH3-64 of `b` and `i` under `S`, top bit cleared so it
//! fits a signed 64-bit column), and everything about that candidate (its solution grid,
//! the order its givens are tried for removal) is drawn from a ChaCha8 stream keyed by that
//! seed alone. So a candidate does not depend on the thread that builds it, on the other
//! candidates, or on the shard it falls in; and the `seed` column of an output row rebuilds
//! its puzzle ([`super::candidate`]).
//!
//! Only `next_u32` of the stream is used, with our own bounded draw ([`Draw::below`]), so
//! the output does not change with `rand`'s sampling algorithms (ChaCha8's stream itself is
//! fixed by its specification).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The seed of candidate `index` of block `block` in a run seeded with `seed`: XXH3-64 of
/// the two numbers (little-endian bytes) with `seed` as XXH3's seed, top bit cleared
/// (`0..2^63`). Part of the output format: changing it changes every run's puzzles.
pub fn candidate_seed(seed: u64, block: u64, index: u64) -> u64 {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&block.to_le_bytes());
    bytes[8..].copy_from_slice(&index.to_le_bytes());
    xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, seed) >> 1
}

/// A ChaCha8 stream with bounded draws and shuffles of our own.
pub struct Draw(ChaCha8Rng);

impl Draw {
    /// The stream of one candidate's seed.
    pub fn new(seed: u64) -> Draw {
        Draw(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A number in `0..n` (`n` at least 1): the high half of a 32×32-bit product (Lemire's
    /// method without the rejection step; each value's probability is within `n / 2^32` of
    /// `1 / n`, below 2·10⁻⁸ for the `n <= 81` drawn here).
    pub fn below(&mut self, n: u32) -> u32 {
        ((u64::from(self.0.next_u32()) * u64::from(n)) >> 32) as u32
    }

    /// Shuffles `items` in place (Fisher–Yates with [`Draw::below`]).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_range_and_shuffles_are_permutations() {
        let mut d = Draw::new(7);
        let mut seen = [0u32; 9];
        for _ in 0..9000 {
            seen[d.below(9) as usize] += 1;
        }
        // Each of 9 values about 1000 times; a far tail bound, not our own output.
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let mut v: Vec<u32> = (0..81).collect();
        d.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..81).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }

    #[test]
    fn seeds_depend_on_every_part_and_fit_63_bits() {
        let a = candidate_seed(1, 2, 3);
        assert_eq!(a, candidate_seed(1, 2, 3));
        assert!(a < 1 << 63);
        assert_ne!(a, candidate_seed(0, 2, 3));
        assert_ne!(a, candidate_seed(1, 3, 3));
        assert_ne!(a, candidate_seed(1, 2, 4));
        assert_ne!(candidate_seed(1, 2, 3), candidate_seed(1, 3, 2));
    }
}
