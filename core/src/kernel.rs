//! The one place that chooses kernels: which set runs (CPU detection once, the
//! force-portable switch) and the calls into it.
//!
//! The algorithms (`mldsa/`, `slhdsa/`, the sponges) call the functions here and never
//! ask which set runs; a kernel a set does not have answers "not here" (`false`) and
//! the caller does the work one call at a time. The sets are `crate::portable::SET`,
//! always built and the reference, and the backends' (`crate::arch`), each entry
//! bit-identical to its portable twin (a property test per kernel at its input
//! bounds, and every ACVP case on every set). The choice depends only on the CPU (or
//! the wasm build) and the switch, never on the data.
//!
//! Dependencies point one way: algorithms → here → `arch/`, `portable/` → the leaves
//! (`kernel_set`, `ring`); `core/tests/module_graph.rs` checks it.

use crate::kernel_set::{KernelSet, SHAKE128_RATE, StateX4};
use crate::ring::Poly;

/// The set this build and CPU run when nothing is forced.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn detected() -> &'static KernelSet {
    &crate::arch::wasm32::SET
}

/// The set this build and CPU run when nothing is forced: AVX2 where CPUID says so.
#[cfg(target_arch = "x86_64")]
fn detected() -> &'static KernelSet {
    match crate::arch::x86_64::Avx2::detect() {
        Some(proof) => crate::arch::x86_64::set(proof),
        None => &crate::portable::SET,
    }
}

/// The set this build and CPU run when nothing is forced: no backend here.
#[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
fn detected() -> &'static KernelSet {
    &crate::portable::SET
}

#[cfg(feature = "force-portable")]
mod chosen {
    use core::sync::atomic::{AtomicU8, Ordering};

    use crate::kernel_set::KernelSet;

    const UNKNOWN: u8 = 0;
    const DETECTED: u8 = 1;
    const PORTABLE: u8 = 2;

    /// Which set runs: decided on first use (detection runs once) and changed only by
    /// [`set_force_portable`].
    static CHOICE: AtomicU8 = AtomicU8::new(UNKNOWN);

    /// The set in use now.
    #[inline]
    pub(super) fn set() -> &'static KernelSet {
        match CHOICE.load(Ordering::Relaxed) {
            PORTABLE => &crate::portable::SET,
            DETECTED => crate::kernel::detected(),
            _ => {
                // A race here stores DETECTED twice, or loses to a forcing call: either
                // way a whole set runs.
                let _ = CHOICE.compare_exchange(UNKNOWN, DETECTED, Ordering::Relaxed, Ordering::Relaxed);
                set()
            }
        }
    }

    /// Forces (or stops forcing) the portable set; returns the previous setting.
    pub(crate) fn set_force_portable(on: bool) -> bool {
        CHOICE.swap(if on { PORTABLE } else { DETECTED }, Ordering::Relaxed) == PORTABLE
    }
}

#[cfg(feature = "force-portable")]
pub(crate) use chosen::set_force_portable;

/// The set in use now.
#[cfg(feature = "force-portable")]
#[inline]
fn set() -> &'static KernelSet {
    chosen::set()
}

/// The set in use now: without the switch, the detected one (a constant in wasm, so
/// the calls below compile to direct calls).
#[cfg(not(feature = "force-portable"))]
#[inline]
fn set() -> &'static KernelSet {
    detected()
}

/// `portable`, `avx2` or `simd128`: the set in use now.
pub(crate) fn name() -> &'static str {
    set().name
}

/// Keccak-f[1600] on one state.
#[inline]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    (set().f1600)(a);
}

/// Keccak-f[1600] on four interleaved states.
#[inline]
pub(crate) fn f1600x4(s: &mut StateX4) {
    (set().f1600x4)(s);
}

/// SHA-256 compression of one block.
#[inline]
pub(crate) fn sha256_compress(state: &mut [u32; 8], block: &[u8; 64]) {
    (set().sha256_compress)(state, block);
}

/// SHA-512 compression of one block.
#[inline]
pub(crate) fn sha512_compress(state: &mut [u64; 8], block: &[u8; 128]) {
    (set().sha512_compress)(state, block);
}

/// SHA-256 compression of four blocks from one midstate, digests out; `false` (nothing
/// written) where the set has no multi-lane kernel and one block at a time is as fast.
#[inline]
pub(crate) fn sha256_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) -> bool {
    set().sha256_x4.map(|x4| x4(mid, blocks, out)).is_some()
}

/// SHA-512 compression of two blocks from one midstate, digests out; `false` as for
/// [`sha256_x4`].
#[inline]
pub(crate) fn sha512_x2(mid: &[u64; 8], blocks: &[[u8; 128]; 2], out: &mut [[u8; 64]; 2]) -> bool {
    set().sha512_x2.map(|x2| x2(mid, blocks, out)).is_some()
}

/// ML-DSA NTT (FIPS 204 Algorithm 41).
#[inline]
pub(crate) fn ntt(a: &mut Poly) {
    (set().ntt)(a);
}

/// ML-DSA inverse NTT (Algorithm 42).
#[inline]
pub(crate) fn inv_ntt(a: &mut Poly) {
    (set().inv_ntt)(a);
}

/// acc ± a ∘ b (Algorithm 45, accumulated); `sub` chooses −.
#[inline]
pub(crate) fn pointwise(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    (set().pointwise)(acc, a, b, sub);
}

/// acc += Σ_j a_j ∘ b_j over a row.
#[inline]
pub(crate) fn pointwise_row(acc: &mut Poly, a: &[Poly], b: &[Poly]) {
    (set().pointwise_row)(acc, a, b);
}

/// UseHint over a polynomial (Algorithm 40).
#[inline]
pub(crate) fn use_hint_poly(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    (set().use_hint_poly)(r, hint, gamma2, w1);
}

/// t1·2^d from pkDecode's packing (Algorithm 23).
#[inline]
pub(crate) fn unpack_t1_shifted(bytes: &[u8], d: u32, out: &mut Poly) {
    (set().unpack_t1_shifted)(bytes, d, out);
}

/// z from sigDecode's packing (Algorithm 19) and its bound check.
#[inline]
pub(crate) fn unpack_z(bytes: &[u8], gamma1_log2: u32, bound: i32, out: &mut Poly) -> bool {
    (set().unpack_z)(bytes, gamma1_log2, bound, out)
}

/// w1Encode of one polynomial (Algorithm 28).
#[inline]
pub(crate) fn pack_w1(w1: &[i32; 256], bits: usize, out: &mut [u8]) {
    (set().pack_w1)(w1, bits, out);
}

/// RejNTTPoly's inner loop over one SHAKE128 block (Algorithm 30).
#[inline]
pub(crate) fn rej_sample(block: &[u8; SHAKE128_RATE], out: &mut Poly, filled: &mut usize) {
    (set().rej_sample)(block, out, filled);
}
