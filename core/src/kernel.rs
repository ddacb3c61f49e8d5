//! The one place that chooses kernels: CPU detection (once), the force-portable
//! switch and the dispatch of every hot kernel.
//!
//! The algorithms (`mldsa/`, `slhdsa/`, the sponges) call the functions here and never
//! ask which CPU they run on. A backend (`arch/<cpu>/`) replaces some kernels; the
//! portable code, always built, owns the fallback and is the reference: every
//! backend kernel is bit-identical to its portable twin (a property test per kernel
//! at its input bounds, and every ACVP case on every kernel set). The choice
//! depends only on the CPU (or the wasm build) and the switch, never on the data.
//!
//! An AVX2 kernel takes an [`Avx2`] token, which only [`current`] creates and only
//! after detecting AVX2: no safe function relies on a check made elsewhere.

use core::sync::atomic::{AtomicBool, Ordering};

use crate::hash::keccak::f1600_portable;
use crate::hash::keccak_x4::{StateX4, portable_f1600x4};
use crate::hash::sha256_x4::portable_digest_x4;
use crate::hash::sha512_x2::portable_digest_x2;
use crate::mldsa::{Poly, portable as mldsa_portable};

/// Set by [`crate::force_portable`]: run the portable kernels even where SIMD exists.
static FORCE_PORTABLE: AtomicBool = AtomicBool::new(false);

/// Forces (or stops forcing) the portable kernels; returns the previous setting.
#[cfg(feature = "force-portable")]
pub(crate) fn set_force_portable(on: bool) -> bool {
    FORCE_PORTABLE.swap(on, Ordering::Relaxed)
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(avx2_cpuid, "avx2", "bmi1", "bmi2");

/// Proof that this CPU has AVX2, BMI1 and BMI2 (every AVX2 processor does): the only
/// way to call an x86-64 backend kernel.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

/// A set of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// The scalar reference code.
    Portable,
    /// x86-64 AVX2, detected at run time.
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// wasm simd128, chosen at build time.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernel {
    /// `portable`, `avx2` or `simd128`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2(_) => "avx2",
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => "simd128",
        }
    }
}

/// The kernels in use now (cpufeatures caches the CPUID answer after the first call).
#[inline]
pub(crate) fn current() -> Kernel {
    if cfg!(feature = "force-portable") && FORCE_PORTABLE.load(Ordering::Relaxed) {
        return Kernel::Portable;
    }
    #[cfg(target_arch = "x86_64")]
    if avx2_cpuid::get() {
        return Kernel::Avx2(Avx2(()));
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return Kernel::Simd128;
    #[allow(unreachable_code, reason = "reached on targets without a SIMD kernel")]
    Kernel::Portable
}

#[cfg(target_arch = "x86_64")]
use crate::arch::x86_64 as avx2;

/// Keccak-f[1600] on one state. Backend: x86-64 with BMI1/BMI2 (the same source, whose
/// `andn` and `rorx` save a fifth of the instructions).
#[inline]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::keccak::f1600(t, a),
        _ => f1600_portable(a),
    }
}

/// Keccak-f[1600] on four interleaved states. Backends: AVX2, simd128.
#[inline]
pub(crate) fn f1600x4(s: &mut StateX4) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::keccak::f1600x4(t, s),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::keccak::f1600x4(s),
        Kernel::Portable => portable_f1600x4(s),
    }
}

/// Whether [`sha256_x4`] and [`sha512_x2`] hash their blocks for the price of fewer
/// blocks (a SIMD kernel); otherwise callers hash one block at a time and skip idle
/// lanes.
#[inline]
pub(crate) fn sha2_lanes_are_simd() -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if let Kernel::Simd128 = current() {
        return true;
    }
    false
}

/// SHA-256 compression of one block. In wasm, and for the portable kernels
/// everywhere, the written-out rounds (`hash::sha256_x4::compress_block`): the same
/// code on every target, and in the simd128 build the one scalar copy of SHA-256 (its
/// ×4 kernel covers the hot calls). Natively with AVX2, the `sha2` crate's (SHA-NI
/// where the CPU has it).
#[inline]
pub(crate) fn sha256_compress(state: &mut [u32; 8], block: &[u8; 64]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => sha2::block_api::compress256(state, core::slice::from_ref(block)),
        _ => crate::hash::sha256_x4::compress_block(state, block),
    }
}

/// SHA-512 compression of one block: as [`sha256_compress`], with
/// `hash::sha512_x2::compress_block` (natively with AVX2 the `sha2` crate's AVX2 code).
#[inline]
pub(crate) fn sha512_compress(state: &mut [u64; 8], block: &[u8; 128]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => sha2::block_api::compress512(state, core::slice::from_ref(block)),
        _ => crate::hash::sha512_x2::compress_block(state, block),
    }
}

