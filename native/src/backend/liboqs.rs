//! liboqs through `oqs-sys`, looked up by algorithm name at run time.
//!
//! The vendored liboqs (0.13) has ML-DSA with context strings and no FIPS 205
//! SLH-DSA; a system liboqs ≥ 0.14 (built with `LIBOQS_NO_VENDOR=1`) also brings
//! `SLH_DSA_PURE_*`, which this backend then uses without any code change. liboqs
//! offers only the pure interface, so it is asked only for that.
#![allow(unsafe_code, reason = "FFI calls into liboqs; each block states why it is sound")]

use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::sync::Once;

use oqs_sys::common::{OQS_CPU_EXT, OQS_CPU_has_extension, OQS_STATUS, OQS_init, OQS_version};
use oqs_sys::sig::{OQS_SIG, OQS_SIG_free, OQS_SIG_new, OQS_SIG_verify_with_ctx_str};
use pqverify_core::{Message, Suite};

use super::{Backend, Interface, Request};

/// The liboqs name of a suite's pure signature scheme (liboqs's SPHINCS+ names are
/// round-3 SPHINCS+, not SLH-DSA, and are deliberately not used).
pub fn liboqs_name(suite: Suite) -> String {
    match suite.family() {
        pqverify_core::Family::MlDsa => suite.name().to_owned(),
        // SLH-DSA-SHAKE-128s → SLH_DSA_PURE_SHAKE_128S
        pqverify_core::Family::SlhDsa => {
            format!("SLH_DSA_PURE_{}", suite.name().trim_start_matches("SLH-DSA-").replace('-', "_").to_uppercase())
        }
    }
}

/// One liboqs signature scheme.
struct Scheme(*mut OQS_SIG);

// SAFETY: an OQS_SIG is an immutable descriptor (name, sizes, function pointers)
// created once by OQS_SIG_new; liboqs's verify functions read it and keep no state
// in it, so sharing it between threads is sound.
unsafe impl Send for Scheme {}
// SAFETY: as above, all access through it is read-only.
unsafe impl Sync for Scheme {}

impl Drop for Scheme {
    fn drop(&mut self) {
        // SAFETY: the pointer came from OQS_SIG_new, is non-null and is freed once.
        unsafe { OQS_SIG_free(self.0) }
    }
}

/// What the linked liboqs is.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LiboqsInfo {
    /// `OQS_version()`, e.g. `0.13.0`.
    pub version: String,
    /// Whether liboqs runs its AVX2 code here: it is built with run-time dispatch
    /// (`OQS_DIST_BUILD`) and takes the AVX2 path when the CPU has AVX2.
    pub avx2: bool,
    /// The suites found in this liboqs.
    pub suites: Vec<String>,
}

/// liboqs as a backend.
pub struct Liboqs {
    schemes: BTreeMap<Suite, Scheme>,
    info: LiboqsInfo,
}

fn init() {
    static INIT: Once = Once::new();
    // SAFETY: OQS_init only sets up liboqs's global state; Once runs it once.
    INIT.call_once(|| unsafe { OQS_init() });
}

impl Liboqs {
    /// Opens every suite the linked liboqs has.
    pub fn new() -> Self {
        init();
        let mut schemes = BTreeMap::new();
        for suite in Suite::ALL {
            let Ok(name) = CString::new(liboqs_name(suite)) else { continue };
            // SAFETY: `name` is a valid NUL-terminated string; OQS_SIG_new returns
            // NULL for a name it does not know or has not enabled.
            let sig = unsafe { OQS_SIG_new(name.as_ptr()) };
            if sig.is_null() {
                continue;
            }
            let scheme = Scheme(sig);
            // SAFETY: `sig` is non-null and points to an OQS_SIG liboqs initialised.
            let (pk_len, sig_len) = unsafe { ((*sig).length_public_key, (*sig).length_signature) };
            // Only a scheme with exactly FIPS's sizes is taken for the FIPS suite.
            if pk_len == suite.public_key_len() && sig_len == suite.signature_len() {
                schemes.insert(suite, scheme);
            }
        }
        // SAFETY: OQS_version returns a pointer to a static NUL-terminated string.
        let version = unsafe { CStr::from_ptr(OQS_version()) }.to_string_lossy().into_owned();
        // SAFETY: a pure query of the CPU flags liboqs detected at init.
        let avx2 = unsafe { OQS_CPU_has_extension(OQS_CPU_EXT::OQS_CPU_EXT_AVX2) } == 1;
        let suites = schemes.keys().map(|s| s.name().to_owned()).collect();
        Liboqs { schemes, info: LiboqsInfo { version, avx2, suites } }
    }

    /// The version, AVX2 use and suites of the linked liboqs.
    pub fn info(&self) -> &LiboqsInfo {
        &self.info
    }
}

impl Default for Liboqs {
    fn default() -> Self {
        Self::new()
    }
}

impl Backend for Liboqs {
    fn name(&self) -> &'static str {
        "liboqs"
    }

    fn version(&self) -> String {
        self.info.version.clone()
    }

    fn supports(&self, suite: Suite, interface: Interface) -> bool {
        interface == Interface::Pure && self.schemes.contains_key(&suite)
    }

    fn verify(&self, r: &Request<'_>) -> Result<bool, String> {
        let scheme = self.schemes.get(&r.suite).ok_or_else(|| format!("liboqs has no {}", r.suite))?;
        let Message::Pure { msg, ctx } = r.message else {
            return Err(format!("liboqs has no {} interface", r.interface()));
        };
        // liboqs reads exactly the scheme's key length from the pointer: a shorter key
        // would be read past its end, so the length is checked here, by this function.
        if r.public_key.len() != r.suite.public_key_len() {
            return Err(format!(
                "public key is {} bytes; {} public keys are {} bytes",
                r.public_key.len(),
                r.suite,
                r.suite.public_key_len()
            ));
        }
        // liboqs takes an empty context as NULL.
        let ctx_ptr = if ctx.is_empty() { std::ptr::null() } else { ctx.as_ptr() };
        // SAFETY: every pointer is valid for the length passed with it for the whole
        // call (borrowed slices), the key has the scheme's exact length (checked just
        // above), and liboqs only reads them.
        let status = unsafe {
            OQS_SIG_verify_with_ctx_str(
                scheme.0,
                msg.as_ptr(),
                msg.len(),
                r.signature.as_ptr(),
                r.signature.len(),
                ctx_ptr,
                ctx.len(),
                r.public_key.as_ptr(),
            )
        };
        Ok(status == OQS_STATUS::OQS_SUCCESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_of_the_wrong_length_is_an_error_not_a_read_past_its_end() {
        let liboqs = Liboqs::new();
        for len in [0usize, 1, 1311, 1313] {
            let key = vec![0u8; len];
            let sig = vec![0u8; 2420];
            let message = Message::Pure { msg: b"m", ctx: b"" };
            let r = Request { suite: Suite::MlDsa44, public_key: &key, message, signature: &sig };
            let err = liboqs.verify(&r).unwrap_err();
            assert!(err.contains(&format!("public key is {len} bytes")), "{err}");
        }
    }
}
