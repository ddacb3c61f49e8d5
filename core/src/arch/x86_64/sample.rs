//! RejNTTPoly's sampling loop (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
//! Algorithm 14) with AVX2: eight 3-byte candidates per step, spread to 32-bit lanes
//! by a byte shuffle, masked to 23 bits and compared with q. A block whose candidates
//! are all accepted (nearly every one) is stored as it is; in any other, the accepted
//! ones move to the front by a lane permutation looked up from the comparison mask.

use core::arch::x86_64::{
    _mm_loadl_epi64, _mm_set_epi64x, _mm256_and_si256, _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_cvtepu8_epi32,
    _mm256_movemask_ps, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set_m128i, _mm256_set1_epi32,
    _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_testz_si256,
};

use super::token::Avx2;
use crate::kernel_set::Shake128Block;
use crate::ring::field::Q;
use crate::ring::{N, Poly};

/// Candidates in one SHAKE128 block (168 bytes / 3).
const CANDIDATES: usize = 56;

/// For each 8-bit acceptance mask: the lanes to keep, in order, as permutation indices.
const COMPACT: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut at = 0;
        let mut lane = 0;
        while lane < 8 {
            if mask & (1 << lane) != 0 {
                table[mask][at] = lane as u8;
                at += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
};

/// RejNTTPoly's loop over one block. Contract: `portable::sample::rej_sample`.
pub(crate) fn rej_sample(_: Avx2, block: &Shake128Block, out: &mut Poly, filled: &mut usize) {
    // SAFETY: the `Avx2` token exists only where AVX2 and POPCNT were detected.
    unsafe { rej_sample_avx2(block, out, filled) }
}

#[target_feature(enable = "avx2,popcnt")]
fn rej_sample_avx2(block: &Shake128Block, out: &mut Poly, filled: &mut usize) {
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, // bytes 0..12 (low half)
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1, // bytes 12..24 (high half holds 8..24)
    );
    let low23 = _mm256_set1_epi32(0x7f_ffff);
    let q = _mm256_set1_epi32(Q);
    let q_less_one = _mm256_set1_epi32(Q - 1);
    let mut at = *filled;
    // Step `step`'s eight candidates, spread to 32-bit lanes and masked to 23 bits.
    let spread_step = |step: usize| {
        // The step's 24 bytes are lanes 3·step .. 3·step + 3 of the block: as qwords
        // 0, 1, 1, 2 (the high 128-bit half starts at byte 8). Eight-byte reads, each
        // from one lane: the lanes were just stored one at a time, and a wider load
        // over several such stores could not be forwarded from them.
        let lane = |i: usize| block[3 * step + i] as i64;
        let raw = _mm256_set_m128i(_mm_set_epi64x(lane(2), lane(1)), _mm_set_epi64x(lane(1), lane(0)));
        _mm256_and_si256(_mm256_shuffle_epi8(raw, spread), low23)
    };
    // The step's candidates, the accepted ones first, and how many were accepted.
    let candidates = |step: usize| {
        let v = spread_step(step);
        let keep = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v))) as usize & 0xff;
        // SAFETY: `COMPACT[keep]` is 8 bytes, what the 64-bit load reads.
        let order = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(COMPACT[keep].as_ptr().cast()) });
        (_mm256_permutevar8x32_epi32(v, order), keep.count_ones() as usize)
    };
    if let Some(room) = out.0.get_mut(at..at + CANDIDATES) {
        // Room for every candidate of the block (all blocks but the last one or two of
        // a polynomial): all eight lanes of each step go straight into place, no bound
        // checked; those past the accepted ones are written over by the next step or
        // call (the contract leaves them open).
        //
        // A candidate is rejected with probability (2^23 − q)/2^23 < 2^−10, so all 56
        // are accepted in about 19 blocks of 20: first the steps in order with no
        // compaction, then, only if one was rejected, the block again with it.
        let mut rejected = _mm256_setzero_si256();
        for step in 0..CANDIDATES / 8 {
            let v = spread_step(step);
            rejected = _mm256_or_si256(rejected, _mm256_cmpgt_epi32(v, q_less_one));
            // SAFETY: room[8·step..8·step + 8] lies within the CANDIDATES
            // coefficients of `room`: the 32 bytes an unaligned store writes.
            unsafe { _mm256_storeu_si256(room.as_mut_ptr().add(8 * step).cast(), v) };
        }
        if _mm256_testz_si256(rejected, rejected) == 1 {
            *filled = at + CANDIDATES;
            return;
        }
        let mut taken = 0;
        for step in 0..CANDIDATES / 8 {
            let (packed, accepted) = candidates(step);
            // SAFETY: taken ≤ 8·step, so room[taken..taken + 8] lies within the
            // CANDIDATES coefficients of `room`: the 32 bytes an unaligned store writes.
            unsafe { _mm256_storeu_si256(room.as_mut_ptr().add(taken).cast(), packed) };
            taken += accepted;
        }
        *filled = at + taken;
        return;
    }
    for step in 0..CANDIDATES / 8 {
        if at >= N {
            break;
        }
        let (packed, accepted) = candidates(step);
        if let Some(lanes) = out.0.get_mut(at..at + 8) {
            // SAFETY: `lanes` is 8 coefficients, the 32 bytes an unaligned store writes.
            unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), packed) };
            at += accepted;
        } else {
            // Fewer than eight coefficients are missing: only they are written.
            let mut tail = [0i32; 8];
            // SAFETY: `tail` is 8 coefficients, the 32 bytes an unaligned store writes.
            unsafe { _mm256_storeu_si256(tail.as_mut_ptr().cast(), packed) };
            let take = accepted.min(N - at);
            if let (Some(dst), Some(src)) = (out.0.get_mut(at..at + take), tail.get(..take)) {
                dst.copy_from_slice(src);
            }
            at += take;
        }
    }
    *filled = at;
}

