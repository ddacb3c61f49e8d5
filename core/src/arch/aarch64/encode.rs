//! sigDecode's z (FIPS 204 Algorithm 27, via BitUnpack, Algorithm 19) with NEON, four
//! coefficients per vector: each lane's three bytes put in place by TBL from one
//! unaligned 16-byte load, shifted right by the lane's own amount (USHL by a negative
//! count) and masked. pkDecode's t1 and w1Encode stay the portable grouped code, which
//! the compiler already vectorises with NEON (part of every AArch64 target).

use core::arch::aarch64::{
    vabsq_s32, vandq_u32, vcltq_s32, vdupq_n_s32, vdupq_n_u32, vld1q_s32, vld1q_u8, vminvq_u32, vqtbl1q_u8,
    vreinterpretq_s32_u32, vreinterpretq_u32_u8, vshlq_u32, vst1q_s32, vsubq_s32,
};

use crate::arch::z_input::{ZInput, layout};
use crate::ring::Poly;

/// The layouts of γ1 = 2^17 (18 bits a coefficient) and γ1 = 2^19 (20 bits), with the
/// shifts negated: USHL shifts right by a negative count.
const Z18: ([u8; 16], [i32; 4]) = negated(layout(18));
const Z20: ([u8; 16], [i32; 4]) = negated(layout(20));

const fn negated((shuffle, shift): ([u8; 16], [i32; 4])) -> ([u8; 16], [i32; 4]) {
    (shuffle, [-shift[0], -shift[1], -shift[2], -shift[3]])
}

/// z from sigDecode's packing, and whether every |z| < `bound`. Contract:
/// `portable::encode::unpack_z`.
pub(crate) fn unpack_z(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    let input = match ZInput::new(bytes, gamma1_log2, bound, out) {
        Ok(input) => input,
        Err(portable_answer) => return portable_answer,
    };
    let bits = input.bits;
    let (indices, shift) = if bits == 18 { &Z18 } else { &Z20 };
    // SAFETY: `indices` and `shift` are the 16 bytes each load reads; the rest, NEON
    // (in the target's baseline wherever this module is built).
    let (indices, shift, mask, gamma1, bound) = unsafe {
        (
            vld1q_u8(indices.as_ptr()),
            vld1q_s32(shift.as_ptr()),
            vdupq_n_u32((1 << bits) - 1),
            vdupq_n_s32(1 << gamma1_log2),
            vdupq_n_s32(bound),
        )
    };
    // SAFETY: NEON, as above.
    let mut all_in = unsafe { vdupq_n_u32(u32::MAX) };
    let group = bits / 2; // bytes of four coefficients
    for (g, lanes) in out.0.as_chunks_mut::<4>().0.iter_mut().enumerate() {
        let at = g * group;
        // SAFETY: the window is the 16 bytes the load reads; the rest, NEON as above.
        let z = unsafe {
            let raw = vld1q_u8(input.window(at).as_ptr());
            let v = vandq_u32(vshlq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(raw, indices)), shift), mask);
            vsubq_s32(gamma1, vreinterpretq_s32_u32(v))
        };
        // SAFETY: NEON as above. |z| ≤ 2^20, so ABS does not overflow.
        all_in = unsafe { vandq_u32(all_in, vcltq_s32(vabsq_s32(z), bound)) };
        // SAFETY: `lanes` is the 16 bytes the store writes.
        unsafe { vst1q_s32(lanes.as_mut_ptr(), z) };
    }
    // SAFETY: NEON as above.
    unsafe { vminvq_u32(all_in) == u32::MAX }
}
