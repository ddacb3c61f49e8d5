//! Keccak-f[1600] on four states with wasm simd128: two states per 128-bit vector,
//! so the four states run as two pairs, through the scalar code's written-out round
//! (`portable::keccak::round`, generic over the lane). Built only with
//! `-C target-feature=+simd128`. Must match `keccak::f1600` bit for bit.

use core::arch::wasm32::{
    i64x2_shl, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_load, v128_or, v128_store, v128_xor,
};

use crate::kernel_set::StateX4;
use crate::portable::keccak::{Lane, ROUND_CONSTANTS, round};

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
    for &rc in &ROUND_CONSTANTS {
        s = round(s, rc);
    }
    *a = s;
}

/// Four states' Keccak-f[1600], as two pairs: states 2p and 2p + 1 sit next to each
/// other in every lane's row, so a pair's lane is one 16-byte load and store. Only the
/// pairs holding one of the first `live` states are permuted.
pub(crate) fn f1600x4(s: &mut StateX4, live: usize) {
    for pair in 0..live.div_ceil(2).min(2) {
        let mut a: [v128; 25] = core::array::from_fn(|i| {
            let two = &s[i][2 * pair..2 * pair + 2];
            // SAFETY: `two` is the 16 bytes the load reads (wasm loads need no alignment).
            unsafe { v128_load(two.as_ptr().cast()) }
        });
        permute_pair(&mut a);
        for (lanes, v) in s.iter_mut().zip(a) {
            let two = &mut lanes[2 * pair..2 * pair + 2];
            // SAFETY: `two` is the 16 bytes the store writes.
            unsafe { v128_store(two.as_mut_ptr().cast(), v) };
        }
    }
}
