//! The Node-API binding of pqverify's native twin: the `.node` file of the npm package's
//! platform packages (`pqverify-linux-x64-gnu`, …), which Node, Bun and Deno load
//! in place of the WebAssembly module.
//!
//! Its low-level calls are the WebAssembly module's (`wasm/src/lib.rs`): the same
//! names, the same numbered arguments (a suite, interface, pre-hash or key format is its
//! index in the tables `cargo xtask tables` generates from pqverify-core), the same
//! error texts (core's), so the package's one JavaScript layer (`api.js`) sits over
//! either. Beyond them, what only a native build can do: batches and quorum
//! certificates verified on a thread pool outside the JavaScript thread, settled as
//! promises ([`batch`], [`validators`]), and the dual check with a liboqs loaded at
//! run time ([`dual`]).
//!
//! The boundary is hostile: every byte argument is checked to be a `Uint8Array`, views
//! of shared memory are copied before they are read ([`bytes`]), asynchronous calls copy
//! what their tasks read once, on the calling thread, and a panic becomes a JavaScript
//! error, never an abort.
#![allow(
    unsafe_code,
    reason = "Node-API calls (bytes.rs) and the counting allocator (heap.rs); each block states why it is sound"
)]

pub mod batch;
pub mod bytes;
pub mod dual;
pub mod heap;
pub mod prepared;
pub mod request;
pub mod threads;
pub mod validators;

use napi::bindgen_prelude::Uint32Array;
use napi_derive::napi;

use bytes::Bytes;

/// How a public key is encoded: the WebAssembly module's `KeyFormat`, with the same
/// numbers.
#[napi]
pub enum KeyFormat {
    /// The raw encoding of FIPS 204/205 (WebCrypto's `raw-public`).
    Raw = 0,
    /// An X.509 SubjectPublicKeyInfo in DER (WebCrypto's and OpenSSL's `spki`).
    Spki = 1,
}

/// Verifies one signature under the suite numbered `suite` and the public key encoded
/// as format number `key_format`, reading the message as interface number `interface`
/// with pre-hash number `hash`: `true` valid, `false` not valid, an error for an
/// unusable call (the WebAssembly module's `verify`).
#[allow(clippy::too_many_arguments, reason = "flat arguments, as the WebAssembly module takes them")]
#[napi(catch_unwind)]
pub fn verify(
    suite: u32,
    key_format: u32,
    interface: u32,
    hash: u32,
    signature: Bytes<'_>,
    msg: Bytes<'_>,
    context: Bytes<'_>,
    public_key: Bytes<'_>,
) -> napi::Result<bool> {
    let (key, message) = request::verification(suite, key_format, interface, hash, &msg, &context, &public_key)?;
    request::verdict(pqverify_core::verify(key, message, &signature))
}

/// Checks a quorum certificate of the suite numbered `suite` by pqverify-core's rule
/// (`certificate::check_certificate`): the pure interface with `context` usable, every
/// index in `signers` one of `validators`, none twice (the WebAssembly module's
/// `checkCertificate`, which the pool's workers call).
#[napi(js_name = "checkCertificate", catch_unwind)]
pub fn check_certificate(suite: u32, validators: u32, signers: Uint32Array, context: Bytes<'_>) -> napi::Result<()> {
    let suite = request::suite(suite)?;
    request::certificate_rule(suite, validators as usize, signers.iter().map(|&i| i as usize), &context)
}

/// Which kernels this build runs: `native-` and the kernel set pqverify-core chose for
/// this CPU (`native-avx512`, `native-avx2`, `native-neon-sha3`, `native-portable`, …).
#[napi(catch_unwind)]
pub fn kernels() -> String {
    format!("native-{}", pqverify_core::kernels())
}
