//! WebAssembly bindings of pqverify-core, for the npm package `pqverify`.
//!
//! These are the low-level exports; the package's JavaScript layer (`js/api.js`)
//! wraps them in the `@noble/post-quantum`-shaped API and checks argument types.
//! Every function returns `false` for a signature that is not valid and throws
//! (a `JsError` with the core's message) only when the call itself is unusable.
//!
//! With feature `module` (the package's builds) the crate has no standard library: the
//! allocator (talc), declared here; a panic traps (as with the standard library on this
//! target; a panic is a bug, which the fuzz targets hunt for); and every error text is
//! written by core's [`Sink`] into a stack buffer, so its errors need none of
//! `core::fmt` (with talc none of it is linked; Rust's own panics keep the pieces of
//! their messages and their file names, data never shown).
#![cfg_attr(all(feature = "module", target_arch = "wasm32"), no_std)]

extern crate alloc;

use alloc::borrow::ToOwned;
use alloc::string::String;

use pqverify_core::text::{Sink, Text};
use pqverify_core::{Error, Interface, Message, PreHash, PreparedKey as CorePreparedKey, PublicKey, Suite};
use wasm_bindgen::prelude::*;

/// The heap (the arguments wasm-bindgen copies in, prepared keys): talc, which grows
/// the memory as dlmalloc, the standard library's allocator here, does, in about a third
/// of its code.
#[cfg(all(feature = "module", target_arch = "wasm32"))]
#[global_allocator]
static HEAP: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// A panic traps (`unreachable`): JavaScript sees a `RuntimeError`, as with Rust's own
/// handler on this target, without the code that formats its message.
#[cfg(all(feature = "module", target_arch = "wasm32"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The longest error text: core's longest message with its numbers at their widest.
const TEXT: usize = 256;

/// A `JsError` whose message `write` writes.
fn js_error(write: impl FnOnce(&mut Text<TEXT>)) -> JsError {
    let mut text = Text::new();
    write(&mut text);
    JsError::new(text.as_str())
}

/// "unknown `what` id `id`; expected 0 to `last`".
fn unknown_id(what: &str, id: u32, last: usize) -> JsError {
    js_error(|out| {
        out.text("unknown ");
        out.text(what);
        out.text(" id ");
        out.number(id as usize);
        out.text("; expected 0 to ");
        out.number(last);
    })
}

/// A `JsError` with core's text of `e`.
fn core_error(e: Error) -> JsError {
    js_error(|out| e.write_text(out))
}

/// The suite numbered `id`: its index in `Suite::ALL` (the `id` of the package's
/// generated `SUITES` table).
fn suite(id: u32) -> Result<Suite, JsError> {
    usize::try_from(id)
        .ok()
        .and_then(|i| Suite::ALL.get(i))
        .copied()
        .ok_or_else(|| unknown_id("suite", id, Suite::ALL.len() - 1))
}

/// Builds the message for interface number `interface` (its index in `Interface::ALL`,
/// the `INTERFACES` table of the package's generated tables.js) with pre-hash number
/// `hash` (its index in `PreHash::ALL`, the `id` of `PREHASHES`, read only for the
/// pre-hash interface), by core's one rule (`Message::new`).
fn message<'a>(interface: u32, hash: u32, msg: &'a [u8], ctx: &'a [u8]) -> Result<Message<'a>, JsError> {
    let id = interface;
    let interface = usize::try_from(id)
        .ok()
        .and_then(|i| Interface::ALL.get(i))
        .copied()
        .ok_or_else(|| unknown_id("interface", id, Interface::ALL.len() - 1))?;
    let prehash = match interface {
        Interface::PreHash => Some(
            usize::try_from(hash)
                .ok()
                .and_then(|i| PreHash::ALL.get(i))
                .copied()
                .ok_or_else(|| unknown_id("pre-hash", hash, PreHash::ALL.len() - 1))?,
        ),
        _ => None,
    };
    Message::new(interface, msg, ctx, prehash).map_err(core_error)
}

