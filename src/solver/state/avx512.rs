//! [`State::propagate`] with the 27 candidate boards held in two AVX-512 registers.
//!
//! The portable propagation keeps the boards in memory: each [`State::update`] writes a
//! few of them with 32-bit stores, and the next look for changed boards reads them back
//! with 16-byte loads. A load that spans several recent narrower stores cannot take its
//! value from the store buffer and waits for them to reach the cache (a time profile put
//! a good share of serg_benchmark's samples on those loads).
//! Here the boards and their last-seen copies live in registers for the whole call:
//! board `i` is lane `i % 16` of register `i / 16` (lanes 27..32 are 0 in both), changed
//! boards are one compare, and an update is a few masked ands. Each round's updates read
//! the boards as the round found them (from one copy stored at the round's start: a
//! 4-byte load inside a 64-byte store takes its value from the store buffer, and is
//! ready sooner than a lane brought out by a permute) and their deductions are applied
//! together, where the portable code applies each before the next: the rules are the portable code's and
//! monotone, so both reach the same fixpoint and make the same guesses (tested node by
//! node), though the states between differ. Naked singles are counted and placed on the
//! registers for all three bands at once (`avx512/singles.rs`), and the stack logic of a
//! hard search runs there too (`avx512/stack.rs`).

mod givens;
mod singles;
mod split;
mod stack;
mod triads;

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_cmpneq_epi32_mask, _mm512_loadu_si512,
    _mm512_mask_and_epi32, _mm512_mask_mov_epi32, _mm512_mask_set1_epi32, _mm512_mask_storeu_epi32,
    _mm512_mask_xor_epi32, _mm512_maskz_loadu_epi32, _mm512_permutex2var_epi32, _mm512_set1_epi32,
    _mm512_slli_epi32, _mm512_srli_epi32, _mm512_storeu_si512, _mm512_ternarylogic_epi32,
    _mm512_test_epi32_mask, _pext_u32,
};

use super::bits::{lone_cells, ROW_LOW8, ROW_TOP};
use super::triads::MINIROW_LOW;
use super::{
    column_mask, Branch, Contradiction, Logic, State, BAND, BOARDS, COMPLEX, OTHER, POINTING,
};

/// `vpternlogd` truth tables over the operands `(a, b, c)`: `a | b | c`.
const OR3: i32 = 0xFE;
/// `a` where `c` is set, else `b`.
const SELECT: i32 = 0xE4;

/// The register holding `t`.
#[target_feature(enable = "avx512f")]
#[inline]
fn vector(t: &[i32; 16]) -> __m512i {
    // SAFETY: 64 bytes read from a 64-byte array; no alignment needed.
    unsafe { _mm512_loadu_si512(t.as_ptr().cast()) }
}

/// `x` in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn splat(x: u32) -> __m512i {
    _mm512_set1_epi32(x as i32)
}

/// Per lane: the columns (nine bits) where the board has a cell.
#[target_feature(enable = "avx512f")]
#[inline]
fn columns(x: __m512i) -> __m512i {
    let o =
        _mm512_ternarylogic_epi32::<OR3>(x, _mm512_srli_epi32::<9>(x), _mm512_srli_epi32::<18>(x));
    _mm512_and_si512(o, splat(0x1FF))
}

/// Per lane: a nine-bit column mask widened to those columns in all three rows of the band.
#[target_feature(enable = "avx512f")]
#[inline]
fn in_all_rows(y: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<OR3>(y, _mm512_slli_epi32::<9>(y), _mm512_slli_epi32::<18>(y))
}

/// Lane by lane, `f` of the two boards' registers.
#[target_feature(enable = "avx512f")]
#[inline]
fn zip(a: Boards, b: Boards, f: impl Fn(__m512i, __m512i) -> __m512i) -> Boards {
    Boards(f(a.0, b.0), f(a.1, b.1))
}

/// Lane `i` of the result is lane `idx[h][i]` of the 32 lanes of `b`, for each half `h`.
#[target_feature(enable = "avx512f")]
#[inline]
fn permute(b: Boards, idx: &[[i32; 16]; 2]) -> Boards {
    Boards(
        _mm512_permutex2var_epi32(b.0, vector(&idx[0]), b.1),
        _mm512_permutex2var_epi32(b.0, vector(&idx[1]), b.1),
    )
}

