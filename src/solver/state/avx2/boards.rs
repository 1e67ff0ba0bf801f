//! The 27 candidate boards in four 256-bit registers, for the AVX2 kernel: board `i` is
//! lane `i % 8` of register `i / 8`; lanes 27..32 are 0. Board `i` of [`super::State`]'s
//! `cand` is lane `i`, so loading and storing the state is four plain moves.
//!
//! AVX2 has no masked lanes. An update's deductions (the module doc of `avx2.rs`) are
//! applied to the registers by one lane permute per register instead: the update puts
//! what it removes in three lanes of one register, zeros above ([`effects`]), and a table
//! of lane indices per board and register ([`ROLES`]) spreads each mask to the lanes it
//! applies to (and a zero lane to the others).

use std::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32,
    _mm256_blendv_ps, _mm256_castps_si256, _mm256_castsi128_si256, _mm256_castsi256_ps,
    _mm256_castsi256_si128, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps,
    _mm256_or_si256, _mm256_permute2x128_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
    _mm256_sub_epi32, _mm256_testz_si256, _mm_cvtsi32_si128, _mm_insert_epi32, _mm_loadu_si128,
    _mm_storeu_si128, _mm_unpacklo_epi64,
};

use super::super::bits::{ROW_LOW8, ROW_TOP};
use super::super::triads::MINIROW_LOW;
use super::super::{Contradiction, BOARDS, OTHER};

/// `x` in every lane.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn splat(x: u32) -> __m256i {
    _mm256_set1_epi32(x as i32)
}

/// The boards as four registers.
#[derive(Clone, Copy)]
pub(super) struct Boards(pub(super) [__m256i; 4]);

impl Boards {
    /// Loads `a` (`BOARDS` words; the lanes beyond are 0).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn load(a: &[u32; BOARDS]) -> Boards {
        let p = a.as_ptr();
        // SAFETY: 32-byte loads of words 0..24 and a 16-byte load of words 24..28, all
        // inside `a`; no alignment needed.
        unsafe {
            let last = _mm_loadu_si128(p.add(24).cast::<__m128i>());
            Boards([
                _mm256_loadu_si256(p.cast()),
                _mm256_loadu_si256(p.add(8).cast()),
                _mm256_loadu_si256(p.add(16).cast()),
                _mm256_blend_epi32::<0x0F>(_mm256_setzero_si256(), _mm256_castsi128_si256(last)),
            ])
        }
    }

    /// Stores the `BOARDS` boards into `a`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn store(self, a: &mut [u32; BOARDS]) {
        let p = a.as_mut_ptr();
        // SAFETY: as in `load`, the same words written.
        unsafe {
            _mm256_storeu_si256(p.cast(), self.0[0]);
            _mm256_storeu_si256(p.add(8).cast(), self.0[1]);
            _mm256_storeu_si256(p.add(16).cast(), self.0[2]);
            _mm_storeu_si128(p.add(24).cast(), _mm256_castsi256_si128(self.0[3]));
        }
    }

    /// All 32 lanes (boards, then zeros).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn lanes(self) -> [u32; 32] {
        let mut all = [0u32; 32];
        self.store_lanes(&mut all);
        all
    }

    /// Stores all 32 lanes into `all` (in place, where returning [`Boards::lanes`] may
    /// copy the array through the stack once more).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn store_lanes(self, all: &mut [u32; 32]) {
        let [r0, r1, r2, r3] = self.0;
        let p = all.as_mut_ptr();
        // SAFETY: four 32-byte stores into the 128 bytes of `all`.
        unsafe {
            _mm256_storeu_si256(p.cast(), r0);
            _mm256_storeu_si256(p.add(8).cast(), r1);
            _mm256_storeu_si256(p.add(16).cast(), r2);
            _mm256_storeu_si256(p.add(24).cast(), r3);
        }
    }

    /// `words[b]` in each of band `b`'s nine lanes (the lanes from 27 get `words[2]`;
    /// callers use them with boards that are 0 there).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn per_band(words: [u32; 3]) -> Boards {
        let [w0, w1, w2] = [splat(words[0]), splat(words[1]), splat(words[2])];
        Boards([
            w0,
            // Lane 8 is band 0's, 9..16 band 1's.
            _mm256_blend_epi32::<0x01>(w1, w0),
            // Lanes 16 and 17 are band 1's, 18..24 band 2's.
            _mm256_blend_epi32::<0x03>(w2, w1),
            w2,
        ])
    }

    /// Bit `j` set when board `j` differs from `other`'s (32 bits; the padding lanes are
    /// 0 on both sides).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn differ(self, other: Boards) -> u32 {
        let mut same = 0u32;
        for h in 0..4 {
            let eq = _mm256_cmpeq_epi32(self.0[h], other.0[h]);
            same |= (_mm256_movemask_ps(_mm256_castsi256_ps(eq)) as u32) << (8 * h);
        }
        !same
    }

    /// Register by register, `f` of the boards' registers.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn map(self, f: impl Fn(__m256i) -> __m256i) -> Boards {
        Boards(self.0.map(f))
    }

    /// Lane by lane, `f` of the two boards' registers.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn zip(self, b: Boards, f: impl Fn(__m256i, __m256i) -> __m256i) -> Boards {
        let [a0, a1, a2, a3] = self.0;
        let [b0, b1, b2, b3] = b.0;
        Boards([f(a0, b0), f(a1, b1), f(a2, b2), f(a3, b3)])
    }

    /// Whether every lane is 0.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn is_zero(self) -> bool {
        let any = _mm256_or_si256(
            _mm256_or_si256(self.0[0], self.0[1]),
            _mm256_or_si256(self.0[2], self.0[3]),
        );
        _mm256_testz_si256(any, any) == 1
    }

    /// All lanes clear: the accumulator of a round's removals before the first.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn zeros() -> Boards {
        Boards([_mm256_setzero_si256(); 4])
    }

    /// Ors into every register the removals of the update of board `i` (`effects`): each
    /// register's lanes take the masks [`ROLES`] names for board `i`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn apply(self, i: usize, effects: __m256i) -> Boards {
        let roles = &ROLES[i & 31];
        let mut out = self;
        for (r, role) in out.0.iter_mut().zip(roles) {
            // SAFETY: a 32-byte load of one `[i32; 8]` row of the table.
            let idx = unsafe { _mm256_loadu_si256(role.as_ptr().cast()) };
            *r = _mm256_or_si256(*r, _mm256_permutevar8x32_epi32(effects, idx));
        }
        out
    }
}

