//! `pqverify verify`: one signature; exit 0 valid, 1 invalid, 2 bad input, 3 a fault.

use std::io::Write;
use std::process::ExitCode;

use pqverify_core::Suite;
use pqverify_native::batch::{Item, OwnedMessage};

use super::VerifierArgs;
use super::failure::Failure::{self, BadInput, Internal};
use super::verifier::{build_verifier, bytes_arg};

#[allow(clippy::too_many_arguments, reason = "one parameter per command-line option")]
pub(crate) fn verify_one(
    suite: &str,
    pk: &str,
    msg: Option<String>,
    sig: &str,
    ctx: Option<String>,
    prehash: Option<String>,
    interface: &str,
    mu: Option<String>,
    args: &VerifierArgs,
) -> Result<ExitCode, Failure> {
    let suite: Suite = suite.parse().map_err(|e| BadInput(format!("--suite: {e}")))?;
    let public_key = bytes_arg("pk", pk)?;
    let signature = bytes_arg("sig", sig)?;
    let msg = msg.map(|m| bytes_arg("msg", &m)).transpose()?;
    let ctx = ctx.map(|c| bytes_arg("ctx", &c)).transpose()?;
    let mu = mu.map(|m| bytes_arg("mu", &m)).transpose()?;
    let message = match (interface, msg, mu) {
        ("external", Some(msg), None) => {
            let ctx = ctx.unwrap_or_default();
            match prehash {
                None => OwnedMessage::Pure { msg, ctx },
                Some(h) => OwnedMessage::PreHash {
                    msg,
                    ctx,
                    hash: h.parse().map_err(|e| BadInput(format!("--prehash: {e}")))?,
                },
            }
        }
        ("internal", Some(m), None) if ctx.is_none() && prehash.is_none() => OwnedMessage::Internal(m),
        ("internal", None, Some(mu)) if ctx.is_none() && prehash.is_none() => OwnedMessage::ExternalMu(mu),
        ("external" | "internal", _, _) => {
            return Err(BadInput(
                "give --msg (with optional --ctx/--prehash) for external, or --msg (M′) or --mu for internal".into(),
            ));
        }
        (other, _, _) => return Err(BadInput(format!("--interface: {other:?}; expected external or internal"))),
    };
    let item = Item { suite, public_key, message, signature };
    let verifier = build_verifier(args)?;
    match verifier.verify(&item.request()) {
        Ok(true) => {
            say!("valid");
            Ok(ExitCode::SUCCESS)
        }
        Ok(false) => {
            say!("invalid");
            Ok(ExitCode::from(1))
        }
        Err(e) if e.is_fault() => Err(Internal(e.to_string())),
        Err(e) => Err(BadInput(e.to_string())),
    }
}
