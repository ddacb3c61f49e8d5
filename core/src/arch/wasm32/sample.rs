//! RejNTTPoly's sampling loop (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
//! Algorithm 14) with wasm simd128: four 3-byte candidates per step, spread to 32-bit
//! lanes by a byte swizzle, masked to 23 bits and compared with q. A block whose
//! candidates are all accepted (nearly every one) is stored as it is; in any other, the
//! accepted ones move to the front by a second swizzle looked up from the comparison's
//! bit mask.

use core::arch::wasm32::{
    i8x16, i8x16_swizzle, i32x4_bitmask, i32x4_ge, i32x4_lt, i32x4_splat, u8x16_swizzle, v128, v128_and, v128_any_true,
    v128_load, v128_or, v128_store,
};

use crate::arch::compact::COMPACT;
use crate::kernel_set::{Shake128Block, block_bytes};
use crate::ring::Poly;
use crate::ring::field::Q;

/// Candidates in one SHAKE128 block (168 bytes / 3).
const CANDIDATES: usize = 56;

/// RejNTTPoly's loop over one block. Contract: `portable::sample::rej_sample`.
pub(crate) fn rej_sample(block: &Shake128Block, out: &mut Poly, filled: &mut usize) {
    let block = &block_bytes(block);
    // Every accepted value of the block, then 4 lanes of slack for the last store.
    let mut accepted = [0i32; CANDIDATES + 4];
    let mut count = 0;
    let low23 = i32x4_splat(0x7f_ffff);
    let q = i32x4_splat(Q);
    // Candidates 3i .. 3i + 3 of a 16-byte load at byte 12·step, or, for the last step
    // (whose 16 bytes would run past the block), of a load 4 bytes earlier.
    let spread = i8x16(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    let spread_last = i8x16(4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    // Step `step`'s four candidates, spread to 32-bit lanes and masked to 23 bits.
    let candidates = |step: usize| {
        let last = step == CANDIDATES / 4 - 1;
        let at = if last { 12 * step - 4 } else { 12 * step };
        // SAFETY: at + 16 ≤ 168: steps 0..=12 load from ≤ 144, the last from 152.
        let raw: v128 = unsafe { v128_load(block.as_ptr().add(at).cast()) };
        v128_and(i8x16_swizzle(raw, if last { spread_last } else { spread }), low23)
    };
    if let Some(room) = out.0.get_mut(*filled..*filled + CANDIDATES) {
        // A candidate is rejected with probability (2^23 − q)/2^23 < 2^−10, so all 56 are
        // accepted in about 19 blocks of 20: where the polynomial has room for them all,
        // they go straight into place, and only a block with a rejected candidate is
        // taken again below, compacted (over what this wrote: the contract leaves
        // coefficients past `filled` open).
        let mut rejected = i32x4_splat(0);
        for (step, lanes) in room.as_chunks_mut::<4>().0.iter_mut().enumerate() {
            let v = candidates(step);
            rejected = v128_or(rejected, i32x4_ge(v, q));
            // SAFETY: `lanes` is exactly the 16 bytes the store writes.
            unsafe { v128_store(lanes.as_mut_ptr().cast(), v) };
        }
        if !v128_any_true(rejected) {
            *filled += CANDIDATES;
            return;
        }
    }
    for step in 0..CANDIDATES / 4 {
        let v = candidates(step);
        let keep = i32x4_bitmask(i32x4_lt(v, q)) as usize & 0xf;
        // SAFETY: `COMPACT[keep]` is the 16 bytes the load reads.
        let order = unsafe { v128_load(COMPACT[keep].as_ptr().cast()) };
        // SAFETY: count ≤ 4·step ≤ 52, so lanes count .. count + 4 lie within `accepted` (60).
        unsafe { v128_store(accepted.as_mut_ptr().add(count).cast(), u8x16_swizzle(v, order)) };
        count += keep.count_ones() as usize;
    }
    let take = count.min(out.0.len().saturating_sub(*filled));
    if let (Some(dst), Some(src)) = (out.0.get_mut(*filled..*filled + take), accepted.get(..take)) {
        dst.copy_from_slice(src);
        *filled += take;
    }
}
