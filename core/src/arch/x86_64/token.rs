//! The proofs of CPU features: the one file that makes an [`Avx2`] or [`Avx512`] token.

cpufeatures::new!(avx2_cpuid, "avx2", "bmi1", "bmi2", "popcnt");
cpufeatures::new!(sha_cpuid, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(avx512_cpuid, "avx2", "bmi1", "bmi2", "popcnt", "avx512f", "avx512vl");

/// Proof that this CPU has AVX2, BMI1, BMI2 and POPCNT (every AVX2 processor does): the
/// only way to call a kernel of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The proof, where CPUID says AVX2, BMI1, BMI2 and POPCNT (cpufeatures caches the
    /// answer).
    pub(crate) fn detect() -> Option<Avx2> {
        avx2_cpuid::get().then_some(Avx2(()))
    }
}

/// Proof that this CPU has AVX-512 F and VL besides AVX2, BMI1, BMI2 and POPCNT, and that the
/// operating system saves the AVX-512 registers (cpufeatures checks XCR0): the only way
/// to call an AVX-512 kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx512(());

impl Avx512 {
    /// The proof, where CPUID and XCR0 say so.
    pub(crate) fn detect() -> Option<Avx512> {
        avx512_cpuid::get().then_some(Avx512(()))
    }
}

/// Proof that this CPU has the SHA extensions (SHA-NI) with SSE4.1 and SSSE3: the only
/// way to call the SHA-NI kernels. Independent of the vector sets: Zen and recent Intel
/// cores have it, Skylake-SP servers do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShaNi(());

impl ShaNi {
    /// The proof, where CPUID says so.
    pub(crate) fn detect() -> Option<ShaNi> {
        sha_cpuid::get().then_some(ShaNi(()))
    }
}

/// Whether the processor is AMD's ("AuthenticAMD" in CPUID leaf 0), asked once: not a
/// proof of anything, only which of two equally correct kernels runs faster.
pub(crate) fn is_amd() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not asked yet; 1: no; 2: yes. CPUID is slow (in a VM it exits to the host).
    static AMD: AtomicU8 = AtomicU8::new(0);
    match AMD.load(Ordering::Relaxed) {
        0 => {
            let leaf = core::arch::x86_64::__cpuid(0);
            let amd = (leaf.ebx, leaf.edx, leaf.ecx)
                == (u32::from_le_bytes(*b"Auth"), u32::from_le_bytes(*b"enti"), u32::from_le_bytes(*b"cAMD"));
            AMD.store(if amd { 2 } else { 1 }, Ordering::Relaxed);
            amd
        }
        known => known == 2,
    }
}

/// The tokens the sets' entries pass on: sound because the sets are private to this
/// module's parent, and `set` / `set_avx512`, their only ways out, take a token that
/// [`Avx2::detect`] or [`Avx512::detect`] made.
pub(super) const PROVEN: Avx2 = Avx2(());
/// See [`PROVEN`].
pub(super) const PROVEN_512: Avx512 = Avx512(());
