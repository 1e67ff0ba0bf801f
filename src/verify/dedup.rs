//! Exact-duplicate detection for `verify`: a set of puzzle fingerprints that remembers
//! where each puzzle was first seen.
//!
//! A fingerprint is the 128-bit xxh3 hash of the puzzle's 81 cells with blanks as `0`
//! ([`super::check::fingerprint`]), computed on the workers; the set is filled in input
//! order by the one consuming thread, so "first occurrence" does not depend on the thread
//! count. Memory is bounded per distinct puzzle: 16 bytes of key and 8 of position (24 per
//! entry, plus the hash table's load-factor slack), about 30 MB per million distinct
//! puzzles. Two different puzzles share a 128-bit fingerprint with probability about
//! n²/2¹²⁹, below 10⁻²² for 10⁸ rows, so a hit is treated as an exact duplicate.

use std::collections::HashMap;

use xxhash_rust::xxh3::Xxh3Builder;

/// Where a puzzle was first seen: the index of the input in the run, and the 1-based line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstSeen {
    /// 0-based index of the input among the run's inputs.
    pub input: u32,
    /// 1-based line in that input.
    pub line: u64,
}

/// Bits of the packed position that hold the line; the input index takes the rest.
const LINE_BITS: u32 = 40;

/// Fingerprint → first occurrence, for a whole run (across inputs).
#[derive(Default)]
pub struct Fingerprints {
    /// Key: the fingerprint as two halves (8-byte alignment keeps entries at 24 bytes);
    /// value: `input << 40 | line`.
    seen: HashMap<[u64; 2], u64, Xxh3Builder>,
}

impl Fingerprints {
    /// Records `fp` at `at` if it is new and returns `None`; if it was seen before, returns
    /// where it was first seen.
    pub fn first_or_insert(&mut self, fp: u128, at: FirstSeen) -> Option<FirstSeen> {
        let key = [(fp >> 64) as u64, fp as u64];
        let packed = (u64::from(at.input) << LINE_BITS) | at.line.min((1 << LINE_BITS) - 1);
        match self.seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => {
                let v = *e.get();
                Some(FirstSeen {
                    input: (v >> LINE_BITS) as u32,
                    line: v & ((1 << LINE_BITS) - 1),
                })
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(packed);
                None
            }
        }
    }

    /// Distinct fingerprints held (for the tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_occurrence_wins_across_inputs() {
        let mut f = Fingerprints::default();
        let a = FirstSeen { input: 0, line: 7 };
        let b = FirstSeen {
            input: 3,
            line: 1 << 33,
        };
        assert_eq!(f.first_or_insert(42, a), None);
        assert_eq!(f.first_or_insert(u128::MAX, b), None);
        assert_eq!(f.first_or_insert(42, b), Some(a));
        assert_eq!(f.first_or_insert(u128::MAX, a), Some(b));
        assert_eq!(f.len(), 2);
        // Keys that differ only in one half are distinct.
        assert_eq!(f.first_or_insert(42 | (1u128 << 64), a), None);
    }
}
