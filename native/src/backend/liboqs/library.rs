//! The liboqs functions this backend calls, from one of two places: the liboqs that
//! `oqs-sys` links in (vendored 0.13), or a liboqs shared library loaded by path at
//! run time (a node's own, newer build).
//!
//! Both are reached through the same table of C function pointers, and a scheme's
//! sizes are read through one struct prefix, so there is one code path above this
//! module whatever the source.
#![allow(unsafe_code, reason = "FFI into liboqs; each block states why it is sound")]

use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// `OQS_SIG *OQS_SIG_new(const char *method_name)`
type SigNew = unsafe extern "C" fn(*const c_char) -> *mut c_void;
/// `void OQS_SIG_free(OQS_SIG *sig)`
type SigFree = unsafe extern "C" fn(*mut c_void);
/// `OQS_STATUS OQS_SIG_verify_with_ctx_str(sig, msg, msg_len, sig, sig_len, ctx, ctx_len, pk)`
type VerifyWithCtx =
    unsafe extern "C" fn(*const c_void, *const u8, usize, *const u8, usize, *const u8, usize, *const u8) -> c_int;
/// `const char *OQS_version(void)`
type Version = unsafe extern "C" fn() -> *const c_char;
/// `void OQS_init(void)`
type Init = unsafe extern "C" fn();
/// `int OQS_CPU_has_extension(OQS_CPU_EXT ext)`
type CpuHasExtension = unsafe extern "C" fn(c_int) -> c_int;

/// `OQS_SUCCESS` (0 in every liboqs release).
pub(super) const OQS_SUCCESS: c_int = 0;

/// The first fields of liboqs's `OQS_SIG`. Every release from 0.8 to 0.13 starts with
/// two string pointers, one to four one-byte fields (level and flags, padded to eight
/// bytes) and the three sizes; releases differ only in the one-byte fields, which the
/// padding absorbs. The method name is compared with the name asked for before any
/// size is trusted, so a library whose layout differs is refused, not misread.
#[repr(C)]
pub(super) struct SigPrefix {
    pub method_name: *const c_char,
    alg_version: *const c_char,
    small_fields: [u8; 8],
    pub length_public_key: usize,
    pub length_secret_key: usize,
    pub length_signature: usize,
}

/// Where the functions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The liboqs built and statically linked by `oqs-sys`.
    Linked,
    /// A shared library loaded from this path.
    Loaded(PathBuf),
}

/// The liboqs functions, resolved once per source and kept for the whole process.
pub(super) struct Library {
    pub source: Source,
    pub sig_new: SigNew,
    pub sig_free: SigFree,
    pub verify_with_ctx: VerifyWithCtx,
    pub version: String,
    pub avx2: bool,
}

/// `OQS_CPU_EXT_AVX2`'s value in the headers of 0.13 (the linked release's, a test
/// checks) and 0.16. Should a loaded release number its CPU flags differently, only the
/// `avx2` field of reports would be wrong, never a verdict.
const OQS_CPU_EXT_AVX2: c_int = 4;

/// The liboqs the build linked in (feature `linked-liboqs`).
#[cfg(feature = "linked-liboqs")]
pub(super) fn linked() -> &'static Library {
    static LINKED: OnceLock<Library> = OnceLock::new();
    LINKED.get_or_init(|| {
        use oqs_sys::{common, sig};
        // The linked functions take liboqs's own types; these shims give them the
        // table's types (the same C signatures).
        unsafe extern "C" fn sig_new(name: *const c_char) -> *mut c_void {
            // SAFETY: forwarded unchanged; the caller upholds OQS_SIG_new's contract.
            unsafe { sig::OQS_SIG_new(name).cast() }
        }
        unsafe extern "C" fn sig_free(s: *mut c_void) {
            // SAFETY: forwarded unchanged; `s` came from `sig_new`.
            unsafe { sig::OQS_SIG_free(s.cast()) }
        }
        #[allow(clippy::too_many_arguments, reason = "the C function's signature")]
        unsafe extern "C" fn verify(
            s: *const c_void,
            m: *const u8,
            m_len: usize,
            g: *const u8,
            g_len: usize,
            c: *const u8,
            c_len: usize,
            pk: *const u8,
        ) -> c_int {
            // SAFETY: forwarded unchanged; the caller upholds the function's contract.
            unsafe { sig::OQS_SIG_verify_with_ctx_str(s.cast(), m, m_len, g, g_len, c, c_len, pk) as c_int }
        }
        // SAFETY: OQS_init only sets up liboqs's global state, once (OnceLock).
        unsafe { common::OQS_init() };
        // SAFETY: OQS_version returns a pointer to a static NUL-terminated string.
        let version = unsafe { CStr::from_ptr(common::OQS_version()) }.to_string_lossy().into_owned();
        // SAFETY: a pure query of the CPU flags liboqs detected at init.
        let avx2 = unsafe { common::OQS_CPU_has_extension(common::OQS_CPU_EXT::OQS_CPU_EXT_AVX2) } == 1;
        Library { source: Source::Linked, sig_new, sig_free, verify_with_ctx: verify, version, avx2 }
    })
}

