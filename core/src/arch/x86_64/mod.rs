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

    /// A value in (−bound, bound), the extremes far more often than by chance.
    pub(crate) fn coefficient(rng: &mut Rng, bound: i32) -> i32 {
        let r = rng.next_u64();
        let magnitude = match r % 8 {
            0 => bound - 1,
            1 => 0,
            2 => bound - 1 - (r >> 40) as i32 % 16,
            _ => ((r >> 32) % bound as u64) as i32,
        };
        if (r >> 3) & 1 == 1 { -magnitude } else { magnitude }
    }

    /// A polynomial of such coefficients.
    pub(crate) fn poly(rng: &mut Rng, bound: i32) -> Poly {
        Poly(core::array::from_fn(|_| coefficient(rng, bound)))
    }
}
