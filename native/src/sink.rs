//! Where disagreements between the two verifiers go: every one, exactly once.

use std::io::Write;
use std::sync::Mutex;

use serde::Serialize;

/// One verifier's answer in a dual check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The signature verifies.
    Valid,
    /// The signature does not verify.
    Invalid,
    /// The backend failed (error or panic); never counted as valid.
    Fault(String),
}

impl Outcome {
    /// Whether this outcome accepts the signature.
    pub fn is_valid(&self) -> bool {
        *self == Outcome::Valid
    }
}

/// A backend and its answer, as written to the sink.
#[derive(Clone, Debug, Serialize)]
pub struct BackendVerdict {
    /// Backend name.
    pub backend: String,
    /// Backend version.
    pub version: String,
    /// Its answer.
    pub outcome: Outcome,
}

/// A disagreement record (one JSON line in the default sink).
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    /// Milliseconds since the Unix epoch.
    pub time_ms: u128,
    /// The suite's FIPS name.
    pub suite: String,
    /// `pure`, `prehash`, `internal` or `external-mu`.
    pub interface: String,
    /// `enforce` or `shadow`.
    pub mode: String,
    /// SHA-256 of the public key, hex.
    pub pk_sha256: String,
    /// SHA-256 of the message (M, M′ or μ as given), hex.
    pub msg_sha256: String,
    /// SHA-256 of the context, hex.
    pub ctx_sha256: String,
    /// SHA-256 of the signature, hex.
    pub sig_sha256: String,
    /// The primary verifier's answer.
    pub primary: BackendVerdict,
    /// The secondary verifier's answer.
    pub secondary: BackendVerdict,
    /// The verdict that was returned.
    pub verdict: bool,
}

/// Receives disagreements. A write that fails must be reported, never dropped.
pub trait DisagreementSink: Send + Sync {
    /// Records one disagreement.
    fn record(&self, d: &Disagreement) -> std::io::Result<()>;
}

/// Writes each disagreement as one JSON line and flushes it.
pub struct JsonLines<W: Write + Send> {
    out: Mutex<W>,
}

impl<W: Write + Send> JsonLines<W> {
    /// A sink writing to `out`.
    pub fn new(out: W) -> Self {
        JsonLines { out: Mutex::new(out) }
    }

    /// The writer back (e.g. a `Vec<u8>` in tests).
    pub fn into_inner(self) -> W {
        self.out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl<W: Write + Send> DisagreementSink for JsonLines<W> {
    fn record(&self, d: &Disagreement) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(d).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut out = self.out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        out.write_all(&line)?;
        out.flush()
    }
}

/// Opens the disagreement log: a file (appended), or standard error when the path is
/// `-`. Rust points a closed descriptor 2 at /dev/null before `main`, so standard error
/// that is /dev/null (closed, or `2>/dev/null`) is refused: the log would be lost. Every
/// record is written and flushed on its own, and a failing write fails that request.
pub fn open_log(path: &std::path::Path) -> Result<std::sync::Arc<dyn DisagreementSink>, String> {
    let (target, shown) = if path.as_os_str() == "-" {
        let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino(), a.rdev()) == (b.dev(), b.ino(), b.rdev())
        };
        if let (Ok(err), Ok(null)) = (std::fs::metadata("/dev/stderr"), std::fs::metadata("/dev/null"))
            && same(&err, &null)
        {
            return Err("standard error is closed or /dev/null, so disagreements would be lost; give a file".into());
        }
        (std::path::Path::new("/dev/stderr"), "standard error".to_owned())
    } else {
        (path, path.display().to_string())
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(target)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    Ok(std::sync::Arc::new(JsonLines::new(file)))
}
