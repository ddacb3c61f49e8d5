//! SHA-512 compression of four blocks from one midstate, one block per 64-bit lane of a
//! 256-bit register, through the generic written-out rounds
//! (`portable::sha2_rounds::compress`). One source compiled twice: for AVX2 (a rotation
//! is two shifts and an or) and for AVX-512 VL, where the compiler makes each rotation
//! one `vprorq` and folds the chains of Ch, Maj and the Σ functions into `vpternlogq`.
//! SLH-DSA-SHA2's H in categories 3 and 5 (FORS trees, four at a time). Must match
//! `portable::sha512::digest_x4` bit for bit.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi64_si128, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_shuffle_epi8, _mm256_sll_epi64, _mm256_srl_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use super::token::{Avx2, Avx512};
use super::transpose::transpose4;
use crate::portable::sha2_rounds::{Bits, Word, compress};
use crate::portable::sha512::Sha512Rounds;

/// Four SHA-512 compressions from `mid` with AVX2, digests out. Contract:
/// `portable::sha512::digest_x4` (the first `live` digests are written). Up to two live
/// blocks go one at a time through the one-block compression (the `sha2` crate's),
/// which takes less than half the time of a four-block call.
pub(crate) fn digest_x4(_: Avx2, mid: &[u64; 8], blocks: &[[u8; 128]; 4], live: usize, out: &mut [[u8; 64]; 4]) {
    if live <= 2 {
        return one_at_a_time(mid, blocks, live, out);
    }
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { digest_avx2(mid, blocks, out) }
}

/// [`digest_x4`] with AVX-512 VL's rotations and ternary logic, a call of which costs
/// little more than one block: only a lone block goes on its own.
pub(crate) fn digest_x4_avx512(
    _: Avx512,
    mid: &[u64; 8],
    blocks: &[[u8; 128]; 4],
    live: usize,
    out: &mut [[u8; 64]; 4],
) {
    if live <= 1 {
        return one_at_a_time(mid, blocks, live, out);
    }
    // SAFETY: the `Avx512` token exists only where AVX2, AVX-512 F and VL were detected.
    unsafe { digest_avx512(mid, blocks, out) }
}

