//! The qemu-user plugins of `cargo xtask count` (`xtask/qemu/*.c`): the instruction
//! counter (`aarch64.rs`) and the instruction tracer (`mca.rs`).

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::process::exec;
use crate::project::path;

/// The qemu plugin `xtask/qemu/{name}.c`, built with the host's C compiler.
pub(crate) fn build(name: &str) -> Result<PathBuf> {
    let source = path(&format!("xtask/qemu/{name}.c"));
    let library = path(&format!("target/qemu-plugins/lib{name}.so"));
    std::fs::create_dir_all(path("target/qemu-plugins")).map_err(|e| format!("target/qemu-plugins: {e}"))?;
    exec(
        &format!("cc (the qemu plugin {name}.c)"),
        Command::new("cc").args(["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o"]).arg(&library).arg(&source),
    )?;
    Ok(library)
}
