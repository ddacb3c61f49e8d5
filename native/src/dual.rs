//! Dual verification: every signature checked by two independent verifiers.
//!
//! * **enforce**: run the primary; if it accepts, run the secondary and accept only
//!   if it accepts too. If the primary rejects, the answer is "invalid", and the
//!   secondary audits the rejection (every one by default, or one in N with
//!   [`DualVerifier::with_audit`]): a secondary that accepts what the primary
//!   rejected is a disagreement, so a primary's false rejection is never invisible.
//! * **shadow**: run both, always; the verdict is the primary's.
//!
//! The primary is chosen per suite and interface: the first of the primary
//! candidates (liboqs, then the reference) that supports it. The secondary is
//! pqverify. Every disagreement is counted and written to the sink exactly once; a
//! sink that fails turns the request into an error rather than losing it.

use crate::backend::Fault;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use pqverify_core::Message;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::backend::{Backend, Interface, Request};
use crate::sink::{BackendVerdict, Disagreement, DisagreementSink, Outcome};
use crate::{Verifier, VerifyError, check_request, run_backend};

/// How the two verdicts combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Both must accept; the secondary also audits the primary's rejections.
    Enforce,
    /// Both run; the primary's verdict stands.
    Shadow,
}

impl Mode {
    /// `enforce` or `shadow`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Enforce => "enforce",
            Mode::Shadow => "shadow",
        }
    }
}

/// The result of one dual check.
#[derive(Clone, Debug)]
pub struct DualResult {
    /// The verdict returned.
    pub valid: bool,
    /// The primary's name and answer.
    pub primary: (&'static str, Outcome),
    /// The secondary's answer, if it ran.
    pub secondary: Option<Outcome>,
    /// Enforce mode: the secondary ran to audit the primary's rejection.
    pub audited: bool,
}

/// Two verifiers and a sink.
pub struct DualVerifier {
    primaries: Vec<Arc<dyn Backend>>,
    secondary: Arc<dyn Backend>,
    mode: Mode,
    sink: Arc<dyn DisagreementSink>,
    disagreements: AtomicU64,
    faults: AtomicU64,
    sink_failures: AtomicU64,
    /// Enforce mode: audit one primary rejection in `audit_every` (1: all, 0: none).
    audit_every: u64,
    /// Primary rejections seen in enforce mode, for choosing which to audit.
    rejections: AtomicU64,
}

fn outcome(result: Result<bool, Fault>) -> Outcome {
    match result {
        Ok(true) => Outcome::Valid,
        Ok(false) => Outcome::Invalid,
        Err(e) => Outcome::Fault(e.to_string()),
    }
}

fn sha256_hex(data: &[u8]) -> String {
    hex::encode(Sha256::digest(data))
}

impl DualVerifier {
    /// `primaries` in order of preference (e.g. liboqs, then the reference).
    pub fn new(
        primaries: Vec<Arc<dyn Backend>>,
        secondary: Arc<dyn Backend>,
        mode: Mode,
        sink: Arc<dyn DisagreementSink>,
    ) -> Self {
        DualVerifier {
            primaries,
            secondary,
            mode,
            sink,
            disagreements: AtomicU64::new(0),
            faults: AtomicU64::new(0),
            sink_failures: AtomicU64::new(0),
            audit_every: 1,
            rejections: AtomicU64::new(0),
        }
    }

    /// Enforce mode: which primary rejections the secondary audits — one in `every`
    /// (1, the default: all; 0: none). The verdict stays the primary's rejection; a
    /// secondary that accepts what the primary rejected is logged as a disagreement,
    /// so a false rejection by the primary is seen. Auditing costs a secondary verify
    /// per audited invalid signature.
    pub fn with_audit(mut self, every: u64) -> Self {
        self.audit_every = every;
        self
    }

