//! The architectures' kernels: each written for one vector unit, each replacing a
//! portable kernel bit for bit, gathered in a kernel set (`SET`) that is the portable
//! set with those entries replaced. Only `crate::kernel` chooses a set; nothing here
//! imports it or an algorithm.
//!
//! * `x86_64/`: AVX2, chosen at run time; every kernel takes the `x86_64::Avx2` token
//!   that proves detection.
//! * `aarch64/`: NEON (every AArch64 CPU), and the SHA-3 instructions where the CPU has
//!   them, behind the `aarch64::Sha3` token.
//! * `wasm32/`: simd128, present only in builds with `+simd128`.
#![allow(unsafe_code, reason = "SIMD intrinsics; every unsafe block has a SAFETY comment")]

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) mod aarch64;
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod compact;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;
#[cfg(any(target_arch = "x86_64", all(target_arch = "aarch64", target_feature = "neon")))]
mod z_input;
