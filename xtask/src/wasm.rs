//! Building the npm package `pqverify` and its tools.
//!
//! * wasm-bindgen-cli exactly as pinned in wasm/Cargo.toml, and wasm-pack (cargo install);
//! * npm packages of `wasm/test-js` (binaryen's wasm-opt 132, @noble/post-quantum,
//!   Vite, Playwright's driver), through `npm ci`;
//! * the package in `target/npm/pqverify/`, packed as `target/npm/pqverify-<version>.tgz`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;
use crate::process::{exec, succeeds};
use crate::project::{root, test_js};
use crate::setup::apt_install;

/// RUSTFLAGS of the simd128 build. LLVM's own vectorisation is off there: measured in
/// Node 20 beside the same build with it, it made SLH-DSA-SHAKE-128s slower (899 against
/// 745 µs) and SLH-DSA-SHA2-128s (515 against 483 µs) and did not help ML-DSA-65 (105
/// against 109 µs; its `i64x2.mul` NTT is a slow path in V8); the explicit simd128
/// kernels do not need it, and the module is 3 KB smaller.
pub(crate) const SIMD_RUSTFLAGS: &str =
    "-C target-feature=+simd128 -C llvm-args=-vectorize-loops=false -C llvm-args=-vectorize-slp=false";

/// The wasm-bindgen version pinned with `=` in wasm/Cargo.toml.
const WASM_BINDGEN: &str = "0.2.130";

