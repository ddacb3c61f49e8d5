//! The t1 and z decoders and the w1 encoder (FIPS 204 Algorithms 16, 19, 23, 28): the
//! portable grouped source (whole bytes per group, fixed shifts) compiled with AVX2
//! enabled, which the compiler vectorises. Bit-identical by construction (the same
//! integer code), and checked against the portable build below.

use super::token::Avx2;
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

#[target_feature(enable = "avx2")]
fn unpack_z_avx2(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    portable::encode::unpack_z(bytes, gamma1_log2, bound, out)
}

#[target_feature(enable = "avx2")]
fn pack_w1_avx2(w1: &[i32; 256], bits: usize, out: &mut [u8]) {
    portable::encode::pack_w1(w1, bits, out);
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx2;
    use super::*;

    #[test]
    fn coders_are_bit_identical_on_any_bytes() {
        on_avx2(48, |t, rng| {
            for i in 0..2000 {
                let bytes = rng.bytes(640);
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
                let w1: [i32; 256] = core::array::from_fn(|_| (rng.next_u64() % (1 << bits)) as i32);
                let (mut p, mut q) = ([0u8; 192], [0u8; 192]);
                pack_w1(t, &w1, bits, &mut p[..32 * bits]);
                portable::encode::pack_w1(&w1, bits, &mut q[..32 * bits]);
                assert_eq!(p, q);
            }
        });
    }
}
