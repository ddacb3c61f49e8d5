//! The one place that chooses kernels: which set runs (CPU detection once, the switch
//! that forces a set by name) and the calls into it.
//!
//! The algorithms (`mldsa/`, `slhdsa/`, the sponges) call the functions here and never
//! ask which set runs; a kernel a set does not have answers "not here" (`false`) and
//! the caller does the work one call at a time. The sets are `crate::portable::SET`,
//! always built and the reference, and the architectures' (`crate::arch`), each entry
//! bit-identical to its portable twin (a property test per kernel at its input
//! bounds, and every ACVP case on every set). The choice depends only on the CPU (or
//! the wasm build) and the switch, never on the data.
//!
//! Dependencies point one way: algorithms → here → `arch/`, `portable/` → the leaves
//! (`kernel_set`, `ring`); `core/tests/module_graph.rs` checks it.

use crate::kernel_set::{KernelSet, SeparateStates, SeparateStates8, Shake128Block, StateX4, StateX8};
use crate::ring::Poly;

/// The kernel sets of this build: simd128 (a wasm build with `+simd128`) and the
/// portable set.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod sets {
    use crate::kernel_set::KernelSet;

    /// Every set's name, fastest first (a build without `force-kernels` never runs
    /// the portable set).
    pub(super) const ALL: &[&str] =
        if cfg!(feature = "force-kernels") { &["simd128", "portable"] } else { &["simd128"] };

    /// Set `i` of [`ALL`].
    #[inline]
    pub(super) fn by_index(i: usize) -> Option<&'static KernelSet> {
        match i {
            0 => Some(&crate::arch::wasm32::SET),
            1 => Some(&crate::portable::SET),
            _ => None,
        }
    }
}

/// The kernel sets of this build: AVX-512 and AVX2 where CPUID says so, and the
/// portable set.
#[cfg(target_arch = "x86_64")]
mod sets {
    use crate::arch::x86_64::{Avx2, Avx512, set, set_avx512};
    use crate::kernel_set::KernelSet;

    /// Every set's name, fastest first. A CPU with one has every later one too.
    pub(super) const ALL: &[&str] = &["avx512", "avx2", "portable"];

    /// Set `i` of [`ALL`], where this CPU has it.
    #[inline]
    pub(super) fn by_index(i: usize) -> Option<&'static KernelSet> {
        match i {
            0 => Avx512::detect().map(set_avx512),
            1 => Avx2::detect().map(set),
            2 => Some(&crate::portable::SET),
            _ => None,
        }
    }
}

/// The kernel sets of this build: NEON with the SHA-3 instructions where the CPU has
/// them, NEON, and the portable set.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod sets {
    use crate::arch::aarch64::{SET, Sha3, set_sha3};
    use crate::kernel_set::KernelSet;

    /// Every set's name, fastest first. Every AArch64 CPU has NEON.
    pub(super) const ALL: &[&str] = &["neon-sha3", "neon", "portable"];

    /// Set `i` of [`ALL`], where this CPU has it.
    #[inline]
    pub(super) fn by_index(i: usize) -> Option<&'static KernelSet> {
        match i {
            0 => Sha3::detect().map(set_sha3),
            1 => Some(&SET),
            2 => Some(&crate::portable::SET),
            _ => None,
        }
    }
}

/// The kernel sets of this build: no architecture kernels here, the portable set alone.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod sets {
    use crate::kernel_set::KernelSet;

    /// Every set's name.
    pub(super) const ALL: &[&str] = &["portable"];

    /// Set `i` of [`ALL`].
    #[inline]
    pub(super) fn by_index(i: usize) -> Option<&'static KernelSet> {
        (i == 0).then_some(&crate::portable::SET)
    }
}

/// The index in `sets::ALL` of the fastest set this CPU has (the portable set, last,
/// is always there).
#[inline]
fn fastest() -> usize {
    (0..sets::ALL.len()).find(|&i| sets::by_index(i).is_some()).unwrap_or(sets::ALL.len() - 1)
}

