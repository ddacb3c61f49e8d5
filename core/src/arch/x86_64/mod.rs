//! AVX2 (and BMI) kernels. Replaces: Keccak-f[1600] ×1 (BMI) and ×4, the ML-DSA NTT, inverse NTT and
//! pointwise products, UseHint, and RejNTTPoly's sampling loop.
//!
//! Each public function takes the [`Avx2`](crate::kernel::Avx2) token and calls a
//! `#[target_feature(enable = "avx2")]` body: the token is the proof that makes
//! that call sound.

pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;

/// What the property tests of every AVX2 kernel share.
#[cfg(test)]
pub(crate) mod testing {
    use crate::kernel::{Avx2, Kernel, current};
    use crate::mldsa::Poly;

    /// The token where this CPU has AVX2 (the tests then compare), else `None`.
    pub(crate) fn token() -> Option<Avx2> {
        match current() {
            Kernel::Avx2(t) => Some(t),
            Kernel::Portable => None,
        }
    }

    /// A SplitMix64 stream.
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        /// A value in (−bound, bound), the extremes far more often than by chance.
        pub(crate) fn coefficient(&mut self, bound: i32) -> i32 {
            let r = self.next();
            let magnitude = match r % 8 {
                0 => bound - 1,
                1 => 0,
                2 => bound - 1 - (r >> 40) as i32 % 16,
                _ => ((r >> 32) % bound as u64) as i32,
            };
            if (r >> 3) & 1 == 1 { -magnitude } else { magnitude }
        }

        pub(crate) fn poly(&mut self, bound: i32) -> Poly {
            Poly(core::array::from_fn(|_| self.coefficient(bound)))
        }
    }
}
