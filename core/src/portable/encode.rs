//! The bit packing a verifier runs per polynomial (FIPS 204, Sections 7.1 and 7.2): the
//! t1 and z decoders and the w1 encoder, as portable kernels.

use crate::ring::{N, Poly};

/// Reads the 256 coefficients of `BITS` bits each, little-endian (BitsToInteger over
/// BytesToBits, FIPS 204 Algorithms 11 and 18), a whole number of bytes at a time:
/// each group of lcm(BITS, 8) bits is read as one integer, so the loop has fixed
/// shifts and the compiler unrolls and vectorises it. `bytes` holds 32·BITS bytes.
#[inline(always)]
fn unpack<const BITS: usize>(bytes: &[u8], mut each: impl FnMut(usize, u32)) {
    let per_group = group_coefficients(BITS);
    let group_bytes = per_group * BITS / 8;
    let mask = (1u128 << BITS) - 1;
    for (g, chunk) in bytes.chunks_exact(group_bytes).take(N / per_group).enumerate() {
        let mut word = [0u8; 16];
        word[..group_bytes].copy_from_slice(chunk);
        let word = u128::from_le_bytes(word);
        for k in 0..per_group {
            each(g * per_group + k, ((word >> (k * BITS)) & mask) as u32);
        }
    }
}

/// Coefficients per group of lcm(bits, 8) bits: the smallest whole number of bytes.
const fn group_coefficients(bits: usize) -> usize {
    let mut n = 1;
    while !(n * bits).is_multiple_of(8) {
        n += 1;
    }
    n
}

/// t1_i · 2^d from its 10-bit packing (pkDecode, Algorithm 23, with the 2^d of Algorithm 8 line 8).
#[inline(always)]
pub(crate) fn unpack_t1_shifted(bytes: &[u8], d: u32, out: &mut Poly) {
    unpack::<10>(bytes, |i, v| out.0[i] = (v << d) as i32);
}

/// z_i = γ1 − v for each packed v (BitUnpack(·, γ1 − 1, γ1), Algorithm 19), and
/// whether every coefficient has |z_j| < bound. γ1 = 2^17 or 2^19.
#[inline(always)]
pub(crate) fn unpack_z(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    let gamma1 = 1i32 << gamma1_log2;
    let mut in_range = true;
    let mut each = |i: usize, v: u32| {
        let z = gamma1 - v as i32;
        in_range &= z.abs() < bound;
        out.0[i] = z;
    };
    match gamma1_log2 {
        17 => unpack::<18>(bytes, &mut each),
        19 => unpack::<20>(bytes, &mut each),
        _ => return false,
    }
    in_range
}

/// SimpleBitPack(w1_i, m − 1) with `bits` (4 or 6) bits per coefficient (Algorithm 16,
/// as used by w1Encode, Algorithm 28), a group of lcm(bits, 8) bits at a time.
/// `out` holds 32·bits bytes.
#[inline(always)]
pub(crate) fn pack_w1(w1: &[i32; N], bits: usize, out: &mut [u8]) {
    match bits {
        4 => pack::<4>(w1, out),
        _ => pack::<6>(w1, out),
    }
}

#[inline(always)]
fn pack<const BITS: usize>(w1: &[i32; N], out: &mut [u8]) {
    let per_group = group_coefficients(BITS);
    let group_bytes = per_group * BITS / 8;
    for (coefficients, bytes) in w1.chunks_exact(per_group).zip(out.chunks_exact_mut(group_bytes)) {
        let word = coefficients.iter().rev().fold(0u64, |acc, &c| (acc << BITS) | c as u64);
        bytes.copy_from_slice(&word.to_le_bytes()[..group_bytes]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit i of the stream is bit i % 8 of byte i / 8 (BytesToBits, Algorithm 14).
    fn bit(bytes: &[u8], i: usize) -> u32 {
        u32::from(bytes[i / 8] >> (i % 8)) & 1
    }

    fn bytes(len: usize, seed: u32) -> std::vec::Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (x >> 16) as u8
            })
            .collect()
    }

    #[test]
    fn grouped_unpacking_reads_the_bit_stream() {
        for seed in 0..20 {
            let t1 = bytes(320, seed);
            let mut out = Poly::ZERO;
            unpack_t1_shifted(&t1, 13, &mut out);
            for i in 0..N {
                let v: u32 = (0..10).map(|b| bit(&t1, 10 * i + b) << b).sum();
                assert_eq!(out.0[i], (v << 13) as i32);
            }
            for (log2, bits) in [(17, 18), (19, 20)] {
                let z = bytes(32 * bits, seed + 100);
                let mut out = Poly::ZERO;
                let bound = (1 << log2) - 100;
                let in_range = unpack_z(&z, log2, bound, &mut out);
                let mut all = true;
                for i in 0..N {
                    let v: u32 = (0..bits).map(|b| bit(&z, bits * i + b) << b).sum();
                    let want = (1 << log2) - v as i32;
                    all &= want.abs() < bound;
                    assert_eq!(out.0[i], want);
                }
                assert_eq!(in_range, all);
            }
        }
    }

    #[test]
    fn grouped_packing_writes_the_bit_stream() {
        for (bits, m) in [(4usize, 16u32), (6, 44)] {
            let src = bytes(256, bits as u32);
            let w1: [i32; N] = core::array::from_fn(|i| (u32::from(src[i]) % m) as i32);
            let mut out = [0u8; 192];
            pack_w1(&w1, bits, &mut out[..32 * bits]);
            for (i, &w) in w1.iter().enumerate() {
                let v: u32 = (0..bits).map(|b| bit(&out, bits * i + b) << b).sum();
                assert_eq!(v as i32, w);
            }
        }
    }
}
