//! The set of class keys that `dedup` has seen, in under 32 bytes a class at every moment,
//! resizes included (issue 12).
//!
//! A key is 96 bits of a hash ([`Key`]); the set keeps 90 of them. Ten bits pick one of
//! 1,024 shards; each shard is a hash table of 80 more bits (10 bytes, plus hashbrown's
//! control byte: 11 bytes a slot). Two classes are taken for one when their keys agree on
//! those 90 bits: for n classes the chance of any such pair is below n²/2^91 (the birthday
//! bound), 4·10^-16 for a million classes and 4·10^-10 for a billion. A table doubles when
//! it is 7/8 full, so its slots hold between 7/16 and 7/8 of a key each: 12.6 to 25.1
//! bytes a class. A table that doubles briefly holds its old and its new slots; with one
//! table for the whole set that peak was 37.5 bytes a class, with shards it is one shard's
//! worth, 1/1,024 of the set. The keys are hashes already, so the tables use 64 of their
//! bits as the hash (`PassThrough`) instead of hashing them again.
//!
//! Rejected: 256 shards of 88 bits (12-byte slots), 26.5 bytes a class at worst by count,
//! but 30 to 34 by peak RSS, where glibc's per-thread arenas keep freed tables of one
//! worker from serving the other.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::dedup::Key;

/// Shards, chosen by 10 bits of the key.
const SHARDS: usize = 1024;

/// The 80 bits of a key that its shard's table holds.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Rest([u8; 10]);

impl Hash for Rest {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(u64::from_le_bytes(
            self.0[..8].try_into().expect("10 bytes hold 8"),
        ));
    }
}

/// A hasher for values that are hashes already: the last `u64` written is the hash.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not reached by `Rest`, which writes one u64; kept correct for any other use.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type Shard = HashSet<Rest, BuildHasherDefault<PassThrough>>;

/// A set of class keys in 1,024 shards, 90 bits of each kept (see the module docs).
pub struct ClassSet {
    shards: Vec<Shard>,
}

impl Default for ClassSet {
    fn default() -> Self {
        ClassSet {
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

impl ClassSet {
    /// Adds `key`; returns whether it was not there yet.
    pub fn insert(&mut self, key: &Key) -> bool {
        let mut bytes = [0u8; 12];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(key) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        let rest = Rest(bytes[..10].try_into().expect("12 bytes hold 10"));
        let shard = usize::from(bytes[10]) | usize::from(bytes[11] & 3) << 8;
        self.shards[shard].insert(rest)
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.shards.iter().map(HashSet::len).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Slots allocated over all shards (each 11 bytes), for the memory tests.
    #[cfg(test)]
    fn slots(&self) -> usize {
        // hashbrown keeps a power of two of buckets, 8/7 of the capacity it reports.
        self.shards
            .iter()
            .map(|s| match s.capacity() {
                0 => 0,
                c if c < 8 => (c + 1).next_power_of_two(),
                c => (c * 8 / 7).next_power_of_two(),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn keys_are_found_again_and_only_they() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(32);
        let keys: Vec<Key> = (0..50_000).map(|_| rng.random()).collect();
        let mut set = ClassSet::default();
        assert!(set.is_empty());
        assert!(keys.iter().all(|k| set.insert(k)));
        assert!(keys.iter().all(|k| !set.insert(k)));
        assert_eq!(set.len(), 50_000);
        // Keys that differ in one kept bit only (of the shard, or stored) are new.
        let mut k = keys[0];
        k[2] ^= 1 << 16;
        assert!(set.insert(&k));
        let mut k = keys[0];
        k[2] ^= 1 << 15;
        assert!(set.insert(&k));
        let mut k = keys[0];
        k[0] ^= 1;
        assert!(set.insert(&k));
    }

    #[test]
    fn slots_stay_under_32_bytes_a_class_as_the_set_grows() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(33);
        let mut set = ClassSet::default();
        let mut worst: f64 = 0.0;
        for n in 1..=300_000 {
            set.insert(&rng.random());
            if n >= 20_000 && n % 1000 == 0 {
                // A doubling shard holds its old slots too: add the largest shard once.
                let largest = set.shards.iter().map(|s| s.capacity()).max().unwrap_or(0);
                let bytes = 11 * (set.slots() + largest * 8 / 7 + 8);
                worst = worst.max(bytes as f64 / n as f64);
            }
        }
        assert!(worst < 32.0, "{worst} bytes a class");
    }
}
