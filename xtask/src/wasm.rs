//! Building the npm package `pqverify` and its tools.
//!
//! * wasm-bindgen-cli exactly as pinned in wasm/Cargo.toml, and wasm-pack (cargo install);
//! * npm packages of `wasm/test-js` (binaryen's wasm-opt 132, esbuild, the peers and the
//!   bundlers and browsers the tests use), through `npm ci`;
//! * the package in `target/npm/pqverify/`: both builds (paths remapped, so the `.wasm`
//!   are reproducible and checked against `wasm/SHA256SUMS`), `embedded.js` (both as
//!   base64), `index.cjs` (esbuild), the README's size table; packed as
//!   `target/npm/pqverify-<version>.tgz`.

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
const SIMD_RUSTFLAGS: &str =
    "-C target-feature=+simd128 -C llvm-args=-vectorize-loops=false -C llvm-args=-vectorize-slp=false";

/// The RUSTFLAGS of a wasm build (baseline, or simd128 kernels). Source paths are
/// remapped so that the .wasm does not depend on where the checkout or cargo's home is:
/// the published build's sums are reproducible from any clone (wasm/SHA256SUMS).
pub(crate) fn rustflags(simd: bool) -> String {
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"));
    let remap =
        format!("--remap-path-prefix={}=/pqverify --remap-path-prefix={}=/cargo", root().display(), home.display());
    if simd { format!("{SIMD_RUSTFLAGS} {remap}") } else { remap }
}

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
    for (variant, rustflags, target_dir) in
        [("baseline", rustflags(false), "target"), ("simd", rustflags(true), "target/simd")]
    {
        exec(
            &format!("wasm-pack build ({variant}, release, web target)"),
            Command::new("wasm-pack")
                .args(["build", "wasm", "--release", "--target", "web", "--weak-refs", "--no-pack"])
                .args(["--out-name", "pqverify_wasm", "--out-dir"])
                .arg(root.join("target/wasm-build").join(variant))
                .env("PATH", tool_path())
                .env("RUSTFLAGS", &rustflags)
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
    let wasm_of = |dir: &str| {
        let file = pkg.join(dir).join("pqverify_wasm_bg.wasm");
        std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))
    };
    let (baseline, simd) = (wasm_of("wasm")?, wasm_of("wasm-simd")?);
    write(&pkg.join("embedded.js"), &embedded_js(&baseline, &simd))?;
    bundle_entries(&pkg)?;
    // The CommonJS entry's types: the API's declarations as a .d.cts (one source, api.d.ts).
    copy(&pkg.join("api.d.ts"), &pkg.join("index.d.cts"))?;
    write(&pkg.join("SHA256SUMS"), &sums(&baseline, &simd))?;
    check_recorded_sums(&baseline, &simd)?;
    write_sizes(&pkg)?;
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

fn write(file: &Path, text: &str) -> Result {
    std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))
}

/// `embedded.js`: both builds as base64 strings, for the entry that compiles
/// synchronously and fetches nothing.
fn embedded_js(baseline: &[u8], simd: &[u8]) -> String {
    use base64::Engine;
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    format!(
        "// Generated by `cargo xtask` from the two .wasm builds of this package (see SHA256SUMS).\n\
         export const BASELINE = '{}';\nexport const SIMD = '{}';\n",
        b64(baseline),
        b64(simd)
    )
}

/// gzip -9 size of `bytes`.
fn gzip_len(bytes: &[u8]) -> usize {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = encoder.write_all(bytes);
    encoder.finish().map_or(0, |v| v.len())
}

