//! Keccak-f[1600] on four states with wasm simd128: two states per 128-bit vector,
//! so the four states run as two pairs. Built only with `-C target-feature=+simd128`.
//! Must match `keccak::f1600` bit for bit.

use core::arch::wasm32::{
    i64x2_shl, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_or, v128_xor,
};

use crate::hash::keccak::{RHO, ROUND_CONSTANTS};
use crate::hash::keccak_x4::StateX4;

/// Rotates both 64-bit lanes left by `L` (0 keeps them).
#[inline(always)]
fn rol<const L: u32>(x: v128) -> v128 {
    if L == 0 { x } else { v128_or(i64x2_shl(x, L), u64x2_shr(x, 64 - L)) }
}

/// One round on two states (θ, ρ, π, χ, ι), written out with constant rotations so
/// that V8 keeps the 25 vectors in registers rather than linear memory.
#[inline(always)]
fn round(a: [v128; 25], rc: u64) -> [v128; 25] {
    let [
        a0,
        a1,
        a2,
        a3,
        a4,
        a5,
        a6,
        a7,
        a8,
        a9,
        a10,
        a11,
        a12,
        a13,
        a14,
        a15,
        a16,
        a17,
        a18,
        a19,
        a20,
        a21,
        a22,
        a23,
        a24,
    ] = a;
    // θ
    let c0 = v128_xor(v128_xor(v128_xor(a0, a5), v128_xor(a10, a15)), a20);
    let c1 = v128_xor(v128_xor(v128_xor(a1, a6), v128_xor(a11, a16)), a21);
    let c2 = v128_xor(v128_xor(v128_xor(a2, a7), v128_xor(a12, a17)), a22);
    let c3 = v128_xor(v128_xor(v128_xor(a3, a8), v128_xor(a13, a18)), a23);
    let c4 = v128_xor(v128_xor(v128_xor(a4, a9), v128_xor(a14, a19)), a24);
    let d0 = v128_xor(c4, rol::<1>(c1));
    let d1 = v128_xor(c0, rol::<1>(c2));
    let d2 = v128_xor(c1, rol::<1>(c3));
    let d3 = v128_xor(c2, rol::<1>(c4));
    let d4 = v128_xor(c3, rol::<1>(c0));
    // ρ, π and χ, one output row at a time (`v128_andnot(b, a)` is b ∧ ¬a).
    let b0 = rol::<{ RHO[0] }>(v128_xor(a0, d0));
    let b1 = rol::<{ RHO[6] }>(v128_xor(a6, d1));
    let b2 = rol::<{ RHO[12] }>(v128_xor(a12, d2));
    let b3 = rol::<{ RHO[18] }>(v128_xor(a18, d3));
    let b4 = rol::<{ RHO[24] }>(v128_xor(a24, d4));
    let e0 = v128_xor(b0, v128_andnot(b2, b1));
    let e1 = v128_xor(b1, v128_andnot(b3, b2));
    let e2 = v128_xor(b2, v128_andnot(b4, b3));
    let e3 = v128_xor(b3, v128_andnot(b0, b4));
    let e4 = v128_xor(b4, v128_andnot(b1, b0));
    let b0 = rol::<{ RHO[3] }>(v128_xor(a3, d3));
    let b1 = rol::<{ RHO[9] }>(v128_xor(a9, d4));
    let b2 = rol::<{ RHO[10] }>(v128_xor(a10, d0));
    let b3 = rol::<{ RHO[16] }>(v128_xor(a16, d1));
    let b4 = rol::<{ RHO[22] }>(v128_xor(a22, d2));
    let e5 = v128_xor(b0, v128_andnot(b2, b1));
    let e6 = v128_xor(b1, v128_andnot(b3, b2));
    let e7 = v128_xor(b2, v128_andnot(b4, b3));
    let e8 = v128_xor(b3, v128_andnot(b0, b4));
    let e9 = v128_xor(b4, v128_andnot(b1, b0));
    let b0 = rol::<{ RHO[1] }>(v128_xor(a1, d1));
    let b1 = rol::<{ RHO[7] }>(v128_xor(a7, d2));
    let b2 = rol::<{ RHO[13] }>(v128_xor(a13, d3));
    let b3 = rol::<{ RHO[19] }>(v128_xor(a19, d4));
    let b4 = rol::<{ RHO[20] }>(v128_xor(a20, d0));
    let e10 = v128_xor(b0, v128_andnot(b2, b1));
    let e11 = v128_xor(b1, v128_andnot(b3, b2));
    let e12 = v128_xor(b2, v128_andnot(b4, b3));
    let e13 = v128_xor(b3, v128_andnot(b0, b4));
    let e14 = v128_xor(b4, v128_andnot(b1, b0));
    let b0 = rol::<{ RHO[4] }>(v128_xor(a4, d4));
    let b1 = rol::<{ RHO[5] }>(v128_xor(a5, d0));
    let b2 = rol::<{ RHO[11] }>(v128_xor(a11, d1));
    let b3 = rol::<{ RHO[17] }>(v128_xor(a17, d2));
    let b4 = rol::<{ RHO[23] }>(v128_xor(a23, d3));
    let e15 = v128_xor(b0, v128_andnot(b2, b1));
    let e16 = v128_xor(b1, v128_andnot(b3, b2));
    let e17 = v128_xor(b2, v128_andnot(b4, b3));
    let e18 = v128_xor(b3, v128_andnot(b0, b4));
    let e19 = v128_xor(b4, v128_andnot(b1, b0));
    let b0 = rol::<{ RHO[2] }>(v128_xor(a2, d2));
    let b1 = rol::<{ RHO[8] }>(v128_xor(a8, d3));
    let b2 = rol::<{ RHO[14] }>(v128_xor(a14, d4));
    let b3 = rol::<{ RHO[15] }>(v128_xor(a15, d0));
    let b4 = rol::<{ RHO[21] }>(v128_xor(a21, d1));
    let e20 = v128_xor(b0, v128_andnot(b2, b1));
    let e21 = v128_xor(b1, v128_andnot(b3, b2));
    let e22 = v128_xor(b2, v128_andnot(b4, b3));
    let e23 = v128_xor(b3, v128_andnot(b0, b4));
    let e24 = v128_xor(b4, v128_andnot(b1, b0));
    // ι
    [
        v128_xor(e0, u64x2_splat(rc)),
        e1,
        e2,
        e3,
        e4,
        e5,
        e6,
        e7,
        e8,
        e9,
        e10,
        e11,
        e12,
        e13,
        e14,
        e15,
        e16,
        e17,
        e18,
        e19,
        e20,
        e21,
        e22,
        e23,
        e24,
    ]
}

/// Keccak-f[1600] on two states held lane-wise in `a`.
fn permute_pair(a: &mut [v128; 25]) {
    let mut s = *a;
    for rc in ROUND_CONSTANTS {
        s = round(s, rc);
    }
    *a = s;
}

/// Four states' Keccak-f[1600], as two pairs.
pub(crate) fn f1600x4(s: &mut StateX4) {
    for pair in 0..2 {
        let mut a: [v128; 25] = core::array::from_fn(|i| u64x2(s[i][2 * pair], s[i][2 * pair + 1]));
        permute_pair(&mut a);
        for (lanes, v) in s.iter_mut().zip(a) {
            lanes[2 * pair] = u64x2_extract_lane::<0>(v);
            lanes[2 * pair + 1] = u64x2_extract_lane::<1>(v);
        }
    }
}
