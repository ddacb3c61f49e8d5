//! AVX2 (and BMI) kernels. Replaces: Keccak-f[1600] ×1 (BMI) and ×4, the ML-DSA NTT,
//! inverse NTT and pointwise products, UseHint, RejNTTPoly's sampling loop, and the
//! t1/z decoders and w1 encoder.
//!
//! Each public function takes the [`Avx2`](crate::kernel::Avx2) token and calls a
//! `#[target_feature(enable = "avx2")]` body: the token is the proof that makes
//! that call sound.

pub(crate) mod encode;
pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;

/// What the property tests of every AVX2 kernel share.
#[cfg(test)]
pub(crate) mod testing {
    use crate::kernel::{Avx2, Kernel, current};
    use crate::mldsa::Poly;

    /// Runs `compare` with the AVX2 token and a generator seeded with `seed`, where
    /// this CPU has AVX2; elsewhere there is nothing to compare, and it says so.
    pub(crate) fn on_avx2(seed: u64, compare: impl FnOnce(Avx2, &mut Rng)) {
        match current() {
            Kernel::Avx2(t) => compare(t, &mut Rng(seed)),
            Kernel::Portable => eprintln!("no AVX2 here: nothing to compare"),
        }
    }

    pub(crate) use pqverify_testkit::Rng;

    /// A polynomial of coefficients in (−bound, bound), the extremes far more often
    /// than by chance (`kernel_checks::edge_coefficient`).
    pub(crate) fn poly(rng: &mut Rng, bound: i32) -> Poly {
        Poly(core::array::from_fn(|_| crate::kernel_checks::edge_coefficient(rng.next_u64(), bound)))
    }
}
