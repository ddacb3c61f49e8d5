//! A shared-library build of the liboqs source that `oqs-sys` vendors, so that the
//! tests can load a liboqs at run time the way a node with its own liboqs does.

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::process::{cargo, exec};
use crate::project::path;

/// The algorithms built: the ones the vendored release has of the 15 suites.
const ALGORITHMS: &str = "SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87";

/// Builds `target/liboqs-shared/lib/liboqs.so` once (kept while the source is the
/// same) and returns its path.
pub(crate) fn shared() -> Result<PathBuf> {
    let source = vendored_source()?;
    let build = path("target/liboqs-shared");
    let library = build.join("lib/liboqs.so");
    let stamp = build.join("source");
    let built_from = std::fs::read_to_string(&stamp).unwrap_or_default();
    if library.exists() && built_from == source.display().to_string() {
        return Ok(library);
    }
    let _ = std::fs::remove_dir_all(&build);
    exec(
        "cmake (liboqs, shared)",
        Command::new("cmake")
            .arg("-S")
            .arg(&source)
            .arg("-B")
            .arg(&build)
            .args(["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON", "-DOQS_BUILD_ONLY_LIB=ON"])
            // Run-time CPU dispatch, as oqs-sys builds it; no OpenSSL (none is needed).
            .args(["-DOQS_DIST_BUILD=ON", "-DOQS_USE_OPENSSL=OFF"])
            .arg(format!("-DOQS_MINIMAL_BUILD={ALGORITHMS}")),
    )?;
    exec("cmake --build (liboqs, shared)", Command::new("cmake").arg("--build").arg(&build).arg("--parallel"))?;
    if !library.exists() {
        return Err(format!("the liboqs build made no {}", library.display()));
    }
    std::fs::write(&stamp, source.display().to_string()).map_err(|e| format!("{}: {e}", stamp.display()))?;
    Ok(library)
}

/// The `liboqs` folder of the `oqs-sys` package cargo resolved.
fn vendored_source() -> Result<PathBuf> {
    // Not echoed: the metadata is one long JSON line.
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--locked"])
        .output()
        .map_err(|e| format!("cargo metadata: cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo metadata: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    let manifest = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "oqs-sys"))
        .and_then(|p| p["manifest_path"].as_str())
        .ok_or("cargo metadata: no oqs-sys package")?;
    let source = PathBuf::from(manifest).with_file_name("liboqs");
    if !source.join("CMakeLists.txt").exists() {
        return Err(format!("oqs-sys has no vendored liboqs source at {}", source.display()));
    }
    Ok(source)
}
