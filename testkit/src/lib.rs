//! What pqverify's tests, benches, examples and fuzz replay share, written once:
//!
//! * [`KeyPair`]: keys and signatures from the independent signers `fips204` and
//!   `fips205` for all 15 suites (one macro arm per suite, here only), with [`cache`]
//!   keeping the slow signers' outputs where a run asks for it;
//! * [`Rng`]: a small deterministic generator, and [`NoRng`] for the deterministic
//!   SLH-DSA signer;
//! * [`oracle`]: PH(M) and SHAKE256 from the `sha2`, `sha3` and `shake` crates,
//!   independent of pqverify's own hashing;
//! * [`acvp`]: ACVP cases as pqverify calls;
//! * [`cctv`]: the C2SP CCTV accumulated ML-DSA transcript and its published digests;
//! * [`corpus`]: the committed fuzz corpora replayed on stable;
//! * [`report`]: counts a test hands to `cargo xtask test` as data;
//! * [`runner`]: a built binary run directly or under an emulator.
//!
//! The native `reference` backend keeps its own pre-hash code on purpose: it is
//! the second verifier of a dual check, and sharing code with tests would weaken
//! the independence that is its point.

pub mod acvp;
pub mod cache;
pub mod cctv;
pub mod corpus;
pub mod oracle;
pub mod report;
mod rng;
pub mod runner;
mod sign;

pub use rng::{NoRng, Rng};
pub use sign::{KeyPair, KeySeed};
