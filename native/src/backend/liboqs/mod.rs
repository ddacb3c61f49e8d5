//! liboqs as a backend: the statically linked vendored release, or a liboqs shared
//! library chosen at run time (`--liboqs PATH` or `PQVERIFY_LIBOQS`).
//!
//! Schemes are looked up by name, so a liboqs that has FIPS 205's `SLH_DSA_PURE_*`
//! (the vendored 0.13 has none) serves SLH-DSA with no code change. liboqs offers
//! only the pure interface, so it is asked only for that.
#![allow(unsafe_code, reason = "FFI calls into liboqs; each block states why it is sound")]

mod library;

use crate::backend::Fault;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_void};
use std::path::Path;

use pqverify_core::{Message, Suite};

pub use library::Source;
use library::{Library, OQS_SUCCESS, SigPrefix};

use super::{Backend, Interface, Request};

/// The environment variable naming a liboqs shared library to load instead of the
/// linked one.
pub const LIBOQS_ENV: &str = "PQVERIFY_LIBOQS";

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
struct Scheme {
    sig: *mut c_void,
    library: &'static Library,
}

// SAFETY: an OQS_SIG is an immutable descriptor (name, sizes, function pointers)
// created once by OQS_SIG_new; liboqs's verify functions read it and keep no state
// in it, so sharing it between threads is sound.
unsafe impl Send for Scheme {}
// SAFETY: as above, all access through it is read-only.
unsafe impl Sync for Scheme {}

impl Drop for Scheme {
    fn drop(&mut self) {
        // SAFETY: the pointer came from this library's OQS_SIG_new, is non-null and is
        // freed once; the library is never unloaded.
        unsafe { (self.library.sig_free)(self.sig) }
    }
}

/// What a liboqs is.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LiboqsInfo {
    /// `OQS_version()`, e.g. `0.13.0`.
    pub version: String,
    /// `linked` (the vendored release) or the path of the loaded shared library.
    pub library: String,
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
    /// What [`Backend::version`] answers: the version, and the path when loaded.
    version: String,
}

impl Liboqs {
    /// The vendored liboqs that the build linked in, with every suite it has
    /// (feature `linked-liboqs`).
    #[cfg(feature = "linked-liboqs")]
    pub fn new() -> Self {
        Self::open(library::linked())
    }

    /// The liboqs shared library at `path` (`liboqs.so`, any release ≥ 0.12), with
    /// every suite it has. Errors name the file and what was wrong with it: not
    /// loadable, not a liboqs, too old, or none of the 15 suites.
    pub fn load(path: &Path) -> Result<Self, String> {
        let liboqs = Self::open(library::load(path)?);
        if liboqs.schemes.is_empty() {
            return Err(format!(
                "{} (liboqs {}) has none of the 15 suites enabled (ML-DSA-44/65/87, SLH_DSA_PURE_*)",
                path.display(),
                liboqs.info.version
            ));
        }
        Ok(liboqs)
    }

    /// The library `PQVERIFY_LIBOQS` names when it is set, else the linked one (an
    /// error in a build without feature `linked-liboqs`).
    pub fn from_env() -> Result<Self, String> {
        match std::env::var_os(LIBOQS_ENV) {
            Some(path) if !path.is_empty() => Self::load(Path::new(&path)).map_err(|e| format!("{LIBOQS_ENV}: {e}")),
            #[cfg(feature = "linked-liboqs")]
            _ => Ok(Self::new()),
            #[cfg(not(feature = "linked-liboqs"))]
            _ => Err(format!("{LIBOQS_ENV} is not set and this build links no liboqs; name a liboqs shared library")),
        }
    }

