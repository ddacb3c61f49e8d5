//! The npm package `pqverify` in `target/npm/pqverify/`: both builds (paths remapped,
//! so the `.wasm` are reproducible and checked against `wasm/SHA256SUMS`), the per-scheme
//! builds, the wasm2js build, `embedded.js` (base64), the CommonJS and bundled entries
//! (esbuild), the README's size table; packed as `target/npm/pqverify-<version>.tgz`
//! and installed into the JS projects that test and measure it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::glue::lazy_text_decoder;
use crate::process::exec;
use crate::project::{bench_js, package_tools, root, test_js, testkit_js, www_dir};
use crate::wasm_setup::{rustflags, tool_path, tools};
use crate::wasm2js;
use crate::{Result, addon};

/// One wasm build of the package.
struct Build {
    /// Its folder in the package.
    dir: &'static str,
    /// With the simd128 kernels (RUSTFLAGS of [`rustflags`]).
    simd: bool,
    /// cargo's feature flags (which families the module holds; every build is the
    /// crate's `module`: no standard library).
    cargo_features: &'static [&'static str],
    /// Embedded in an entry (`embedded.js` beside it), or only shipped as a file.
    embedded: bool,
}

/// The builds: one per scheme (the default and per-scheme entries, simd128: every
/// engine that matters has wasm SIMD), every suite without SIMD (`pqverify/baseline`)
/// and every suite with it (the `.wasm` files of `pqverify/manual`).
const BUILDS: [Build; 4] = [
    Build { dir: "wasm", simd: false, cargo_features: &["--features", "module"], embedded: true },
    Build { dir: "wasm-simd", simd: true, cargo_features: &["--features", "module"], embedded: false },
    Build {
        dir: "wasm-ml-dsa",
        simd: true,
        cargo_features: &["--no-default-features", "--features", "ml-dsa,module"],
        embedded: true,
    },
    Build {
        dir: "wasm-slh-dsa",
        simd: true,
        cargo_features: &["--no-default-features", "--features", "slh-dsa,module"],
        embedded: true,
    },
];

/// The npm package directory.
pub(crate) fn package_dir() -> PathBuf {
    root().join("target/npm/pqverify")
}

