//! UseHint (FIPS 204 Algorithm 40, with Decompose, Algorithm 36) over a polynomial
//! with wasm simd128, four coefficients per vector.
//!
//! As in the AVX2 kernel: Decompose's r1 is ⌊(r + γ2 − 1) / 2γ2⌋, and with r < q <
//! 2^24 the dividend is exact in `f32` and the correctly rounded `f32` quotient never
//! reaches the next integer (its distance to it, ≥ 1/2γ2, exceeds half an ulp below
//! 64), so truncating it gives the floor. `kernel_checks::use_hint_every_r` checks
//! every r for both γ2 inside the engines.

use core::arch::wasm32::{
    f32x4_convert_i32x4, f32x4_div, f32x4_splat, i32x4_add, i32x4_eq, i32x4_gt, i32x4_lt, i32x4_mul, i32x4_splat,
    i32x4_sub, i32x4_trunc_sat_f32x4, u16x8_extend_low_u8x16, u32x4_extend_low_u16x8, v128, v128_and, v128_andnot,
    v128_bitselect, v128_load, v128_load32_zero, v128_not, v128_or, v128_store,
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
    let (two_gamma2, divisor) = (i32x4_splat(2 * gamma2), f32x4_splat((2 * gamma2) as f32));
    let (gamma2_minus_1, mv, zero, one) = (i32x4_splat(gamma2 - 1), i32x4_splat(m), i32x4_splat(0), i32x4_splat(1));
    let last = i32x4_splat(m - 1);
    for v in 0..64 {
        let x = load(r, v);
        // SAFETY: `hint[4v .. 4v + 4]` is the 4 bytes the load reads.
        let bytes = unsafe { v128_load32_zero(hint.as_ptr().add(4 * v).cast()) };
        let h = u32x4_extend_low_u16x8(u16x8_extend_low_u8x16(bytes));
        // Decompose: r1 = ⌊(r + γ2 − 1) / 2γ2⌋, r0 = r − r1·2γ2 ...
        let dividend = f32x4_convert_i32x4(i32x4_add(x, gamma2_minus_1));
        let mut r1 = i32x4_trunc_sat_f32x4(f32x4_div(dividend, divisor));
        let mut r0 = i32x4_sub(x, i32x4_mul(r1, two_gamma2));
        // ... except where r − r0 = q − 1: then r1 = 0 and r0 − 1.
        let top = i32x4_eq(r1, mv);
        r1 = v128_andnot(r1, top);
        r0 = i32x4_add(r0, top);
        // UseHint: with a hint, r1 + 1 where r0 > 0, else r1 − 1, both mod m.
        let hinted = v128_not(i32x4_eq(h, zero));
        let up = i32x4_gt(r0, zero);
        // +1 where r0 > 0, −1 elsewhere (¬up | 1); 0 without a hint.
        let step = v128_and(hinted, v128_or(v128_not(up), one));
        let w = i32x4_add(r1, step);
        let w = v128_andnot(w, i32x4_eq(w, mv));
        let w = v128_bitselect(last, w, i32x4_lt(w, zero));
        store(w1, v, w);
    }
}

/// Coefficients 4v .. 4v + 4 of `a`.
#[inline(always)]
fn load(a: &[i32; 256], v: usize) -> v128 {
    let lanes = &a.as_chunks::<4>().0[v];
    // SAFETY: `lanes` is exactly the 16 bytes the load reads (wasm loads need no alignment).
    unsafe { v128_load(lanes.as_ptr().cast()) }
}

/// Stores `x` as coefficients 4v .. 4v + 4 of `a`.
#[inline(always)]
fn store(a: &mut [i32; 256], v: usize, x: v128) {
    let lanes = &mut a.as_chunks_mut::<4>().0[v];
    // SAFETY: `lanes` is exactly the 16 bytes the store writes.
    unsafe { v128_store(lanes.as_mut_ptr().cast(), x) }
}
