//! Installs what the README's commands need on a fresh machine, and nothing that is
//! already there.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::{Result, run};

/// Everything the current checks need.
pub(crate) fn all() -> Result {
    rust_target("wasm32-unknown-unknown")?;
    liboqs_build_tools()
}

/// The nightly toolchain and cargo-fuzz, for the fuzz targets.
pub(crate) fn fuzz_tools() -> Result {
    if !succeeds("rustup", &["run", "nightly", "rustc", "--version"]) {
        run(
            "rustup toolchain install nightly",
            Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]),
        )?;
    }
    if !succeeds("cargo", &["fuzz", "--version"]) {
        run("cargo install cargo-fuzz", Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    Ok(())
}

/// True when `cmd args…` runs and exits 0.
pub(crate) fn succeeds(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd).args(args).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
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

/// Whether a libclang shared library is where bindgen looks for it.
fn has_libclang() -> bool {
    let dirs = ["/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/local/lib"];
    let llvm = std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("llvm-"))
        .map(|e| e.path().join("lib"));
    dirs.iter().map(|d| Path::new(d).to_path_buf()).chain(llvm).any(|dir| {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("libclang"))
    })
}

/// `apt-get` as a command: directly as root, through sudo otherwise.
fn apt_get() -> Command {
    let uid = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    if uid.is_ok_and(|u| u == "0") {
        Command::new("apt-get")
    } else {
        let mut sudo = Command::new("sudo");
        sudo.arg("apt-get");
        sudo
    }
}

/// Installs Debian packages.
pub(crate) fn apt_install(packages: &[&str]) -> Result {
    run("apt-get update", apt_get().args(["update", "-qq"]))?;
    run(
        &format!("apt-get install {}", packages.join(" ")),
        apt_get().env("DEBIAN_FRONTEND", "noninteractive").args(["install", "-y", "-qq"]).args(packages),
    )
}

/// cmake, a C compiler and libclang: what the `oqs-sys` build script needs for liboqs.
fn liboqs_build_tools() -> Result {
    let mut missing = Vec::new();
    if !succeeds("cmake", &["--version"]) {
        missing.push("cmake");
    }
    if !succeeds("cc", &["--version"]) {
        missing.push("gcc");
    }
    if !has_libclang() {
        missing.push("libclang-dev");
    }
    if missing.is_empty() { Ok(()) } else { apt_install(&missing) }
}
