//! The module's shadow stack: 128 KiB instead of the linker's 1 MiB default.
//!
//! Every NIST ACVP case of the 15 suites, one-shot and prepared, reaches at most 35,408
//! bytes of stack (measured by painting the stack region in Node, 2026-12-03): 128 KiB
//! leaves that room more than three times over, and a module starts with 3 pages of
//! memory instead of 17 (every instance, and each worker of a pool, holds 0.9 MiB less).
//! The stack sits below the data (rustc links wasm with `--stack-first`), so running
//! out would trap, never overwrite. Only the cdylib (the package's modules): the wasm
//! tests' harness keeps the default.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=131072");
    }
}
