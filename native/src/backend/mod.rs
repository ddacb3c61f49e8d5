//! Verifier backends behind one small trait: the pqverify core, liboqs, and an
//! independent pure-Rust reference (RustCrypto `ml-dsa` and `slh-dsa`).

mod liboqs;
mod pqverify;
mod reference;

pub use liboqs::{LIBOQS_ENV, Liboqs, LiboqsInfo, Source as LiboqsSource, liboqs_name};
pub use pqverify::Pqverify;
pub use reference::Reference;

use std::fmt;

use pqverify_core::{Message, Suite};

/// The ways a signature can be asked to be verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Interface {
    /// ML-DSA.Verify / slh_verify: message and context.
    Pure,
    /// HashML-DSA.Verify / hash_slh_verify.
    PreHash,
    /// Verify_internal on M′.
    Internal,
    /// ML-DSA Verify_internal with a caller-supplied μ.
    ExternalMu,
}

impl Interface {
    /// Every interface.
    pub const ALL: [Interface; 4] = [Interface::Pure, Interface::PreHash, Interface::Internal, Interface::ExternalMu];

    /// The interface a message is verified through.
    pub fn of(message: &Message<'_>) -> Interface {
        match message {
            Message::Pure { .. } => Interface::Pure,
            Message::PreHash { .. } => Interface::PreHash,
            Message::Internal(_) => Interface::Internal,
            Message::ExternalMu(_) => Interface::ExternalMu,
        }
    }

    /// A short name: `pure`, `prehash`, `internal`, `external-mu`.
    pub fn name(self) -> &'static str {
        match self {
            Interface::Pure => "pure",
            Interface::PreHash => "prehash",
            Interface::Internal => "internal",
            Interface::ExternalMu => "external-mu",
        }
    }

    /// Whether `suite` has this interface at all (external μ is ML-DSA only).
    pub fn exists_for(self, suite: Suite) -> bool {
        self != Interface::ExternalMu || suite.family() == pqverify_core::Family::MlDsa
    }
}

impl fmt::Display for Interface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One verification: a suite, an encoded public key, the message (with its
/// interface) and the signature.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The parameter set.
    pub suite: Suite,
    /// The encoded public key.
    pub public_key: &'a [u8],
    /// The message and interface.
    pub message: Message<'a>,
    /// The signature.
    pub signature: &'a [u8],
}

impl Request<'_> {
    /// The interface this request uses.
    pub fn interface(&self) -> Interface {
        Interface::of(&self.message)
    }
}

/// A verifier implementation.
///
/// Backends are called only with requests that passed [`crate::check_request`]
/// (key length, context length, μ length, interface exists): they answer only
/// "valid" or "not valid", or fail.
pub trait Backend: Send + Sync {
    /// A short stable name: `pqverify`, `liboqs`, `rustcrypto`.
    fn name(&self) -> &'static str;
    /// The implementation's version, e.g. `0.13.0`.
    fn version(&self) -> String;
    /// Whether this backend can verify `suite` through `interface`.
    fn supports(&self, suite: Suite, interface: Interface) -> bool;
    /// Verifies; `Ok(true)` only for a valid signature. `Err` is a failure of the
    /// backend itself, never a verdict.
    fn verify(&self, request: &Request<'_>) -> Result<bool, String>;
}
