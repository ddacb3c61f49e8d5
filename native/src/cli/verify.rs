//! `pqverify verify`: one signature; exit 0 valid, 1 invalid, 2 bad input, 3 a fault.

use std::process::ExitCode;

use pqverify_native::batch::{INTERFACE_NAMES, Item, OwnedMessage};
use pqverify_native::key::request_key;

use super::verifier::{build_verifier, bytes_arg};
use super::{KeyFormatArg, PreHashArg, SuiteArg, VerifierArgs};
use pqverify_native::command::Failure::{self, BadInput, Internal};
use pqverify_native::say;

/// The command's options.
#[derive(clap::Args)]
pub(crate) struct VerifyArgs {
    /// FIPS suite name, e.g. ML-DSA-65 or SLH-DSA-SHAKE-128s.
    #[arg(long, value_enum, ignore_case = true, hide_possible_values = true)]
    pub(crate) suite: SuiteArg,
    /// Public key: hex, or @FILE for its bytes (with --key-format pem: @FILE or the PEM text).
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) pk: String,
    /// How the public key is encoded: raw (FIPS 204/205), spki (X.509
    /// SubjectPublicKeyInfo DER, as OpenSSL and WebCrypto export it) or pem.
    #[arg(long, value_enum, default_value = "raw")]
    pub(crate) key_format: KeyFormatArg,
    /// Message: hex, or @FILE (M; M′ with --interface internal).
    #[arg(long)]
    pub(crate) msg: Option<String>,
    /// Signature: hex, or @FILE.
    #[arg(long)]
    pub(crate) sig: String,
    /// Context string: hex, or @FILE (default empty).
    #[arg(long)]
    pub(crate) ctx: Option<String>,
    /// Pre-hash function (ACVP name, e.g. SHA2-256, SHAKE-128): HashML-DSA / HashSLH-DSA.
    #[arg(long, value_enum, ignore_case = true)]
    pub(crate) prehash: Option<PreHashArg>,
    /// external (pure, or pre-hash with --prehash: ML-DSA.Verify / slh_verify and
    /// their Hash forms) or internal (Verify_internal on M′ as --msg, or, for ML-DSA,
    /// on μ as --mu); or core's names: pure, prehash, external-mu (as JSON lines take them).
    #[arg(long, default_value = "external", value_parser = clap::builder::PossibleValuesParser::new(INTERFACE_NAMES))]
    pub(crate) interface: String,
    /// External μ (64 bytes, hex or @FILE): ML-DSA with --interface internal.
    #[arg(long)]
    pub(crate) mu: Option<String>,
    #[command(flatten)]
    pub(crate) verifier: VerifierArgs,
}

pub(crate) fn verify_one(args: VerifyArgs) -> Result<ExitCode, Failure> {
    let VerifyArgs {
        suite: SuiteArg(suite),
        pk,
        key_format: KeyFormatArg(key_format),
        msg,
        sig,
        ctx,
        prehash,
        interface,
        mu,
        verifier: args,
    } = args;
    // PEM is text: the file, or the argument itself.
    let pk = if key_format.is_text() && !pk.starts_with('@') { pk.into_bytes() } else { bytes_arg("pk", &pk)? };
    let public_key = request_key(suite, key_format, pk).map_err(|e| BadInput(format!("--pk: {e}")))?;
    let signature = bytes_arg("sig", &sig)?;
    let msg = msg.map(|m| bytes_arg("msg", &m)).transpose()?;
    let ctx = ctx.map(|c| bytes_arg("ctx", &c)).transpose()?;
    let mu = mu.map(|m| bytes_arg("mu", &m)).transpose()?;
    if msg.is_none() && mu.is_none() {
        return Err(BadInput(
            "give --msg (with optional --ctx/--prehash) for external, or --msg (M′) or --mu for internal".into(),
        ));
    }
    let message =
        OwnedMessage::from_fields(&interface, msg, mu, ctx, prehash.map(|PreHashArg(h)| h), |f| format!("--{f}"))
            .map_err(BadInput)?;
    let item = Item { suite, public_key, message, signature };
    let verifier = build_verifier(&args)?;
    match item.decide(verifier.as_ref()) {
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
