//! The proof of AVX2: the one file that makes an [`Avx2`] token.

cpufeatures::new!(avx2_cpuid, "avx2", "bmi1", "bmi2");

/// Proof that this CPU has AVX2, BMI1 and BMI2 (every AVX2 processor does): the only
/// way to call a kernel of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Avx2(());

impl Avx2 {
    /// The proof, where CPUID says AVX2, BMI1 and BMI2 (cpufeatures caches the answer).
    pub(crate) fn detect() -> Option<Avx2> {
        avx2_cpuid::get().then_some(Avx2(()))
    }
}

/// The token the set's entries pass on: sound because the set is private to this
/// module's parent and `set`, its only way out, takes a token that [`Avx2::detect`] made.
pub(super) const PROVEN: Avx2 = Avx2(());
