//! SHA-256 compression of four blocks at once with wasm simd128: one block per 32-bit
//! lane, through the generic written-out rounds (`hash::sha256_x4::compress`). Built
//! only with `-C target-feature=+simd128`. Must match the `sha2` crate's compression
//! bit for bit (checked in the wasm tests, and by every SLH-DSA-SHA2 ACVP case).

use core::arch::wasm32::{
    i32x4_add, i32x4_shl, u32x4, u32x4_extract_lane, u32x4_shr, u32x4_splat, v128, v128_and, v128_andnot, v128_or,
    v128_xor,
};

use crate::hash::sha256_x4::{StatesX4, Word, compress, words};

/// Four blocks' words, one per lane.
impl Word for v128 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        i32x4_add(self, other)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        v128_xor(self, other)
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        v128_and(self, other)
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        v128_or(self, other)
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        // v128_andnot(a, b) is a ∧ ¬b.
        v128_andnot(other, self)
    }
    #[inline(always)]
    fn shr<const R: u32>(self) -> Self {
        u32x4_shr(self, R)
    }
    #[inline(always)]
    fn rotr<const R: u32>(self) -> Self {
        v128_or(u32x4_shr(self, R), i32x4_shl(self, 32 - R))
    }
    #[inline(always)]
    fn splat(value: u32) -> Self {
        u32x4_splat(value)
    }
}

/// Compresses block `j` into state `j`, for j in 0..4.
pub(crate) fn compress_x4(states: &mut StatesX4, blocks: &[[u8; 64]; 4]) {
    let w = blocks.each_ref().map(words);
    let block: [v128; 16] = core::array::from_fn(|i| u32x4(w[0][i], w[1][i], w[2][i], w[3][i]));
    let mut state: [v128; 8] = core::array::from_fn(|i| u32x4(states[0][i], states[1][i], states[2][i], states[3][i]));
    compress(&mut state, block);
    for (i, v) in state.into_iter().enumerate() {
        states[0][i] = u32x4_extract_lane::<0>(v);
        states[1][i] = u32x4_extract_lane::<1>(v);
        states[2][i] = u32x4_extract_lane::<2>(v);
        states[3][i] = u32x4_extract_lane::<3>(v);
    }
}
