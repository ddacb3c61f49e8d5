//! Why a command failed, and its exit status.

/// Why a command failed: a one-line message and an exit status.
pub(crate) enum Failure {
    /// Unusable arguments or input: exit status 2.
    BadInput(String),
    /// An I/O failure (a closed pipe, a full disk) or a fault on this side (a backend
    /// or the disagreement sink failed): exit status 3.
    Internal(String),
}

use Failure::Internal;

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Internal(format!("I/O: {e}"))
    }
}
