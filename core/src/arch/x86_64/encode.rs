//! The t1 and z decoders and the w1 encoder (FIPS 204 Algorithms 16, 19, 23, 28). t1:
//! the portable grouped source (whole bytes per group, fixed shifts) compiled with AVX2
//! enabled, which the compiler vectorises; z: eight coefficients per register, each
//! lane's bytes put in place by one byte shuffle and shifted by its own amount; w1:
//! 32 coefficients narrowed to bytes, then pairs and quads of them merged by
//! multiply-adds. Checked bit for bit against the portable code below.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_extract_epi32, _mm_loadu_si128, _mm_storel_epi64, _mm_storeu_si128, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_cmpgt_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_maddubs_epi16, _mm256_movemask_epi8, _mm256_packus_epi16, _mm256_packus_epi32, _mm256_permute4x64_epi64,
    _mm256_permutevar8x32_epi32, _mm256_set_m128i, _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi8,
    _mm256_setr_epi32, _mm256_shuffle_epi8, _mm256_srlv_epi32, _mm256_storeu_si256, _mm256_sub_epi32,
};

use super::token::Avx2;
use crate::arch::z_input::{ZInput, layout};
use crate::portable;
use crate::ring::Poly;

/// Contract: `portable::encode::unpack_t1_shifted`.
pub(crate) fn unpack_t1_shifted(_: Avx2, bytes: &[u8], d: u32, out: &mut Poly) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { unpack_t1_avx2(bytes, d, out) }
}

/// Contract: `portable::encode::unpack_z`.
pub(crate) fn unpack_z(_: Avx2, bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { unpack_z_avx2(bytes, gamma1_log2, bound, out) }
}

/// Contract: `portable::encode::pack_w1`.
pub(crate) fn pack_w1(_: Avx2, w1: &[i32; 256], bits: usize, out: &mut [u8]) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { pack_w1_avx2(w1, bits, out) }
}

#[target_feature(enable = "avx2")]
fn unpack_t1_avx2(bytes: &[u8], d: u32, out: &mut Poly) {
    portable::encode::unpack_t1_shifted(bytes, d, out);
}

/// The layouts of γ1 = 2^17 (18 bits a coefficient) and γ1 = 2^19 (20 bits).
const Z18: ([u8; 16], [i32; 4]) = layout(18);
const Z20: ([u8; 16], [i32; 4]) = layout(20);

/// sigDecode's z (Algorithm 27 via BitUnpack, Algorithm 19) eight coefficients at a
/// time: each 128-bit half takes four from its own unaligned 16-byte load.
#[target_feature(enable = "avx2")]
fn unpack_z_avx2(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    let input = match ZInput::new(bytes, gamma1_log2, bound, out) {
        Ok(input) => input,
        Err(portable_answer) => return portable_answer,
    };
    let bits = input.bits;
    let (shuffle, shift) = if bits == 18 { Z18 } else { Z20 };
    let s = |i: usize| shuffle[i] as i8;
    let shuffle = _mm256_setr_epi8(
        s(0),
        s(1),
        s(2),
        s(3),
        s(4),
        s(5),
        s(6),
        s(7),
        s(8),
        s(9),
        s(10),
        s(11),
        s(12),
        s(13),
        s(14),
        s(15),
        s(0),
        s(1),
        s(2),
        s(3),
        s(4),
        s(5),
        s(6),
        s(7),
        s(8),
        s(9),
        s(10),
        s(11),
        s(12),
        s(13),
        s(14),
        s(15),
    );
    let shift = _mm256_setr_epi32(shift[0], shift[1], shift[2], shift[3], shift[0], shift[1], shift[2], shift[3]);
    let mask = _mm256_set1_epi32((1 << bits) - 1);
    let gamma1 = _mm256_set1_epi32(1 << gamma1_log2);
    let (upper, lower) = (_mm256_set1_epi32(bound), _mm256_set1_epi32(-bound));
    let mut all_in = _mm256_set1_epi32(-1);
    let half = bits / 2; // bytes of four coefficients
    for (g, chunk) in out.0.chunks_exact_mut(8).enumerate() {
        let at = g * bits;
        // SAFETY: each window is the 16 bytes its load reads.
        let (lo, hi): (__m128i, __m128i) = unsafe {
            (
                _mm_loadu_si128(input.window(at).as_ptr().cast()),
                _mm_loadu_si128(input.window(at + half).as_ptr().cast()),
            )
        };
        let v =
            _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), shuffle), shift), mask);
        let z: __m256i = _mm256_sub_epi32(gamma1, v);
        // |z| < bound ⇔ −bound < z < bound.
        all_in = _mm256_and_si256(all_in, _mm256_and_si256(_mm256_cmpgt_epi32(upper, z), _mm256_cmpgt_epi32(z, lower)));
        // SAFETY: `chunk` is eight i32, the 32 bytes an unaligned store writes.
        unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), z) };
    }
    _mm256_movemask_epi8(all_in) == -1
}

