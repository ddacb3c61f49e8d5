//! The browser benchmark page, built into `benches/www/dist` for the benchmark run, the
//! test steps and `cargo xtask www` (`bench::serve_page`).

use std::process::Command;

use crate::process::exec;
use crate::project::{root, www_dir};
use crate::{Result, builds};

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
