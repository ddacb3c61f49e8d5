//! The one error type of pqverify.
//!
//! Split between *rejections* (the signature is not valid for this key and message:
//! [`Error::is_rejection`] is true) and *input errors* (the call itself is unusable:
//! a key of the wrong length, a context over 255 bytes, an unknown name). Wrappers
//! that expose a boolean verify map rejections to `false` and input errors to a
//! thrown or returned error.

use core::fmt;
use core::str::FromStr;

use crate::text::{Formatted, Sink};
use crate::{Interface, Suite};

/// Why a verification did not succeed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The public key does not have the suite's exact length.
    PublicKeyLength {
        /// The suite the key was given for.
        suite: Suite,
        /// The suite's public-key length.
        expected: usize,
        /// The length received.
        got: usize,
    },
    /// The signature does not have the suite's exact length (a rejection).
    SignatureLength {
        /// The suite the signature was given for.
        suite: Suite,
        /// The suite's signature length.
        expected: usize,
        /// The length received.
        got: usize,
    },
    /// The context string is longer than 255 bytes.
    ContextLength {
        /// The length received.
        got: usize,
    },
    /// An external μ is not exactly 64 bytes.
    MuLength {
        /// The length received.
        got: usize,
    },
    /// The suite has no such interface (external μ exists only for ML-DSA).
    Unsupported {
        /// The suite asked for.
        suite: Suite,
        /// What was asked for.
        what: &'static str,
    },
    /// The signature's encoding is not the canonical one, or a value in it is out
    /// of range (a rejection).
    MalformedSignature {
        /// The suite the signature was given for.
        suite: Suite,
        /// What is wrong with it.
        what: &'static str,
    },
    /// The signature is well formed but does not verify (a rejection).
    InvalidSignature {
        /// The suite the signature was given for.
        suite: Suite,
    },
    /// A message whose parts do not fit its interface (a context or a pre-hash function
    /// where the interface has none, no pre-hash function for the pre-hash interface).
    MessageForm {
        /// The interface asked for.
        interface: Interface,
        /// What does not fit.
        what: &'static str,
    },
    /// A suite name that is not one of the FIPS names.
    UnknownSuite,
    /// A pre-hash name that is not one of the approved functions.
    UnknownPreHash,
    /// An encoded public key (SubjectPublicKeyInfo DER) that is not the exact DER
    /// encoding RFC 9881 and the LAMPS SLH-DSA document give.
    MalformedPublicKey {
        /// What is wrong with it, and what was expected.
        what: &'static str,
    },
    /// A SubjectPublicKeyInfo whose algorithm OID is not one of the 15 suites'.
    UnknownKeyAlgorithm,
    /// A SubjectPublicKeyInfo for another suite than the one asked for.
    KeyAlgorithm {
        /// The suite the key was given for.
        expected: Suite,
        /// The suite its algorithm OID names.
        found: Suite,
    },
}

impl Error {
    /// True when the error means "this signature is not valid" rather than "this call is unusable".
    pub const fn is_rejection(&self) -> bool {
        matches!(
            self,
            Error::SignatureLength { .. } | Error::MalformedSignature { .. } | Error::InvalidSignature { .. }
        )
    }
}

impl Error {
    /// Writes the error's text to `out` (the words of its `Display`, without `core::fmt`).
    pub fn write_text(&self, out: &mut impl Sink) {
        match *self {
            Error::PublicKeyLength { suite, expected, got } => {
                out.text("public key is ");
                out.number(got);
                out.text(" bytes; ");
                out.text(suite.name());
                out.text(" public keys are ");
                out.number(expected);
                out.text(" bytes");
            }
            Error::SignatureLength { suite, expected, got } => {
                out.text("signature is ");
                out.number(got);
                out.text(" bytes; ");
                out.text(suite.name());
                out.text(" signatures are ");
                out.number(expected);
                out.text(" bytes");
            }
            Error::ContextLength { got } => {
                out.text("context is ");
                out.number(got);
                out.text(" bytes; a context is at most 255 bytes");
            }
            Error::MuLength { got } => {
                out.text("external mu is ");
                out.number(got);
                out.text(" bytes; it must be exactly 64 bytes");
            }
            Error::Unsupported { suite, what } => {
                out.text(suite.name());
                out.text(" does not support ");
                out.text(what);
            }
            Error::MalformedSignature { suite, what } => {
                out.text("malformed ");
                out.text(suite.name());
                out.text(" signature: ");
                out.text(what);
            }
            Error::InvalidSignature { suite } => {
                out.text(suite.name());
                out.text(" signature does not verify");
            }
            Error::MessageForm { interface, what } => {
                out.text("the ");
                out.text(interface.name());
                out.text(" interface ");
                out.text(what);
            }
            Error::UnknownSuite => {
                out.text("unknown suite name; expected a FIPS 204/205 name such as ML-DSA-44 or SLH-DSA-SHAKE-128s")
            }
            Error::UnknownPreHash => out.text(
                "unknown pre-hash name; expected one of SHA2-224, SHA2-256, SHA2-384, SHA2-512, \
                 SHA2-512/224, SHA2-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE-128, SHAKE-256",
            ),
            Error::MalformedPublicKey { what } => {
                out.text("malformed SubjectPublicKeyInfo: ");
                out.text(what);
            }
            Error::UnknownKeyAlgorithm => out.text(
                "the SubjectPublicKeyInfo's algorithm is not ML-DSA (OID 2.16.840.1.101.3.4.3.17 to .19) \
                 nor pure SLH-DSA (2.16.840.1.101.3.4.3.20 to .31)",
            ),
            Error::KeyAlgorithm { expected, found } => {
                out.text("the SubjectPublicKeyInfo holds a ");
                out.text(found.name());
                out.text(" key; expected a ");
                out.text(expected.name());
                out.text(" key");
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Formatted::write(f, |out| self.write_text(out))
    }
}

impl core::error::Error for Error {}

// Here rather than in `suite.rs`, so that the suite list depends on nothing above it.
impl FromStr for Suite {
    type Err = Error;

    /// Parses a FIPS name such as `ML-DSA-44`, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Error> {
        Suite::ALL.into_iter().find(|suite| suite.name().eq_ignore_ascii_case(s)).ok_or(Error::UnknownSuite)
    }
}