#[cfg(test)]
mod tests {
    use super::super::testing::{on_avx2, poly};
    use super::*;
    use crate::portable;

    #[test]
    fn rej_sample_is_bit_identical_at_its_bounds() {
        on_avx2(44, |t, rng| {
            for i in 0..20_000 {
                // A third of the blocks accept every candidate (the path without
                // compaction), a third reject exactly one, anywhere in the block; the rest
                // have candidates near q on both sides, with and without the ignored top bit.
                let block = match (i / 9) % 3 {
                    mode @ (0 | 1) => {
                        let rejected_at = (mode == 1).then(|| (rng.next_u64() % CANDIDATES as u64) as usize);
                        crate::kernel_checks::accepted_block(|| rng.next_u64(), rejected_at)
                    }
                    _ => {
                        let mut block = [0u8; 168];
                        for c in block.chunks_exact_mut(3) {
                            let r = rng.next_u64();
                            let v = match r % 4 {
                                0 => Q as u32 - 1 + (r >> 8) as u32 % 3,
                                1 => (r >> 8) as u32 & 0xff_ffff,
                                2 => 0x7f_ffff | ((r >> 9) as u32 & 1) << 23,
                                _ => (r >> 8) as u32 % Q as u32,
                            };
                            c.copy_from_slice(&v.to_le_bytes()[..3]);
                        }
                        block
                    }
                };
                // Starts on both sides of the unchecked path's bound (N − 56 = 200).
                let start = [0, 1, 199, 200, 201, 230, 250, 255, 256][i % 9];
                let mut x = poly(rng, Q);
                let mut y = x.clone();
                let (mut fx, mut fy) = (start, start);
                let block = core::array::from_fn(|i| u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap()));
                rej_sample(t, &block, &mut x, &mut fx);
                portable::sample::rej_sample(&block, &mut y, &mut fy);
                // Past the filled coefficients the contract leaves `out` open.
                assert_eq!((fx, &x.0[..fx]), (fy, &y.0[..fy]));
            }
        });
    }
}
