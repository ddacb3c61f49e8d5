//! WebAssembly bindings of pqverify-core, for the npm package `pqverify`.
//!
//! These are the low-level exports; the package's JavaScript layer (`js/api.js`)
//! wraps them in the `@noble/post-quantum`-shaped API and checks argument types.
//! Every function returns `false` for a signature that is not valid and throws
//! (a `JsError` with the core's message) only when the call itself is unusable.

use pqverify_core::{Error, Message, PreHash, PreparedKey as CorePreparedKey, Suite};
use wasm_bindgen::prelude::*;

fn suite(name: &str) -> Result<Suite, JsError> {
    name.parse().map_err(|e: Error| JsError::new(&format!("{e}: {name:?}")))
}

/// Builds the message for `interface` (`pure`, `prehash`, `internal` or `mu`).
fn message<'a>(interface: &str, hash: &str, msg: &'a [u8], ctx: &'a [u8]) -> Result<Message<'a>, JsError> {
    Ok(match interface {
        "pure" => Message::pure(msg, ctx),
        "prehash" => {
            let hash: PreHash = hash.parse().map_err(|e: Error| JsError::new(&format!("{e}: {hash:?}")))?;
            Message::prehash(msg, ctx, hash)
        }
        "internal" => Message::Internal(msg),
        "mu" => Message::ExternalMu(msg),
        other => return Err(JsError::new(&format!("unknown interface {other:?}"))),
    })
}

/// `Ok(true)` valid, `Ok(false)` rejected, `Err` for an unusable call.
fn verdict(result: Result<(), Error>) -> Result<bool, JsError> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.is_rejection() => Ok(false),
        Err(e) => Err(JsError::new(&e.to_string())),
    }
}

/// Verifies one signature. `interface` is `pure`, `prehash` (with `hash` an ACVP
/// name such as `SHA2-256`), `internal` (M′) or `mu` (64-byte external μ).
#[wasm_bindgen]
pub fn verify(
    suite_name: &str,
    interface: &str,
    hash: &str,
    signature: &[u8],
    msg: &[u8],
    context: &[u8],
    public_key: &[u8],
) -> Result<bool, JsError> {
    let suite = suite(suite_name)?;
    verdict(pqverify_core::verify(suite, public_key, message(interface, hash, msg, context)?, signature))
}

/// A public key decoded and expanded once, for many verifications.
#[wasm_bindgen]
pub struct PreparedKey(CorePreparedKey);

#[wasm_bindgen]
impl PreparedKey {
    /// Decodes and expands `public_key` for the suite named `suite_name`.
    #[wasm_bindgen(constructor)]
    pub fn new(suite_name: &str, public_key: &[u8]) -> Result<PreparedKey, JsError> {
        let suite = suite(suite_name)?;
        CorePreparedKey::new(suite, public_key).map(PreparedKey).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Verifies one signature under this key (arguments as for [`verify`]).
    pub fn verify(
        &self,
        interface: &str,
        hash: &str,
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

/// Every suite as JSON: `[{"name","publicKey","signature"}, …]`.
#[wasm_bindgen]
pub fn suites() -> String {
    let rows: Vec<String> = Suite::ALL
        .iter()
        .map(|s| {
            format!(r#"{{"name":"{}","publicKey":{},"signature":{}}}"#, s.name(), s.public_key_len(), s.signature_len())
        })
        .collect();
    format!("[{}]", rows.join(","))
}

/// Which kernels this build uses: `simd128` or `portable`.
#[wasm_bindgen]
pub fn backend() -> String {
    if cfg!(target_feature = "simd128") { "simd128" } else { "portable" }.to_owned()
}

/// Marks the build in a custom section (`pqverify_variant`: `simd128` or `baseline`),
/// so the package's loader can match a given .wasm with its JS glue.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[allow(unsafe_code, reason = "link_section only places these bytes in a custom section")]
#[unsafe(link_section = "pqverify_variant")]
#[used]
static VARIANT: [u8; 7] = *b"simd128";

/// See the simd128 variant.
#[cfg(all(target_arch = "wasm32", not(target_feature = "simd128")))]
#[allow(unsafe_code, reason = "link_section only places these bytes in a custom section")]
#[unsafe(link_section = "pqverify_variant")]
#[used]
static VARIANT: [u8; 8] = *b"baseline";