/// The lanes of [`effects`]: what the updated board loses, what the same digit's boards
/// in the other two bands lose, what the other boards of its band lose, and nothing (the
/// zeros above the three, which the moves that build the register leave).
const OWN: i32 = 0;
const SAME_DIGIT: i32 = 1;
const SAME_BAND: i32 = 2;
const UNTOUCHED: i32 = 3;

/// The register of an update's removals that [`Boards::apply`] spreads: `!a` (the updated
/// board keeps `a`), `!keep` (the digit's boards in the other bands keep `keep`; the
/// caller passes it inverted, from a table) and `placed` (the other boards of the band),
/// in lanes 0..3, zeros above. Removals rather than what is kept, so that the lanes an
/// update leaves alone take the zeros the register's moves leave, and no lane of all ones
/// needs building.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn effects(a: u32, not_keep: u32, placed: u32) -> __m256i {
    // `not_keep` goes into its lane straight from the table (a load into the insert), the
    // longest path of the three.
    let own = _mm_insert_epi32::<1>(_mm_cvtsi32_si128(!a as i32), not_keep as i32);
    _mm256_castsi128_si256(_mm_unpacklo_epi64(own, _mm_cvtsi32_si128(placed as i32)))
}

/// `ROLES[i][r][l]`: which lane of [`effects`] the update of board `i` ors into lane `l`
/// of register `r` (board `8r + l`). Indexed `i & 31` (the last five rows are unused).
static ROLES: [[[i32; 8]; 4]; 32] = {
    let mut t = [[[UNTOUCHED; 8]; 4]; 32];
    let mut i = 0;
    while i < 27 {
        let mut j = 0;
        while j < 27 {
            t[i][j / 8][j % 8] = if j == i {
                OWN
            } else if j == OTHER[i][0] as usize || j == OTHER[i][1] as usize {
                SAME_DIGIT
            } else if j / 9 == i / 9 {
                SAME_BAND
            } else {
                UNTOUCHED
            };
            j += 1;
        }
        i += 1;
    }
    t
};

/// `a | b | c`.
#[target_feature(enable = "avx2")]
#[inline]
fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_or_si256(a, b), c)
}

