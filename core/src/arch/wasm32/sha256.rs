//! SHA-256 compression of four blocks at once with wasm simd128: one block per 32-bit
//! lane, through the generic written-out rounds (`hash::sha2_rounds::compress`). Built
//! only with `-C target-feature=+simd128`. Must match the `sha2` crate's compression
//! bit for bit (checked in the wasm tests, and by every SLH-DSA-SHA2 ACVP case).

use core::arch::wasm32::{
    i8x16_shuffle, i32x4_add, i32x4_shl, i32x4_shuffle, i64x2_shuffle, u32x4_shr, u32x4_splat, v128, v128_and,
    v128_andnot, v128_load, v128_or, v128_store, v128_xor,
};

use crate::portable::sha2_rounds::{Bits, Word, compress};
use crate::portable::sha256::Sha256Rounds;

/// Any lane width: the bitwise operations of the SHA-2 words.
impl Bits for v128 {
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
}

/// Four blocks' words, one per lane.
impl Word<u32> for v128 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        i32x4_add(self, other)
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

/// Contract: `portable::sha256::digest_x4`. The blocks' words reach their
/// lanes by vector loads, one byte shuffle per four words (big-endian) and 4×4
/// transposes; the shared midstate is splat; only the digests are transposed back.
pub(crate) fn digest_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    let mut block = [u32x4_splat(0); 16];
    for quarter in 0..4 {
        let rows: [v128; 4] = core::array::from_fn(|j| {
            let bytes = &blocks[j][16 * quarter..16 * quarter + 16];
            // SAFETY: `bytes` is the 16 bytes the load reads (wasm loads need no alignment).
            byte_swap(unsafe { v128_load(bytes.as_ptr().cast()) })
        });
        block[4 * quarter..4 * quarter + 4].copy_from_slice(&transpose(rows));
    }
    let mut state = mid.map(|word| u32x4_splat(word));
    compress::<Sha256Rounds, _>(&mut state, block);
    for half in 0..2 {
        let words = transpose([state[4 * half], state[4 * half + 1], state[4 * half + 2], state[4 * half + 3]]);
        for (digest, v) in out.iter_mut().zip(words) {
            let bytes = &mut digest[16 * half..16 * half + 16];
            // SAFETY: `bytes` is the 16 bytes the store writes.
            unsafe { v128_store(bytes.as_mut_ptr().cast(), byte_swap(v)) };
        }
    }
}

/// Each 32-bit lane's bytes reversed (big-endian words ↔ the lanes' little-endian).
#[inline(always)]
fn byte_swap(v: v128) -> v128 {
    i8x16_shuffle::<3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12>(v, v)
}

/// Rows r_j = [x_j0, x_j1, x_j2, x_j3] to columns c_i = [x_0i, x_1i, x_2i, x_3i].
#[inline(always)]
fn transpose([r0, r1, r2, r3]: [v128; 4]) -> [v128; 4] {
    let (t0, t1) = (i32x4_shuffle::<0, 4, 1, 5>(r0, r1), i32x4_shuffle::<2, 6, 3, 7>(r0, r1));
    let (t2, t3) = (i32x4_shuffle::<0, 4, 1, 5>(r2, r3), i32x4_shuffle::<2, 6, 3, 7>(r2, r3));
    [
        i64x2_shuffle::<0, 2>(t0, t2),
        i64x2_shuffle::<1, 3>(t0, t2),
        i64x2_shuffle::<0, 2>(t1, t3),
        i64x2_shuffle::<1, 3>(t1, t3),
    ]
}
