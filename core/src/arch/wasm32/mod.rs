//! wasm simd128 kernels. Replaces: Keccak-f[1600] ×4 (two states per vector),
//! SHA-256 compression ×4 (one block per 32-bit lane), SHA-512 compression ×2 (one
//! block per 64-bit lane), and the ML-DSA NTT, inverse NTT, pointwise products,
//! UseHint and RejNTTPoly's sampling (four coefficients per vector).

pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sha256;
pub(crate) mod sha512;
