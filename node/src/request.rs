//! The numbered arguments as pqverify-core's types, and core's answers as JavaScript's.
//!
//! Numbers cross the boundary, not names: a suite is its index in `Suite::ALL`, an
//! interface in `Interface::ALL`, a pre-hash in `PreHash::ALL` (the ids of the package's
//! generated `tables.js`), a key format a [`crate::KeyFormat`]. An error about the call
//! is a Node-API `InvalidArg` error whose message is core's text; the package's
//! JavaScript layer turns it into a `RangeError` starting `pqverify:`, as it does the
//! WebAssembly module's errors.

use napi::{Error, Status};
use pqverify_core::{Interface, Message, PreHash, PublicKey, Suite};

use crate::KeyFormat;

/// An error about the call's arguments, with `text`.
pub(crate) fn invalid(text: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, text.into())
}

/// An error about the call with core's text of `e`.
pub(crate) fn core_error(e: pqverify_core::Error) -> Error {
    invalid(e.to_string())
}

/// Entry `id` of `all`, or "unknown `what` id `id`; expected 0 to `last`".
fn numbered<T: Copy>(all: &[T], what: &str, id: u32) -> napi::Result<T> {
    usize::try_from(id)
        .ok()
        .and_then(|i| all.get(i))
        .copied()
        .ok_or_else(|| invalid(format!("unknown {what} id {id}; expected 0 to {}", all.len() - 1)))
}

/// The suite numbered `id`.
pub(crate) fn suite(id: u32) -> napi::Result<Suite> {
    numbered(&Suite::ALL, "suite", id)
}

/// The interface numbered `interface` and, for the pre-hash interface only, the
/// pre-hash numbered `hash`.
pub(crate) fn interface(interface: u32, hash: u32) -> napi::Result<(Interface, Option<PreHash>)> {
    let interface = numbered(&Interface::ALL, "interface", interface)?;
    let prehash = match interface {
        Interface::PreHash => Some(numbered(&PreHash::ALL, "pre-hash", hash)?),
        _ => None,
    };
    Ok((interface, prehash))
}

/// The message of interface number `interface` with pre-hash number `hash`, by core's
/// one rule (`Message::new`).
pub(crate) fn message<'a>(interface: u32, hash: u32, msg: &'a [u8], ctx: &'a [u8]) -> napi::Result<Message<'a>> {
    let (interface, prehash) = self::interface(interface, hash)?;
    Message::new(interface, msg, ctx, prehash).map_err(core_error)
}

/// One verification's numbered arguments as core's (the key, its suite in it, and the
/// message): what `verify` and the dual verifier's `verify` take.
pub(crate) fn verification<'a>(
    suite: u32,
    key_format: u32,
    interface: u32,
    hash: u32,
    msg: &'a [u8],
    ctx: &'a [u8],
    public_key: &'a [u8],
) -> napi::Result<(PublicKey<'a>, Message<'a>)> {
    let key = self::public_key(self::suite(suite)?, key_format, public_key)?;
    Ok((key, message(interface, hash, msg, ctx)?))
}

/// The public key of `suite` in `bytes`, encoded as format number `format`.
pub(crate) fn public_key(suite: Suite, format: u32, bytes: &[u8]) -> napi::Result<PublicKey<'_>> {
    const RAW: u32 = KeyFormat::Raw as u32;
    const SPKI: u32 = KeyFormat::Spki as u32;
    match format {
        RAW => PublicKey::from_raw(suite, bytes),
        SPKI => PublicKey::from_spki_der_for(suite, bytes),
        other => return Err(invalid(format!("unknown key format id {other}; expected 0 to {SPKI}"))),
    }
    .map_err(core_error)
}

/// `Ok(true)` valid, `Ok(false)` rejected, an error for an unusable call.
pub(crate) fn verdict(result: Result<(), pqverify_core::Error>) -> napi::Result<bool> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.is_rejection() => Ok(false),
        Err(e) => Err(core_error(e)),
    }
}

/// pqverify-core's quorum-certificate rule for `signers` of a set of `validators`
/// signing with `context`, as an error about the call.
pub(crate) fn certificate_rule(
    suite: Suite,
    validators: usize,
    signers: impl Iterator<Item = usize>,
    context: &[u8],
) -> napi::Result<()> {
    pqverify_core::certificate::check_certificate(suite, Message::pure(&[], context), validators, signers)
        .map_err(|e| invalid(e.to_string()))
}
