//! AVX2 (and BMI) kernels, and the AVX-512 set over them. The AVX2 set replaces every
//! portable kernel: Keccak-f[1600] ×1 (BMI) and ×4, SHA-256 and SHA-512 compression (the
//! `sha2` crate's SHA-NI and AVX2 code), SHA-256 ×4 (two interleaved SHA-NI streams,
//! where the CPU has the SHA extensions), SHA-512 ×4 (a block per 64-bit lane), the
//! ML-DSA NTT, inverse NTT and pointwise products, UseHint, RejNTTPoly's sampling loop,
//! and the t1/z decoders and w1 encoder. The AVX-512 set is the AVX2 set with Keccak ×4
//! and SHA-512 ×4 done with AVX-512VL's rotates and ternary logic (and, for Keccak, its
//! 32 registers: `keccak_avx512`), Keccak ×8 (a state per 64-bit lane of a 512-bit
//! register), and SHA-256 ×16, a block per 32-bit lane of a 512-bit register
//! (`sha256_x16`).
//!
//! Each kernel takes the [`Avx2`] (or [`Avx512`]) token and calls a
//! `#[target_feature(enable = …)]` body: the token is the proof that makes that call
//! sound. Only `token.rs` makes one: [`Avx2::detect`], [`Avx512::detect`], and the
//! entries of the sets, reachable only through [`set`] and [`set_avx512`], which take one.

use crate::kernel_set::KernelSet;

pub(crate) mod encode;
mod frame;
pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod keccak_avx512;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sha256;
pub(crate) mod sha256_x16;
pub(crate) mod sha512;
mod token;
mod transpose;

pub(crate) use token::{Avx2, Avx512};
use token::{PROVEN, PROVEN_512};

/// The AVX2 set, for the holder of the proof.
pub(crate) fn set(_: Avx2) -> &'static KernelSet {
    &SET
}

/// The AVX-512 set, for the holder of the proof: on AMD processors with its Keccak
/// kernels' θ in the form that suits them (`keccak_avx512`'s module doc).
pub(crate) fn set_avx512(_: Avx512) -> &'static KernelSet {
    if token::is_amd() { &SET_512_D_APART } else { &SET_512 }
}

/// The AVX2 set with the entries AVX-512VL does better.
static SET_512: KernelSet = KernelSet {
    name: "avx512",
    f1600x4: |s, live| keccak_avx512::f1600x4::<false>(PROVEN_512, s, live),
    f1600x4_each: Some(|states| keccak_avx512::f1600x4_each::<false>(PROVEN_512, states)),
    f1600x8: Some(|s| keccak_avx512::f1600x8::<false>(PROVEN_512, s)),
    f1600x8_each: Some(|states| keccak_avx512::f1600x8_each::<false>(PROVEN_512, states)),
    sha256_x16: Some(|mid, blocks, live, out| sha256_x16::digest_x16(PROVEN_512, mid, blocks, live, out)),
    sha512_x4: Some(|mid, blocks, live, out| sha512::digest_x4_avx512(PROVEN_512, mid, blocks, live, out)),
    ..SET
};

/// [`SET_512`] with θ's D formed apart in the Keccak kernels.
static SET_512_D_APART: KernelSet = KernelSet {
    f1600: |a| keccak_avx512::f1600::<true>(PROVEN_512, a),
    f1600x4: |s, live| keccak_avx512::f1600x4::<true>(PROVEN_512, s, live),
    f1600x4_each: Some(|states| keccak_avx512::f1600x4_each::<true>(PROVEN_512, states)),
    f1600x8: Some(|s| keccak_avx512::f1600x8::<true>(PROVEN_512, s)),
    f1600x8_each: Some(|states| keccak_avx512::f1600x8_each::<true>(PROVEN_512, states)),
    ..SET_512
};

