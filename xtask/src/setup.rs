//! Installs what the README's commands need on a fresh machine, and nothing that is
//! already there.

use std::process::Command;

use crate::{Result, run};

/// Everything the current checks need.
pub(crate) fn all() -> Result {
    rust_target("wasm32-unknown-unknown")
}

/// Adds a Rust target through rustup when it is not installed yet.
fn rust_target(target: &str) -> Result {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("rustup is needed to add {target}: {e}"))?;
    if String::from_utf8_lossy(&installed.stdout).lines().any(|l| l.trim() == target) {
        return Ok(());
    }
    run(&format!("rustup target add {target}"), Command::new("rustup").args(["target", "add", target]))
}