/// One register of [`place`]: `x` with `hits` placed, and a nonzero lane where two hits of
/// one board share a row or a box (the AVX-512 kernel's `place_lanes`, eight lanes).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn place_lanes(x: __m256i, hits: __m256i) -> (__m256i, __m256i) {
    // The rows holding a hit, widened to whole rows.
    let low = _mm256_and_si256(hits, splat(ROW_LOW8));
    let any = _mm256_and_si256(
        _mm256_or_si256(_mm256_add_epi32(low, splat(ROW_LOW8)), hits),
        splat(ROW_TOP),
    );
    let rows = _mm256_or_si256(_mm256_sub_epi32(any, _mm256_srli_epi32::<8>(any)), any);
    // The boxes holding a hit: a flag per box from its columns, widened to the box.
    let cols = _mm256_and_si256(
        or3(
            hits,
            _mm256_srli_epi32::<9>(hits),
            _mm256_srli_epi32::<18>(hits),
        ),
        splat(0x1FF),
    );
    let flag = _mm256_and_si256(
        _mm256_or_si256(
            _mm256_add_epi32(_mm256_and_si256(cols, splat(0o333)), splat(0o333)),
            cols,
        ),
        splat(0o444),
    );
    let boxes = _mm256_or_si256(_mm256_sub_epi32(flag, _mm256_srli_epi32::<2>(flag)), flag);
    let boxes = or3(
        boxes,
        _mm256_slli_epi32::<9>(boxes),
        _mm256_slli_epi32::<18>(boxes),
    );
    let peers = _mm256_or_si256(rows, boxes);
    let placed = _mm256_or_si256(_mm256_andnot_si256(peers, x), hits);
    // Two hits in one row: a row's bits minus its lowest cell still meet the row.
    let mut clash = _mm256_setzero_si256();
    for k in 0..3 {
        let row = _mm256_and_si256(hits, splat(0x1FF << (9 * k)));
        let rest = _mm256_and_si256(row, _mm256_sub_epi32(row, splat(1 << (9 * k))));
        clash = _mm256_or_si256(clash, rest);
    }
    // Two hits in one box, in different rows: the box's minirow flagged in two rows.
    let m = minirows(hits);
    let (m9, m18) = (_mm256_srli_epi32::<9>(m), _mm256_srli_epi32::<18>(m));
    let shared = or3(
        _mm256_and_si256(m, m9),
        _mm256_and_si256(m, m18),
        _mm256_and_si256(m9, m18),
    );
    let clash = _mm256_or_si256(clash, _mm256_and_si256(shared, splat(0o111)));
    (placed, clash)
}

/// Places every hit: `hits` lane `i` holds the cells where digit `i % 9 + 1` is fixed in
/// band `i / 9` (a subset of the board); each clears the rest of its row and box in the
/// board, as `super::super::place` does hit by hit.
///
/// # Errors
/// [`Contradiction`] when two hits of one board share a row or a box (placing them one
/// after the other, the second would find its cell cleared).
/// Inlined without a `target_feature` of its own (which may not be `inline(always)`) into
/// the propagation, whose AVX2 features its body then has: as a call it cost a spill of
/// both arguments' eight registers to the stack each time.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn place(cand: Boards, hits: Boards) -> Result<Boards, Contradiction> {
    // SAFETY: the caller's CPU features.
    unsafe {
        let mut out = cand;
        let mut clash = _mm256_setzero_si256();
        for h in 0..4 {
            let (placed, c) = place_lanes(cand.0[h], hits.0[h]);
            out.0[h] = placed;
            clash = _mm256_or_si256(clash, c);
        }
        if _mm256_testz_si256(clash, clash) == 0 {
            return Err(Contradiction);
        }
        Ok(out)
    }
}

/// Lane by lane `a & b`, for [`Boards::zip`].
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn and(a: __m256i, b: __m256i) -> __m256i {
    _mm256_and_si256(a, b)
}

/// Lane by lane `b & !a`, for [`Boards::zip`].
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn and_not(a: __m256i, b: __m256i) -> __m256i {
    _mm256_andnot_si256(a, b)
}