/// The first `live` blocks from `mid`, one at a time, their digests out.
fn one_at_a_time(mid: &[u64; 8], blocks: &[[u8; 128]; 4], live: usize, out: &mut [[u8; 64]; 4]) {
    for (block, digest) in blocks.iter().zip(out.iter_mut()).take(live) {
        let mut state = *mid;
        sha2::block_api::compress512(&mut state, core::slice::from_ref(block));
        for (bytes, word) in digest.chunks_exact_mut(8).zip(state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
    }
}

#[target_feature(enable = "avx2")]
fn digest_avx2(mid: &[u64; 8], blocks: &[[u8; 128]; 4], out: &mut [[u8; 64]; 4]) {
    super::frame::align_frame();
    digest(mid, blocks, out);
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn digest_avx512(mid: &[u64; 8], blocks: &[[u8; 128]; 4], out: &mut [[u8; 64]; 4]) {
    super::frame::align_frame();
    digest(mid, blocks, out);
}

/// Four blocks' words, one per 64-bit lane. Made and used only inside the two bodies
/// above (`digest` and what it calls), which both have AVX2: that is what makes the
/// intrinsics' calls below sound.
#[derive(Clone, Copy)]
struct X4(__m256i);

impl Bits for X4 {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 is enabled wherever an `X4` exists (see the type).
        X4(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X4(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X4(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        // SAFETY: as for `xor`. `_mm256_andnot_si256(a, b)` is ¬a ∧ b.
        X4(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }
}

impl Word<u64> for X4 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X4(unsafe { _mm256_add_epi64(self.0, other.0) })
    }
    #[inline(always)]
    fn shr<const R: u32>(self) -> Self {
        // SAFETY: as for `xor`.
        X4(unsafe { _mm256_srl_epi64(self.0, count(R)) })
    }
    #[inline(always)]
    fn rotr<const R: u32>(self) -> Self {
        // SAFETY: as for `xor`. With AVX-512 VL the compiler makes this one `vprorq`.
        X4(unsafe { _mm256_or_si256(_mm256_srl_epi64(self.0, count(R)), _mm256_sll_epi64(self.0, count(64 - R))) })
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        // SAFETY: as for `xor`.
        X4(unsafe { _mm256_set1_epi64x(value as i64) })
    }
}

/// A shift count as the shifts by register take it. The counts are constants: the
/// compiler emits the shifts by an immediate (a const generic cannot be turned into
/// the immediate operand's `64 − R` here).
#[inline(always)]
fn count(bits: u32) -> __m128i {
    // SAFETY: SSE2, part of x86-64.
    unsafe { _mm_cvtsi64_si128(i64::from(bits)) }
}

/// Each 64-bit word's bytes reversed: SHA-512's big-endian words ↔ the lanes' order.
#[inline(always)]
fn byte_swap(v: __m256i) -> __m256i {
    // SAFETY: called only from `digest`, inside the AVX2 bodies.
    unsafe {
        let swap = _mm256_set_epi64x(
            0x0809_0a0b_0c0d_0e0f,
            0x0001_0203_0405_0607,
            0x0809_0a0b_0c0d_0e0f,
            0x0001_0203_0405_0607,
        );
        _mm256_shuffle_epi8(v, swap)
    }
}

/// The body both entries compile: words to lanes (32-byte loads, byte swaps, 4 × 4
/// transposes: `transpose4`, as the Keccak kernels gather their states), the rounds, the digests back the same way.
#[inline(always)]
fn digest(mid: &[u64; 8], blocks: &[[u8; 128]; 4], out: &mut [[u8; 64]; 4]) {
    let mut w = [X4::splat(0); 16];
    for group in 0..4 {
        // Written out: `array::from_fn` here was a call, compiled without AVX2.
        let row = |j: usize| {
            let bytes = &blocks[j][32 * group..32 * group + 32];
            // SAFETY: `bytes` is the 32 bytes an unaligned load reads; AVX2 as above.
            byte_swap(unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) })
        };
        // SAFETY: inside the AVX2 bodies (see `X4`).
        let words = unsafe { transpose4([row(0), row(1), row(2), row(3)]) };
        for (i, v) in words.into_iter().enumerate() {
            w[4 * group + i] = X4(v);
        }
    }
    let mut state = [X4::splat(0); 8];
    for (s, &word) in state.iter_mut().zip(mid) {
        *s = X4::splat(word);
    }
    compress::<Sha512Rounds, _>(&mut state, w);
    for group in 0..2 {
        let rows = [state[4 * group].0, state[4 * group + 1].0, state[4 * group + 2].0, state[4 * group + 3].0];
        // SAFETY: inside the AVX2 bodies (see `X4`).
        let words = unsafe { transpose4(rows) };
        for (digest, v) in out.iter_mut().zip(words) {
            let bytes = &mut digest[32 * group..32 * group + 32];
            // SAFETY: `bytes` is the 32 bytes an unaligned store writes; AVX2 as above.
            unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), byte_swap(v)) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{on_avx2, on_avx512};
    use super::*;
    use crate::portable::sha512::digest_x4 as portable_digest_x4;
    use pqverify_testkit::Rng;

    /// A word at the bounds (0, all ones, the top bit alone) one time in two, else random.
    fn word(rng: &mut Rng) -> u64 {
        match rng.next_u64() % 6 {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << 63,
            _ => rng.next_u64(),
        }
    }

    /// Compares `kernel` with the portable twin on every `live`, blocks and midstates
    /// of random and edge words (the additions' carries out of every lane).
    fn check(rng: &mut Rng, kernel: impl Fn(&[u64; 8], &[[u8; 128]; 4], usize, &mut [[u8; 64]; 4])) {
        for _ in 0..400 {
            let mid: [u64; 8] = core::array::from_fn(|_| word(rng));
            let blocks: [[u8; 128]; 4] = core::array::from_fn(|_| {
                let words: [u64; 16] = core::array::from_fn(|_| word(rng));
                core::array::from_fn(|b| words[b / 8].to_be_bytes()[b % 8])
            });
            for live in 1..=4 {
                let (mut got, mut want) = ([[0u8; 64]; 4], [[0u8; 64]; 4]);
                kernel(&mid, &blocks, live, &mut got);
                portable_digest_x4(&mid, &blocks, live, &mut want);
                assert_eq!(got[..live], want[..live], "{live} live");
            }
        }
    }

    #[test]
    fn the_avx2_compression_is_bit_identical() {
        on_avx2(61, |t, rng| check(rng, |m, b, l, o| digest_x4(t, m, b, l, o)));
    }

    #[test]
    fn the_avx512_compression_is_bit_identical() {
        on_avx512(62, |t, rng| check(rng, |m, b, l, o| digest_x4_avx512(t, m, b, l, o)));
    }
}