/// Every entry of the portable set done better on this CPU.
static SET: KernelSet = KernelSet {
    name: "avx2",
    f1600: |a| keccak::f1600(PROVEN, a),
    f1600x4: |s, live| keccak::f1600x4(PROVEN, s, live),
    f1600x4_each: Some(|states| keccak::f1600x4_each(PROVEN, states)),
    f1600x8: None,
    f1600x8_each: None,
    sha256_compress: |state, block| sha2::block_api::compress256(state, core::slice::from_ref(block)),
    sha512_compress: |state, block| sha2::block_api::compress512(state, core::slice::from_ref(block)),
    sha256_x4: Some(sha256::digest_x4_detected),
    sha256_x16: None,
    sha512_x4: Some(|mid, blocks, live, out| sha512::digest_x4(PROVEN, mid, blocks, live, out)),
    ntt: |a| ntt::ntt(PROVEN, a),
    inv_ntt: |a| ntt::inv_ntt(PROVEN, a),
    pointwise: |acc, a, b, sub| ntt::pointwise(PROVEN, acc, a, b, sub),
    w_approx_row: |out, a, b, c, t| ntt::w_approx_row(PROVEN, out, a, b, c, t),
    use_hint_poly: |r, hint, gamma2, w1| hint::use_hint_poly(PROVEN, r, hint, gamma2, w1),
    unpack_t1_shifted: |bytes, d, out| encode::unpack_t1_shifted(PROVEN, bytes, d, out),
    unpack_z: |bytes, gamma1_log2, bound, out| encode::unpack_z(PROVEN, bytes, gamma1_log2, bound, out),
    pack_w1: |w1, bits, out| encode::pack_w1(PROVEN, w1, bits, out),
    rej_sample: |block, out, filled| sample::rej_sample(PROVEN, block, out, filled),
};

/// What the property tests of every AVX2 kernel share.
#[cfg(test)]
pub(crate) mod testing {
    use super::token::{Avx2, Avx512, ShaNi};
    use crate::ring::Poly;

    /// Runs `compare` with the AVX2 token and a generator seeded with `seed`, where
    /// this CPU has AVX2; elsewhere there is nothing to compare, and it says so.
    pub(crate) fn on_avx2(seed: u64, compare: impl FnOnce(Avx2, &mut Rng)) {
        match Avx2::detect() {
            Some(t) => compare(t, &mut Rng(seed)),
            None => eprintln!("no AVX2 here: nothing to compare"),
        }
    }

    /// [`on_avx2`] for the AVX-512 kernels: runs `compare` where this CPU has AVX-512 F
    /// and VL; elsewhere it says that nothing was compared.
    pub(crate) fn on_avx512(seed: u64, compare: impl FnOnce(Avx512, &mut Rng)) {
        match Avx512::detect() {
            Some(t) => compare(t, &mut Rng(seed)),
            None => eprintln!("no AVX-512 here: nothing to compare"),
        }
    }

    /// [`on_avx2`] for the SHA-NI kernels.
    pub(crate) fn on_sha_ni(seed: u64, compare: impl FnOnce(ShaNi, &mut Rng)) {
        match ShaNi::detect() {
            Some(t) => compare(t, &mut Rng(seed)),
            None => eprintln!("no SHA-NI here: nothing to compare"),
        }
    }

    pub(crate) use pqverify_testkit::Rng;

    /// Checks a kernel on `L` separate states (`f1600x4_each`, `f1600x8_each`) against
    /// the portable one-state permutation: on every choice of lanes present that the
    /// kernel takes (two to four of four, five to eight of eight), the present states
    /// permuted, the others untouched.
    pub(crate) fn check_each<const L: usize>(rng: &mut Rng, each: impl Fn(&mut [Option<&mut [u64; 25]>; L])) {
        let fewest = if L == 8 { 5 } else { 2 };
        for present in (0u32..1 << L).filter(|p| p.count_ones() >= fewest) {
            // Fewer rounds per choice where there are more choices (8 lanes: 93).
            for round in 0..if L == 8 { 12 } else { 40 } {
                // Random words, and in the first rounds edge words (zero, all ones).
                let word = |rng: &mut Rng| match round {
                    0 => 0,
                    1 => u64::MAX,
                    _ => rng.next_u64(),
                };
                let original: [[u64; 25]; L] = core::array::from_fn(|_| core::array::from_fn(|_| word(rng)));
                let mut got = original;
                let mut states: [Option<&mut [u64; 25]>; L] = [const { None }; L];
                for (j, (slot, state)) in states.iter_mut().zip(&mut got).enumerate() {
                    if present & (1 << j) != 0 {
                        *slot = Some(state);
                    }
                }
                each(&mut states);
                for (j, (got, original)) in got.iter().zip(&original).enumerate() {
                    let mut want = *original;
                    if present & (1 << j) != 0 {
                        crate::portable::keccak::f1600(&mut want);
                    }
                    assert_eq!(got, &want, "lanes {present:b}, lane {j}");
                }
            }
        }
    }

    /// A polynomial of coefficients in (−bound, bound), the extremes far more often
    /// than by chance (`kernel_checks::edge_coefficient`).
    pub(crate) fn poly(rng: &mut Rng, bound: i32) -> Poly {
        Poly(core::array::from_fn(|_| crate::kernel_checks::edge_coefficient(rng.next_u64(), bound)))
    }
}
