//! Keccak-f[1600] on four states with wasm simd128: two states per 128-bit vector,
//! so the four states run as two pairs, through the scalar code's written-out round
//! (`hash::keccak::round`, generic over the lane). Built only with
//! `-C target-feature=+simd128`. Must match `keccak::f1600` bit for bit.

use core::arch::wasm32::{
    i64x2_shl, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_or, v128_xor,
};

use crate::hash::keccak::{Lane, ROUND_CONSTANTS, round};
use crate::hash::keccak_x4::StateX4;

/// Two states' lanes in one vector.
impl Lane for v128 {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        v128_xor(self, other)
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        // v128_andnot(a, b) is a ∧ ¬b.
        v128_andnot(other, self)
    }
    #[inline(always)]
    fn rol<const R: u32>(self) -> Self {
        if R == 0 { self } else { v128_or(i64x2_shl(self, R), u64x2_shr(self, 64 - R)) }
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        u64x2_splat(value)
    }
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
