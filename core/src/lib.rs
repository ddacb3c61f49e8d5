//! pqverify-core: strict verification of FIPS 204 (ML-DSA) and FIPS 205 (SLH-DSA)
//! signatures, written from the standards.
//!
//! * `no_std`; verifying needs no heap and a few KiB of stack.
//! * Every interface a verifier is asked for: pure with a context
//!   ([`Message::Pure`]), pre-hash ([`Message::PreHash`]), internal on M′
//!   ([`Message::Internal`]) and external μ ([`Message::ExternalMu`]).
//! * Strict: exact lengths, canonical hint encoding, ‖z‖∞ < γ1 − β, all of c̃.
//! * [`PreparedKey`] (feature `alloc`) expands a public key once for many signatures.
//! * [`certificate::check_certificate`] (feature `alloc`): the quorum-certificate rule
//!   (signers distinct members of the set), checked once per certificate.
//!
//! ```
//! use pqverify_core::{verify, Message, PublicKey, Suite};
//! let pk = [0u8; 1312];
//! let sig = [0u8; 2420];
//! let key = PublicKey::from_raw(Suite::MlDsa44, &pk).unwrap();
//! let err = verify(key, Message::pure(b"msg", b""), &sig).unwrap_err();
//! assert!(err.is_rejection());
//! ```
#![cfg_attr(not(test), no_std)]
// `unsafe` only in the SIMD kernel modules, each block with a SAFETY comment.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod arch;
#[cfg(any(test, feature = "kernel-checks"))]
#[doc(hidden)]
pub mod cctv;
#[cfg(feature = "alloc")]
pub mod certificate;
mod error;
mod hash;
mod interface;
mod kernel;
#[cfg(any(test, feature = "kernel-checks"))]
#[doc(hidden)]
pub mod kernel_checks;
mod kernel_set;
mod message;
mod mldsa;
mod portable;
mod prehash;
mod public_key;
mod ring;
mod slhdsa;
mod suite;
pub mod text;

pub use error::Error;
pub use interface::Interface;
pub use message::{MAX_CONTEXT_LEN, Message};
pub use prehash::PreHash;
pub use public_key::PublicKey;
use suite::Params;
pub use suite::{Family, Suite};

/// Verifies `signature` on `message` under `public_key` (its suite and length checked
/// when it was made: [`PublicKey::from_raw`], [`PublicKey::from_spki_der`]).
///
/// `Ok(())` means valid. An error with [`Error::is_rejection`] means the signature is
/// not valid (wrong length, non-canonical encoding, or it does not verify); any
/// other error means the call was unusable (context over 255 bytes, μ not 64 bytes,
/// an interface the suite lacks).
pub fn verify(public_key: PublicKey<'_>, message: Message<'_>, signature: &[u8]) -> Result<(), Error> {
    let suite = public_key.suite();
    match suite.params() {
        Params::MlDsa(p) if cfg!(feature = "ml-dsa") => mldsa::ml_dsa_verify(p, public_key, &message, signature),
        Params::SlhDsa(p) if cfg!(feature = "slh-dsa") => slhdsa::slh_verify(p, public_key, &message, signature),
        _ => Err(not_built(suite)),
    }
}

/// The error for a family this build leaves out (features `ml-dsa`, `slh-dsa`). The
/// guards above are constants, so the left-out family's code is not linked.
fn not_built(suite: Suite) -> Error {
    let what = match suite.family() {
        Family::MlDsa => "verification in this build (built without the ml-dsa feature)",
        Family::SlhDsa => "verification in this build (built without the slh-dsa feature)",
    };
    Error::Unsupported { suite, what }
}

/// A public key decoded and expanded once, to verify many signatures.
///
/// Built only from the encoded key (never from caller-supplied expanded material).
/// Verdicts are identical to [`verify`] with the same key.
#[cfg(feature = "alloc")]
#[derive(Clone)]
pub struct PreparedKey {
    inner: Prepared,
}

#[cfg(feature = "alloc")]
#[derive(Clone)]
enum Prepared {
    MlDsa(mldsa::PreparedMlDsa),
    SlhDsa(slhdsa::PreparedSlhDsa),
}

#[cfg(feature = "alloc")]
impl PreparedKey {
    /// Decodes and expands `public_key`. An error only where this build leaves the
    /// key's family out.
    pub fn new(public_key: PublicKey<'_>) -> Result<Self, Error> {
        let suite = public_key.suite();
        let inner = match suite.params() {
            Params::MlDsa(p) if cfg!(feature = "ml-dsa") => Prepared::MlDsa(mldsa::PreparedMlDsa::new(p, public_key)),
            Params::SlhDsa(p) if cfg!(feature = "slh-dsa") => {
                Prepared::SlhDsa(slhdsa::PreparedSlhDsa::new(p, public_key))
            }
            _ => return Err(not_built(suite)),
        };
        Ok(PreparedKey { inner })
    }