    fn open(library: &'static Library) -> Self {
        let mut schemes = BTreeMap::new();
        for suite in Suite::ALL {
            let name = liboqs_name(suite);
            let Ok(c_name) = CString::new(name.as_str()) else { continue };
            // SAFETY: `c_name` is a valid NUL-terminated string; OQS_SIG_new returns
            // NULL for a name it does not know or has not enabled.
            let sig = unsafe { (library.sig_new)(c_name.as_ptr()) };
            if sig.is_null() {
                continue;
            }
            let scheme = Scheme { sig, library };
            // SAFETY: `sig` is non-null and points to an OQS_SIG liboqs initialised,
            // which starts with `SigPrefix`'s fields (see there); its method name is a
            // NUL-terminated string or NULL.
            let prefix = unsafe { &*sig.cast::<SigPrefix>() };
            let named = !prefix.method_name.is_null()
                // SAFETY: non-null, and a static NUL-terminated string in liboqs.
                && unsafe { CStr::from_ptr(prefix.method_name) }.to_bytes() == name.as_bytes();
            // Only a scheme whose name reads back and whose sizes are exactly FIPS's is
            // taken for the FIPS suite.
            if named
                && prefix.length_public_key == suite.public_key_len()
                && prefix.length_signature == suite.signature_len()
            {
                schemes.insert(suite, scheme);
            }
        }
        let suites = schemes.keys().map(|s| s.name().to_owned()).collect();
        let (library_name, version) = match &library.source {
            Source::Linked => ("linked".to_owned(), library.version.clone()),
            Source::Loaded(path) => (path.display().to_string(), format!("{} ({})", library.version, path.display())),
        };
        let info = LiboqsInfo { version: library.version.clone(), library: library_name, avx2: library.avx2, suites };
        Liboqs { schemes, info, version }
    }

    /// The version, library, AVX2 use and suites of this liboqs.
    pub fn info(&self) -> &LiboqsInfo {
        &self.info
    }
}

#[cfg(feature = "linked-liboqs")]
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
        self.version.clone()
    }

    fn supports(&self, suite: Suite, interface: Interface) -> bool {
        interface == Interface::Pure && self.schemes.contains_key(&suite)
    }

    fn verdict(&self, r: &Request<'_>) -> Result<bool, Fault> {
        let scheme = self.schemes.get(&r.suite()).ok_or_else(|| format!("liboqs has no {}", r.suite()))?;
        let Message::Pure { msg, ctx } = r.message else {
            return Err(format!("liboqs has no {} interface", r.interface()).into());
        };
        // liboqs takes an empty context as NULL.
        let ctx_ptr = if ctx.is_empty() { std::ptr::null() } else { ctx.as_ptr() };
        // SAFETY: every pointer is valid for the length passed with it for the whole
        // call (borrowed slices), the key has the scheme's exact length (a `PublicKey`
        // is checked when it is made), and liboqs only reads them.
        let status = unsafe {
            (scheme.library.verify_with_ctx)(
                scheme.sig,
                msg.as_ptr(),
                msg.len(),
                r.signature.as_ptr(),
                r.signature.len(),
                ctx_ptr,
                ctx.len(),
                r.public_key.as_bytes().as_ptr(),
            )
        };
        Ok(status == OQS_SUCCESS)
    }
}

#[cfg(all(test, feature = "linked-liboqs"))]
mod tests {
    use super::*;
    use pqverify_core::PublicKey;

    #[test]
    fn a_key_of_the_wrong_length_never_reaches_liboqs() {
        // liboqs reads exactly the scheme's key length from the pointer: a request holds
        // only a `PublicKey`, which cannot be made from a key of another length.
        for len in [0usize, 1, 1311, 1313] {
            let err = PublicKey::from_raw(Suite::MlDsa44, &vec![0u8; len]).unwrap_err();
            assert!(err.to_string().contains(&format!("public key is {len} bytes")), "{err}");
        }
        let (key, sig) = (vec![0u8; 1312], vec![0u8; 2420]);
        let message = Message::Pure { msg: b"m", ctx: b"" };
        let r = Request { public_key: PublicKey::from_raw(Suite::MlDsa44, &key).unwrap(), message, signature: &sig };
        assert_eq!(Liboqs::new().verdict(&r), Ok(false));
    }
}
