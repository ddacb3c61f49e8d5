//! Four separate Keccak states to and from the four-state kernels' layout (one register
//! per lane index, holding that lane of each state), by 4 × 4 transposes of 64-bit
//! words in registers: the ×4 kernels read and write the sponges' own states, with no
//! interleaved copy between (a copy made word by word outside the kernel, whose
//! 32-byte loads could not be forwarded from its 8-byte stores).

use core::arch::x86_64::{
    __m256i, _mm256_extract_epi64, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_setzero_si256,
    _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use crate::kernel_set::SeparateStates;

/// Words i .. i + 4 of state j (zeros for an idle lane).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn words(states: &SeparateStates<'_>, j: usize, i: usize) -> __m256i {
    match &states[j] {
        // SAFETY: i ≤ 20 (callers), so words i .. i + 4 lie within the 25: the 32 bytes
        // an unaligned load reads.
        Some(s) => unsafe { _mm256_loadu_si256(s[i..i + 4].as_ptr().cast()) },
        None => _mm256_setzero_si256(),
    }
}

/// The four states as 25 registers, register i holding word i of states 0 … 3 (an idle
/// lane's words read as zeros). A macro, not a function: an 800-byte return value was
/// not inlined and went through memory; `#[inline(always)]` cannot go with
/// `#[target_feature]`. For use inside an AVX2 function.
macro_rules! gather {
    ($states:expr) => {{
        use core::arch::x86_64::{_mm256_set_epi64x, _mm256_setzero_si256};
        let states: &$crate::kernel_set::SeparateStates<'_> = $states;
        let words = |j: usize, i: usize| $crate::arch::x86_64::transpose::words(states, j, i);
        let mut a = [_mm256_setzero_si256(); 25];
        for i in (0..24).step_by(4) {
            let rows = [words(0, i), words(1, i), words(2, i), words(3, i)];
            a[i..i + 4].copy_from_slice(&$crate::arch::x86_64::transpose::transpose4(rows));
        }
        let last = |j: usize| states[j].as_ref().map_or(0, |s| s[24]) as i64;
        a[24] = _mm256_set_epi64x(last(3), last(2), last(1), last(0));
        a
    }};
}
pub(super) use gather;

/// The 4 × 4 transpose of 64-bit words: word i of register j ↔ word j of register i (its
/// own inverse). Register j holding four words of state (or block) j becomes four
/// registers each holding one word index of all four, and back.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    // (r0[0], r1[0], r0[2], r1[2]), (r0[1], r1[1], r0[3], r1[3]); the same for r2, r3.
    let (t0, t1) = (_mm256_unpacklo_epi64(r[0], r[1]), _mm256_unpackhi_epi64(r[0], r[1]));
    let (t2, t3) = (_mm256_unpacklo_epi64(r[2], r[3]), _mm256_unpackhi_epi64(r[2], r[3]));
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

/// [`gather!`]'s inverse: writes word i of register i back to each state present (an idle
/// lane is never written).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn scatter(a: &[__m256i; 25], states: &mut SeparateStates<'_>) {
    for i in (0..24).step_by(4) {
        let rows = transpose4([a[i], a[i + 1], a[i + 2], a[i + 3]]);
        for (state, row) in states.iter_mut().zip(rows) {
            if let Some(s) = state {
                // SAFETY: i ≤ 20, so words i .. i + 4 lie within the 25: the 32 bytes an
                // unaligned store writes.
                unsafe { _mm256_storeu_si256(s[i..i + 4].as_mut_ptr().cast(), row) };
            }
        }
    }
    let last = [
        _mm256_extract_epi64::<0>(a[24]),
        _mm256_extract_epi64::<1>(a[24]),
        _mm256_extract_epi64::<2>(a[24]),
        _mm256_extract_epi64::<3>(a[24]),
    ];
    for (state, word) in states.iter_mut().zip(last) {
        if let Some(s) = state {
            s[24] = word as u64;
        }
    }
}
