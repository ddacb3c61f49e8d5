//! Backends: kernels written for one architecture's vector unit, each replacing a
//! portable kernel bit for bit. Only [`crate::kernel`] calls into here.
//!
//! * `x86_64/`: AVX2, chosen at run time; every function takes the
//!   [`crate::kernel::Avx2`] token that proves detection.
//! * `wasm32/`: simd128, present only in builds with `+simd128`.
#![allow(unsafe_code, reason = "SIMD intrinsics; every unsafe block has a SAFETY comment")]

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
