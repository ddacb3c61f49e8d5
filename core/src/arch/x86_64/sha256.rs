//! SHA-256 compression of four blocks from one midstate with the SHA extensions
//! (SHA-NI), two blocks' rounds interleaved: one block's 32 `sha256rnds2` form a chain
//! of dependent instructions, so a second independent chain fills the cycles the first
//! waits (on Zen 3 and 4 the instruction's latency is twice its issue interval). Must
//! match `portable::sha256::digest_x4` bit for bit.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x, _mm_sha256msg1_epu32,
    _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_storeu_si128,
};

use super::token::ShaNi;
use crate::portable::sha256::K;

/// Four SHA-256 compressions from `mid`, digests (the eight state words, big-endian)
/// out: with SHA-NI where the CPU has it, else one block at a time through the set's
/// one-block compression (the `sha2` crate's).
pub(crate) fn digest_x4_detected(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    match ShaNi::detect() {
        Some(t) => digest_x4(t, mid, blocks, out),
        None => {
            for (block, out) in blocks.iter().zip(out) {
                let mut state = *mid;
                sha2::block_api::compress256(&mut state, core::slice::from_ref(block));
                for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
                    chunk.copy_from_slice(&word.to_be_bytes());
                }
            }
        }
    }
}

/// Four SHA-256 compressions from `mid`, digests out: two pairs of interleaved blocks.
/// Two streams fill the `sha256rnds2` latency; four interleaved are slower (their states
/// and message words spill the 16 xmm registers the SHA instructions can name).
pub(crate) fn digest_x4(_: ShaNi, mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    let [o0, o1, o2, o3] = out;
    // SAFETY: the `ShaNi` token exists only where SHA, SSE4.1 and SSSE3 were detected.
    unsafe {
        streams::<2>(mid, [&blocks[0], &blocks[1]], [o0, o1]);
        streams::<2>(mid, [&blocks[2], &blocks[3]], [o2, o3]);
    }
}

/// The state as SHA-NI holds it: (A, B, E, F) and (C, D, G, H), A and C in the top
/// 32-bit lane.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn split(s: &[u32; 8]) -> (__m128i, __m128i) {
    let w = |i: usize| s[i] as i32;
    (_mm_set_epi32(w(0), w(1), w(4), w(5)), _mm_set_epi32(w(2), w(3), w(6), w(7)))
}

/// The block's sixteen message words, four per register, W[4i] in the low lane.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn message(block: &[u8; 64]) -> [__m128i; 4] {
    // Each 32-bit word is big-endian in the block.
    let swap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    core::array::from_fn(|i| {
        // SAFETY: bytes 16i .. 16i + 16 of the 64-byte block, the 16 an unaligned load reads.
        let v = unsafe { _mm_loadu_si128(block[16 * i..].as_ptr().cast()) };
        _mm_shuffle_epi8(v, swap)
    })
}

/// The next four message words, W[t..t + 4] for t = 4(i + 4), from the previous
/// sixteen in `w` (FIPS 180-4, Section 6.2.2, step 1); `w` moves on by four.
macro_rules! schedule {
    ($w:expr) => {{
        // W[t−16] + σ0(W[t−15]), then + W[t−7], then + σ1(W[t−2]).
        let partial = _mm_sha256msg1_epu32($w[0], $w[1]);
        let partial = _mm_add_epi32(partial, _mm_alignr_epi8::<4>($w[3], $w[2]));
        let next = _mm_sha256msg2_epu32(partial, $w[3]);
        $w = [$w[1], $w[2], $w[3], next];
    }};
}

/// `S` blocks compressed from `mid` side by side, their rounds interleaved.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn streams<const S: usize>(mid: &[u32; 8], blocks: [&[u8; 64]; S], out: [&mut [u8; 32]; S]) {
    let (abef0, cdgh0) = split(mid);
    let mut abef = [abef0; S];
    let mut cdgh = [cdgh0; S];
    let mut w: [[__m128i; 4]; S] = core::array::from_fn(|s| message(blocks[s]));
    for i in 0..16 {
        // SAFETY: K[4i .. 4i + 4], the 16 bytes an unaligned load reads.
        let k = unsafe { _mm_loadu_si128(K[4 * i..].as_ptr().cast()) };
        for s in 0..S {
            // Four rounds: W + K, two rounds per `sha256rnds2` (the second on the high half).
            let (a, c) = (&mut abef[s], &mut cdgh[s]);
            let wk = _mm_add_epi32(w[s][0], k);
            *c = _mm_sha256rnds2_epu32(*c, *a, wk);
            *a = _mm_sha256rnds2_epu32(*a, *c, _mm_shuffle_epi32::<0x0e>(wk));
        }
        for ws in &mut w {
            if i < 12 {
                schedule!(*ws);
            } else {
                *ws = [ws[1], ws[2], ws[3], ws[0]];
            }
        }
    }
    for ((abef, cdgh), out) in abef.into_iter().zip(cdgh).zip(out) {
        let abef = _mm_add_epi32(abef, abef0);
        let cdgh = _mm_add_epi32(cdgh, cdgh0);
        let (mut x, mut y) = ([0u32; 4], [0u32; 4]);
        // SAFETY: each array is 16 bytes, what an unaligned store writes.
        unsafe {
            _mm_storeu_si128(x.as_mut_ptr().cast(), abef);
            _mm_storeu_si128(y.as_mut_ptr().cast(), cdgh);
        }
        // x = [F, E, B, A], y = [H, G, D, C] (lane 0 first).
        for (chunk, word) in out.chunks_exact_mut(4).zip([x[3], x[2], y[3], y[2], x[1], x[0], y[1], y[0]]) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_sha_ni;
    use super::*;

    #[test]
    fn four_blocks_are_bit_identical() {
        on_sha_ni(48, |t, rng| {
            let edge = [[0u8; 64], [0xff; 64], core::array::from_fn(|i| 1 << (i % 8)), [0x80; 64]];
            for round in 0..500 {
                let mid: [u32; 8] = if round == 0 {
                    [0; 8]
                } else if round == 1 {
                    [u32::MAX; 8]
                } else {
                    core::array::from_fn(|_| rng.next_u64() as u32)
                };
                let blocks: [[u8; 64]; 4] = if round < 2 {
                    edge
                } else {
                    core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64() as u8))
                };
                let (mut got, mut want) = ([[0u8; 32]; 4], [[0u8; 32]; 4]);
                digest_x4(t, &mid, &blocks, &mut got);
                crate::portable::sha256::digest_x4(&mid, &blocks, &mut want);
                assert_eq!(got, want, "round {round}");
            }
        });
    }
}
