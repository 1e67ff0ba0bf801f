//! The 27 candidate boards in four 256-bit registers, for the AVX2 kernel: board `i` is
//! lane `i % 8` of register `i / 8`; lanes 27..32 are 0.

use std::arch::x86_64::{
    __m128i, __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32,
    _mm256_blendv_epi8, _mm256_castsi128_si256, _mm256_castsi256_ps, _mm256_castsi256_si128,
    _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps, _mm256_or_si256, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_sub_epi32, _mm256_testz_si256, _mm_loadu_si128, _mm_storeu_si128,
};

use super::super::triads::MINIROW_LOW;
use super::super::{Contradiction, BOARDS};

/// The low eight bits of each row of a band board (27 bits, three nine-bit rows).
const ROW_LOW8: u32 = 0xFF | 0xFF << 9 | 0xFF << 18;
/// The top (ninth) bit of each row of a band board.
const ROW_TOP: u32 = 1 << 8 | 1 << 17 | 1 << 26;

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
        for (h, r) in self.0.iter().enumerate() {
            // SAFETY: a 32-byte store into words `8h..8h + 8` of `all`.
            unsafe { _mm256_storeu_si256(all.as_mut_ptr().add(8 * h).cast(), *r) };
        }
        all
    }

    /// `words[b]` in each of band `b`'s nine lanes (the lanes from 27 get `words[2]`).
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

    /// Bit `j` set when board `j` differs from `other`'s.
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

    /// Lane by lane, `f` of the two boards' registers.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn zip(self, b: Boards, f: impl Fn(__m256i, __m256i) -> __m256i) -> Boards {
        let [a0, a1, a2, a3] = self.0;
        let [b0, b1, b2, b3] = b.0;
        Boards([f(a0, b0), f(a1, b1), f(a2, b2), f(a3, b3)])
    }

    /// The lanes whose bit is set in `m` taken from `from`, the others from `self`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn select(self, from: Boards, m: u32) -> Boards {
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let mut out = self;
        for h in 0..4 {
            let lanes = _mm256_cmpeq_epi32(_mm256_and_si256(splat(m >> (8 * h)), bits), bits);
            out.0[h] = _mm256_blendv_epi8(self.0[h], from.0[h], lanes);
        }
        out
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
}

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
fn place_lanes(x: __m256i, hits: __m256i) -> (__m256i, __m256i) {
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
    let m = _mm256_and_si256(
        or3(
            hits,
            _mm256_srli_epi32::<1>(hits),
            _mm256_srli_epi32::<2>(hits),
        ),
        splat(MINIROW_LOW),
    );
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
/// [`Contradiction`] when two hits of one board share a row or a box.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn place(cand: Boards, hits: Boards) -> Result<Boards, Contradiction> {
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