/// The names of the kernel sets this build and CPU can run, fastest first.
pub(crate) fn names() -> &'static [&'static str] {
    &sets::ALL[fastest()..]
}

/// The switch that forces a set: it holds the index in `sets::ALL` of the first set
/// that may run, so forcing set `i` skips the faster ones and the set in use is found
/// the way a CPU without them finds it (a forced set costs no more per kernel call
/// than the detected one: the AVX2 set forced on an AVX-512 CPU is timed as an
/// AVX2-only CPU runs it). A CPU with a set has every later one too, so the first set
/// at or after the index is the forced one.
#[cfg(feature = "force-kernels")]
mod chosen {
    use core::sync::atomic::{AtomicUsize, Ordering};

    /// The index in `sets::ALL` of the first set that may run (0: the detected set).
    static FIRST: AtomicUsize = AtomicUsize::new(0);

    /// The index in `sets::ALL` of the first set that may run.
    #[inline]
    pub(super) fn first() -> usize {
        FIRST.load(Ordering::Relaxed)
    }

    /// Runs the set named `name` from now on (`None`: the detected one); returns the
    /// name of the set that ran before, or `Err(())` (nothing changed) when this build
    /// and CPU have no set of that name.
    pub(crate) fn force(name: Option<&str>) -> Result<&'static str, ()> {
        let index = match name {
            None => 0,
            Some(name) => match crate::kernel::names().iter().position(|n| *n == name) {
                Some(i) => crate::kernel::fastest() + i,
                None => return Err(()),
            },
        };
        let before = crate::kernel::set().name;
        FIRST.store(index, Ordering::Relaxed);
        Ok(before)
    }
}

#[cfg(feature = "force-kernels")]
pub(crate) use chosen::force;

/// The set in use now: the first set this CPU has, from the one the switch names.
#[cfg(feature = "force-kernels")]
#[inline]
fn set() -> &'static KernelSet {
    let first = chosen::first();
    (0..sets::ALL.len()).filter(|&i| i >= first).find_map(sets::by_index).unwrap_or(&crate::portable::SET)
}

/// The set in use now: without the switch, the first set this CPU has (a constant in
/// wasm, so the calls below compile to direct calls). Written apart from the switch's:
/// one function over a `first()` that is 0 here grew the wasm modules' code (283 bytes
/// of the ML-DSA module).
#[cfg(not(feature = "force-kernels"))]
#[inline]
fn set() -> &'static KernelSet {
    (0..sets::ALL.len()).find_map(sets::by_index).unwrap_or(&crate::portable::SET)
}

/// `avx512`, `avx2`, `neon-sha3`, `neon`, `simd128` or `portable`: the set in use now.
pub(crate) fn name() -> &'static str {
    set().name
}

/// Keccak-f[1600] on one state.
#[inline]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    (set().f1600)(a);
}

/// Keccak-f[1600] on the first `live` (1 to 4) of four interleaved states; the
/// others are left in an unspecified state.
#[inline]
pub(crate) fn f1600x4(s: &mut StateX4, live: usize) {
    (set().f1600x4)(s, live);
}

/// Keccak-f[1600] on each of the states given (two to four; `None`: an idle place), four
/// at a time: in place where the set reads separate states, else through an
/// interleaved copy and [`f1600x4`].
#[inline]
pub(crate) fn f1600x4_each(states: &mut SeparateStates<'_>) {
    if let Some(each) = set().f1600x4_each {
        return each(states);
    }
    let mut four: StateX4 = [[0; 4]; 25];
    let mut live = 0;
    for (j, state) in states.iter().enumerate() {
        if let Some(state) = state {
            for (row, &word) in four.iter_mut().zip(state.iter()) {
                row[j] = word;
            }
            live = j + 1;
        }
    }
    f1600x4(&mut four, live);
    for (j, state) in states.iter_mut().enumerate() {
        if let Some(state) = state {
            for (word, row) in state.iter_mut().zip(&four) {
                *word = row[j];
            }
        }
    }
}

