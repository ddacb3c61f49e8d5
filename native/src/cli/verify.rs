//! `pqverify verify`: one signature; exit 0 valid, 1 invalid, 2 bad input, 3 a fault.

use std::io::Write;
use std::process::ExitCode;

use pqverify_native::batch::{Item, Named, OwnedMessage};
use pqverify_native::key::{KeyFormat, raw_public_key};

use super::verifier::{build_verifier, bytes_arg};
use super::{KeyFormatArg, PreHashArg, SuiteArg, VerifierArgs};
use pqverify_native::command::Failure::{self, BadInput, Internal};

#[allow(clippy::too_many_arguments, reason = "one parameter per command-line option")]
pub(crate) fn verify_one(
    SuiteArg(suite): SuiteArg,
    (pk, KeyFormatArg(key_format)): (&str, KeyFormatArg),
    msg: Option<String>,
    sig: &str,
    ctx: Option<String>,
    prehash: Option<PreHashArg>,
    interface: &str,
    mu: Option<String>,
    args: &VerifierArgs,
) -> Result<ExitCode, Failure> {
    // Raw keys go to the verifier as they are (it checks their length); encoded ones
    // are decoded here, strictly. PEM is text: the file, or the argument itself.
    let public_key = match (key_format, pk.strip_prefix('@')) {
        (KeyFormat::Raw, _) => Ok(bytes_arg("pk", pk)?),
        (KeyFormat::Pem, None) => raw_public_key(suite, key_format, pk.as_bytes()),
        _ => raw_public_key(suite, key_format, &bytes_arg("pk", pk)?),
    }
    .map_err(|e| BadInput(format!("--pk: {e}")))?;
    let signature = bytes_arg("sig", sig)?;
    let msg = msg.map(|m| bytes_arg("msg", &m)).transpose()?;
    let ctx = ctx.map(|c| bytes_arg("ctx", &c)).transpose()?;
    let mu = mu.map(|m| bytes_arg("mu", &m)).transpose()?;
    if msg.is_none() && mu.is_none() {
        return Err(BadInput(
            "give --msg (with optional --ctx/--prehash) for external, or --msg (M′) or --mu for internal".into(),
        ));
    }
    let named: Named = interface.parse().map_err(BadInput)?;
    let message = OwnedMessage::from_fields(named, msg, mu, ctx, prehash.map(|PreHashArg(h)| h), |f| format!("--{f}"))
        .map_err(BadInput)?;
    let item = Item { suite, public_key, message, signature };
    let verifier = build_verifier(args)?;
    match verifier.decide(&item.request()) {
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