/// Fills the sizes table of the package's README (between `<!-- sizes` and
/// `<!-- /sizes -->`) with what each entry loads, raw and gzip.
fn write_sizes(pkg: &Path) -> Result {
    let read = |name: &str| std::fs::read(pkg.join(name)).map_err(|e| format!("{name}: {e}"));
    let glue = "wasm/pqverify_wasm.js";
    let shared = ["api.js", "core.js", "tables.js", glue];
    let mut rows = Vec::new();
    let mut entry = |label: &str, files: &[&str]| -> Result {
        let mut bytes = Vec::new();
        for f in files {
            bytes.extend(read(f)?);
        }
        rows.push(format!("| {label} | {} | {} |", group(bytes.len()), group(gzip_len(&bytes))));
        Ok(())
    };
    entry("`pqverify` (ESM: `index.js`, both builds embedded)", &["index.js"])?;
    entry("`pqverify` (CommonJS: `index.cjs`)", &["index.cjs"])?;
    let manual: Vec<&str> = [&["manual.js", "load.js"][..], &shared].concat();
    entry("`pqverify/manual` (JS only)", &manual)?;
    entry("`wasm/pqverify_wasm_bg.wasm` (baseline)", &["wasm/pqverify_wasm_bg.wasm"])?;
    entry("`wasm-simd/pqverify_wasm_bg.wasm` (simd128)", &["wasm-simd/pqverify_wasm_bg.wasm"])?;
    let table = format!(
        "<!-- sizes: written by `cargo xtask` when it builds the package -->\n\
         | what is loaded | bytes | gzip -9 |\n|---|---:|---:|\n{}\n<!-- /sizes -->",
        rows.join("\n")
    );
    let readme = pkg.join("README.md");
    let text = std::fs::read_to_string(&readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    let (Some(start), Some(end)) = (text.find("<!-- sizes"), text.find("<!-- /sizes -->")) else {
        return Err("the package README has no <!-- sizes --> block".into());
    };
    let filled = format!("{}{table}{}", &text[..start], &text[end + "<!-- /sizes -->".len()..]);
    eprintln!("xtask: package sizes\n{}", rows.join("\n"));
    write(&readme, &filled)
}

/// 125325 → 125,325.
fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The self-initialising entry as one file each for `import` (`index.js`) and
/// `require` (`index.cjs`), bundled by esbuild from the source's `index.js` and the
/// modules it imports (with `embedded.js`, which is then not shipped). One file loads
/// faster: a fresh Node process imports the ESM bundle in about 4 ms against 5.6 ms
/// for its six modules. `pqverify/manual` keeps its modules (its own instance).
fn bundle_entries(pkg: &Path) -> Result {
    for (format, out) in [("cjs", "index.cjs"), ("esm", "index.bundle.js")] {
        exec(
            &format!("esbuild index.js → {out}"),
            Command::new(test_js().join("node_modules/.bin/esbuild"))
                .arg(pkg.join("index.js"))
                .args(["--bundle", &format!("--format={format}"), "--platform=neutral", "--target=es2020"])
                .arg("--log-level=warning")
                // The glue's async default path (`new URL(…, import.meta.url)`) is never
                // taken by this entry; without the URL, bundlers do not look for the file.
                .arg("--define:import.meta.url=undefined")
                .arg("--log-override:empty-import-meta=silent")
                .arg(format!("--outfile={}", pkg.join(out).display())),
        )?;
    }
    std::fs::rename(pkg.join("index.bundle.js"), pkg.join("index.js")).map_err(|e| format!("index.js: {e}"))?;
    std::fs::remove_file(pkg.join("embedded.js")).map_err(|e| format!("embedded.js: {e}"))
}

/// The `sha256sum` lines of the two .wasm files, as in the package's SHA256SUMS.
fn sums(baseline: &[u8], simd: &[u8]) -> String {
    use sha2::Digest;
    let line = |bytes: &[u8], name: &str| format!("{}  {name}\n", hex(&sha2::Sha256::digest(bytes)));
    line(baseline, "wasm/pqverify_wasm_bg.wasm") + &line(simd, "wasm-simd/pqverify_wasm_bg.wasm")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The recorded sums of the published build.
const RECORDED_SUMS: &str = "wasm/SHA256SUMS";

/// The .wasm files just built must be the recorded ones: a wallet rebuilding the
/// package from this commit gets the files it ships, byte for byte. A change to the
/// Rust code changes them; `PQVERIFY_RECORD_SUMS=1 cargo xtask test --only "npm package"`
/// records the new sums, which are then committed with the change.
fn check_recorded_sums(baseline: &[u8], simd: &[u8]) -> Result {
    let built = sums(baseline, simd);
    let file = root().join(RECORDED_SUMS);
    if std::env::var("PQVERIFY_RECORD_SUMS").is_ok_and(|v| v == "1") {
        write(&file, &built)?;
        eprintln!("xtask: recorded the .wasm sums in {RECORDED_SUMS}");
        return Ok(());
    }
    let recorded = std::fs::read_to_string(&file).unwrap_or_default();
    if recorded != built {
        return Err(format!(
            "the .wasm files built here are not the ones recorded in {RECORDED_SUMS}.\nrecorded:\n{recorded}built:\n{built}\
             If the Rust code changed, record them: PQVERIFY_RECORD_SUMS=1 cargo xtask test --only \"npm package\""
        ));
    }
    eprintln!("xtask: the .wasm files match {RECORDED_SUMS}");
    Ok(())
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
