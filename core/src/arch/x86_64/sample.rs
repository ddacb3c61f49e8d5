//! RejNTTPoly's sampling loop (FIPS 204 Algorithm 30 with CoeffFromThreeBytes,
//! Algorithm 14) with AVX2: eight 3-byte candidates per step, spread to 32-bit lanes
//! by a byte shuffle, masked to 23 bits, compared with q, and the accepted ones
//! moved to the front by a lane permutation looked up from the comparison mask.

use core::arch::x86_64::{
    __m256i, _mm_loadl_epi64, _mm256_and_si256, _mm256_castsi256_ps, _mm256_cmpgt_epi32, _mm256_cvtepu8_epi32,
    _mm256_loadu_si256, _mm256_movemask_ps, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_storeu_si256,
};

use super::token::Avx2;
use crate::ring::Poly;
use crate::ring::field::Q;

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
pub(crate) fn rej_sample(_: Avx2, block: &[u8; 168], out: &mut Poly, filled: &mut usize) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { rej_sample_avx2(block, out, filled) }
}

#[target_feature(enable = "avx2")]
fn rej_sample_avx2(block: &[u8; 168], out: &mut Poly, filled: &mut usize) {
    // The last step loads 32 bytes from offset 144: pad the block to 176.
    let mut padded = [0u8; 176];
    padded[..168].copy_from_slice(block);
    // Every accepted value of the block, then 8 lanes of slack for the last store.
    let mut accepted = [0i32; CANDIDATES + 8];
    let mut count = 0;
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, // bytes 0..12 (low half)
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1, // bytes 12..24 (high half holds 8..24)
    );
    let low23 = _mm256_set1_epi32(0x7f_ffff);
    let q = _mm256_set1_epi32(Q);
    for step in 0..CANDIDATES / 8 {
        // SAFETY: bytes 24·step .. 24·step + 32 lie within `padded` (176 bytes, step ≤ 6).
        let raw: __m256i = unsafe { _mm256_loadu_si256(padded.as_ptr().add(24 * step).cast()) };
        // Qwords 0, 1, 1, 2: the high 128-bit half starts at byte 8.
        let raw = _mm256_permute4x64_epi64::<0b10_01_01_00>(raw);
        let v = _mm256_and_si256(_mm256_shuffle_epi8(raw, spread), low23);
        let keep = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, v))) as usize & 0xff;
        // SAFETY: `COMPACT[keep]` is 8 bytes, what the 64-bit load reads.
        let order = _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(COMPACT[keep].as_ptr().cast()) });
        // SAFETY: count ≤ 8·step ≤ 48, so lanes count .. count + 8 lie within `accepted` (64).
        unsafe { _mm256_storeu_si256(accepted.as_mut_ptr().add(count).cast(), _mm256_permutevar8x32_epi32(v, order)) };
        count += keep.count_ones() as usize;
    }
    let take = count.min(out.0.len().saturating_sub(*filled));
    if let (Some(dst), Some(src)) = (out.0.get_mut(*filled..*filled + take), accepted.get(..take)) {
        dst.copy_from_slice(src);
        *filled += take;
    }
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
                // Candidates near q on both sides, with and without the ignored top bit.
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
                let start = [0, 1, 200, 230, 250, 255, 256][i % 7];
                let mut x = poly(rng, Q);
                let mut y = x.clone();
                let (mut fx, mut fy) = (start, start);
                rej_sample(t, &block, &mut x, &mut fx);
                portable::sample::rej_sample(&block, &mut y, &mut fy);
                assert_eq!((fx, &x), (fy, &y));
            }
        });
    }
}
