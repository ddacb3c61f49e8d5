//! The verifier a command asks for, its disagreement log, and byte arguments.

use std::sync::Arc;

use pqverify_native::backend::{Backend, Liboqs, Pqverify, Reference};
use pqverify_native::command::{self, open_sink};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::{OneBackend, Verifier};

use super::{BackendName, VerifierArgs};
use pqverify_native::command::Failure::{self, BadInput};

/// Hex, or `@path` for a file's raw bytes.
pub(crate) fn bytes_arg(name: &str, value: &str) -> Result<Vec<u8>, Failure> {
    match value.strip_prefix('@') {
        Some(path) => std::fs::read(path).map_err(|e| BadInput(format!("--{name}: cannot read {path}: {e}"))),
        None => {
            hex::decode(value.trim()).map_err(|e| BadInput(format!("--{name}: not hex ({e}); use @FILE for raw bytes")))
        }
    }
}

pub(crate) fn pqverify_backend(args: &VerifierArgs) -> Arc<dyn Backend> {
    if args.key_cache == 0 { Arc::new(Pqverify::one_shot()) } else { Arc::new(Pqverify::with_cache(args.key_cache)) }
}

/// The liboqs at `path` (`--liboqs` or `PQVERIFY_LIBOQS`), else the linked one.
pub(crate) fn liboqs_or_linked(path: Option<&std::path::Path>) -> Result<Arc<Liboqs>, Failure> {
    Ok(command::load_liboqs(path)?.unwrap_or_else(|| Arc::new(Liboqs::new())))
}

pub(crate) fn build_verifier(args: &VerifierArgs) -> Result<Box<dyn Verifier>, Failure> {
    if !matches!(args.backend, BackendName::Dual) && (args.mode.is_some() || args.audit_rejections.is_some()) {
        return Err(BadInput("--mode and --audit-rejections need --backend dual".into()));
    }
    Ok(match args.backend {
        BackendName::Pqverify => Box::new(OneBackend(pqverify_backend(args))),
        BackendName::Liboqs => Box::new(OneBackend(liboqs_or_linked(args.liboqs.as_deref())?)),
        BackendName::Rustcrypto => Box::new(OneBackend(Arc::new(Reference))),
        BackendName::Dual => {
            let mode = args.mode.unwrap_or(Mode::Enforce);
            Box::new(
                DualVerifier::new(
                    vec![liboqs_or_linked(args.liboqs.as_deref())?, Arc::new(Reference)],
                    pqverify_backend(args),
                    mode,
                    open_sink(&args.disagreements)?,
                )
                .with_audit(args.audit_rejections.unwrap_or(1)),
            )
        }
    })
}