/// SHA-256 compression of four blocks from one midstate, digests out. Contract:
/// [`portable_digest_x4`]. Backend: simd128 (natively SLH-DSA hashes one block at a
/// time through [`sha256_compress`], which has SHA-NI).
#[inline]
pub(crate) fn sha256_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    match current() {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::sha256::digest_x4(mid, blocks, out),
        _ => portable_digest_x4(mid, blocks, out),
    }
}

/// SHA-512 compression of two blocks from one midstate, digests out. Contract:
/// [`portable_digest_x2`]. Backend: simd128 (natively as [`sha256_x4`]).
#[inline]
pub(crate) fn sha512_x2(mid: &[u64; 8], blocks: &[[u8; 128]; 2], out: &mut [[u8; 64]; 2]) {
    match current() {
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::sha512::digest_x2(mid, blocks, out),
        _ => portable_digest_x2(mid, blocks, out),
    }
}

/// ML-DSA NTT (FIPS 204 Algorithm 41). Contract: [`mldsa_portable::ntt`]. Backends: AVX2,
/// simd128.
#[inline]
pub(crate) fn ntt(a: &mut Poly) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::ntt::ntt(t, a),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::ntt::ntt(a),
        _ => mldsa_portable::ntt(a),
    }
}

/// ML-DSA inverse NTT (Algorithm 42). Contract: [`mldsa_portable::inv_ntt`].
/// Backends: AVX2, simd128.
#[inline]
pub(crate) fn inv_ntt(a: &mut Poly) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::ntt::inv_ntt(t, a),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::ntt::inv_ntt(a),
        _ => mldsa_portable::inv_ntt(a),
    }
}

/// acc ± a ∘ b (Algorithm 45, accumulated); `sub` chooses −. Contract:
/// [`mldsa_portable::pointwise`]. Backends: AVX2, simd128.
#[inline]
pub(crate) fn pointwise(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::ntt::pointwise(t, acc, a, b, sub),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::ntt::pointwise(acc, a, b, sub),
        _ => mldsa_portable::pointwise(acc, a, b, sub),
    }
}

/// acc += Σ_j a_j ∘ b_j over a row. Contract: [`mldsa_portable::pointwise_row`].
/// Backends: AVX2, simd128 (acc stays in registers across the row).
#[inline]
pub(crate) fn pointwise_row(acc: &mut Poly, a: &[Poly], b: &[Poly]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::ntt::pointwise_row(t, acc, a, b),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::ntt::pointwise_row(acc, a, b),
        _ => mldsa_portable::pointwise_row(acc, a, b),
    }
}

/// UseHint over a polynomial (Algorithm 40). Contract: [`mldsa_portable::use_hint_poly`].
/// Backends: AVX2, simd128.
#[inline]
pub(crate) fn use_hint_poly(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::hint::use_hint_poly(t, r, hint, gamma2, w1),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::hint::use_hint_poly(r, hint, gamma2, w1),
        _ => mldsa_portable::use_hint_poly(r, hint, gamma2, w1),
    }
}

/// t1·2^d from pkDecode's packing (Algorithm 23). Contract:
/// [`mldsa_portable::unpack_t1_shifted`]. Backend: AVX2 (the same source, vectorised).
#[inline]
pub(crate) fn unpack_t1_shifted(bytes: &[u8], d: u32, out: &mut Poly) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::encode::unpack_t1_shifted(t, bytes, d, out),
        _ => mldsa_portable::unpack_t1_shifted(bytes, d, out),
    }
}

/// z from sigDecode's packing (Algorithm 19) and its bound check. Contract:
/// [`mldsa_portable::unpack_z`]. Backend: AVX2 (the same source, vectorised).
#[inline]
pub(crate) fn unpack_z(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::encode::unpack_z(t, bytes, gamma1_log2, bound, out),
        _ => mldsa_portable::unpack_z(bytes, gamma1_log2, bound, out),
    }
}

/// w1Encode of one polynomial (Algorithm 28). Contract: [`mldsa_portable::pack_w1`].
/// Backend: AVX2 (the same source, vectorised).
#[inline]
pub(crate) fn pack_w1(w1: &[i32; 256], bits: usize, out: &mut [u8]) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::encode::pack_w1(t, w1, bits, out),
        _ => mldsa_portable::pack_w1(w1, bits, out),
    }
}

/// RejNTTPoly's inner loop over one SHAKE128 block (Algorithm 30). Contract:
/// [`mldsa_portable::rej_sample`]. Backends: AVX2, simd128.
#[inline]
pub(crate) fn rej_sample(block: &[u8; 168], out: &mut Poly, filled: &mut usize) {
    match current() {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(t) => avx2::sample::rej_sample(t, block, out, filled),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Kernel::Simd128 => crate::arch::wasm32::sample::rej_sample(block, out, filled),
        _ => mldsa_portable::rej_sample(block, out, filled),
    }
}
