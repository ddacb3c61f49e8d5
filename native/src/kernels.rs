//! The kernel switch of the binaries: `PQVERIFY_KERNELS` names the kernel set
//! pqverify-core runs (`pqverify_core::available_kernels()`), for tests and
//! measurement; verdicts never depend on it.

/// The environment variable naming a kernel set: `avx512`, `avx2`, `portable` (x86-64).
pub const KERNELS_ENV: &str = "PQVERIFY_KERNELS";

/// Runs the kernel set `PQVERIFY_KERNELS` names, when it is set and not empty; an
/// error naming the sets this CPU has when it names another.
pub fn force_from_env() -> Result<(), String> {
    match std::env::var(KERNELS_ENV) {
        Ok(name) if !name.is_empty() => {
            pqverify_core::force_kernels(Some(&name)).map(|_| ()).map_err(|e| format!("{KERNELS_ENV}={name}: {e}"))
        }
        _ => Ok(()),
    }
}
