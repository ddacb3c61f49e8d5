//! RejNTTPoly's sampling loop (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
//! Algorithm 14) with NEON: four 3-byte candidates per step, spread to 32-bit lanes by
//! TBL, masked to 23 bits and compared with q. A block whose candidates are all
//! accepted (nearly every one) is stored as it is; in any other, the accepted ones move
//! to the front by a second TBL looked up from the comparison's 4-bit mask.

use core::arch::aarch64::{
    uint8x16_t, vaddvq_u32, vandq_u32, vcgeq_u32, vcltq_u32, vdupq_n_u32, vld1q_u8, vld1q_u32, vmaxvq_u32, vorrq_u32,
    vqtbl1q_u8, vreinterpretq_u8_u32, vreinterpretq_u32_u8, vst1q_u8,
};

use crate::arch::compact::COMPACT;
use crate::kernel_set::{SHAKE128_RATE, Shake128Block, block_bytes};
use crate::ring::Poly;
use crate::ring::field::Q;

// SAFETY (every NEON intrinsic below without a pointer): this module is built only
// where NEON is in the target's baseline, so every AArch64 CPU it runs on has it.

/// Candidates in one SHAKE128 block (168 bytes / 3).
const CANDIDATES: usize = SHAKE128_RATE / 3;

/// Candidates 3i .. 3i + 3 of a 16-byte load into the low three bytes of lane i (index
/// 0xff gives 0): of a load at byte 12·step, and, for the last step (whose 16 bytes would
/// run past the block), of a load 4 bytes earlier.
const SPREAD: [u8; 16] = [0, 1, 2, 0xff, 3, 4, 5, 0xff, 6, 7, 8, 0xff, 9, 10, 11, 0xff];
const SPREAD_LAST: [u8; 16] = [4, 5, 6, 0xff, 7, 8, 9, 0xff, 10, 11, 12, 0xff, 13, 14, 15, 0xff];

/// Lane i's bit of the acceptance mask.
const LANE_BITS: [u32; 4] = [1, 2, 4, 8];

/// RejNTTPoly's loop over one block. Contract: `portable::sample::rej_sample`.
pub(crate) fn rej_sample(block: &Shake128Block, out: &mut Poly, filled: &mut usize) {
    let block = &block_bytes(block);
    // Every accepted value of the block, then 4 lanes of slack for the last store.
    let mut accepted = [0i32; CANDIDATES + 4];
    let mut count = 0;
    let bytes = |b: &[u8; 16]| -> uint8x16_t {
        // SAFETY: `b` is the 16 bytes the load reads.
        unsafe { vld1q_u8(b.as_ptr()) }
    };
    let (spread, spread_last) = (bytes(&SPREAD), bytes(&SPREAD_LAST));
    // SAFETY: `LANE_BITS` is the 16 bytes the load reads; the rest, see above.
    let (low23, q, lane_bits) =
        unsafe { (vdupq_n_u32(0x7f_ffff), vdupq_n_u32(Q as u32), vld1q_u32(LANE_BITS.as_ptr())) };
    // Step `step`'s four candidates, spread to 32-bit lanes and masked to 23 bits.
    let candidates = |step: usize| {
        let last = step == CANDIDATES / 4 - 1;
        let at = if last { 12 * step - 4 } else { 12 * step };
        // SAFETY: at + 16 ≤ 168: steps 0..=12 load from ≤ 144, the last from 152; the
        // rest, see above.
        unsafe {
            let raw = vld1q_u8(block.as_ptr().add(at));
            vandq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(raw, if last { spread_last } else { spread })), low23)
        }
    };
    if let Some(room) = out.0.get_mut(*filled..*filled + CANDIDATES) {
        // A candidate is rejected with probability (2^23 − q)/2^23 < 2^−10, so all 56 are
        // accepted in about 19 blocks of 20: where the polynomial has room for them all,
        // they go straight into place, and only a block with a rejected candidate is
        // taken again below, compacted (over what this wrote: the contract leaves
        // coefficients past `filled` open).
        // SAFETY: see above.
        let mut rejected = unsafe { vdupq_n_u32(0) };
        for (step, lanes) in room.as_chunks_mut::<4>().0.iter_mut().enumerate() {
            let v = candidates(step);
            // SAFETY: `lanes` is exactly the 16 bytes the store writes.
            unsafe {
                rejected = vorrq_u32(rejected, vcgeq_u32(v, q));
                vst1q_u8(lanes.as_mut_ptr().cast(), vreinterpretq_u8_u32(v));
            }
        }
        // SAFETY: see above.
        if unsafe { vmaxvq_u32(rejected) } == 0 {
            *filled += CANDIDATES;
            return;
        }
    }
    for step in 0..CANDIDATES / 4 {
        let v = candidates(step);
        // SAFETY: see above.
        let keep = unsafe { vaddvq_u32(vandq_u32(vcltq_u32(v, q), lane_bits)) as usize & 0xf };
        // SAFETY: `COMPACT[keep]` is the 16 bytes the load reads; count ≤ 4·step ≤ 52, so
        // lanes count .. count + 4 lie within `accepted` (60), the 16 bytes the store writes.
        unsafe {
            let moved = vqtbl1q_u8(vreinterpretq_u8_u32(v), bytes(&COMPACT[keep]));
            vst1q_u8(accepted.as_mut_ptr().add(count).cast(), moved);
        }
        count += keep.count_ones() as usize;
    }
    let take = count.min(out.0.len().saturating_sub(*filled));
    if let (Some(dst), Some(src)) = (out.0.get_mut(*filled..*filled + take), accepted.get(..take)) {
        dst.copy_from_slice(src);
        *filled += take;
    }
}
