//! wasm simd128 kernels. Replaces: Keccak-f[1600] ×4 (two states per vector) and
//! SHA-256 compression ×4 (one block per 32-bit lane).

pub(crate) mod keccak;
pub(crate) mod sha256;
