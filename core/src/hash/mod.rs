//! Hash functions behind one small internal interface.
//!
//! Keccak (SHAKE, SHA-3) runs through [`sponge`] over the [`keccak`] permutation;
//! SHA-2 comes from the `sha2` crate (which uses SHA-NI where the CPU has it).
//! The algorithm code only sees these types, so faster kernels can replace the
//! permutation without touching it.

pub(crate) mod bytes;
pub(crate) mod keccak;
pub(crate) mod keccak_x4;
pub(crate) mod sha2;
pub(crate) mod sha256_x4;
pub(crate) mod sha2_rounds;
pub(crate) mod sha512_x2;
pub(crate) mod sponge;

pub(crate) use sponge::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
