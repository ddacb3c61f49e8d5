//! SHA-512 compression of two blocks at once with wasm simd128: one block per 64-bit
//! lane, through the generic written-out rounds (`portable::sha2_rounds::compress`);
//! four blocks as two such pairs, a pair with no live block skipped. Built
//! only with `-C target-feature=+simd128`. Must match the `sha2` crate's compression
//! bit for bit (checked in the wasm tests, and by every SLH-DSA-SHA2 ACVP case).

use core::arch::wasm32::{
    i8x16_shuffle, i64x2_add, i64x2_shl, i64x2_shuffle, u64x2_shr, u64x2_splat, v128, v128_load, v128_or, v128_store,
};

use crate::portable::sha2_rounds::{Word, compress};
use crate::portable::sha512::Sha512Rounds;

/// Two blocks' words, one per lane.
impl Word<u64> for v128 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        i64x2_add(self, other)
    }
    #[inline(always)]
    fn shr<const R: u32>(self) -> Self {
        u64x2_shr(self, R)
    }
    #[inline(always)]
    fn rotr<const R: u32>(self) -> Self {
        if R == 8 {
            // A whole byte (σ0's ROTR⁸): one shuffle instead of two shifts and an or.
            i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8>(self, self)
        } else {
            v128_or(u64x2_shr(self, R), i64x2_shl(self, 64 - R))
        }
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        u64x2_splat(value)
    }
}

/// Contract: `portable::sha512::digest_x4`: the pairs holding the first `live` blocks.
pub(crate) fn digest_x4(mid: &[u64; 8], blocks: &[[u8; 128]; 4], live: usize, out: &mut [[u8; 64]; 4]) {
    let (pairs, outs) = (blocks.as_chunks::<2>().0, out.as_chunks_mut::<2>().0);
    for (pair, digests) in pairs.iter().zip(outs).take(live.div_ceil(2)) {
        digest_x2(mid, pair, digests);
    }
}

/// Two blocks from `mid`, digests out. The blocks' words reach their lanes by vector
/// loads, one byte shuffle per two words (big-endian) and 2×2 transposes; the shared
/// midstate is splat.
fn digest_x2(mid: &[u64; 8], blocks: &[[u8; 128]; 2], out: &mut [[u8; 64]; 2]) {
    let mut block = [u64x2_splat(0); 16];
    for pair in 0..8 {
        let [r0, r1]: [v128; 2] = core::array::from_fn(|j| {
            let bytes = &blocks[j][16 * pair..16 * pair + 16];
            // SAFETY: `bytes` is the 16 bytes the load reads (wasm loads need no alignment).
            byte_swap(unsafe { v128_load(bytes.as_ptr().cast()) })
        });
        block[2 * pair] = i64x2_shuffle::<0, 2>(r0, r1);
        block[2 * pair + 1] = i64x2_shuffle::<1, 3>(r0, r1);
    }
    let mut state = mid.map(|word| u64x2_splat(word));
    compress::<Sha512Rounds, _>(&mut state, block);
    for pair in 0..4 {
        let (v0, v1) = (state[2 * pair], state[2 * pair + 1]);
        for (digest, v) in out.iter_mut().zip([i64x2_shuffle::<0, 2>(v0, v1), i64x2_shuffle::<1, 3>(v0, v1)]) {
            let bytes = &mut digest[16 * pair..16 * pair + 16];
            // SAFETY: `bytes` is the 16 bytes the store writes.
            unsafe { v128_store(bytes.as_mut_ptr().cast(), byte_swap(v)) };
        }
    }
}

/// Each 64-bit lane's bytes reversed (big-endian words ↔ the lanes' little-endian).
#[inline(always)]
fn byte_swap(v: v128) -> v128 {
    i8x16_shuffle::<7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8>(v, v)
}