/// w1Encode of one polynomial (SimpleBitPack with 4 or 6 bits, coefficients in
/// [0, 2^bits)), 32 coefficients a step: narrowed to bytes, in order; then byte pairs
/// merged into 16-bit lanes (c0 + c1·2^bits) and, for 6 bits, those pairs into 24 bits
/// of each 32-bit lane; the packed bytes gathered to the front and stored.
#[target_feature(enable = "avx2")]
fn pack_w1_avx2(w1: &[i32; 256], bits: usize, out: &mut [u8]) {
    let step_bytes = 4 * bits; // 32 coefficients
    let (Some(out), 4 | 6) = (out.get_mut(..32 * bits), bits) else {
        return portable::encode::pack_w1(w1, bits, out);
    };
    // After two narrowing packs, the 32-bit groups of four bytes hold coefficients
    // 0–3, 8–11, 16–19, 24–27 | 4–7, 12–15, …: this puts them in order.
    let in_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    // Three bytes of each 24-bit group to the front of its 128-bit half (−1: zero).
    let threes = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
    );
    for (coefficients, bytes) in w1.chunks_exact(32).zip(out.chunks_exact_mut(step_bytes)) {
        // SAFETY: each load reads 8 of the step's 32 coefficients.
        let v = |i: usize| unsafe { _mm256_loadu_si256(coefficients[8 * i..].as_ptr().cast()) };
        let words = (_mm256_packus_epi32(v(0), v(1)), _mm256_packus_epi32(v(2), v(3)));
        let c = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(words.0, words.1), in_order);
        if bits == 4 {
            // Pairs c0 + 16·c1 (below 256), narrowed to bytes: 8 a half, the halves' 64-bit
            // elements 0 and 2 together.
            let pairs = _mm256_maddubs_epi16(c, _mm256_set1_epi16(0x1001));
            let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(pairs, pairs));
            // SAFETY: `bytes` is 16 bytes, what the store writes.
            unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), _mm256_castsi256_si128(packed)) };
        } else {
            // Pairs c0 + 64·c1 (12 bits), then pairs of pairs p0 + 4096·p1 (24 bits).
            let pairs = _mm256_maddubs_epi16(c, _mm256_set1_epi16(0x4001));
            let quads = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x1000_0001));
            let packed = _mm256_shuffle_epi8(quads, threes);
            // 12 bytes from each half: 16 from the low half's front (its last 4 written
            // over by the high half's 12), then the high half's 12 as 8 + 4.
            let (low, high) = (_mm256_castsi256_si128(packed), _mm256_extracti128_si256::<1>(packed));
            // SAFETY: `bytes` is 24 bytes: the first store writes 0..16, the second 12..20.
            unsafe {
                _mm_storeu_si128(bytes.as_mut_ptr().cast(), low);
                _mm_storel_epi64(bytes[12..].as_mut_ptr().cast(), high);
            }
            bytes[20..].copy_from_slice(&_mm_extract_epi32::<2>(high).to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx2;
    use super::*;

    #[test]
    fn coders_are_bit_identical_on_any_bytes() {
        on_avx2(48, |t, rng| {
            for i in 0..2000 {
                // Edge bytes first (every coefficient 0, or at its largest), then random.
                let bytes = match i {
                    0..4 => std::vec![0u8; 640],
                    4..8 => std::vec![0xffu8; 640],
                    _ => rng.bytes(640),
                };
                let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
                unpack_t1_shifted(t, &bytes[..320], 13, &mut x);
                portable::encode::unpack_t1_shifted(&bytes[..320], 13, &mut y);
                assert_eq!(x, y);
                let (log2, len) = if i % 2 == 0 { (17, 576) } else { (19, 640) };
                // Bounds around the edges: everything, nothing, and γ1 − β.
                let bound = [1 << log2, 1, (1 << log2) - 120][i % 3];
                let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
                let (a, b) = (
                    unpack_z(t, &bytes[..len], log2, bound, &mut x),
                    portable::encode::unpack_z(&bytes[..len], log2, bound, &mut y),
                );
                assert_eq!((a, &x), (b, &y));
                let bits = if i % 2 == 0 { 4 } else { 6 };
                // Every coefficient 0, or at its largest (2^bits − 1), then random.
                let w1: [i32; 256] = match i {
                    0..4 => [0; 256],
                    4..8 => [(1 << bits) - 1; 256],
                    _ => core::array::from_fn(|_| (rng.next_u64() % (1 << bits)) as i32),
                };
                let (mut p, mut q) = ([0u8; 192], [0u8; 192]);
                pack_w1(t, &w1, bits, &mut p[..32 * bits]);
                portable::encode::pack_w1(&w1, bits, &mut q[..32 * bits]);
                assert_eq!(p, q);
            }
        });
    }
}
