//! Where things are: the project root and the folders the commands share.

use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate's folder).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// `root/<relative>`.
pub(crate) fn path(relative: &str) -> PathBuf {
    root().join(relative)
}

/// The package's JS test project.
pub(crate) fn test_js() -> PathBuf {
    path("wasm/test-js")
}

/// The package's npm build tools (binaryen, esbuild).
pub(crate) fn package_tools() -> PathBuf {
    path("wasm/tools")
}

/// The benchmark page (Vite).
pub(crate) fn www_dir() -> PathBuf {
    path("benches/www")
}

/// The dev-only JS helpers the package tests, the page and the differential share.
pub(crate) fn testkit_js() -> PathBuf {
    path("testkit/js")
}

/// The benchmark's JS project: the Node runner and the peers it measures.
pub(crate) fn bench_js() -> PathBuf {
    path("benches/js")
}

/// Node 24 (the active LTS, pinned in `wasm/test-js/runtimes`, installed by the set-up):
/// the Node benchmark runs in it.
pub(crate) fn node24() -> crate::Result<PathBuf> {
    runtime("node24/bin/node", "Node 24")
}

/// Bun (pinned in `wasm/test-js/runtimes`, installed by the set-up): the benchmark's
/// Bun run.
pub(crate) fn bun() -> crate::Result<PathBuf> {
    runtime(".bin/bun", "Bun")
}

/// The runtime `what` at `relative` in `wasm/test-js/runtimes/node_modules`, or where it is missing.
fn runtime(relative: &str, what: &str) -> crate::Result<PathBuf> {
    let binary = test_js().join("runtimes/node_modules").join(relative);
    if binary.exists() {
        Ok(binary)
    } else {
        Err(format!(
            "{what} is missing at {}; the set-up installs it with `npm ci` in wasm/test-js/runtimes",
            binary.display()
        ))
    }
}
