//! SHA-256 compression of up to sixteen blocks from one midstate, one block per 32-bit
//! lane of a 512-bit register, through the generic written-out rounds
//! (`portable::sha2_rounds::compress`): AVX-512 F's `vprord` makes each rotation one
//! instruction and `vpternlogd` each three-input function (Ch, Maj, the Σ and σ sums).
//! Where the CPU has SHA-NI, few live blocks go through its two-stream kernel instead.
//! SLH-DSA-SHA2's F (WOTS+ chains and FORS leaves), sixteen at a time. Must match
//! `portable::sha256::digest_x4`, block by block, bit for bit.

use core::arch::x86_64::{
    __m512i, _mm_storeu_si128, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512, _mm512_extracti32x4_epi32,
    _mm512_loadu_si512, _mm512_or_si512, _mm512_rol_epi32, _mm512_rorv_epi32, _mm512_set1_epi32, _mm512_shuffle_i32x4,
    _mm512_srli_epi32, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32,
    _mm512_unpacklo_epi64, _mm512_xor_si512,
};

use super::token::{Avx512, ShaNi};
use crate::portable::sha2_rounds::{Bits, Word, compress};
use crate::portable::sha256::Sha256Rounds;

/// Up to this many live blocks go four at a time through SHA-NI (two interleaved
/// streams per four), more through the sixteen lanes: a block costs SHA-NI a little
/// under twice what a full sixteen-lane call costs per block, so eight live blocks
/// cost about the same both ways.
const SHA_NI_UP_TO: usize = 8;

/// The first `live` (1 to 16) of sixteen compressions from `mid`, digests (the eight
/// state words, big-endian) out; the other digests are unspecified.
pub(crate) fn digest_x16(_: Avx512, mid: &[u32; 8], blocks: &[[u8; 64]; 16], live: usize, out: &mut [[u8; 32]; 16]) {
    if live <= SHA_NI_UP_TO
        && let Some(t) = ShaNi::detect()
    {
        for (blocks, out) in blocks.as_chunks::<4>().0.iter().zip(out.as_chunks_mut::<4>().0).take(live.div_ceil(4)) {
            super::sha256::digest_x4(t, mid, blocks, out);
        }
        return;
    }
    // SAFETY: the `Avx512` token exists only where AVX-512 F and VL were detected.
    unsafe { digest(mid, blocks, out) }
}

/// Sixteen blocks' words, one per 32-bit lane. Made and used only inside `digest` (and
/// what it inlines), which has AVX-512 F: that is what makes the intrinsics' calls sound.
#[derive(Clone, Copy)]
struct X16(__m512i);

