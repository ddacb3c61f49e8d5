//! The npm package's native build: the Node-API addon (`node/`, pqverify-node) built for
//! each platform package (`pqverify-linux-x64-gnu`, and `pqverify-linux-arm64-gnu` with
//! Debian's cross compiler), reproducibly (source paths remapped, symbols stripped,
//! checked against `node/SHA256SUMS`), each packed as a package of its own that
//! `pqverify` lists in its `optionalDependencies` (the napi-rs convention: npm, pnpm
//! and bun install only the one whose `os`, `cpu` and `libc` match).

use std::path::PathBuf;

use crate::Result;
use crate::process::{cargo, exec};
use crate::project::{path, root};
use crate::wasm_setup::remap_flags;

/// One platform package.
pub(crate) struct Platform {
    /// Its name after `pqverify-`: `linux-x64-gnu`.
    pub(crate) name: &'static str,
    /// The Rust target.
    target: &'static str,
    /// npm's `os`, `cpu` and `libc` for it.
    os: &'static str,
    cpu: &'static str,
    libc: &'static str,
    /// The linker, for a cross build.
    linker: Option<(&'static str, &'static str)>,
}

impl Platform {
    /// `pqverify-linux-x64-gnu`.
    pub(crate) fn package(&self) -> String {
        format!("pqverify-{}", self.name)
    }

    /// `pqverify.linux-x64-gnu.node`.
    pub(crate) fn file(&self) -> String {
        format!("pqverify.{}.node", self.name)
    }

    /// Its folder in `target/npm/`.
    pub(crate) fn dir(&self) -> PathBuf {
        path("target/npm").join(self.package())
    }
}

/// The platforms built here. Others (macOS, Windows, musl) get WebAssembly until a
/// build of theirs is tested where it runs.
pub(crate) const PLATFORMS: [Platform; 2] = [
    Platform {
        name: "linux-x64-gnu",
        target: "x86_64-unknown-linux-gnu",
        os: "linux",
        cpu: "x64",
        libc: "glibc",
        linker: None,
    },
    Platform {
        name: "linux-arm64-gnu",
        target: "aarch64-unknown-linux-gnu",
        os: "linux",
        cpu: "arm64",
        libc: "glibc",
        linker: Some(("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc")),
    },
];

/// The platform package for npm's `cpu` value `cpu` (`x64`, `arm64`).
pub(crate) fn platform(cpu: &str) -> &'static Platform {
    PLATFORMS.iter().find(|p| p.cpu == cpu).unwrap_or(&PLATFORMS[0])
}

/// The platform package of the machine running xtask.
pub(crate) fn host() -> &'static Platform {
    let arch = if cfg!(target_arch = "aarch64") { "aarch64" } else { "x86_64" };
    PLATFORMS.iter().find(|p| p.target.starts_with(arch)).unwrap_or(&PLATFORMS[0])
}

/// The recorded sums of the published `.node` files.
const RECORDED_SUMS: &str = "node/SHA256SUMS";

/// Where the addon builds: apart from the workspace's other builds, whose flags differ.
const TARGET_DIR: &str = "target/node";

/// Builds every platform package in `target/npm/pqverify-<platform>/` for version
/// `version`, checks the `.node` files against `node/SHA256SUMS` (recording them with
/// `PQVERIFY_RECORD_SUMS=1`), and packs each: returns the tarballs, in [`PLATFORMS`]' order.
pub(crate) fn build(version: &str) -> Result<Vec<PathBuf>> {
    let mut sums = String::new();
    let mut built = Vec::new();
    for platform in &PLATFORMS {
        let bytes = compile(platform)?;
        write_package(platform, version, &bytes)?;
        sums.push_str(&crate::package::sum_line(&format!("{}/{}", platform.package(), platform.file()), &bytes));
        built.push(platform);
    }
    crate::package::check_recorded_sums(RECORDED_SUMS, &sums, "the .node files")?;
    built.into_iter().map(|p| crate::package::pack(&p.dir())).collect()
}

/// `cargo build` of the addon for `platform` (release, paths remapped, symbols stripped):
/// the `.node` file's bytes.
fn compile(platform: &Platform) -> Result<Vec<u8>> {
    let mut cmd = cargo();
    cmd.args(["build", "-p", "pqverify-node", "--release", "--target", platform.target])
        .env("CARGO_TARGET_DIR", path(TARGET_DIR))
        // With --target, RUSTFLAGS reach only the addon's crates, not build scripts or
        // the napi-derive macro.
        .env("RUSTFLAGS", format!("{} -C strip=symbols", remap_flags()))
        .current_dir(root());
    if let Some((variable, linker)) = platform.linker {
        cmd.env(variable, linker);
    }
    exec(&format!("cargo build -p pqverify-node --release --target {}", platform.target), &mut cmd)?;
    let library = path(TARGET_DIR).join(platform.target).join("release/libpqverify_node.so");
    std::fs::read(&library).map_err(|e| format!("{}: {e}", library.display()))
}

/// Writes `platform`'s package folder: its `.node` file, `package.json`, `SHA256SUMS`
/// (the file's sum, for `sha256sum -c` in the folder), README and licenses.
fn write_package(platform: &Platform, version: &str, bytes: &[u8]) -> Result {
    let dir = platform.dir();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let write = |name: &str, contents: &[u8]| {
        std::fs::write(dir.join(name), contents).map_err(|e| format!("{}/{name}: {e}", dir.display()))
    };
    write(&platform.file(), bytes)?;
    let manifest = serde_json::json!({
        "name": platform.package(),
        "version": version,
        "description": format!(
            "The native build of pqverify for {} {} ({}): installed by `pqverify` as an optional dependency, never on its own",
            platform.os, platform.cpu, platform.libc
        ),
        "license": "MIT OR Apache-2.0",
        "os": [platform.os],
        "cpu": [platform.cpu],
        "libc": [platform.libc],
        "main": platform.file(),
        "files": [platform.file(), "SHA256SUMS", "README.md", "LICENSE-MIT", "LICENSE-APACHE"],
    });
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    write("package.json", format!("{text}\n").as_bytes())?;
    write("SHA256SUMS", crate::package::sum_line(&platform.file(), bytes).as_bytes())?;
    let readme = format!(
        "# {package}\n\nThe native build of [`pqverify`](https://www.npmjs.com/package/pqverify) for {os} {cpu} \
         ({libc}): a Node-API addon that `pqverify` loads in Node, Bun and Deno in place of its WebAssembly \
         build. Install `pqverify`, not this package: npm, pnpm and bun add it by its `os`, `cpu` and `libc`.\n\n\
         `SHA256SUMS` holds the sum of `{file}`, which `cargo xtask test` rebuilds from the source and checks \
         against the recorded `node/SHA256SUMS`.\n",
        package = platform.package(),
        os = platform.os,
        cpu = platform.cpu,
        libc = platform.libc,
        file = platform.file(),
    );
    write("README.md", readme.as_bytes())?;
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        std::fs::copy(root().join(license), dir.join(license)).map_err(|e| format!("{license}: {e}"))?;
    }
    Ok(())
}
