//! pqverify for servers: three independent backends (pqverify, liboqs, the RustCrypto
//! reference), dual verification in `enforce` or `shadow` mode, parallel batches
//! with a prepared-key cache and a Verify-Unit budget, and the `pqverify` CLI.

pub mod backend;
pub mod batch;
pub mod cache;
pub mod certificate;
pub mod command;
pub mod dual;
pub mod jsonl;
pub mod kernels;
pub mod key;
pub mod sink;
pub mod stream;
pub mod units;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use backend::{Backend, Fault, Interface, Request};

/// Why a request got no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The request itself is unusable (key length, context length, μ length, an
    /// interface the suite lacks), as pqverify-core describes it.
    Input(pqverify_core::Error),
    /// The backend has no such suite or interface.
    Unsupported(String),
    /// A backend failed or panicked.
    Backend(String),
    /// A disagreement could not be written to the sink.
    Sink(String),
    /// The batch exceeds its Verify-Unit budget.
    Budget(String),
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VerifyError::Input(e) => write!(f, "{e}"),
            VerifyError::Unsupported(m) | VerifyError::Budget(m) => f.write_str(m),
            VerifyError::Backend(m) => write!(f, "backend failure: {m}"),
            VerifyError::Sink(m) => write!(f, "disagreement sink failed: {m}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// What kind of error a request got, as the JSON-lines answers name it: the request is
/// unusable (`input`, `unsupported`, `budget`), or this side failed (`backend`, `sink`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// [`VerifyError::Input`], or a request line that could not be read.
    Input,
    /// [`VerifyError::Unsupported`].
    Unsupported,
    /// [`VerifyError::Budget`].
    Budget,
    /// [`VerifyError::Backend`].
    Backend,
    /// [`VerifyError::Sink`].
    Sink,
}

impl ErrorKind {
    /// Whether the fault is on this side (a backend or the disagreement sink), not in
    /// the request.
    pub fn is_fault(self) -> bool {
        matches!(self, ErrorKind::Backend | ErrorKind::Sink)
    }
}

impl VerifyError {
    /// Its kind.
    pub fn kind(&self) -> ErrorKind {
        match self {
            VerifyError::Input(_) => ErrorKind::Input,
            VerifyError::Unsupported(_) => ErrorKind::Unsupported,
            VerifyError::Backend(_) => ErrorKind::Backend,
            VerifyError::Sink(_) => ErrorKind::Sink,
            VerifyError::Budget(_) => ErrorKind::Budget,
        }
    }

    /// Whether the fault is on this side (a backend or the disagreement sink), not in
    /// the request.
    pub fn is_fault(&self) -> bool {
        self.kind().is_fault()
    }
}

/// The checks every request passes before any backend sees it, beyond the key's (made
/// with the request): the context is at most 255 bytes, μ is 64 bytes, and the
/// interface exists for the suite. The signature may have any length (a wrong
/// length is a verdict, not an input error).
pub fn check_request(r: &Request<'_>) -> Result<(), VerifyError> {
    r.message.check_for(r.suite()).map_err(VerifyError::Input)
}

/// Runs a backend, containing errors and panics: `Err` is never a verdict.
pub fn run_backend(backend: &dyn Backend, r: &Request<'_>) -> Result<bool, Fault> {
    match catch_unwind(AssertUnwindSafe(|| backend.verdict(r))) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(Fault::Failed(format!("{} panicked: {what}", backend.name())))
        }
    }
}

/// Anything that answers "is this signature valid": one backend ([`OneBackend`]), or the
/// dual policy ([`dual::DualVerifier`]).
pub trait Verifier: Send + Sync {
    /// Decides one request: checked first, then `Ok(valid)`, or why there is no verdict.
    fn decide(&self, r: &Request<'_>) -> Result<bool, VerifyError>;
    /// A one-line description for logs and reports.
    fn describe(&self) -> String;
}

/// One backend alone as a [`Verifier`]: its verdict, after the request's checks.
pub struct OneBackend(pub Arc<dyn Backend>);

impl Verifier for OneBackend {
    fn decide(&self, r: &Request<'_>) -> Result<bool, VerifyError> {
        check_request(r)?;
        let b = &self.0;
        if !b.supports(r.suite(), r.interface()) {
            return Err(VerifyError::Unsupported(format!(
                "backend {} does not support {} through the {} interface",
                b.name(),
                r.suite(),
                r.interface()
            )));
        }
        run_backend(b.as_ref(), r).map_err(|f| VerifyError::Backend(f.to_string()))
    }

    fn describe(&self) -> String {
        format!("{} {}", self.0.name(), self.0.version())
    }
}

/// Whether `interface` is one a backend can be asked for with `suite`.
pub fn interfaces_of(backend: &dyn Backend, suite: pqverify_core::Suite) -> Vec<Interface> {
    Interface::ALL.into_iter().filter(|&i| backend.supports(suite, i)).collect()
}

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
