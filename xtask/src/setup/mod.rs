//! Installs what the README's commands need on a fresh machine, and nothing that is
//! already there.

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::process::{exec, succeeds};

mod detect;

use detect::Probe;

/// Everything the current checks need.
pub(crate) fn all() -> Result {
    rust_target("wasm32-unknown-unknown")?;
    liboqs_build_tools()?;
    aarch64_tools()
}

/// What the AArch64 tests and counts need: the Rust target, Debian's cross compiler
/// and C library (the linker, the `cc` crate and cmake call the compiler by name), and
/// qemu-user (`qemu-aarch64`, which runs the binaries and loads the counting plugin).
pub(crate) fn aarch64_tools() -> Result {
    rust_target("aarch64-unknown-linux-gnu")?;
    tools(&AARCH64_TOOLS)
}

/// See [`aarch64_tools`].
const AARCH64_TOOLS: [Tool; 3] = [
    Tool { name: "AArch64 cross compiler", find: Probe::aarch64_gcc, packages: &["gcc-aarch64-linux-gnu"] },
    Tool { name: "AArch64 C library", find: Probe::aarch64_libc, packages: &["libc6-dev-arm64-cross"] },
    Tool { name: "qemu-aarch64", find: Probe::qemu_aarch64, packages: &["qemu-user"] },
];

/// llvm-mca, for `cargo xtask count`'s estimates of the Keccak kernels on Arm cores.
pub(crate) fn llvm_mca() -> Result<PathBuf> {
    tools(&[Tool { name: "llvm-mca (LLVM 16)", find: Probe::llvm_mca, packages: &["llvm-16"] }])?;
    Probe::system().llvm_mca().ok_or_else(|| "llvm-mca: not found after installing llvm-16".to_owned())
}

/// The nightly toolchain and cargo-fuzz, for the fuzz targets.
pub(crate) fn fuzz_tools() -> Result {
    if !succeeds("rustup", &["run", "nightly", "rustc", "--version"]) {
        exec(
            "rustup toolchain install nightly",
            Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]),
        )?;
    }
    if !succeeds("cargo", &["fuzz", "--version"]) {
        exec("cargo install cargo-fuzz", Command::new("cargo").args(["install", "cargo-fuzz", "--locked"]))?;
    }
    Ok(())
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
    exec(&format!("rustup target add {target}"), Command::new("rustup").args(["target", "add", target]))
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
    exec("apt-get update", apt_get().args(["update", "-qq"]))?;
    exec(
        &format!("apt-get install {}", packages.join(" ")),
        apt_get().env("DEBIAN_FRONTEND", "noninteractive").args(["install", "-y", "-qq"]).args(packages),
    )
}

/// A build tool: how it is found and which Debian packages bring it.
struct Tool {
    /// What the user is told.
    name: &'static str,
    /// Where its consumer would find it, or `None`.
    find: fn(&Probe) -> Option<PathBuf>,
    /// What `apt-get install` needs when it is missing.
    packages: &'static [&'static str],
}

/// What the `oqs-sys` build script needs for liboqs: cmake (the `cmake` crate), a C
/// compiler (the `cc` crate) and libclang (bindgen, through clang-sys).
const LIBOQS_BUILD_TOOLS: [Tool; 3] = [
    Tool { name: "cmake", find: Probe::cmake, packages: &["cmake"] },
    Tool { name: "C compiler", find: Probe::cc, packages: &["gcc"] },
    Tool { name: "libclang (for bindgen)", find: Probe::libclang, packages: &["libclang-dev"] },
];

/// The Debian packages to install so that every tool is found on `probe`'s system,
/// with a line per tool saying what was found.
fn plan(probe: &Probe, tools: &[Tool]) -> (Vec<&'static str>, Vec<String>) {
    let mut packages = Vec::new();
    let mut report = Vec::new();
    for tool in tools {
        match (tool.find)(probe) {
            Some(path) => report.push(format!("{}: {}", tool.name, path.display())),
            None => {
                report.push(format!("{}: missing, installing {}", tool.name, tool.packages.join(" ")));
                packages.extend(tool.packages);
            }
        }
    }
    (packages, report)
}

/// Installs what liboqs's build needs.
fn liboqs_build_tools() -> Result {
    tools(&LIBOQS_BUILD_TOOLS)
}

/// Installs what is missing of `tools`, then checks that each is now found where its
/// consumer looks (a package that installs but is not found would fail later, obscurely).
fn tools(tools: &[Tool]) -> Result {
    let (packages, report) = plan(&Probe::system(), tools);
    for line in &report {
        eprintln!("xtask: setup: {line}");
    }
    if packages.is_empty() {
        return Ok(());
    }
    apt_install(&packages)?;
    let (still, report) = plan(&Probe::system(), tools);
    if !still.is_empty() {
        return Err(format!("set-up installed {} but still: {}", packages.join(" "), report.join("; ")));
    }
    for line in &report {
        eprintln!("xtask: setup: installed, {line}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_machine_gets_every_package() {
        let empty = detect::tests::tree("empty-machine");
        let probe = Probe { root: empty.to_path_buf(), path: vec!["/usr/bin".into()], ..Probe::default() };
        let (packages, report) = plan(&probe, &LIBOQS_BUILD_TOOLS);
        assert_eq!(packages, ["cmake", "gcc", "libclang-dev"]);
        assert!(report.iter().all(|l| l.contains("missing")), "{report:?}");
    }
}
