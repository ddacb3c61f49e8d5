//! NEON kernels for AArch64, and the set over them with Armv8.2's SHA-3 instructions.
//! The NEON set replaces: Keccak-f[1600] ×4 (two states per vector), the ML-DSA NTT,
//! inverse NTT, pointwise products, UseHint, RejNTTPoly's sampling and sigDecode's z
//! (four coefficients per vector), and SHA-256 and
//! SHA-512 compression by the `sha2` crate's code, which uses the Armv8 SHA-256 and
//! Armv8.2 SHA-512 instructions where the CPU has them (its own detection). The SHA-3
//! set is the NEON set with Keccak ×4 done with EOR3, RAX1, XAR and BCAX.
//!
//! NEON is part of every AArch64 CPU this module is built for; the SHA-3 kernels take
//! the [`Sha3`] token, made only in `token.rs`.

use crate::kernel_set::KernelSet;

pub(crate) mod encode;
pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;
mod token;

use token::PROVEN;
pub(crate) use token::Sha3;

/// The NEON set.
pub(crate) const SET: KernelSet = KernelSet {
    name: "neon",
    f1600x4: keccak::f1600x4,
    sha256_compress: |state, block| sha2::block_api::compress256(state, core::slice::from_ref(block)),
    sha512_compress: |state, block| sha2::block_api::compress512(state, core::slice::from_ref(block)),
    ntt: ntt::ntt,
    inv_ntt: ntt::inv_ntt,
    pointwise: ntt::pointwise,
    w_approx_row: ntt::w_approx_row,
    use_hint_poly: hint::use_hint_poly,
    rej_sample: sample::rej_sample,
    unpack_z: encode::unpack_z,
    ..crate::portable::SET
};

/// The SHA-3 set, for the holder of the proof.
pub(crate) fn set_sha3(_: Sha3) -> &'static KernelSet {
    &SET_SHA3
}

/// The NEON set with the entries the SHA-3 instructions do better.
static SET_SHA3: KernelSet =
    KernelSet { name: "neon-sha3", f1600x4: |s, live| keccak::f1600x4_sha3(PROVEN, s, live), ..SET };