impl Bits for X16 {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512 F is enabled wherever an `X16` exists (see the type).
        X16(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X16(unsafe { _mm512_and_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X16(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        // SAFETY: as for `xor`. `_mm512_andnot_si512(a, b)` is ¬a ∧ b.
        X16(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }
}

impl Word<u32> for X16 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: as for `xor`.
        X16(unsafe { _mm512_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn shr<const R: u32>(self) -> Self {
        // SAFETY: as for `xor`.
        X16(unsafe { _mm512_srli_epi32::<R>(self.0) })
    }
    #[inline(always)]
    fn rotr<const R: u32>(self) -> Self {
        // SAFETY: as for `xor`. A rotation by a splatted constant: the compiler emits
        // `vprord` by the immediate (the immediate form's const parameter is an `i32`,
        // which a `u32` const generic cannot become).
        X16(unsafe { _mm512_rorv_epi32(self.0, _mm512_set1_epi32(R as i32)) })
    }
    #[inline(always)]
    fn splat(value: u32) -> Self {
        // SAFETY: as for `xor`.
        X16(unsafe { _mm512_set1_epi32(value as i32) })
    }
}

/// Each 32-bit word's bytes reversed (SHA-256's big-endian words ↔ the lanes): bytes 0
/// and 2 from the word rotated left by 8, bytes 1 and 3 from it rotated by 24, so
/// AVX-512 F is enough (no byte shuffle, which needs BW).
#[inline(always)]
fn byte_swap(v: __m512i) -> __m512i {
    // SAFETY: called only inside `digest`.
    unsafe {
        let (left8, left24) = (_mm512_rol_epi32::<8>(v), _mm512_rol_epi32::<24>(v));
        // 0xca: mask ? left8 : left24, bit by bit.
        _mm512_ternarylogic_epi32::<0xca>(_mm512_set1_epi32(0x00ff_00ff), left8, left24)
    }
}

/// Within each 128-bit lane: the 32-bit elements of `a`, `b`, `c`, `d`'s rows, four
/// by four: out[m] holds element m of the four (a, b, c, d), for m = 0..4.
#[inline(always)]
fn transpose_within_lanes(a: __m512i, b: __m512i, c: __m512i, d: __m512i) -> [__m512i; 4] {
    // SAFETY: called only inside `digest`.
    unsafe {
        let (ab_low, ab_high) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
        let (cd_low, cd_high) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
        [
            _mm512_unpacklo_epi64(ab_low, cd_low),
            _mm512_unpackhi_epi64(ab_low, cd_low),
            _mm512_unpacklo_epi64(ab_high, cd_high),
            _mm512_unpackhi_epi64(ab_high, cd_high),
        ]
    }
}

/// The sixteen blocks' words into lanes (a 16 × 16 transpose: four by four within the
/// 128-bit lanes, then the lanes four by four), the rounds, the digests back.
#[target_feature(enable = "avx512f")]
fn digest(mid: &[u32; 8], blocks: &[[u8; 64]; 16], out: &mut [[u8; 32]; 16]) {
    super::frame::align_frame();
    // SAFETY: each block is the 64 bytes an unaligned load reads.
    let row = |j: usize| byte_swap(unsafe { _mm512_loadu_si512(blocks[j].as_ptr().cast()) });
    // quads[g][m]: lane k holds word 4k + m of blocks 4g .. 4g + 4.
    let quads: [[__m512i; 4]; 4] =
        core::array::from_fn(|g| transpose_within_lanes(row(4 * g), row(4 * g + 1), row(4 * g + 2), row(4 * g + 3)));
    let mut w = [X16::splat(0); 16];
    for m in 0..4 {
        let [a, b, c, d] = [quads[0][m], quads[1][m], quads[2][m], quads[3][m]];
        // 0x44: lanes 0, 1 of the first operand, then 0, 1 of the second; 0xee: 2, 3;
        // 0x88: lanes 0, 2 of each; 0xdd: lanes 1, 3.
        let (ab01, ab23) = (_mm512_shuffle_i32x4::<0x44>(a, b), _mm512_shuffle_i32x4::<0xee>(a, b));
        let (cd01, cd23) = (_mm512_shuffle_i32x4::<0x44>(c, d), _mm512_shuffle_i32x4::<0xee>(c, d));
        w[m] = X16(_mm512_shuffle_i32x4::<0x88>(ab01, cd01));
        w[4 + m] = X16(_mm512_shuffle_i32x4::<0xdd>(ab01, cd01));
        w[8 + m] = X16(_mm512_shuffle_i32x4::<0x88>(ab23, cd23));
        w[12 + m] = X16(_mm512_shuffle_i32x4::<0xdd>(ab23, cd23));
    }
    let mut state = [X16::splat(0); 8];
    for (s, &word) in state.iter_mut().zip(mid) {
        *s = X16::splat(word);
    }
    compress::<Sha256Rounds, _>(&mut state, w);
    for s in &mut state {
        *s = X16(byte_swap(s.0));
    }
    // halves[h][m]: lane k holds words 4h .. 4h + 4 of block 4k + m.
    let halves = [0, 1].map(|h| {
        let s = |i: usize| state[4 * h + i].0;
        transpose_within_lanes(s(0), s(1), s(2), s(3))
    });
    for (k, group) in out.as_chunks_mut::<4>().0.iter_mut().enumerate() {
        for (m, digest) in group.iter_mut().enumerate() {
            for (h, half) in digest.as_chunks_mut::<16>().0.iter_mut().enumerate() {
                let words = match k {
                    0 => _mm512_extracti32x4_epi32::<0>(halves[h][m]),
                    1 => _mm512_extracti32x4_epi32::<1>(halves[h][m]),
                    2 => _mm512_extracti32x4_epi32::<2>(halves[h][m]),
                    _ => _mm512_extracti32x4_epi32::<3>(halves[h][m]),
                };
                // SAFETY: `half` is the 16 bytes an unaligned store writes.
                unsafe { _mm_storeu_si128(half.as_mut_ptr().cast(), words) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx512;
    use super::*;
    use crate::portable::sha256::digest_x4 as portable_digest_x4;
    use pqverify_testkit::Rng;

    /// A word at the bounds (0, all ones, the top bit alone) one time in two, else random.
    fn word(rng: &mut Rng) -> u32 {
        match rng.next_u64() % 6 {
            0 => 0,
            1 => u32::MAX,
            2 => 1 << 31,
            _ => rng.next_u64() as u32,
        }
    }

    #[test]
    fn sixteen_blocks_are_bit_identical() {
        on_avx512(63, |t, rng| {
            for _ in 0..300 {
                let mid: [u32; 8] = core::array::from_fn(|_| word(rng));
                let blocks: [[u8; 64]; 16] = core::array::from_fn(|_| {
                    let words: [u32; 16] = core::array::from_fn(|_| word(rng));
                    core::array::from_fn(|b| words[b / 4].to_be_bytes()[b % 4])
                });
                let mut want = [[0u8; 32]; 16];
                for (blocks, want) in blocks.as_chunks::<4>().0.iter().zip(want.as_chunks_mut::<4>().0) {
                    portable_digest_x4(&mid, blocks, want);
                }
                for live in 1..=16 {
                    let mut got = [[0u8; 32]; 16];
                    digest_x16(t, &mid, &blocks, live, &mut got);
                    assert_eq!(got[..live], want[..live], "{live} live");
                }
            }
        });
    }
}