/// The lanes an update of a board writes, as the two registers' 16-lane masks (low,
/// high): the other eight boards of its band, the same digit's boards in the other two
/// bands, and the board itself; and its band.
#[derive(Clone, Copy)]
struct Lanes {
    band: [u16; 2],
    other: [u16; 2],
    own: [u16; 2],
    b: usize,
}

/// A 32-lane mask as the two registers' 16-lane masks.
const fn halves(m: u32) -> [u16; 2] {
    [m as u16, (m >> 16) as u16]
}

/// [`Lanes`] of board `i`, indexed `i & 31` so that no bounds check is needed (the last
/// five entries are unused).
const LANES: [Lanes; 32] = {
    let mut t = [Lanes {
        band: [0; 2],
        other: [0; 2],
        own: [0; 2],
        b: 0,
    }; 32];
    let mut i = 0;
    while i < 27 {
        let b = i / 9;
        t[i] = Lanes {
            band: halves(0x1FF << (9 * b) & !(1 << i)),
            other: halves(1 << OTHER[i][0] | 1 << OTHER[i][1]),
            own: halves(1 << i),
            b,
        };
        i += 1;
    }
    t
};

/// Lanes of the high register that hold boards (16..27 and the zero padding board 27).
const HIGH: u16 = (1 << (BOARDS - 16)) - 1;
/// Lanes of the high register that hold real boards (16..27).
const VALID_HIGH: u16 = (1 << (27 - 16)) - 1;

/// The boards as two registers: lanes 0..16 and 16..32.
#[derive(Clone, Copy)]
struct Boards(__m512i, __m512i);

impl Boards {
    /// Loads `a` (`BOARDS` words; the lanes beyond are 0).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn load(a: &[u32; BOARDS]) -> Boards {
        // SAFETY: 16 words from 0, and from 16 only the `BOARDS - 16` that exist (a masked
        // load touches no other memory); no alignment needed.
        unsafe {
            Boards(
                _mm512_loadu_si512(a.as_ptr().cast()),
                _mm512_maskz_loadu_epi32(HIGH, a.as_ptr().add(16).cast()),
            )
        }
    }

    /// Stores the `BOARDS` boards into `a`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn store(self, a: &mut [u32; BOARDS]) {
        // SAFETY: as in `load`, the same words written.
        unsafe {
            _mm512_storeu_si512(a.as_mut_ptr().cast(), self.0);
            _mm512_mask_storeu_epi32(a.as_mut_ptr().add(16).cast(), HIGH, self.1);
        }
    }

    /// All 32 lanes (boards, then zeros).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn lanes(self) -> [u32; 32] {
        let mut all = [0u32; 32];
        // SAFETY: two 64-byte stores into the 128 bytes of `all`.
        unsafe {
            _mm512_storeu_si512(all.as_mut_ptr().cast(), self.0);
            _mm512_storeu_si512(all.as_mut_ptr().add(16).cast(), self.1);
        }
        all
    }

    /// The boards with the lanes of `own` (a board's [`Lanes::own`]) replaced by `v`'s.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn set(self, own: [u16; 2], v: __m512i) -> Boards {
        Boards(
            _mm512_mask_mov_epi32(self.0, own[0], v),
            _mm512_mask_mov_epi32(self.1, own[1], v),
        )
    }

    /// `words[b]` in each of band `b`'s nine lanes (the lanes from 27 get `words[2]`;
    /// callers use them with boards that are 0 there).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn per_band(words: [u32; 3]) -> Boards {
        Boards(
            _mm512_mask_set1_epi32(splat(words[0]), 0xFE00, words[1] as i32),
            _mm512_mask_set1_epi32(splat(words[2]), 0x0003, words[1] as i32),
        )
    }

    /// Bit `j` set when board `j` differs from `other`'s.
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn differ(self, other: Boards) -> u32 {
        u32::from(_mm512_cmpneq_epi32_mask(self.0, other.0))
            | u32::from(_mm512_cmpneq_epi32_mask(self.1, other.1)) << 16
    }
}

impl State {
    /// Writes back what [`State::propagate_avx512`] held in registers and locals: the
    /// boards and the unfixed cells (`unsolved[3]` is padding); no board is dirty (the
    /// propagation has reached its fixpoint).
    #[target_feature(enable = "avx512f")]
    #[inline]
    fn put(&mut self, cand: Boards, unsolved: [u32; 4]) {
        cand.store(&mut self.cand);
        self.dirty = 0;
        self.unsolved = [unsolved[0], unsolved[1], unsolved[2]];
    }

