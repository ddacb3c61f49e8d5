//! Verifier backends behind one small trait: the pqverify core, liboqs, and an
//! independent pure-Rust reference (RustCrypto `ml-dsa` and `slh-dsa`).

mod liboqs;
mod pqverify;
mod reference;

pub use liboqs::{LIBOQS_ENV, Liboqs, LiboqsInfo, Source as LiboqsSource, liboqs_name};
pub use pqverify::Pqverify;
pub use reference::Reference;

use pqverify_core::{Message, PublicKey, Suite};

pub use pqverify_core::Interface;

/// Why a backend gave no verdict. Never a verdict: the caller reports it, and a dual
/// check counts it as a fault, never as "valid".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// pqverify-core called the request unusable, as core types it (every request is
    /// checked before a backend sees it, so this is a backend's disagreement with the
    /// check, never the caller's error).
    Core(pqverify_core::Error),
    /// The backend failed: its own error, or a panic, described.
    Failed(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Core(e) => write!(f, "{e}"),
            Fault::Failed(what) => f.write_str(what),
        }
    }
}

impl From<String> for Fault {
    fn from(what: String) -> Self {
        Fault::Failed(what)
    }
}

/// One verification: a public key (its suite and length checked when it was made),
/// the message (with its interface) and the signature.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The public key and its suite.
    pub public_key: PublicKey<'a>,
    /// The message and interface.
    pub message: Message<'a>,
    /// The signature.
    pub signature: &'a [u8],
}

impl Request<'_> {
    /// The parameter set.
    pub fn suite(&self) -> Suite {
        self.public_key.suite()
    }

    /// The interface this request uses.
    pub fn interface(&self) -> Interface {
        self.message.interface()
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
    fn verdict(&self, request: &Request<'_>) -> Result<bool, Fault>;
}
