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

/// The JS test project (and the home of the npm build tools).
pub(crate) fn test_js() -> PathBuf {
    path("wasm/test-js")
}