/// The board numbers (lanes of [`Boards`]) that [`by_digit`] brings together, two digits
/// to a register, for [`band_counts`] and the split's choice: register `p` holds digit `2p`'s boards of bands 0, 1, 2 in lanes 0..3
/// and digit `2p + 1`'s in lanes 4..7; lanes 3 and 7 (and digit 9's, which does not exist)
/// read lane 27, which is 0.
static BY_DIGIT: [[i32; 8]; 5] = {
    let mut t = [[27i32; 8]; 5];
    let mut p = 0;
    while p < 5 {
        let mut h = 0;
        while h < 2 {
            let d = 2 * p + h;
            let mut b = 0;
            while d < 9 && b < 3 {
                t[p][4 * h + b] = (9 * b + d) as i32;
                b += 1;
            }
            h += 1;
        }
        p += 1;
    }
    t
};

/// The boards two digits to a register, the bands in lanes ([`BY_DIGIT`]), moved
/// between registers with no memory: each source register permuted by the board
/// numbers (a lane permute reads their low three bits, the lane), then the right one
/// taken per lane by bits 3 and 4 of the board number (its register).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn by_digit(b: Boards) -> [__m256i; 5] {
    BY_DIGIT.map(|idx| {
        // SAFETY: a 32-byte load of one row of the table.
        let idx = unsafe { _mm256_loadu_si256(idx.as_ptr().cast()) };
        let [p0, p1, p2, p3] = b.0.map(|r| _mm256_permutevar8x32_epi32(r, idx));
        let (bit3, bit4) = (_mm256_slli_epi32::<28>(idx), _mm256_slli_epi32::<27>(idx));
        pick(pick(p0, p1, bit3), pick(p2, p3, bit3), bit4)
    })
}

/// For each board lane of [`Boards`] (register `r`, lane `l`: board `8r + l`): where
/// [`by_digit`] put it, as `8p + lane` (register `p`, its lane); the lanes from 27 read a
/// lane of digit 9's, which does not exist and holds 0.
static FROM_DIGITS: [[i32; 8]; 4] = {
    let mut t = [[8 * 4 + 4; 8]; 4];
    let mut j = 0;
    while j < 27 {
        let (d, b) = (j % 9, j / 9);
        t[j / 8][j % 8] = (8 * (d / 2) + 4 * (d % 2) + b) as i32;
        j += 1;
    }
    t
};

/// The inverse of [`by_digit`]: five registers of boards by digit back to the board
/// lanes, each output register permuted from the five and the right one taken per lane by
/// the bits of its source register's number.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn from_digits(x: [__m256i; 5]) -> Boards {
    Boards(FROM_DIGITS.map(|idx| {
        // SAFETY: a 32-byte load of one row of the table.
        let idx = unsafe { _mm256_loadu_si256(idx.as_ptr().cast()) };
        let [s0, s1, s2, s3, s4] = x.map(|r| _mm256_permutevar8x32_epi32(r, idx));
        let bit3 = _mm256_slli_epi32::<28>(idx);
        let bit4 = _mm256_slli_epi32::<27>(idx);
        let bit5 = _mm256_slli_epi32::<26>(idx);
        pick(pick(pick(s0, s1, bit3), pick(s2, s3, bit3), bit4), s4, bit5)
    }))
}

/// Lane by lane, `q` where `sign`'s top bit is set, else `p`.
#[target_feature(enable = "avx2")]
#[inline]
fn pick(p: __m256i, q: __m256i, sign: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(p),
        _mm256_castsi256_ps(q),
        _mm256_castsi256_ps(sign),
    ))
}

/// Each band's cells with at least one, two and three candidates over its nine boards
/// (`super::super::candidate_counts` of each band): the boards two digits to a register
/// with the bands in lanes ([`by_digit`]), counted in three accumulators down the
/// registers (all bands at once), and the two halves' counts joined.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn band_counts(cand: Boards) -> [[u32; 3]; 3] {
    let (mut r1, mut r2, mut r3) = (
        _mm256_setzero_si256(),
        _mm256_setzero_si256(),
        _mm256_setzero_si256(),
    );
    for x in by_digit(cand) {
        r3 = _mm256_or_si256(r3, _mm256_and_si256(r2, x));
        r2 = _mm256_or_si256(r2, _mm256_and_si256(r1, x));
        r1 = _mm256_or_si256(r1, x);
    }
    // The high half's counts (digits 1, 3, 5, 7) joined to the low half's.
    let swap = |x: __m256i| _mm256_permute2x128_si256::<1>(x, x);
    let (h1, h2, h3) = (swap(r1), swap(r2), swap(r3));
    let c3 = or3(
        _mm256_or_si256(r3, h3),
        _mm256_and_si256(r2, h1),
        _mm256_and_si256(r1, h2),
    );
    let c2 = or3(r2, h2, _mm256_and_si256(r1, h1));
    let c1 = _mm256_or_si256(r1, h1);
    let mut out = [[0u32; 8]; 3];
    for (o, c) in out.iter_mut().zip([c1, c2, c3]) {
        // SAFETY: a 32-byte store into the eight words of `o`.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), c) };
    }
    [0, 1, 2].map(|b| [out[0][b], out[1][b], out[2][b]])
}

