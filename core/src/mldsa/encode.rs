//! Bit packing of public keys, signatures and w1 (FIPS 204, Section 7.1 and 7.2).

use super::poly::{N, Poly};

/// Reads coefficient after coefficient of `bits` bits each, little-endian
/// (BitsToInteger over BytesToBits, FIPS 204 Algorithms 11 and 18).
fn unpack(bytes: &[u8], bits: usize, mut each: impl FnMut(usize, u32)) {
    let mask = (1u64 << bits) - 1;
    let mut acc: u64 = 0;
    let mut have = 0;
    let mut i = 0;
    for &b in bytes {
        acc |= u64::from(b) << have;
        have += 8;
        while have >= bits && i < N {
            each(i, (acc & mask) as u32);
            acc >>= bits;
            have -= bits;
            i += 1;
        }
    }
}

/// t1_i · 2^d from its 10-bit packing (pkDecode, Algorithm 23, with the 2^d of Algorithm 8 line 8).
pub(crate) fn unpack_t1_shifted(bytes: &[u8], d: u32, out: &mut Poly) {
    unpack(bytes, 10, |i, v| out.0[i] = (v << d) as i32);
}

/// z_i = γ1 − v for each packed v (BitUnpack(·, γ1 − 1, γ1), Algorithm 19), and
/// whether every coefficient has |z_j| < bound.
pub(crate) fn unpack_z(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    let gamma1 = 1i32 << gamma1_log2;
    let mut in_range = true;
    unpack(bytes, gamma1_log2 as usize + 1, |i, v| {
        let z = gamma1 - v as i32;
        in_range &= z.abs() < bound;
        out.0[i] = z;
    });
    in_range
}

/// SimpleBitPack(w1_i, m − 1) with `bits` bits per coefficient (Algorithm 16,
/// as used by w1Encode, Algorithm 28). `out` holds 32·bits bytes.
pub(crate) fn pack_w1(w1: &[i32; N], bits: usize, out: &mut [u8]) {
    let mut acc: u32 = 0;
    let mut have = 0;
    let mut o = 0;
    for &c in w1 {
        acc |= (c as u32) << have;
        have += bits;
        while have >= 8 {
            out[o] = acc as u8;
            o += 1;
            acc >>= 8;
            have -= 8;
        }
    }
}
