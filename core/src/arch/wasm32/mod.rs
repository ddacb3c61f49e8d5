//! wasm simd128 kernels. Replaces: Keccak-f[1600] ×4 (two states per vector).

pub(crate) mod keccak;