/// How a public key is encoded. The numbers cross the JS boundary (the package passes
/// `KeyFormat.Raw` or `KeyFormat.Spki` from the glue; a WebCrypto JWK is decoded to
/// raw bytes in JS, where JSON lives).
#[wasm_bindgen]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFormat {
    /// The raw encoding of FIPS 204/205 (WebCrypto's `raw-public`).
    Raw = 0,
    /// An X.509 SubjectPublicKeyInfo in DER (WebCrypto's and OpenSSL's `spki`).
    Spki = 1,
}

/// The raw key of `suite` in `public_key`, encoded as format number `format`.
fn public_key(suite: Suite, format: u32, public_key: &[u8]) -> Result<PublicKey<'_>, JsError> {
    const RAW: u32 = KeyFormat::Raw as u32;
    const SPKI: u32 = KeyFormat::Spki as u32;
    match format {
        RAW => PublicKey::from_raw(suite, public_key),
        SPKI => PublicKey::from_spki_der_for(suite, public_key),
        other => return Err(unknown_id("key format", other, SPKI as usize)),
    }
    .map_err(core_error)
}

/// `Ok(true)` valid, `Ok(false)` rejected, `Err` for an unusable call.
fn verdict(result: Result<(), Error>) -> Result<bool, JsError> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.is_rejection() => Ok(false),
        Err(e) => Err(core_error(e)),
    }
}

/// Verifies one signature under the suite numbered `suite` (see [`suite`]) and the
/// public key encoded as format number `key_format` ([`KeyFormat`]), reading the
/// message as interface number `interface` (see `message`) with pre-hash number
/// `hash`. Numbers, not names, so that a call copies only its byte arrays.
#[allow(clippy::too_many_arguments, reason = "flat arguments cross the JS boundary without allocating")]
#[wasm_bindgen]
pub fn verify(
    suite: u32,
    key_format: u32,
    interface: u32,
    hash: u32,
    signature: &[u8],
    msg: &[u8],
    context: &[u8],
    public_key: &[u8],
) -> Result<bool, JsError> {
    let suite = self::suite(suite)?;
    let key = self::public_key(suite, key_format, public_key)?;
    verdict(pqverify_core::verify(key, message(interface, hash, msg, context)?, signature))
}

/// A public key decoded and expanded once, for many verifications.
#[wasm_bindgen]
pub struct PreparedKey(CorePreparedKey);

#[wasm_bindgen]
impl PreparedKey {
    /// Decodes and expands `public_key` (encoded as format number `key_format`) for
    /// the suite numbered `suite`.
    #[wasm_bindgen(constructor)]
    pub fn new(suite: u32, key_format: u32, public_key: &[u8]) -> Result<PreparedKey, JsError> {
        let suite = self::suite(suite)?;
        let key = self::public_key(suite, key_format, public_key)?;
        CorePreparedKey::new(key).map(PreparedKey).map_err(core_error)
    }

    /// Verifies one signature under this key (arguments as for [`verify`]).
    pub fn verify(
        &self,
        interface: u32,
        hash: u32,
        signature: &[u8],
        msg: &[u8],
        context: &[u8],
    ) -> Result<bool, JsError> {
        verdict(self.0.verify(message(interface, hash, msg, context)?, signature))
    }

    /// The FIPS name of the key's suite.
    #[wasm_bindgen(getter)]
    pub fn suite(&self) -> String {
        self.0.suite().name().to_owned()
    }
}

/// Checks a quorum certificate of the suite numbered `suite` before its signatures are
/// verified, by pqverify-core's rule (`certificate::check_certificate`): the pure
/// interface with `context` usable, every index in `signers` one of `validators`, none
/// twice. The pool's workers call it with the whole certificate's indices, whichever
/// part of its signatures they verify.
#[wasm_bindgen(js_name = checkCertificate)]
pub fn check_certificate(suite: u32, validators: u32, signers: &[u32], context: &[u8]) -> Result<(), JsError> {
    let suite = self::suite(suite)?;
    // u32 → usize is lossless on wasm32 and wider targets.
    let index = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    pqverify_core::certificate::check_certificate(
        suite,
        Message::pure(&[], context),
        index(validators),
        signers.iter().map(|&i| index(i)),
    )
    .map_err(|e| js_error(|out| e.write_text(out)))
}

/// Which kernels this build uses: `simd128` or `portable`.
#[wasm_bindgen]
pub fn kernels() -> String {
    if cfg!(target_feature = "simd128") { "simd128" } else { "portable" }.to_owned()
}
