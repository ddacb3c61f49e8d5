//! UseHint (FIPS 204 Algorithm 40, with Decompose, Algorithm 36) over a polynomial
//! with AVX2, eight coefficients at a time.
//!
//! Decompose's r1 is the integer c with r − c·2γ2 ∈ (−γ2, γ2], that is
//! ⌊(r + γ2 − 1) / 2γ2⌋. With r < q < 2^24 the dividend is exact in `f32`, and a
//! correctly rounded `f32` quotient never reaches the next integer (the quotient's
//! distance to it, ≥ 1/2γ2, exceeds half an ulp below 64), so truncating it gives
//! the floor. The exhaustive test below checks every r for both γ2.

use core::arch::x86_64::{
    __m256i, _mm_loadl_epi64, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8,
    _mm256_cmpeq_epi32, _mm256_cmpgt_epi32, _mm256_cvtepi32_ps, _mm256_cvtepu8_epi32, _mm256_cvttps_epi32,
    _mm256_div_ps, _mm256_loadu_si256, _mm256_mullo_epi32, _mm256_or_si256, _mm256_set1_epi32, _mm256_set1_ps,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_xor_si256,
};

use super::token::Avx2;
use crate::portable;
use crate::ring::field::Q;

/// UseHint over a polynomial. Contract: `portable::hint::use_hint_poly` (r_j in
/// [0, q), any hint bytes, nonzero meaning set; output in [0, m)).
pub(crate) fn use_hint_poly(_: Avx2, r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    if gamma2 != (Q - 1) / 88 && gamma2 != (Q - 1) / 32 {
        // Not an ML-DSA γ2: the argument above was made for these two only.
        return portable::hint::use_hint_poly(r, hint, gamma2, w1);
    }
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { use_hint_poly_avx2(r, hint, gamma2, w1) }
}

#[target_feature(enable = "avx2")]
fn use_hint_poly_avx2(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    let m = (Q - 1) / (2 * gamma2);
    let (two_gamma2, divisor) = (_mm256_set1_epi32(2 * gamma2), _mm256_set1_ps((2 * gamma2) as f32));
    let (gamma2_minus_1, mv, zero, one) =
        (_mm256_set1_epi32(gamma2 - 1), _mm256_set1_epi32(m), _mm256_setzero_si256(), _mm256_set1_epi32(1));
    for v in 0..32 {
        // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `r`.
        let x: __m256i = unsafe { _mm256_loadu_si256(r.as_ptr().add(8 * v).cast()) };
        // SAFETY: bytes 8v .. 8v + 8 lie within the 256 of `hint`.
        let h = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(hint.as_ptr().add(8 * v).cast()) });
        // Decompose: r1 = ⌊(r + γ2 − 1) / 2γ2⌋, r0 = r − r1·2γ2 ...
        let dividend = _mm256_cvtepi32_ps(_mm256_add_epi32(x, gamma2_minus_1));
        let mut r1 = _mm256_cvttps_epi32(_mm256_div_ps(dividend, divisor));
        let mut r0 = _mm256_sub_epi32(x, _mm256_mullo_epi32(r1, two_gamma2));
        // ... except where r − r0 = q − 1: then r1 = 0 and r0 − 1.
        let top = _mm256_cmpeq_epi32(r1, mv);
        r1 = _mm256_andnot_si256(top, r1);
        r0 = _mm256_add_epi32(r0, top);
        // UseHint: with a hint, r1 + 1 where r0 > 0, else r1 − 1, both mod m.
        let ones = _mm256_set1_epi32(-1);
        let hinted = _mm256_xor_si256(_mm256_cmpeq_epi32(h, zero), ones);
        let up = _mm256_cmpgt_epi32(r0, zero);
        // +1 where r0 > 0, −1 elsewhere (¬up | 1); 0 without a hint.
        let step = _mm256_and_si256(hinted, _mm256_or_si256(_mm256_xor_si256(up, ones), one));
        let w = _mm256_add_epi32(r1, step);
        let w = _mm256_andnot_si256(_mm256_cmpeq_epi32(w, mv), w);
        let w = _mm256_blendv_epi8(w, _mm256_sub_epi32(mv, one), _mm256_cmpgt_epi32(zero, w));
        // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `w1`.
        unsafe { _mm256_storeu_si256(w1.as_mut_ptr().add(8 * v).cast(), w) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx2;
    use super::*;

    #[test]
    fn use_hint_is_bit_identical_for_every_r() {
        on_avx2(45, |t, rng| {
            for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
                let mut base = 0;
                while base < Q {
                    let r: [i32; 256] = core::array::from_fn(|j| (base + j as i32).min(Q - 1));
                    // Both hint values for every r, and bytes other than 1 meaning "set".
                    let bits = rng.next_u64();
                    for hint in [[0u8; 256], [1u8; 256], core::array::from_fn(|j| ((bits >> (j % 64)) as u8 & 1) * 3)] {
                        let (mut x, mut y) = ([0; 256], [0; 256]);
                        use_hint_poly(t, &r, &hint, gamma2, &mut x);
                        portable::hint::use_hint_poly(&r, &hint, gamma2, &mut y);
                        assert_eq!(x, y, "γ2 {gamma2}, r from {base}");
                    }
                    base += 256;
                }
            }
        });
    }
}
