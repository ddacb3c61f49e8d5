//! Hash functions behind one small internal interface.
//!
//! Keccak (SHAKE, SHA-3) runs through [`sponge`] (one state at a time), SHA-2 through
//! [`sha2`]'s Merkle–Damgård framing, and several hashes at once through [`multi`]. The
//! permutations and compressions are the chosen kernel set's (`crate::kernel`): the
//! algorithm code only sees these types, so faster kernels replace them without
//! touching it.

pub(crate) mod bytes;
pub(crate) mod multi;
pub(crate) mod sha2;
pub(crate) mod sponge;

pub(crate) use sponge::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256, digest_at_rate};