/// Builds the package: wasm-pack (release, wasm-opt 132, weak refs) plus the JS layer,
/// and its platform packages (the native build, `addon`). Returns the packed tarballs.
pub(crate) fn build_package() -> Result<Packages> {
    tools()?;
    let root = root();
    for build in BUILDS {
        exec(
            &format!("wasm-pack build ({}, release, web target)", build.dir),
            Command::new("wasm-pack")
                .args(["build", "wasm", "--release", "--target", "web", "--weak-refs", "--no-pack"])
                .args(["--out-name", "pqverify_wasm", "--out-dir"])
                .arg(root.join("target/wasm-build").join(build.dir))
                .env("PATH", tool_path())
                .env("RUSTFLAGS", rustflags(build.simd))
                .env("CARGO_TARGET_DIR", root.join(if build.simd { "target/simd" } else { "target" }))
                .env("WASM_PACK_CACHE", root.join("target/wasm-pack-cache"))
                .current_dir(&root)
                .arg("--")
                .args(build.cargo_features),
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
    let mut wasm = Vec::new();
    for build in BUILDS {
        let out = root.join("target/wasm-build").join(build.dir);
        std::fs::create_dir_all(pkg.join(build.dir)).map_err(|e| e.to_string())?;
        for name in ["pqverify_wasm.d.ts", "pqverify_wasm_bg.wasm", "pqverify_wasm_bg.wasm.d.ts"] {
            copy(&out.join(name), &pkg.join(build.dir).join(name))?;
        }
        let glue = std::fs::read_to_string(out.join("pqverify_wasm.js")).map_err(|e| format!("glue: {e}"))?;
        write(&pkg.join(build.dir).join("pqverify_wasm.js"), &lazy_text_decoder(&glue)?)?;
        let file = pkg.join(build.dir).join("pqverify_wasm_bg.wasm");
        let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        if build.embedded {
            write(&pkg.join(build.dir).join("embedded.js"), &embedded_js(&bytes))?;
        }
        wasm.push((format!("{}/pqverify_wasm_bg.wasm", build.dir), bytes));
    }
    // The build for engines without WebAssembly: the same Rust, compiled to JavaScript.
    wasm2js::build(&pkg, &rustflags(false))?;
    let compiled = pkg.join(wasm2js::DIR).join(wasm2js::MODULE);
    let bytes = std::fs::read(&compiled).map_err(|e| format!("{}: {e}", compiled.display()))?;
    wasm.push((format!("{}/{}", wasm2js::DIR, wasm2js::MODULE), bytes));
    // Every entry's loader takes the glue of any build: it must be one file.
    let glue = |d: &str| std::fs::read(pkg.join(d).join("pqverify_wasm.js")).unwrap_or_default();
    if let Some(other) = BUILDS.iter().find(|b| glue(b.dir) != glue(BUILDS[0].dir)) {
        return Err(format!("the {} and {} builds produced different JS glue", BUILDS[0].dir, other.dir));
    }
    bundle_entries(&pkg)?;
    let declarations = std::fs::read_to_string(pkg.join("api.d.ts")).map_err(|e| format!("api.d.ts: {e}"))?;
    // CommonJS types: the API's declarations as .d.cts (one source, api.d.ts), and the
    // per-scheme entries' re-exports pointed at them.
    for name in ["api", "index", "baseline", "js"] {
        write(&pkg.join(format!("{name}.d.cts")), &declarations)?;
    }
    for name in ["ml-dsa", "slh-dsa"] {
        let esm = std::fs::read_to_string(pkg.join(format!("{name}.d.ts"))).map_err(|e| format!("{name}.d.ts: {e}"))?;
        write(&pkg.join(format!("{name}.d.cts")), &esm.replace("'./api.js'", "'./api.cjs'"))?;
    }
    write(&pkg.join("SHA256SUMS"), &sums(&wasm))?;
    check_recorded_sums("wasm/SHA256SUMS", &sums(&wasm), "the .wasm files")?;
    write_sizes(&pkg)?;
    let platforms = addon::build(&version(&pkg)?)?;
    let main = pack(&pkg)?;
    for (file, bytes) in &wasm {
        eprintln!("xtask: {file}: {} bytes", bytes.len());
    }
    eprintln!(
        "xtask: npm packages {} and {}",
        main.display(),
        platforms.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    Ok(Packages { main, platforms })
}

/// The packed packages: `pqverify` and its platform packages (in `addon::PLATFORMS`' order).
pub(crate) struct Packages {
    /// `target/npm/pqverify-<version>.tgz`.
    pub(crate) main: PathBuf,
    /// `target/npm/pqverify-<platform>-<version>.tgz`.
    pub(crate) platforms: Vec<PathBuf>,
}

impl Packages {
    /// The tarball of the platform package the machine running xtask installs.
    pub(crate) fn host_platform(&self) -> &Path {
        let host = addon::host();
        let index = addon::PLATFORMS.iter().position(|p| p.name == host.name).unwrap_or(0);
        &self.platforms[index]
    }
}

/// The package's version, from its `package.json` (the platform packages take it, and
/// `optionalDependencies` names it).
fn version(pkg: &Path) -> Result<String> {
    let text = std::fs::read_to_string(pkg.join("package.json")).map_err(|e| format!("package.json: {e}"))?;
    let manifest: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("package.json: {e}"))?;
    let version = manifest["version"].as_str().ok_or("package.json has no version")?.to_owned();
    for platform in &addon::PLATFORMS {
        let pinned = manifest["optionalDependencies"][platform.package()].as_str();
        if pinned != Some(version.as_str()) {
            return Err(format!(
                "package.json's optionalDependencies must pin {} to exactly {version}, got {pinned:?}",
                platform.package()
            ));
        }
    }
    Ok(version)
}

fn write(file: &Path, text: &str) -> Result {
    std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))
}

