//! wasm simd128 kernels. Replaces: Keccak-f[1600] ×4 (two states per vector),
//! SHA-256 compression ×4 (one block per 32-bit lane), SHA-512 compression ×4 (two pairs, one
//! block per 64-bit lane), and the ML-DSA NTT, inverse NTT, pointwise products,
//! UseHint and RejNTTPoly's sampling (four coefficients per vector); without SLH-DSA in
//! the module, the one-block SHA-2 compressions by the rolled loop.

use crate::kernel_set::KernelSet;

pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sha256;
pub(crate) mod sha512;

/// The portable set with the entries simd128 does better (chosen at build time: a
/// `+simd128` module runs only in an engine that validated it).
pub(crate) const SET: KernelSet = KernelSet {
    name: "simd128",
    f1600x4: keccak::f1600x4,
    sha256_x4: Some(sha256::digest_x4),
    sha256_x16: None,
    sha512_x4: Some(sha512::digest_x4),
    ntt: ntt::ntt,
    inv_ntt: ntt::inv_ntt,
    pointwise: ntt::pointwise,
    w_approx_row: ntt::w_approx_row,
    use_hint_poly: hint::use_hint_poly,
    rej_sample: sample::rej_sample,
    // A module without SLH-DSA compresses SHA-2 blocks only for HashML-DSA's pre-hash:
    // the rolled loop, a smaller module than the written-out rounds (slower only on
    // long messages).
    #[cfg(not(feature = "slh-dsa"))]
    sha256_compress: crate::portable::sha256::compress_block_rolled,
    #[cfg(not(feature = "slh-dsa"))]
    sha512_compress: crate::portable::sha512::compress_block_rolled,
    ..crate::portable::SET
};
