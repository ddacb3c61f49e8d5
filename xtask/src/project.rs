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
    let node = test_js().join("runtimes/node_modules/node24/bin/node");
    if node.exists() {
        Ok(node)
    } else {
        Err(format!(
            "Node 24 is missing at {}; the set-up installs it with `npm ci` in wasm/test-js/runtimes",
            node.display()
        ))
    }
}

/// Bun (pinned in `wasm/test-js/runtimes`, installed by the set-up): the benchmark's
/// Bun run.
pub(crate) fn bun() -> crate::Result<PathBuf> {
    let bun = test_js().join("runtimes/node_modules/.bin/bun");
    if bun.exists() {
        Ok(bun)
    } else {
        Err(format!(
            "Bun is missing at {}; the set-up installs it with `npm ci` in wasm/test-js/runtimes",
            bun.display()
        ))
    }
}