/// PATH with the npm tools (wasm-opt 132) first, so wasm-pack never picks up Debian's binaryen 108.
pub(crate) fn tool_path() -> String {
    let bin = test_js().join("node_modules/.bin");
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

fn version_of(cmd: &str) -> Option<String> {
    let out = Command::new(cmd).arg("--version").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// wasm-bindgen-cli (pinned), wasm-pack, node/npm, the npm packages, Chromium and its driver.
pub(crate) fn tools() -> Result {
    // wasm-pack and cargo's wasm32 runner each find these on PATH, by these names.
    let pinned = |tool: &str| version_of(tool).as_deref() == Some(&format!("{tool} {WASM_BINDGEN}"));
    if !pinned("wasm-bindgen") || !pinned("wasm-bindgen-test-runner") {
        // Not --locked: its lock file pins a webpki-roots that this registry lacks.
        exec(
            &format!("cargo install wasm-bindgen-cli {WASM_BINDGEN}"),
            Command::new("cargo").args(["install", "--force", "wasm-bindgen-cli", "--version", WASM_BINDGEN]),
        )?;
    }
    if version_of("wasm-pack").is_none() {
        exec("cargo install wasm-pack", Command::new("cargo").args(["install", "wasm-pack", "--locked"]))?;
    }
    if !succeeds("node", &["--version"]) || !succeeds("npm", &["--version"]) {
        apt_install(&["nodejs", "npm"])?;
    }
    if !Path::new("/usr/bin/chromium").exists() || !Path::new("/usr/bin/chromedriver").exists() {
        apt_install(&["chromium", "chromium-driver"])?;
    }
    for tool in ["wasm-bindgen", "wasm-bindgen-test-runner", "wasm-pack", "node", "npm", "/usr/bin/chromedriver"] {
        let found = version_of(tool).unwrap_or_else(|| "missing".into());
        eprintln!("xtask: setup: {tool}: {}", found.lines().next().unwrap_or_default());
    }
    npm_ci(&test_js())?;
    npm_ci(&root().join("www"))
}

/// `npm ci` in `dir` unless its node_modules is newer than its package-lock.json.
fn npm_ci(dir: &Path) -> Result {
    let installed = dir.join("node_modules/.package-lock.json");
    let stale = match (std::fs::metadata(&installed), std::fs::metadata(dir.join("package-lock.json"))) {
        (Ok(i), Ok(l)) => i.modified().ok() < l.modified().ok(),
        _ => true,
    };
    if stale {
        exec(
            &format!("npm ci ({})", dir.display()),
            Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir),
        )?;
    }
    Ok(())
}

/// The npm package directory.
pub(crate) fn package_dir() -> PathBuf {
    root().join("target/npm/pqverify")
}

/// Builds the package: wasm-pack (release, wasm-opt 132, weak refs) plus the JS layer.
/// Returns the packed tarball.
pub(crate) fn build_package() -> Result<PathBuf> {
    tools()?;
    let root = root();
    // Two builds of the same crate: baseline, and simd128 kernels (its own target dir,
    // so the two RUSTFLAGS do not rebuild each other).
    for (variant, rustflags, target_dir) in [("baseline", "", "target"), ("simd", SIMD_RUSTFLAGS, "target/simd")] {
        exec(
            &format!("wasm-pack build ({variant}, release, web target)"),
            Command::new("wasm-pack")
                .args(["build", "wasm", "--release", "--target", "web", "--weak-refs", "--no-pack"])
                .args(["--out-name", "pqverify_wasm", "--out-dir"])
                .arg(root.join("target/wasm-build").join(variant))
                .env("PATH", tool_path())
                .env("RUSTFLAGS", rustflags)
                .env("CARGO_TARGET_DIR", root.join(target_dir))
                .env("WASM_PACK_CACHE", root.join("target/wasm-pack-cache"))
                .current_dir(&root),
        )?;
    }
    let pkg = package_dir();
    let _ = std::fs::remove_dir_all(&pkg);
    let copy = |from: &Path, to: &Path| {
        std::fs::copy(from, to).map(|_| ()).map_err(|e| format!("copy {}: {e}", from.display()))
    };
    for entry in std::fs::read_dir(root.join("wasm/js")).map_err(|e| e.to_string())?.flatten() {
        if entry.path().is_file() {
            std::fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
            copy(&entry.path(), &pkg.join(entry.file_name()))?;
        }
    }
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        copy(&root.join(license), &pkg.join(license))?;
    }
    for (variant, dir) in [("baseline", "wasm"), ("simd", "wasm-simd")] {
        let out = root.join("target/wasm-build").join(variant);
        std::fs::create_dir_all(pkg.join(dir)).map_err(|e| e.to_string())?;
        for name in ["pqverify_wasm.js", "pqverify_wasm.d.ts", "pqverify_wasm_bg.wasm", "pqverify_wasm_bg.wasm.d.ts"] {
            copy(&out.join(name), &pkg.join(dir).join(name))?;
        }
    }
    // The loader uses one glue for both builds: it must be the same file.
    let glue = |d: &str| std::fs::read(pkg.join(d).join("pqverify_wasm.js")).unwrap_or_default();
    if glue("wasm") != glue("wasm-simd") {
        return Err("the baseline and simd128 builds produced different JS glue".into());
    }
    let packed = Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(root.join("target/npm"))
        .current_dir(&pkg)
        .output()
        .map_err(|e| format!("npm pack: {e}"))?;
    if !packed.status.success() {
        return Err(format!("npm pack: {}", String::from_utf8_lossy(&packed.stderr)));
    }
    let name = String::from_utf8_lossy(&packed.stdout).trim().lines().last().unwrap_or_default().to_owned();
    let tarball = root.join("target/npm").join(name);
    for dir in ["wasm", "wasm-simd"] {
        let wasm = pkg.join(dir).join("pqverify_wasm_bg.wasm");
        let raw = std::fs::read(&wasm).unwrap_or_default();
        eprintln!("xtask: {dir}/pqverify_wasm_bg.wasm: {} bytes", raw.len());
    }
    eprintln!("xtask: npm package {}", tarball.display());
    Ok(tarball)
}

/// Installs the packed package into the JS test project and the www page, as a user would.
pub(crate) fn install_package(tarball: &Path) -> Result {
    for dir in [test_js(), root().join("www")] {
        exec(
            &format!("npm install the packed pqverify into {}", dir.display()),
            Command::new("npm")
                .args(["install", "--no-save", "--no-audit", "--no-fund"])
                .arg(tarball)
                .current_dir(&dir),
        )?;
    }
    Ok(())
}

/// Builds the browser benchmark page into `www/dist` (needs the package installed
/// and the bench wasm built).
pub(crate) fn build_www() -> Result {
    let root = root();
    let www = root.join("www");
    let generated = www.join("generated");
    std::fs::create_dir_all(&generated).map_err(|e| e.to_string())?;
    let bench = root.join("target/wasm-build/bench");
    for (from, name) in [
        (bench.join("pqverify_bench.js"), "pqverify_bench.js"),
        (bench.join("pqverify_bench_bg.wasm"), "pqverify_bench_bg.wasm"),
        (root.join("benches/fixtures/fixtures.json"), "fixtures.json"),
    ] {
        std::fs::copy(&from, generated.join(name)).map_err(|e| format!("copy {}: {e}", from.display()))?;
    }
    exec("vite build (www)", Command::new(www.join("node_modules/.bin/vite")).arg("build").current_dir(&www))
}
