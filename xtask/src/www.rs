//! The browser benchmark page: built into `benches/www/dist` (for the benchmark run and
//! the test steps), and `cargo xtask www`, which builds it and serves it.

use std::process::Command;

use crate::process::exec;
use crate::project::{root, testkit_js, www_dir};
use crate::{Result, bench, builds, package, setup};

/// Builds the package, the bench wasm and the page, then serves it on 127.0.0.1:8765.
pub(crate) fn run() -> Result {
    setup::all()?;
    let tarball = package::build_package()?;
    package::install_package(&tarball)?;
    bench::build_bench_wasm()?;
    build_www(crate::certificates::VALIDATORS, builds::Build::Release)?;
    exec(
        "serve benches/www/dist on http://127.0.0.1:8765/ (Ctrl-C stops)",
        Command::new("node").arg(testkit_js().join("serve.mjs")).arg(www_dir().join("dist")).arg("8765"),
    )
}

/// Builds the browser benchmark page into `benches/www/dist` (needs the package installed
/// and the bench wasm built), with the certificate fixtures of `validators` validators
/// (made, when missing, by `build`'s maker).
pub(crate) fn build_www(validators: u32, build: builds::Build) -> Result {
    let root = root();
    let www = www_dir();
    let generated = www.join("generated");
    std::fs::create_dir_all(&generated).map_err(|e| e.to_string())?;
    let bench = root.join("target/wasm-build/bench");
    for (from, name) in [
        (bench.join("pqverify_bench.js"), "pqverify_bench.js"),
        (bench.join("pqverify_bench_bg.wasm"), "pqverify_bench_bg.wasm"),
        (root.join("benches/fixtures/fixtures.json"), "fixtures.json"),
        (crate::certificates::fixtures(validators, build)?, "certificates.json"),
    ] {
        std::fs::copy(&from, generated.join(name)).map_err(|e| format!("copy {}: {e}", from.display()))?;
    }
    exec("vite build (benches/www)", Command::new(www.join("node_modules/.bin/vite")).arg("build").current_dir(&www))
}