    /// [`State::propagate`], compiled for AVX-512F with the boards in registers (see the
    /// module doc). Same result, same branch cell.
    ///
    /// # Safety
    /// The CPU must have AVX-512F, POPCNT, BMI1 and BMI2 (`is_x86_feature_detected!`).
    #[inline]
    pub(crate) unsafe fn propagate_avx512(
        &mut self,
        max_pairs: u32,
        logic: Logic,
    ) -> Result<Option<Branch>, Contradiction> {
        // Two copies: the triad rules and the split's choice stay out of the one the
        // search runs most (with them in, it ran 5-10% slower).
        // SAFETY: the caller's CPU features.
        unsafe {
            if logic == Logic::Triads {
                self.propagate_avx512_as::<true>(max_pairs, true)
            } else {
                self.propagate_avx512_as::<false>(max_pairs, logic == Logic::Stacks)
            }
        }
    }

    /// [`State::propagate_avx512`] with the triad rules and the split's choice (`TRIADS`)
    /// or without them, with the stack logic when `stacks` (always with the triad rules).
    ///
    /// # Safety
    /// As [`State::propagate_avx512`].
    #[target_feature(enable = "avx512f,popcnt,bmi1,bmi2")]
    unsafe fn propagate_avx512_as<const TRIADS: bool>(
        &mut self,
        max_pairs: u32,
        stacks: bool,
    ) -> Result<Option<Branch>, Contradiction> {
        let mut cand = Boards::load(&self.cand);
        // The boards as the band logic last left them: the dirty ones complemented (a
        // value they cannot have), so that they differ.
        let ones = _mm512_set1_epi32(-1);
        let flip = |x: __m512i, dirty: u32| _mm512_mask_xor_epi32(x, dirty as u16, x, ones);
        let mut prev = Boards(flip(cand.0, self.dirty), flip(cand.1, self.dirty >> 16));
        // A fourth word so that `unsolved[b & 3]` needs no bounds check; always 0.
        let [u0, u1, u2] = self.unsolved;
        let mut unsolved = [u0, u1, u2, 0];
        loop {
            // Settle: `update` on every changed board, as `State::settle` does, but each
            // round's updates all read the boards as the round found them, so that they do
            // not wait on each other; what each deduces is a mask, and the round ends by
            // applying all the masks at once.
            loop {
                let mut m = cand.differ(prev);
                if m == 0 {
                    break;
                }
                // Each update reads its board from here (see the module doc).
                let seen = cand.lanes();
                let (mut acc0, mut acc1) = (ones, ones);
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let a = seen[i & 31];
                    // `SHRINK` of the three rows at once: a minirow's lowest bit says
                    // whether it holds a candidate; gather the nine (BMI2 `pext`).
                    let minirows = a | a >> 1 | a >> 2;
                    let pattern = _pext_u32(minirows, MINIROW_LOW) as usize;
                    let a = a & COMPLEX[pattern & 0x1FF];
                    if a == 0 {
                        return Err(Contradiction);
                    }
                    let keep = POINTING[column_mask(a) as usize];
                    let lanes = LANES[i & 31];
                    let b = lanes.b;
                    let solved = lone_cells(a);
                    let new = solved & unsolved[b & 3];
                    unsolved[b & 3] &= !new;
                    // The update's mask: the band's other boards lose the placed cells,
                    // the digit's boards in the other bands keep `keep`, board `i` `a`.
                    let not_new = _mm512_set1_epi32(!new as i32);
                    let keep = _mm512_set1_epi32(keep as i32);
                    let a_all = _mm512_set1_epi32(a as i32);
                    let apply = |acc: __m512i, h: usize| {
                        let acc = _mm512_mask_and_epi32(acc, lanes.band[h], acc, not_new);
                        let acc = _mm512_mask_and_epi32(acc, lanes.other[h], acc, keep);
                        _mm512_mask_and_epi32(acc, lanes.own[h], acc, a_all)
                    };
                    acc0 = apply(acc0, 0);
                    acc1 = apply(acc1, 1);
                    prev = prev.set(lanes.own, a_all);
                }
                cand = Boards(
                    _mm512_and_si512(cand.0, acc0),
                    _mm512_and_si512(cand.1, acc1),
                );
            }
            // Each word alone (one 8-byte load over two fresh 4-byte stores would wait).
            if unsolved[0] | unsolved[1] | unsolved[2] == 0 {
                self.put(cand, unsolved);
                return Ok(None);
            }
            // Naked singles, as in `State::propagate`, for all bands at once: each lane
            // gets its band's counts (`singles.rs`), the singles not yet fixed are placed
            // lane by lane.
            let [r1, r2, r3] = singles::band_counts(cand);
            let full = splat(BAND);
            let short = u32::from(_mm512_cmpneq_epi32_mask(r1.0, full))
                | u32::from(_mm512_cmpneq_epi32_mask(r1.1, full) & VALID_HIGH) << 16;
            if short != 0 {
                return Err(Contradiction);
            }
            // Each band's unfixed cells in its nine lanes.
            let open = Boards::per_band([unsolved[0], unsolved[1], unsolved[2]]);
            let hit = |x: __m512i, r2: __m512i, open: __m512i| {
                _mm512_and_si512(_mm512_andnot_si512(r2, x), open)
            };
            let hits = Boards(hit(cand.0, r2.0, open.0), hit(cand.1, r2.1, open.1));
            let placed = _mm512_test_epi32_mask(hits.0, hits.0) != 0
                || _mm512_test_epi32_mask(hits.1, hits.1) != 0;
            if placed {
                cand = singles::place(cand, hits)?;
                continue;
            }
            if stacks {
                let after = stack::stack_filter(cand);
                // After settling, `prev` equals `cand`: any difference is new.
                if after.differ(cand) != 0 {
                    cand = after;
                    continue;
                }
            }
            if TRIADS {
                let after = triads::triads(cand);
                if after.differ(cand) != 0 {
                    cand = after;
                    continue;
                }
            }
            self.put(cand, unsolved);
            // Each band's two-candidate cells, from its first lane.
            let two = Boards(
                _mm512_andnot_si512(r3.0, r2.0),
                _mm512_andnot_si512(r3.1, r2.1),
            )
            .lanes();
            let pairs = [two[0], two[9], two[18]];
            let bivalue = pairs.iter().map(|p| p.count_ones()).sum();
            if TRIADS {
                if let Some(at) = split::choose(cand, bivalue) {
                    return Ok(Some(Branch::Split(at)));
                }
            }
            let cell = self.branch_cell(pairs, max_pairs);
            // The cell's candidates: its bit in each of its band's nine lanes.
            let bit = splat(1 << cell.bit);
            let lanes = u32::from(_mm512_test_epi32_mask(cand.0, bit))
                | u32::from(_mm512_test_epi32_mask(cand.1, bit)) << 16;
            return Ok(Some(Branch::Cell {
                cell,
                digits: lanes >> (9 * cell.band) & 0x1FF,
                pairs: bivalue,
            }));
        }
    }
}

/// For the tests here and in the submodules: `false`, saying why on standard error, when
/// this CPU cannot run the AVX-512 copies (there is then nothing to compare).
#[cfg(test)]
fn testable() -> bool {
    let usable = crate::solver::kernel::avx512_usable();
    if !usable {
        eprintln!("skipped: this CPU lacks AVX-512F, POPCNT, BMI1 or BMI2");
    }
    usable
}

/// For the tests: xorshift64 words from a seed, so that failures reproduce, and random
/// boards (`state/tests.rs`).
#[cfg(test)]
use super::tests::{random_boards, xorshift};

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX-512 propagation leaves exactly the state the portable one does (candidates,
    /// last-seen copies, unfixed cells) and returns the same branch or contradiction, at
    /// every node of the search trees of four hard puzzles, with and without the stack
    /// logic and the pair cap, and with the triad rules and the splits. On a CPU without
    /// AVX-512 there is nothing to compare.
    #[test]
    fn avx512_propagation_matches_the_portable_one() {
        if !testable() {
            return;
        }
        // SAFETY: the CPU has the kernel's features (checked above).
        super::super::tests::kernel_matches_the_portable_one(|s, max_pairs, logic| unsafe {
            s.propagate_avx512(max_pairs, logic)
        });
    }
}
