//! The package's build for engines without WebAssembly (`pqverify/js`): the same Rust,
//! compiled to wasm for the MVP feature set (no SIMD, no reference types), then to
//! JavaScript by binaryen's `wasm2js`.
//!
//! Why each step: wasm2js refuses modules with more than one table, and wasm-bindgen
//! adds an externref table whenever the module's `target_features` section says
//! reference types (the precompiled standard library always does). So the crate is
//! built with `-C target-cpu=mvp`, the section is stripped, and wasm-bindgen writes its
//! `bundler` glue (the wasm module's imports and exports as ES module bindings), which
//! is exactly the interface of wasm2js's output.

use std::path::Path;
use std::process::Command;

use crate::Result;
use crate::glue::{lazy_text_decoder, views_follow_the_buffer};
use crate::process::{cargo, exec};
use crate::project::{package_tools, root};

/// The package folder of this build.
pub(crate) const DIR: &str = "js";
/// The compiled module, in that folder (its sum is recorded with the .wasm files').
pub(crate) const MODULE: &str = "pqverify_wasm_bg.wasm.js";

/// The wasm features the MVP build may still use (from the standard library):
/// wasm2js lowers each of them to plain JavaScript.
const FEATURES: [&str; 4] =
    ["--enable-bulk-memory", "--enable-sign-ext", "--enable-mutable-globals", "--enable-nontrapping-float-to-int"];

/// The largest function wasm2js may inline. Its lowering of 64-bit operations calls
/// helpers (`__wasm_rotl_i64`, `__wasm_i64_mul`) that its default limit keeps as calls:
/// Keccak's 29 rotations per round and the NTT's products each paid a call and the
/// helper's general case. Inlined, the constant rotations fold to two shifts per half
/// (`-O4`, this limit): in Node 24 `--jitless`, ML-DSA-44 went from 47–69 to 27 ms and
/// SLH-DSA-SHAKE-128s from 623–682 to 277–286 ms (two alternating runs of each).
const INLINE_MAX: &str = "200";

/// What binaryen 132's wasm2js writes at module scope to instantiate the module.
const EAGER_INSTANCE: &str = "var retasmFunc = asmFunc({\n  \"./pqverify_wasm_bg.js\": $_pqverify_wasm_bg_js,\n});\n";

/// Builds `pkg/js/`: the glue (`pqverify_wasm_bg.js`) and the compiled module, from
/// the baseline build's RUSTFLAGS `rustflags` (paths remapped) and `-C target-cpu=mvp`.
pub(crate) fn build(pkg: &Path, rustflags: &str) -> Result {
    let root = root();
    let target_dir = root.join("target/mvp");
    exec(
        "cargo build pqverify-wasm (wasm32, MVP features, for wasm2js)",
        cargo()
            .args([
                "build",
                "-p",
                "pqverify-wasm",
                "--release",
                "--target",
                "wasm32-unknown-unknown",
                "--features",
                "module",
            ])
            .env("RUSTFLAGS", format!("-C target-cpu=mvp {rustflags}"))
            .env("CARGO_TARGET_DIR", &target_dir)
            .current_dir(&root),
    )?;
    let out = root.join("target/wasm-build").join(DIR);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let bin = package_tools().join("node_modules/.bin");
    let stripped = out.join("stripped.wasm");
    let wasm_opt = |what: &str, input: &Path, pass: &str, output: &Path| {
        exec(what, Command::new(bin.join("wasm-opt")).arg(input).arg(pass).args(FEATURES).arg("-o").arg(output))
    };
    let built = target_dir.join("wasm32-unknown-unknown/release/pqverify_wasm.wasm");
    wasm_opt("wasm-opt --strip-target-features", &built, "--strip-target-features", &stripped)?;
    exec(
        "wasm-bindgen --target bundler (no reference types)",
        Command::new("wasm-bindgen")
            .args(["--target", "bundler", "--out-name", "pqverify_wasm", "--out-dir"])
            .arg(&out)
            .arg(&stripped),
    )?;
    let optimised = out.join("optimised.wasm");
    wasm_opt("wasm-opt -O3 (MVP build)", &out.join("pqverify_wasm_bg.wasm"), "-O3", &optimised)?;
    let compiled = out.join(MODULE);
    exec(
        "wasm2js -O4 (helpers inlined)",
        Command::new(bin.join("wasm2js"))
            .arg(&optimised)
            .args(["-O4", "--flexible-inline-max-function-size", INLINE_MAX])
            .args(FEATURES)
            .arg("-o")
            .arg(&compiled),
    )?;
    let read = |file: &Path| std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()));
    let dest = pkg.join(DIR);
    std::fs::create_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    let write = |name: &str, text: &str| {
        std::fs::write(dest.join(name), text).map_err(|e| format!("{}: {e}", dest.join(name).display()))
    };
    let glue = views_follow_the_buffer(&lazy_text_decoder(&read(&out.join("pqverify_wasm_bg.js"))?)?)?;
    write("pqverify_wasm_bg.js", &glue)?;
    write(MODULE, &lazy_instance(&read(&compiled)?)?)
}

/// The compiled module with its instantiation moved from module scope into an exported
/// `instantiate()`: importing it allocates and decodes nothing (an app that imports
/// the package and verifies later pays at its first verify). Fails if wasm2js's output
/// is not the shape this expects (binaryen is pinned; a new version is checked here).
fn lazy_instance(module: &str) -> Result<String> {
    let at = module.find(EAGER_INSTANCE).filter(|_| module.matches(EAGER_INSTANCE).count() == 1).ok_or(
        "wasm2js's output does not instantiate its module as binaryen 132's does: update wasm2js::lazy_instance",
    )?;
    let exports = &module[at + EAGER_INSTANCE.len()..];
    if !exports.lines().all(|l| l.is_empty() || l.starts_with("export var ")) {
        return Err("wasm2js's output has more than export lines after its instantiation: update lazy_instance".into());
    }
    Ok(format!(
        "{}// pqverify: instantiated at the first call, not at import.\n\
         export function instantiate() {{\n  return asmFunc({{ \"./pqverify_wasm_bg.js\": $_pqverify_wasm_bg_js }});\n}}\n",
        &module[..at]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_is_instantiated_by_a_call() {
        let module =
            format!("function asmFunc(imports) {{}}\n{EAGER_INSTANCE}export var memory = retasmFunc.memory;\n");
        let out = lazy_instance(&module).unwrap();
        assert!(!out.contains("retasmFunc") && out.contains("export function instantiate()"), "{out}");
        assert!(lazy_instance("another shape").is_err());
        assert!(lazy_instance(&format!("{EAGER_INSTANCE}console.log(1);\n")).is_err());
    }
}