    /// The suite this key belongs to.
    pub fn suite(&self) -> Suite {
        match &self.inner {
            Prepared::MlDsa(k) => k.suite(),
            Prepared::SlhDsa(k) => k.suite(),
        }
    }

    /// Verifies `signature` on `message`; same contract as [`verify`].
    pub fn verify(&self, message: Message<'_>, signature: &[u8]) -> Result<(), Error> {
        // Guarded like `verify`: a variant this build never makes must not link its code.
        match &self.inner {
            Prepared::MlDsa(k) if cfg!(feature = "ml-dsa") => k.ml_dsa_verify(&message, signature),
            Prepared::SlhDsa(k) if cfg!(feature = "slh-dsa") => k.slh_verify(&message, signature),
            _ => Err(not_built(self.suite())),
        }
    }

    /// Verifies each of `requests` (a prepared key, a message, a signature): element i
    /// of the result is what [`verify`](Self::verify) gives request i. ML-DSA
    /// signatures are verified as many at a time as the Keccak kernel has lanes (eight
    /// with AVX-512, else four), their hashes sharing its calls where a lone
    /// verification leaves the lanes idle: faster per signature for a quorum
    /// certificate or a batch.
    pub fn verify_each(requests: &[(&PreparedKey, Message<'_>, &[u8])]) -> alloc::vec::Vec<Result<(), Error>> {
        let mut verdicts: alloc::vec::Vec<Result<(), Error>> = alloc::vec![Ok(()); requests.len()];
        let (mut ml_dsa, mut places) = (alloc::vec::Vec::new(), alloc::vec::Vec::new());
        for (i, &(key, message, signature)) in requests.iter().enumerate() {
            match &key.inner {
                Prepared::MlDsa(k) if cfg!(feature = "ml-dsa") => {
                    ml_dsa.push((k, message, signature));
                    places.push(i);
                }
                _ => verdicts[i] = key.verify(message, signature),
            }
        }
        let mut ml_dsa_verdicts = alloc::vec![Ok(()); ml_dsa.len()];
        mldsa::verify_each(&ml_dsa, &mut ml_dsa_verdicts);
        for (i, verdict) in places.into_iter().zip(ml_dsa_verdicts) {
            verdicts[i] = verdict;
        }
        verdicts
    }
}

/// Which kernels run now: `avx512` or `avx2` (x86-64, detected at run time), `simd128`
/// (wasm built with simd128) or `portable` (the scalar reference code).
pub fn kernels() -> &'static str {
    kernel::name()
}

/// The kernel sets this build and CPU can run, fastest first (the first runs unless
/// another is forced): on an x86-64 with AVX-512 `["avx512", "avx2", "portable"]`.
pub fn available_kernels() -> &'static [&'static str] {
    kernel::names()
}

/// (Feature `force-kernels`, on by default.)
/// Runs the kernel set named `name` (one of [`available_kernels`]) process-wide from
/// now on, or the fastest with `None`: for comparing kernel sets and testing them
/// against each other. Verdicts never depend on it. Returns the name of the set that
/// ran before, so that a caller can restore it; a name this build and CPU do not have
/// is an error that lists the ones they do, and changes nothing.
#[cfg(feature = "force-kernels")]
pub fn force_kernels(name: Option<&str>) -> Result<&'static str, UnavailableKernels> {
    kernel::force(name).map_err(|()| UnavailableKernels)
}

/// (Feature `force-kernels`, on by default.)
/// Forces the portable kernels (`true`) or returns to the fastest available
/// (`false`): [`force_kernels`] with `Some("portable")` or `None`. Returns whether the
/// portable set was running before.
#[cfg(feature = "force-kernels")]
pub fn force_portable(on: bool) -> bool {
    let before = if on { kernel::force(Some("portable")) } else { kernel::force(None) };
    before.is_ok_and(|name| name == "portable")
}

/// The error of [`force_kernels`]: no kernel set of that name in this build on this CPU.
#[cfg(feature = "force-kernels")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnavailableKernels;

#[cfg(feature = "force-kernels")]
impl core::fmt::Display for UnavailableKernels {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("no such kernel set in this build on this CPU; it has: ")?;
        for (i, name) in available_kernels().iter().enumerate() {
            f.write_str(if i == 0 { "" } else { ", " })?;
            f.write_str(name)?;
        }
        Ok(())
    }
}

#[cfg(feature = "force-kernels")]
impl core::error::Error for UnavailableKernels {}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The repository README's Rust example, run as a doctest (never packaged: `cfg(doctest)`).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct RepositoryReadmeDoctests;