/// `embedded.js` of a build: its .wasm as a string of printable ASCII, for the entries
/// that compile synchronously and fetch nothing. Each byte value has a code of one
/// character (the 90 most frequent values in this module) or of two (`~` or `|`, then
/// one character): unlike base64 the code keeps the module's byte patterns for gzip
/// (the ML-DSA build: 28.9 KB gzip, the .wasm itself 28.6 KB, base64 39.7 KB), and
/// unlike a string of code points up to U+00FF no bundler or page encoding can alter
/// it. `CODES` lists the code of every byte value, 0 to 255, for the decoder (core.js).
fn embedded_js(wasm: &[u8]) -> String {
    // Characters a single-quoted literal keeps as they are ('<' too: no "</script").
    let alphabet: Vec<char> = (0x20u8..0x7f).map(char::from).filter(|c| !"'\\<~|".contains(*c)).collect();
    let mut count = [0usize; 256];
    for &b in wasm {
        count[usize::from(b)] += 1;
    }
    let mut order: Vec<u8> = (0..=255).collect();
    order.sort_by_key(|&b| (std::cmp::Reverse(count[usize::from(b)]), b));
    let mut code = vec![String::new(); 256];
    for (rank, &b) in order.iter().enumerate() {
        code[usize::from(b)] = match rank.checked_sub(alphabet.len()) {
            None => alphabet[rank].to_string(),
            Some(r) => format!("{}{}", if r < alphabet.len() { '~' } else { '|' }, alphabet[r % alphabet.len()]),
        };
    }
    let encoded: String = wasm.iter().map(|&b| code[usize::from(b)].as_str()).collect();
    format!(
        "// Generated by `cargo xtask` from pqverify_wasm_bg.wasm beside it (see SHA256SUMS).\n\
         export const CODES = '{}';\nexport const WASM = '{encoded}';\n",
        code.concat()
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
/// `<!-- /sizes -->`): what a bundler ships for each import (`testkit/js/bundle-sizes.mjs`,
/// the benchmark's measurement too, run on this package beside the benchmark's pinned
/// peers) and the `.wasm` files.
fn write_sizes(pkg: &Path) -> Result {
    // A folder whose node_modules resolves the package and the peers as a wallet's would.
    let dir = root().join("target/npm/sizes");
    let modules = dir.join("node_modules");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&modules).map_err(|e| e.to_string())?;
    let link = |from: &Path, name: &str| {
        std::os::unix::fs::symlink(from, modules.join(name)).map_err(|e| format!("link {name}: {e}"))
    };
    link(pkg, "pqverify")?;
    for peer in ["@noble", "@oqs", "ox"] {
        link(&bench_js().join("node_modules").join(peer), peer)?;
    }
    let out = Command::new("node")
        .arg(testkit_js().join("bundle-sizes.mjs"))
        .arg(&dir)
        .env("NODE_PATH", bench_js().join("node_modules"))
        .output()
        .map_err(|e| format!("node bundle-sizes.mjs: {e}"))?;
    if !out.status.success() {
        return Err(format!("node bundle-sizes.mjs: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let rows: Vec<serde_json::Value> =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("bundle-sizes.mjs printed no JSON: {e}"))?;
    let mut lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap_or(0) as usize;
            format!("| `{}` | {} | {} |", r["label"].as_str().unwrap_or("?"), group(n("bytes")), group(n("gzip_bytes")))
        })
        .collect();
    for build in BUILDS {
        let bytes = std::fs::read(pkg.join(build.dir).join("pqverify_wasm_bg.wasm")).map_err(|e| e.to_string())?;
        lines.push(format!(
            "| `{}/pqverify_wasm_bg.wasm` | {} | {} |",
            build.dir,
            group(bytes.len()),
            group(gzip_len(&bytes))
        ));
    }
    let table = format!(
        "<!-- sizes: written by `cargo xtask` when it builds the package -->\n\
         | what is shipped (esbuild --bundle --minify; or the file) | bytes | gzip -9 |\n|---|---:|---:|\n{}\n<!-- /sizes -->",
        lines.join("\n")
    );
    let readme = pkg.join("README.md");
    let text = std::fs::read_to_string(&readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    let (Some(start), Some(end)) = (text.find("<!-- sizes"), text.find("<!-- /sizes -->")) else {
        return Err("the package README has no <!-- sizes --> block".into());
    };
    let filled = format!("{}{table}{}", &text[..start], &text[end + "<!-- /sizes -->".len()..]);
    eprintln!("xtask: package sizes\n{}", lines.join("\n"));
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

/// The entries that embed their build, each as one file for `import` and one for
/// `require` (esbuild bundles of the source entry and the modules it imports; the
/// `embedded.js` files are then not shipped). One file loads faster than six. The
/// default ESM entry keeps the per-scheme entries as its imports (so a bundler drops
/// a scheme nobody imports); its CommonJS twin holds both. `pqverify/manual` keeps its
/// modules (its own instance).
fn bundle_entries(pkg: &Path) -> Result {
    let esbuild = |input: &str, format: &str, out: &str, external: &[&str]| {
        exec(
            &format!("esbuild {input} → {out}"),
            Command::new(package_tools().join("node_modules/.bin/esbuild"))
                .arg(pkg.join(input))
                .args(["--bundle", &format!("--format={format}"), "--platform=neutral", "--target=es2020"])
                .arg("--log-level=warning")
                // Short local names and simpler syntax: Node parses the ML-DSA entry about
                // 0.3 ms faster at import. Not --minify-whitespace, which would also drop
                // the pure annotations the users' bundlers tree-shake by.
                .args(["--minify-identifiers", "--minify-syntax"])
                .args(external.iter().map(|e| format!("--external:{e}")))
                // The glue's async default path (`new URL(…, import.meta.url)`) is never
                // taken by these entries; without the URL, bundlers do not look for the file.
                .arg("--define:import.meta.url=undefined")
                .arg("--log-override:empty-import-meta=silent")
                .arg(format!("--outfile={}", pkg.join(out).display())),
        )
    };
    // pqverify/js keeps its modules for import (the compiled build is one file already).
    esbuild("js.js", "cjs", "js.cjs", &[])?;
    for entry in ["ml-dsa", "slh-dsa", "baseline"] {
        esbuild(&format!("{entry}.js"), "cjs", &format!("{entry}.cjs"), &[])?;
        esbuild(&format!("{entry}.js"), "esm", &format!("{entry}.bundle.js"), &[])?;
    }
    esbuild("index.js", "cjs", "index.cjs", &[])?;
    esbuild("index.js", "esm", "index.bundle.js", &["./ml-dsa.js", "./slh-dsa.js"])?;
    // The Node, Bun and Deno entries (the `node` condition): the native build, or else
    // the WebAssembly entry of the same name, required only then. One file each (Node's
    // ESM loader costs about half a millisecond a file), for import and for require.
    for entry in ["index", "ml-dsa", "slh-dsa"] {
        for (format, out) in [("esm", "js"), ("cjs", "cjs")] {
            exec(
                &format!("esbuild {entry}-node.js → {entry}.node.{out}"),
                Command::new(package_tools().join("node_modules/.bin/esbuild"))
                    .arg(pkg.join(format!("{entry}-node.js")))
                    .args(["--bundle", &format!("--format={format}"), "--platform=node", "--target=node18"])
                    .args(["--log-level=warning", "--minify-identifiers", "--minify-syntax"])
                    // CommonJS has no import.meta: the file's own path serves createRequire.
                    .args(if format == "cjs" { &["--define:import.meta.url=__filename"][..] } else { &[] })
                    .arg(format!("--outfile={}", pkg.join(format!("{entry}.node.{out}")).display())),
            )?;
        }
    }
    for entry in ["ml-dsa", "slh-dsa", "baseline", "index"] {
        std::fs::rename(pkg.join(format!("{entry}.bundle.js")), pkg.join(format!("{entry}.js")))
            .map_err(|e| format!("{entry}.js: {e}"))?;
    }
    for build in BUILDS.iter().filter(|b| b.embedded) {
        let file = pkg.join(build.dir).join("embedded.js");
        std::fs::remove_file(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    // Only manual.js loads a glue file at run time (wasm/'s); the others are inside the bundles.
    for dir in ["wasm-simd", "wasm-ml-dsa", "wasm-slh-dsa"] {
        for name in ["pqverify_wasm.js", "pqverify_wasm.d.ts"] {
            let _ = std::fs::remove_file(pkg.join(dir).join(name));
        }
    }
    Ok(())
}

/// One `sha256sum` line: the SHA-256 of `bytes`, then `file`.
pub(crate) fn sum_line(file: &str, bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("{}  {file}\n", hex::encode(sha2::Sha256::digest(bytes)))
}

/// The `sha256sum` lines of the built modules (the .wasm files and the wasm2js
/// build), as in the package's SHA256SUMS.
fn sums(wasm: &[(String, Vec<u8>)]) -> String {
    wasm.iter().map(|(file, bytes)| sum_line(file, bytes)).collect()
}

/// The built files' sums (`built`, `sha256sum` lines) must be the ones recorded in
/// `recorded` (`wasm/SHA256SUMS`, `node/SHA256SUMS`): a wallet or a server rebuilding
/// the package from this commit gets the files it ships, byte for byte. A change to the
/// Rust code changes them; `PQVERIFY_RECORD_SUMS=1 cargo xtask test --only "npm package"`
/// records the new sums, which are then committed with the change.
pub(crate) fn check_recorded_sums(recorded: &str, built: &str, what: &str) -> Result {
    let file = root().join(recorded);
    if std::env::var("PQVERIFY_RECORD_SUMS").is_ok_and(|v| v == "1") {
        write(&file, built)?;
        eprintln!("xtask: recorded the sums of {what} in {recorded}");
        return Ok(());
    }
    let on_record = std::fs::read_to_string(&file).unwrap_or_default();
    if on_record != built {
        return Err(format!(
            "{what} built here are not the ones recorded in {recorded}.\nrecorded:\n{on_record}built:\n{built}\
             If the Rust code changed, record them: PQVERIFY_RECORD_SUMS=1 cargo xtask test --only \"npm package\""
        ));
    }
    eprintln!("xtask: {what} match {recorded}");
    Ok(())
}

/// `npm pack` of the package folder `dir` into `target/npm/`: the tarball.
pub(crate) fn pack(dir: &Path) -> Result<PathBuf> {
    let packed = Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(root().join("target/npm"))
        .current_dir(dir)
        .output()
        .map_err(|e| format!("npm pack: {e}"))?;
    if !packed.status.success() {
        return Err(format!("npm pack {}: {}", dir.display(), String::from_utf8_lossy(&packed.stderr)));
    }
    let name = String::from_utf8_lossy(&packed.stdout).trim().lines().last().unwrap_or_default().to_owned();
    Ok(root().join("target/npm").join(name))
}

/// Installs the packed package, with this machine's platform package (which its
/// `optionalDependencies` name), into the JS test project, the benchmark's Node runner
/// and the page, as a user would.
pub(crate) fn install_package(packages: &Packages) -> Result {
    for dir in [test_js(), bench_js(), www_dir()] {
        exec(
            &format!("npm install the packed pqverify into {}", dir.display()),
            Command::new("npm")
                .args(["install", "--no-save", "--no-audit", "--no-fund"])
                .arg(&packages.main)
                .arg(packages.host_platform())
                .current_dir(&dir),
        )?;
    }
    Ok(())
}
