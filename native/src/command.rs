//! What the two command-line programs, `pqverify` and the benchmark driver
//! `pqverify-bench`, share: why a command failed and its exit status, the default
//! disagreement log, the openers of `--liboqs`, `--disagreements` and `--kernels`, so
//! that both say the same thing about the same mistake, and their two ways of writing
//! a line ([`note!`](crate::note), [`say!`](crate::say)).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use crate::backend::Liboqs;
use crate::sink::{DisagreementSink, open_log};

/// Writes a line to standard error, best effort: a failing standard error must not
/// turn into a panic (as `eprintln!` would) or hide the real outcome.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = writeln!(::std::io::stderr().lock(), $($arg)*);
    }};
}

/// Writes a line to standard output, `?` on a [`Failure`]: a closed or full output is
/// [`Failure::Internal`] (exit 3), never a panic.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        writeln!(::std::io::stdout().lock(), $($arg)*)
            .map_err(|e| $crate::command::Failure::Internal(format!("standard output: {e}")))?
    }};
}

/// The disagreement log unless told otherwise (`--disagreements`).
pub const DISAGREEMENT_LOG: &str = "pqverify-disagreements.jsonl";

/// Why a command failed: a one-line message and an exit status.
#[derive(Debug)]
pub enum Failure {
    /// Unusable arguments or input: exit status 2.
    BadInput(String),
    /// An I/O failure (a closed pipe, a full disk) or a fault on this side (a backend
    /// or the disagreement sink failed): exit status 3.
    Internal(String),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Internal(format!("I/O: {e}"))
    }
}

impl Failure {
    /// Writes `program: error: …` (bad input) or `program: failure: …` on standard error,
    /// best effort (a failing standard error must not hide the outcome), and returns the
    /// exit status: 2 or 3.
    pub fn exit(self, program: &str) -> ExitCode {
        let (word, message, code) = match self {
            Failure::BadInput(m) => ("error", m, 2),
            Failure::Internal(m) => ("failure", m, 3),
        };
        let _ = writeln!(std::io::stderr().lock(), "{program}: {word}: {message}");
        ExitCode::from(code)
    }
}

/// `--liboqs PATH` (or `PQVERIFY_LIBOQS`): the shared library loaded, or why not;
/// `None` when no path is given.
pub fn load_liboqs(path: Option<&Path>) -> Result<Option<Arc<Liboqs>>, Failure> {
    let load = |path| Liboqs::load(path).map(Arc::new).map_err(|e| Failure::BadInput(format!("--liboqs: {e}")));
    path.map(load).transpose()
}

/// `--disagreements PATH` (`-`: standard error, checked to be open), opened before any
/// verification.
pub fn open_sink(path: &Path) -> Result<Arc<dyn DisagreementSink>, Failure> {
    open_log(path).map_err(|e| {
        Failure::BadInput(format!("--disagreements{}: {e}", if path.as_os_str() == "-" { " -" } else { "" }))
    })
}

/// `--kernels NAME`: the kernel set forced for this process, or the error listing the
/// sets this CPU has.
pub fn force_kernels(name: &str) -> Result<(), Failure> {
    pqverify_core::force_kernels(Some(name))
        .map(|_previous| ())
        .map_err(|e| Failure::BadInput(format!("--kernels {name}: {e}")))
}