/// The oldest liboqs with `OQS_SIG_verify_with_ctx_str` (FIPS 204's context string).
const OLDEST: (u32, u32) = (0, 12);

/// Loads the liboqs shared library at `path` (once per path per process: the library
/// stays loaded, because liboqs keeps global state that unloading would leave dangling).
pub(super) fn load(path: &Path) -> Result<&'static Library, String> {
    static LOADED: OnceLock<Mutex<HashMap<PathBuf, &'static Library>>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(library) = loaded.get(path) {
        return Ok(library);
    }
    let library: &'static Library = Box::leak(Box::new(open(path)?));
    loaded.insert(path.to_owned(), library);
    Ok(library)
}

fn open(path: &Path) -> Result<Library, String> {
    let shown = path.display();
    // SAFETY: loading runs the library's initialisers; the caller chose this file as
    // its liboqs (an option or environment variable), as with any shared library.
    let lib = unsafe { libloading::Library::new(path) }
        .map_err(|e| format!("cannot load the liboqs shared library {shown}: {e}"))?;
    macro_rules! symbol {
        ($name:literal, $ty:ty) => {
            // SAFETY: the name is liboqs's public API and the type its C signature in
            // every release from OLDEST on; the version is checked before any function
            // but OQS_version is called.
            *unsafe { lib.get::<$ty>(concat!($name, "\0").as_bytes()) }.map_err(|_| {
                format!("{shown} is not a liboqs with FIPS 204 contexts: it has no `{}` (liboqs ≥ 0.12 has)", $name)
            })?
        };
    }
    let version_fn: Version = symbol!("OQS_version", Version);
    // SAFETY: OQS_version returns a pointer to a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(version_fn()) }.to_string_lossy().into_owned();
    if parse_version(&version).is_none_or(|v| v < OLDEST) {
        return Err(format!(
            "{shown} is liboqs {version}; pqverify needs liboqs ≥ {}.{} (FIPS 204 context strings)",
            OLDEST.0, OLDEST.1
        ));
    }
    let init: Init = symbol!("OQS_init", Init);
    let cpu_has: CpuHasExtension = symbol!("OQS_CPU_has_extension", CpuHasExtension);
    let sig_new: SigNew = symbol!("OQS_SIG_new", SigNew);
    let sig_free: SigFree = symbol!("OQS_SIG_free", SigFree);
    let verify_with_ctx: VerifyWithCtx = symbol!("OQS_SIG_verify_with_ctx_str", VerifyWithCtx);
    // SAFETY: OQS_init sets up the library's global state; `load` calls `open` once
    // per path, under a lock.
    unsafe { init() };
    // SAFETY: a pure query of the CPU flags liboqs detected at init.
    let avx2 = unsafe { cpu_has(OQS_CPU_EXT_AVX2) } == 1;
    // The functions above point into `lib`, which must outlive them: it is never
    // unloaded (see `load`).
    std::mem::forget(lib);
    Ok(Library { source: Source::Loaded(path.to_owned()), sig_new, sig_free, verify_with_ctx, version, avx2 })
}

/// `0.13.0`, `0.14.1-rc1` → (0, 13), (0, 14).
fn parse_version(version: &str) -> Option<(u32, u32)> {
    let mut parts = version.split(['.', '-']);
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_to_major_minor() {
        assert_eq!(parse_version("0.13.0"), Some((0, 13)));
        assert_eq!(parse_version("0.14.1-rc1"), Some((0, 14)));
        assert_eq!(parse_version("1.0"), Some((1, 0)));
        assert_eq!(parse_version("banana"), None);
        assert!(parse_version("0.11.0").unwrap() < OLDEST);
    }

    #[test]
    fn a_file_that_is_not_a_library_is_an_error() {
        let dir = std::env::temp_dir().join(format!("pqverify-liboqs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("liboqs.so");
        std::fs::write(&file, b"not an ELF file").unwrap();
        let err = load(&file).err().unwrap();
        assert!(err.starts_with("cannot load the liboqs shared library"), "{err}");
        let err = load(&dir.join("missing.so")).err().unwrap();
        assert!(err.contains("missing.so"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_library_without_liboqs_symbols_is_refused_by_name() {
        // libm is on every glibc machine and is not liboqs.
        let err = load(Path::new("libm.so.6")).err().unwrap();
        assert!(err.contains("has no `OQS_version`"), "{err}");
    }

    #[cfg(feature = "linked-liboqs")]
    #[test]
    fn the_avx2_flag_is_numbered_as_in_the_linked_header() {
        assert_eq!(OQS_CPU_EXT_AVX2, oqs_sys::common::OQS_CPU_EXT::OQS_CPU_EXT_AVX2 as c_int);
    }

    #[cfg(feature = "linked-liboqs")]
    #[test]
    fn the_linked_liboqs_is_0_13() {
        let library = linked();
        assert_eq!(library.source, Source::Linked);
        assert!(library.version.starts_with("0.13."), "{}", library.version);
    }
}