    /// Whether this primary rejection is audited.
    fn audits_rejection(&self) -> bool {
        let n = self.rejections.fetch_add(1, Ordering::Relaxed);
        self.audit_every != 0 && n.is_multiple_of(self.audit_every)
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The primary verifier for a suite and interface, if any backend has it.
    pub fn primary_for(&self, suite: pqverify_core::Suite, interface: Interface) -> Option<&Arc<dyn Backend>> {
        self.primaries.iter().find(|b| b.supports(suite, interface))
    }

    /// The secondary verifier.
    pub fn secondary(&self) -> &Arc<dyn Backend> {
        &self.secondary
    }

    /// Disagreements seen so far.
    pub fn disagreements(&self) -> u64 {
        self.disagreements.load(Ordering::Relaxed)
    }

    /// Backend failures (errors, panics) seen so far.
    pub fn faults(&self) -> u64 {
        self.faults.load(Ordering::Relaxed)
    }

    /// Disagreements the sink failed to record (each also failed its request).
    pub fn sink_failures(&self) -> u64 {
        self.sink_failures.load(Ordering::Relaxed)
    }

    fn run(&self, backend: &dyn Backend, r: &Request<'_>) -> Outcome {
        let o = outcome(run_backend(backend, r));
        if matches!(o, Outcome::Fault(_)) {
            self.faults.fetch_add(1, Ordering::Relaxed);
        }
        o
    }

    /// Verifies through both backends as the mode says.
    pub fn check(&self, r: &Request<'_>) -> Result<DualResult, VerifyError> {
        check_request(r)?;
        let interface = r.interface();
        let primary = self.primary_for(r.suite(), interface).ok_or_else(|| {
            VerifyError::Unsupported(format!("no primary verifier has {} through the {interface} interface", r.suite()))
        })?;
        if !self.secondary.supports(r.suite(), interface) {
            return Err(VerifyError::Unsupported(format!(
                "the secondary verifier has no {} through the {interface} interface",
                r.suite()
            )));
        }
        let p = self.run(primary.as_ref(), r);
        // Enforce: the secondary confirms an acceptance, and audits (some) rejections;
        // a primary fault is an error for the request, with nothing to audit.
        let audited = self.mode == Mode::Enforce && p == Outcome::Invalid && self.audits_rejection();
        let s = match self.mode {
            Mode::Enforce if !p.is_valid() && !audited => None,
            _ => Some(self.run(self.secondary.as_ref(), r)),
        };
        let valid = match (&self.mode, &s) {
            (Mode::Enforce, Some(s)) => p.is_valid() && s.is_valid(),
            _ => p.is_valid(),
        };
        if let Some(s) = &s
            && *s != p
        {
            self.disagreements.fetch_add(1, Ordering::Relaxed);
            self.record(primary.as_ref(), &p, s, r, valid)?;
        }
        Ok(DualResult { valid, primary: (primary.name(), p), secondary: s, audited })
    }

    fn record(
        &self,
        primary: &dyn Backend,
        p: &Outcome,
        s: &Outcome,
        r: &Request<'_>,
        valid: bool,
    ) -> Result<(), VerifyError> {
        let (msg, ctx): (&[u8], &[u8]) = match r.message {
            Message::Pure { msg, ctx } | Message::PreHash { msg, ctx, .. } => (msg, ctx),
            Message::Internal(m) | Message::ExternalMu(m) => (m, &[]),
        };
        let d = Disagreement {
            time_ms: SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis()),
            suite: r.suite().name().to_owned(),
            interface: r.interface().name().to_owned(),
            mode: self.mode.name().to_owned(),
            pk_sha256: sha256_hex(r.public_key.as_bytes()),
            msg_sha256: sha256_hex(msg),
            ctx_sha256: sha256_hex(ctx),
            sig_sha256: sha256_hex(r.signature),
            primary: BackendVerdict { backend: primary.name().into(), version: primary.version(), outcome: p.clone() },
            secondary: BackendVerdict {
                backend: self.secondary.name().into(),
                version: self.secondary.version(),
                outcome: s.clone(),
            },
            verdict: valid,
        };
        self.sink.record(&d).map_err(|e| {
            self.sink_failures.fetch_add(1, Ordering::Relaxed);
            VerifyError::Sink(e.to_string())
        })
    }
}

impl Verifier for DualVerifier {
    /// A failing backend surfaces as an error (never as a verdict), except a failing
    /// secondary in shadow mode, which is recorded as a disagreement and leaves the
    /// primary's verdict standing.
    fn decide(&self, r: &Request<'_>) -> Result<bool, VerifyError> {
        let d = self.check(r)?;
        if let (name, Outcome::Fault(e)) = &d.primary {
            return Err(VerifyError::Backend(format!("primary {name}: {e}")));
        }
        // A secondary that fails while auditing a rejection was logged; the primary's
        // rejection stands.
        if let (Mode::Enforce, Some(Outcome::Fault(e)), false) = (self.mode, &d.secondary, d.audited) {
            return Err(VerifyError::Backend(format!("secondary {}: {e}", self.secondary.name())));
        }
        Ok(d.valid)
    }

    fn describe(&self) -> String {
        let names: Vec<String> = self.primaries.iter().map(|b| format!("{} {}", b.name(), b.version())).collect();
        format!(
            "dual-{}: primary {} / secondary {} {}",
            self.mode.name(),
            names.join(" then "),
            self.secondary.name(),
            self.secondary.version()
        )
    }
}
