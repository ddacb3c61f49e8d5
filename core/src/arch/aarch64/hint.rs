//! UseHint (FIPS 204 Algorithm 40, with Decompose, Algorithm 36) over a polynomial
//! with NEON, four coefficients per vector.
//!
//! As in the AVX2 and simd128 kernels: Decompose's r1 is ⌊(r + γ2 − 1) / 2γ2⌋, and with
//! r < q < 2^24 the dividend is exact in `f32` and the correctly rounded `f32` quotient
//! (FDIV) never reaches the next integer (its distance to it, ≥ 1/2γ2, exceeds half an
//! ulp below 64), so truncating it (FCVTZS) gives the floor.
//! `kernel_checks::use_hint_every_r` checks every r for both γ2.

use core::arch::aarch64::{
    vaddq_s32, vandq_s32, vbicq_s32, vbslq_s32, vceqq_s32, vcgtzq_s32, vcltzq_s32, vcvtq_f32_s32, vcvtq_s32_f32,
    vdivq_f32, vdup_n_u32, vdupq_n_f32, vdupq_n_s32, vget_low_u16, vld1q_s32, vmlsq_s32, vmovl_u8, vmovl_u16,
    vornq_s32, vreinterpret_u8_u32, vreinterpretq_s32_u32, vst1q_s32, vtstq_u32,
};

use crate::portable;
use crate::ring::field::Q;

/// UseHint over a polynomial. Contract: `portable::hint::use_hint_poly` (r_j in
/// [0, q), any hint bytes, nonzero meaning set; output in [0, m)).
pub(crate) fn use_hint_poly(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    if gamma2 != (Q - 1) / 88 && gamma2 != (Q - 1) / 32 {
        // Not an ML-DSA γ2: the argument above was made for these two only.
        return portable::hint::use_hint_poly(r, hint, gamma2, w1);
    }
    let m = (Q - 1) / (2 * gamma2);
    // SAFETY: this module is built only where NEON is in the target's baseline (the
    // reason for every intrinsic without a pointer below).
    let (two_gamma2, divisor, gamma2_minus_1, mv, one, last) = unsafe {
        (
            vdupq_n_s32(2 * gamma2),
            vdupq_n_f32((2 * gamma2) as f32),
            vdupq_n_s32(gamma2 - 1),
            vdupq_n_s32(m),
            vdupq_n_s32(1),
            vdupq_n_s32(m - 1),
        )
    };
    let lanes = r.as_chunks::<4>().0.iter().zip(hint.as_chunks::<4>().0).zip(w1.as_chunks_mut::<4>().0);
    for ((x, h), w) in lanes {
        // SAFETY: `x` is the 16 bytes the load reads; the rest, see above.
        let x = unsafe { vld1q_s32(x.as_ptr()) };
        // SAFETY: see above.
        let out = unsafe {
            // All ones where the hint byte is set.
            let bytes = vreinterpret_u8_u32(vdup_n_u32(u32::from_le_bytes(*h)));
            let wide = vmovl_u16(vget_low_u16(vmovl_u8(bytes)));
            let hinted = vreinterpretq_s32_u32(vtstq_u32(wide, wide));
            // Decompose: r1 = ⌊(r + γ2 − 1) / 2γ2⌋, r0 = r − r1·2γ2 ...
            let mut r1 = vcvtq_s32_f32(vdivq_f32(vcvtq_f32_s32(vaddq_s32(x, gamma2_minus_1)), divisor));
            let mut r0 = vmlsq_s32(x, r1, two_gamma2);
            // ... except where r − r0 = q − 1: then r1 = 0 and r0 − 1.
            let top = vreinterpretq_s32_u32(vceqq_s32(r1, mv));
            r1 = vbicq_s32(r1, top);
            r0 = vaddq_s32(r0, top);
            // UseHint: with a hint, r1 + 1 where r0 > 0, else r1 − 1, both mod m:
            // +1 where r0 > 0, −1 elsewhere (1 | ¬up); 0 without a hint.
            let up = vreinterpretq_s32_u32(vcgtzq_s32(r0));
            let step = vandq_s32(hinted, vornq_s32(one, up));
            let w = vaddq_s32(r1, step);
            let w = vbicq_s32(w, vreinterpretq_s32_u32(vceqq_s32(w, mv)));
            vbslq_s32(vcltzq_s32(w), last, w)
        };
        // SAFETY: `w` is the 16 bytes the store writes.
        unsafe { vst1q_s32(w.as_mut_ptr(), out) };
    }
}
