//! Shared-library builds of liboqs: the source `oqs-sys` vendors, so that the tests can
//! load a liboqs at run time the way a node with its own liboqs does, and liboqs 0.16
//! (from `shared/peers/`), a verifier of the differential campaign.

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::process::{cargo, exec};
use crate::project::path;

/// The algorithms built: the ones the vendored release has of the 15 suites.
const ALGORITHMS: &str = "SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87";

/// Builds `target/liboqs-shared/lib/liboqs.so` (the release `oqs-sys` vendors) once
/// (kept while the source is the same) and returns its path.
pub(crate) fn shared() -> Result<PathBuf> {
    build(&vendored_source()?, &path("target/liboqs-shared"), ALGORITHMS, &[])
}

/// The cmake arguments of a cross build for AArch64 Linux with Debian's cross compiler.
const AARCH64: &[&str] = &[
    "-DCMAKE_SYSTEM_NAME=Linux",
    "-DCMAKE_SYSTEM_PROCESSOR=aarch64",
    "-DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc",
    "-DCMAKE_ASM_COMPILER=aarch64-linux-gnu-gcc",
];

/// [`shared`] cross-built for AArch64: `target/liboqs-shared-aarch64/lib/liboqs.so`.
pub(crate) fn shared_aarch64() -> Result<PathBuf> {
    build(&vendored_source()?, &path("target/liboqs-shared-aarch64"), ALGORITHMS, AARCH64)
}

/// The liboqs 0.16 source archive in the workspace's `shared/peers/` (beside the
/// checkout, as CI lays it): mldsa-native and slhdsa-c, which crates.io does not have.
const PEER_ARCHIVE: &str = "liboqs-0.16.0-19-g8979276ad";

/// The 15 suites, as liboqs 0.16 names them.
const ALGORITHMS_016: &str = "SIG_ml_dsa_44;SIG_ml_dsa_65;SIG_ml_dsa_87;\
SIG_slh_dsa_pure_sha2_128s;SIG_slh_dsa_pure_sha2_128f;SIG_slh_dsa_pure_sha2_192s;SIG_slh_dsa_pure_sha2_192f;\
SIG_slh_dsa_pure_sha2_256s;SIG_slh_dsa_pure_sha2_256f;SIG_slh_dsa_pure_shake_128s;SIG_slh_dsa_pure_shake_128f;\
SIG_slh_dsa_pure_shake_192s;SIG_slh_dsa_pure_shake_192f;SIG_slh_dsa_pure_shake_256s;SIG_slh_dsa_pure_shake_256f";

/// Builds liboqs 0.16 (all 15 suites) as `target/liboqs-0.16/lib/liboqs.so` from the
/// archive in `../shared/peers/`, once, and returns its path.
pub(crate) fn peer_016() -> Result<PathBuf> {
    build(&peer_016_source()?, &path("target/liboqs-0.16"), ALGORITHMS_016, &[])
}

/// liboqs 0.16's ML-DSA without its AVX-512 SHA-3 (`OQS_USE_SHA3_AVX512VL=OFF`), i.e. on
/// the AVX2 code it runs on a CPU without AVX-512, as
/// `target/liboqs-0.16-avx2/lib/liboqs.so`: the benchmark's AVX2-against-AVX2 pair.
pub(crate) fn peer_016_avx2() -> Result<PathBuf> {
    // ALGORITHMS: the ML-DSA suites, named alike in both releases.
    build(&peer_016_source()?, &path("target/liboqs-0.16-avx2"), ALGORITHMS, &["-DOQS_USE_SHA3_AVX512VL=OFF"])
}

/// [`peer_016`] cross-built for AArch64 (mldsa-native's AArch64 backend):
/// `target/liboqs-0.16-aarch64/lib/liboqs.so`.
pub(crate) fn peer_016_aarch64() -> Result<PathBuf> {
    build(&peer_016_source()?, &path("target/liboqs-0.16-aarch64"), ALGORITHMS_016, AARCH64)
}

/// The liboqs that lies once (`wasm/test-js/fixtures/lying-liboqs.c`: liboqs 0.16 but for
/// one message), with which the package's tests inject a disagreement into the dual check
/// from Node: `target/lying-liboqs/liboqs.so`, built by the C compiler each time (a second).
pub(crate) fn lying_stand_in() -> Result<PathBuf> {
    let source = path("wasm/test-js/fixtures/lying-liboqs.c");
    let library = path("target/lying-liboqs/liboqs.so");
    std::fs::create_dir_all(path("target/lying-liboqs")).map_err(|e| e.to_string())?;
    exec(
        "cc lying-liboqs.c (the dual check's injected disagreement)",
        Command::new("cc")
            .args(["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o"])
            .arg(&library)
            .arg(&source)
            .arg("-ldl"),
    )?;
    Ok(library)
}

/// The liboqs 0.16 source, unpacked from `../shared/peers/` once.
fn peer_016_source() -> Result<PathBuf> {
    let archive = crate::project::root().join(format!("../shared/peers/{PEER_ARCHIVE}.tar.gz"));
    if !archive.exists() {
        return Err(format!(
            "the liboqs 0.16 source is missing at {}: the workspace's shared/peers/ holds it beside the checkout",
            archive.display()
        ));
    }
    let unpacked = path("target/liboqs-0.16-src");
    let source = unpacked.join(PEER_ARCHIVE);
    if !source.join("CMakeLists.txt").exists() {
        std::fs::create_dir_all(&unpacked).map_err(|e| format!("{}: {e}", unpacked.display()))?;
        exec("tar xzf (liboqs 0.16)", Command::new("tar").arg("xzf").arg(&archive).arg("-C").arg(&unpacked))?;
    }
    Ok(source)
}

/// Builds `build/lib/liboqs.so` from `source` with `algorithms` (and `extra` cmake
/// arguments: a cross compilation's, or options) once, kept while the source is the same, and returns
/// its path.
fn build(source: &std::path::Path, build: &std::path::Path, algorithms: &str, extra: &[&str]) -> Result<PathBuf> {
    let library = build.join("lib/liboqs.so");
    let stamp = build.join("source");
    let built_from = std::fs::read_to_string(&stamp).unwrap_or_default();
    if library.exists() && built_from == source.display().to_string() {
        return Ok(library);
    }
    let _ = std::fs::remove_dir_all(build);
    exec(
        "cmake (liboqs, shared)",
        Command::new("cmake")
            .arg("-S")
            .arg(source)
            .arg("-B")
            .arg(build)
            .args(["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON", "-DOQS_BUILD_ONLY_LIB=ON"])
            // Run-time CPU dispatch, as oqs-sys builds it; no OpenSSL (none is needed).
            .args(["-DOQS_DIST_BUILD=ON", "-DOQS_USE_OPENSSL=OFF", "-DCMAKE_ASM_COMPILER=gcc"])
            .arg(format!("-DOQS_MINIMAL_BUILD={algorithms}"))
            .args(extra),
    )?;
    exec("cmake --build (liboqs, shared)", Command::new("cmake").arg("--build").arg(build).arg("--parallel"))?;
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