/// Per lane: the board's minirows that hold a candidate, flagged at their lowest cell
/// (bit `9r + 3k` for row `r`, box `k`).
#[target_feature(enable = "avx2")]
#[inline]
fn minirows(x: __m256i) -> __m256i {
    _mm256_and_si256(
        or3(x, _mm256_srli_epi32::<1>(x), _mm256_srli_epi32::<2>(x)),
        splat(MINIROW_LOW),
    )
}

/// Per lane, the index of the board into `COMPLEX_T`: bit `3k + r` set when row `r` has a
/// candidate in box `k`. The minirow flags sit at bits `9r + 3k`: row 0's are where the
/// key wants them, row 1's move down by 8 and row 2's by 16, and a mask per row keeps each
/// row's three from the others' (nine bits, no multiply: its latency would lie on the
/// settle loop's path).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn minirow_keys(x: __m256i) -> __m256i {
    let m = minirows(x);
    or3(
        _mm256_and_si256(m, splat(0o111)),
        _mm256_and_si256(_mm256_srli_epi32::<8>(m), splat(0o222)),
        _mm256_and_si256(_mm256_srli_epi32::<16>(m), splat(0o444)),
    )
}

/// Per lane: the nine-bit mask of columns holding a candidate.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn columns(x: __m256i) -> __m256i {
    let o = _mm256_or_si256(
        _mm256_or_si256(x, _mm256_srli_epi32::<9>(x)),
        _mm256_srli_epi32::<18>(x),
    );
    _mm256_and_si256(o, splat(0x1FF))
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::{random_boards, xorshift};
    use super::super::super::{candidate_counts, BAND};
    use super::*;
    use crate::solver::Kernel;

    /// The register counts equal the portable accumulators, band by band, on random
    /// boards from dense to sparse.
    #[test]
    fn band_counts_match_the_portable_accumulators() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut seen = [0usize; 3];
        for round in 0..3000 {
            let cand = random_boards(&mut next, round % 5);
            // SAFETY: the CPU has AVX2 (checked above).
            let got = unsafe { band_counts(Boards::load(&cand)) };
            for (b, counts) in got.iter().enumerate() {
                let want = candidate_counts(&cand[9 * b..9 * b + 9]);
                assert_eq!(*counts, want, "{cand:?}: band {b}");
                for (k, &c) in want.iter().enumerate() {
                    seen[k] += usize::from(c != 0 && c != BAND);
                }
            }
        }
        // Every count is exercised neither empty nor full.
        assert!(seen.iter().all(|&n| n > 1000), "{seen:?}");
    }

    /// An update's removals reach exactly its lanes: the board itself loses all but `a`,
    /// the digit's boards in the other two bands all but `keep`, the band's other eight
    /// boards the placed cells, and every other board (and the padding) nothing.
    #[test]
    fn an_updates_effects_reach_its_lanes() {
        if !Kernel::Avx2.available() {
            eprintln!("skipped: this CPU lacks AVX2");
            return;
        }
        let (a, keep, placed) = (0x0123_4567, 0x0765_4321, 0x0000_F0F0);
        for i in 0..27 {
            // SAFETY: the CPU has AVX2 (checked above).
            let got = unsafe { Boards::zeros().apply(i, effects(a, !keep, placed)).lanes() };
            for (j, &lane) in got.iter().enumerate() {
                let want = if j == i {
                    !a
                } else if j < 27 && j % 9 == i % 9 {
                    !keep
                } else if j < 27 && j / 9 == i / 9 {
                    placed
                } else {
                    0
                };
                assert_eq!(lane, want, "update {i}, lane {j}");
            }
        }
    }
}
