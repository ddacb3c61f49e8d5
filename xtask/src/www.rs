//! `cargo xtask www`: build the browser benchmark page and serve it.

use std::process::Command;

use crate::process::exec;
use crate::{Result, bench, project, setup, wasm};

/// Builds the package, the bench wasm and the page, then serves it on 127.0.0.1:8765.
pub(crate) fn run() -> Result {
    setup::all()?;
    let tarball = wasm::build_package()?;
    wasm::install_package(&tarball)?;
    bench::build_bench_wasm()?;
    wasm::build_www(crate::certificates::VALIDATORS, crate::builds::Build::Release)?;
    exec(
        "serve www/dist on http://127.0.0.1:8765/ (Ctrl-C stops)",
        Command::new("node").args(["serve.mjs", "dist", "8765"]).current_dir(project::path("www")),
    )
}
