//! The dual check from JavaScript: pqverify-native's `DualVerifier` itself (its rules,
//! its audit of rejections, its disagreement log), with liboqs loaded from a path as
//! primary (then the RustCrypto reference, for what liboqs lacks) and pqverify, with a
//! cache of prepared keys, as secondary. A disagreement is written to the log and
//! flushed before the call that found it returns, so a process that exits right after
//! loses nothing.

use std::path::Path;
use std::sync::Arc;

use napi::{Error, Status};
use napi_derive::napi;
use pqverify_native::backend::{Liboqs, Pqverify, Reference, Request};
use pqverify_native::dual::{self, Mode};
use pqverify_native::sink::open_log;
use pqverify_native::{Verifier, VerifyError};

use crate::bytes::Bytes;
use crate::request::{self, invalid};

/// Two independent verifiers, every signature checked by both (`enforce`: both must
/// accept, and the secondary audits the primary's rejections; `shadow`: the primary's
/// verdict stands, disagreements are logged).
#[napi]
pub struct DualVerifier {
    verifier: dual::DualVerifier,
}

#[napi]
impl DualVerifier {
    /// A dual verifier over the liboqs shared library at `liboqs`, in `mode` (`enforce`
    /// or `shadow`), logging disagreements as JSON lines appended to `log` (`-`: standard
    /// error); in enforce mode the secondary audits one primary rejection in
    /// `audit_every` (1: all; 0: none); the secondary keeps up to `key_cache` prepared
    /// keys (0: none).
    #[napi(constructor, catch_unwind)]
    pub fn new(liboqs: String, mode: String, log: String, audit_every: u32, key_cache: u32) -> napi::Result<Self> {
        let mode = match mode.as_str() {
            "enforce" => Mode::Enforce,
            "shadow" => Mode::Shadow,
            other => return Err(invalid(format!("mode must be \"enforce\" or \"shadow\", got \"{other}\""))),
        };
        let liboqs = Liboqs::load(Path::new(&liboqs)).map_err(Error::from_reason)?;
        let sink = open_log(Path::new(&log)).map_err(|e| Error::from_reason(format!("disagreement log: {e}")))?;
        let secondary = if key_cache == 0 { Pqverify::one_shot() } else { Pqverify::with_cache(key_cache as usize) };
        let verifier =
            dual::DualVerifier::new(vec![Arc::new(liboqs), Arc::new(Reference)], Arc::new(secondary), mode, sink)
                .with_audit(u64::from(audit_every));
        Ok(DualVerifier { verifier })
    }

    /// Verifies one signature through both verifiers (arguments as for
    /// [`crate::verify`]): the verdict, or an error — about the call (`InvalidArg`:
    /// key or context length, an interface no primary has), or a verifier's failure or
    /// a log that could not be written (`GenericFailure`).
    #[allow(clippy::too_many_arguments, reason = "flat arguments, as `verify` takes them")]
    #[napi(catch_unwind)]
    pub fn verify(
        &self,
        suite: u32,
        key_format: u32,
        interface: u32,
        hash: u32,
        signature: Bytes<'_>,
        msg: Bytes<'_>,
        context: Bytes<'_>,
        public_key: Bytes<'_>,
    ) -> napi::Result<bool> {
        let (public_key, message) =
            request::verification(suite, key_format, interface, hash, &msg, &context, &public_key)?;
        let r = Request { public_key, message, signature: &signature };
        self.verifier.decide(&r).map_err(|e| match e {
            VerifyError::Input(_) | VerifyError::Unsupported(_) => invalid(e.to_string()),
            VerifyError::Backend(_) | VerifyError::Sink(_) | VerifyError::Budget(_) => {
                Error::new(Status::GenericFailure, e.to_string())
            }
        })
    }

    /// Disagreements logged so far.
    #[napi(getter, catch_unwind)]
    pub fn disagreements(&self) -> f64 {
        self.verifier.disagreements() as f64
    }

    /// Verifier failures (errors, panics) seen so far.
    #[napi(getter, catch_unwind)]
    pub fn faults(&self) -> f64 {
        self.verifier.faults() as f64
    }

    /// Disagreements the log failed to take (each also failed its call).
    #[napi(getter, js_name = "sinkFailures", catch_unwind)]
    pub fn sink_failures(&self) -> f64 {
        self.verifier.sink_failures() as f64
    }

    /// The two verifiers and the mode, in one line.
    #[napi(catch_unwind)]
    pub fn describe(&self) -> String {
        self.verifier.describe()
    }
}