/// The most Keccak states one call permutes in this build: eight on x86-64 (where an
/// AVX-512 set may have [`f1600x8`]), four elsewhere.
pub(crate) const MAX_KECCAK_STATES: usize = if cfg!(target_arch = "x86_64") { 8 } else { 4 };

/// How many Keccak states the set permutes in one call: 8 where it has the eight-state
/// kernels, else 4.
#[inline]
pub(crate) fn keccak_states() -> usize {
    if MAX_KECCAK_STATES > 4 && set().f1600x8.is_some() { 8 } else { 4 }
}

/// Keccak-f[1600] on eight interleaved states: by the set's eight-state kernel, else
/// each half through [`f1600x4`] (callers ask [`keccak_states`] first; the set may have
/// been switched since).
#[inline]
pub(crate) fn f1600x8(s: &mut StateX8) {
    if let Some(x8) = set().f1600x8 {
        return x8(s);
    }
    for half in [0, 4] {
        let mut four: StateX4 = core::array::from_fn(|i| core::array::from_fn(|j| s[i][half + j]));
        f1600x4(&mut four, 4);
        for (row, words) in s.iter_mut().zip(&four) {
            row[half..half + 4].copy_from_slice(words);
        }
    }
}

/// Keccak-f[1600] on each of the states given (five to eight; `None`: an idle place), in
/// place: by the set's eight-state kernel, else four at a time through [`f1600x4_each`]
/// (as for [`f1600x8`]).
#[inline]
pub(crate) fn f1600x8_each(states: &mut SeparateStates8<'_>) {
    if let Some(each) = set().f1600x8_each {
        return each(states);
    }
    let [s0, s1, s2, s3, s4, s5, s6, s7] = states;
    f1600x4_each(&mut [s0.take(), s1.take(), s2.take(), s3.take()]);
    f1600x4_each(&mut [s4.take(), s5.take(), s6.take(), s7.take()]);
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
/// written) where the set has no four-state kernel and one block at a time is as fast.
#[inline]
pub(crate) fn sha256_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) -> bool {
    set().sha256_x4.map(|x4| x4(mid, blocks, out)).is_some()
}

/// SHA-256 compression of sixteen blocks from one midstate, digests out, of which the
/// first `live` (1 to 16) are needed; `false` (nothing written) where the set has no
/// sixteen-state kernel.
#[inline]
pub(crate) fn sha256_x16(mid: &[u32; 8], blocks: &[[u8; 64]; 16], live: usize, out: &mut [[u8; 32]; 16]) -> bool {
    set().sha256_x16.map(|x16| x16(mid, blocks, live, out)).is_some()
}

/// Whether the set has the sixteen-state SHA-256 kernel ([`sha256_x16`]).
#[inline]
pub(crate) fn has_sha256_x16() -> bool {
    set().sha256_x16.is_some()
}

/// SHA-512 compression of four blocks from one midstate, digests out, of which the
/// first `live` (1 to 4) are needed; `false` as for [`sha256_x4`].
#[inline]
pub(crate) fn sha512_x4(mid: &[u64; 8], blocks: &[[u8; 128]; 4], live: usize, out: &mut [[u8; 64]; 4]) -> bool {
    set().sha512_x4.map(|x4| x4(mid, blocks, live, out)).is_some()
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

/// out = Σ_j a_j ∘ b_j − c ∘ t: a row of Algorithm 8 line 9 in the NTT domain.
#[inline]
pub(crate) fn w_approx_row(out: &mut Poly, a: &[Poly], b: &[Poly], c: &Poly, t: &Poly) {
    (set().w_approx_row)(out, a, b, c, t);
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
pub(crate) fn rej_sample(block: &Shake128Block, out: &mut Poly, filled: &mut usize) {
    (set().rej_sample)(block, out, filled);
}
