//! A byte argument from JavaScript: a `Uint8Array` (a `Buffer` is one), read in place
//! for the length of a synchronous call, or copied first when its memory is shared.
//!
//! What a caller can hand over, and what it becomes:
//! - anything but a `Uint8Array` (another typed array, a `DataView`, an `ArrayBuffer`, a
//!   string, …): an `InvalidArg` error;
//! - a view of a detached `ArrayBuffer`, or one a resizable buffer has shrunk past: the
//!   empty bytes, which is what JavaScript itself reads from it (its `length` is 0);
//! - a view of a `SharedArrayBuffer`: another thread may write it while this one reads,
//!   so its bytes are copied first, each read atomically, and only the copy is verified;
//! - any other view: borrowed. No JavaScript runs during a synchronous call, so nothing
//!   can change, detach or resize it before the call returns. Asynchronous calls copy
//!   what their tasks read before the call returns ([`Bytes::to_vec`]).

use std::ops::Deref;
use std::ptr;
use std::sync::atomic::{AtomicU8, Ordering};

use napi::bindgen_prelude::{FromNapiValue, TypeName, ValidateNapiValue};
use napi::{ValueType, sys};

use crate::request::invalid;

/// The bytes of a `Uint8Array` argument.
pub enum Bytes<'a> {
    /// The view's own memory, for the length of the call.
    Borrowed(&'a [u8]),
    /// A copy of a view of shared memory.
    Copied(Vec<u8>),
}

impl Deref for Bytes<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(bytes) => bytes,
            Bytes::Copied(bytes) => bytes,
        }
    }
}

impl AsRef<[u8]> for Bytes<'_> {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// Whether a Node-API call succeeded.
fn ok(status: sys::napi_status) -> bool {
    status == sys::Status::napi_ok
}

impl FromNapiValue for Bytes<'_> {
    unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> napi::Result<Self> {
        let expected = || invalid("expected a Uint8Array");
        let (mut kind, mut length, mut data, mut buffer, mut offset) =
            (0, 0usize, ptr::null_mut(), ptr::null_mut(), 0usize);
        // SAFETY: `env` and `value` are the handles of the current call (a value that is
        // not a typed array is an `napi_invalid_arg` status); every out-pointer is a local.
        let status = unsafe {
            sys::napi_get_typedarray_info(env, value, &mut kind, &mut length, &mut data, &mut buffer, &mut offset)
        };
        if !ok(status) || kind != sys::TypedarrayType::uint8_array {
            return Err(expected());
        }
        // Detached, shrunk past, or empty: no bytes (and `data` may be null).
        if length == 0 || data.is_null() {
            return Ok(Bytes::Borrowed(&[]));
        }
        let mut plain = false;
        // SAFETY: `buffer` is the view's buffer, returned by the call above.
        // A SharedArrayBuffer is not an ArrayBuffer to Node-API.
        if !ok(unsafe { sys::napi_is_arraybuffer(env, buffer, &mut plain) }) {
            return Err(expected());
        }
        if plain {
            // SAFETY: `data` points to the view's `length` bytes, which stay valid and
            // unchanged while the call runs: only this thread can touch a non-shared
            // buffer, and it runs no JavaScript until the call returns.
            return Ok(Bytes::Borrowed(unsafe { std::slice::from_raw_parts(data.cast::<u8>(), length) }));
        }
        // SAFETY: `data` points to `length` bytes of shared memory, valid while the
        // call runs (the view keeps its buffer alive); other threads may write them,
        // so they are read as atomics (`AtomicU8` has `u8`'s size and alignment).
        let shared = unsafe { std::slice::from_raw_parts(data.cast::<AtomicU8>().cast_const(), length) };
        Ok(Bytes::Copied(shared.iter().map(|b| b.load(Ordering::Relaxed)).collect()))
    }
}

impl TypeName for Bytes<'_> {
    fn type_name() -> &'static str {
        "Uint8Array"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ValidateNapiValue for Bytes<'_> {}
