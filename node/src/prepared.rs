//! A public key decoded and expanded once: the WebAssembly module's `PreparedKey`, with
//! the same constructor, methods and getter.

use napi_derive::napi;

use crate::bytes::Bytes;
use crate::request;

/// A public key decoded and expanded once, for many verifications.
#[napi]
pub struct PreparedKey {
    /// `None` once freed.
    key: Option<pqverify_core::PreparedKey>,
}

#[napi]
impl PreparedKey {
    /// Decodes and expands `public_key` (encoded as format number `key_format`) for
    /// the suite numbered `suite`.
    #[napi(constructor, catch_unwind)]
    pub fn new(suite: u32, key_format: u32, public_key: Bytes<'_>) -> napi::Result<Self> {
        let suite = request::suite(suite)?;
        let key = request::public_key(suite, key_format, &public_key)?;
        let key = pqverify_core::PreparedKey::new(key).map_err(request::core_error)?;
        Ok(PreparedKey { key: Some(key) })
    }

    /// Verifies one signature under this key (arguments as for [`crate::verify`]).
    #[napi(catch_unwind)]
    pub fn verify(
        &self,
        interface: u32,
        hash: u32,
        signature: Bytes<'_>,
        msg: Bytes<'_>,
        context: Bytes<'_>,
    ) -> napi::Result<bool> {
        let key = self.key.as_ref().ok_or_else(freed)?;
        let message = request::message(interface, hash, &msg, &context)?;
        request::verdict(key.verify(message, &signature))
    }

    /// The FIPS name of the key's suite.
    #[napi(getter, catch_unwind)]
    pub fn suite(&self) -> napi::Result<&'static str> {
        Ok(self.key.as_ref().ok_or_else(freed)?.suite().name())
    }

    /// Releases the expanded key now (otherwise when the object is collected).
    #[napi(catch_unwind)]
    pub fn free(&mut self) {
        self.key = None;
    }
}

/// The error of a call on a freed key.
fn freed() -> napi::Error {
    napi::Error::from_reason("this prepared key was freed")
}
