//! What the wasm builds and the JavaScript tests need: the wasm builds' flags,
//! wasm-bindgen-cli exactly as pinned in wasm/Cargo.toml and wasm-pack (cargo install),
//! the npm projects (`npm ci`: binaryen's wasm-opt 132, esbuild, the peers, bundlers and
//! runtimes the tests use) and the browsers the WebDriver checks drive.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;
use crate::process::{exec, succeeds};
use crate::project::{bench_js, package_tools, root, test_js, testkit_js, www_dir};
use crate::setup::apt_install;

/// RUSTFLAGS of the simd128 build. LLVM's own vectorisation is off there: measured in
/// Node 20 beside the same build with it, it made SLH-DSA-SHAKE-128s slower (899 against
/// 745 µs) and SLH-DSA-SHA2-128s (515 against 483 µs) and did not help ML-DSA-65 (105
/// against 109 µs; its `i64x2.mul` NTT is a slow path in V8); the explicit simd128
/// kernels do not need it, and the module is 3 KB smaller.
const SIMD_RUSTFLAGS: &str =
    "-C target-feature=+simd128 -C llvm-args=-vectorize-loops=false -C llvm-args=-vectorize-slp=false";

/// The RUSTFLAGS of a wasm build (baseline, or simd128 kernels). Source paths are
/// remapped so that the .wasm does not depend on where the checkout or cargo's home is:
/// the published build's sums are reproducible from any clone (wasm/SHA256SUMS).
pub(crate) fn rustflags(simd: bool) -> String {
    let remap = remap_flags();
    if simd { format!("{SIMD_RUSTFLAGS} {remap}") } else { remap }
}

/// The flags that take the checkout's and cargo's home's paths out of a build (the
/// `.wasm` and `.node` files are reproducible from any clone).
pub(crate) fn remap_flags() -> String {
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"));
    format!("--remap-path-prefix={}=/pqverify --remap-path-prefix={}=/cargo", root().display(), home.display())
}

/// The wasm-bindgen version pinned with `=` in wasm/Cargo.toml.
const WASM_BINDGEN: &str = "0.2.130";

/// PATH with the npm tools (wasm-opt 132) first, so wasm-pack never picks up Debian's binaryen 108.
pub(crate) fn tool_path() -> String {
    let bin = package_tools().join("node_modules/.bin");
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
    npm_ci(&package_tools())?;
    npm_ci(&testkit_js())?;
    npm_ci(&test_js())?;
    npm_ci(&bench_js())?;
    npm_ci(&root().join("differential/js"))?;
    // The runtimes the package is tested in (Node 24 …), pinned in their own project.
    npm_ci(&test_js().join("runtimes"))?;
    // The arm64 Node run under qemu-aarch64: npm installs a package for another CPU only
    // when forced (the project pins that one package, by its lock file's integrity).
    npm_ci_with(&test_js().join("runtimes-arm64"), &["--force"])?;
    // A local npm registry and pnpm, to install the package as users do.
    npm_ci(&test_js().join("registry"))?;
    npm_ci(&www_dir())
}

/// The other two browser engines, from Debian's packages: Firefox ESR and WebKitGTK
/// (its WebDriver and MiniBrowser), with a virtual X display for MiniBrowser.
pub(crate) fn browser_engines() -> Result {
    let present = ["/usr/bin/firefox-esr", "/usr/bin/WebKitWebDriver", "/usr/bin/xvfb-run"];
    if !present.iter().all(|p| Path::new(p).exists()) {
        apt_install(&["firefox-esr", "webkit2gtk-driver", "xvfb"])?;
    }
    for p in present {
        if !Path::new(p).exists() {
            return Err(format!("{p} is still missing after apt-get install firefox-esr webkit2gtk-driver xvfb"));
        }
    }
    Ok(())
}

/// `npm ci` in `dir` unless its node_modules is newer than its package-lock.json.
fn npm_ci(dir: &Path) -> Result {
    npm_ci_with(dir, &[])
}

/// [`npm_ci`] with extra arguments.
fn npm_ci_with(dir: &Path, extra: &[&str]) -> Result {
    let installed = dir.join("node_modules/.package-lock.json");
    let stale = match (std::fs::metadata(&installed), std::fs::metadata(dir.join("package-lock.json"))) {
        (Ok(i), Ok(l)) => i.modified().ok() < l.modified().ok(),
        _ => true,
    };
    if stale {
        exec(
            &format!("npm ci ({})", dir.display()),
            Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).args(extra).current_dir(dir),
        )?;
    }
    Ok(())
}
