//! AArch64 without an Arm CPU: every crate's tests (but the wasm bindings' and xtask's)
//! cross-built for `aarch64-unknown-linux-gnu` with Debian's cross compiler and run under
//! qemu-user, with liboqs 0.16 loaded by the AArch64 CLI (a step of `cargo xtask test`),
//! and `cargo xtask count`, which counts the
//! instructions one verify executes under qemu for pqverify's kernel sets and for
//! liboqs 0.16 (mldsa-native's AArch64 code) on the same fixtures, with llvm-mca's
//! estimate of the Keccak kernels on Neoverse cores (`crate::mca`). Emulation says
//! nothing about time: the counts are counts, and are recorded as their own kind.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;
use crate::builds::{self, Build, Kind};
use crate::process::{cargo, exec, exec_capture, run_with_input};
use crate::project::path;

/// The Rust target.
pub(crate) const TARGET: &str = "aarch64-unknown-linux-gnu";

/// Debian's AArch64 C library, where qemu-user finds the dynamic loader.
const SYSROOT: &str = "/usr/aarch64-linux-gnu";

/// The emulator and its arguments, as words.
fn qemu() -> Vec<String> {
    vec!["qemu-aarch64".into(), "-L".into(), SYSROOT.into()]
}

/// The CCTV accumulated signatures verified per parameter set under emulation: the first
/// 100 (their published digest), since signing 30 000 under qemu takes minutes; the
/// 10 000 run natively on every x86-64 set.
pub(crate) const CCTV_SIGNATURES: u64 = 100;

/// How a cross build is made: the tests' profile (optimised, as the native tests are:
/// they verify thousands of signatures, slow unoptimised under emulation; with overflow
/// checks) or the release one (what `count` measures).
#[derive(Clone, Copy)]
enum Profile {
    Test,
    Release,
}

impl Profile {
    /// The `--profile` name and the directory cargo builds it into.
    fn name_and_dir(self) -> (&'static str, &'static str) {
        match self {
            Profile::Test => ("test", "debug"),
            Profile::Release => ("release", "release"),
        }
    }
}

/// `cargo args…` for the AArch64 target in `profile`, linked by the cross compiler, its
/// test binaries run under qemu.
fn cross_cargo(profile: Profile, args: &[&str]) -> Command {
    let mut cmd = cargo();
    cmd.args(args)
        .args(["--profile", profile.name_and_dir().0, "--target", TARGET])
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc")
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER", qemu().join(" "));
    cmd
}

/// A cross-built binary of `profile`.
fn binary(profile: Profile, name: &str) -> PathBuf {
    path(&format!("target/{TARGET}/{}/{name}", profile.name_and_dir().1))
}

/// The kernel sets the cross-built `pqverify` reports under qemu (whose default CPU,
/// `max`, has every feature the sets use).
pub(crate) fn kernel_sets() -> Result<Vec<String>> {
    let words = qemu();
    let out = Command::new(&words[0])
        .args(&words[1..])
        .arg(binary(Profile::Test, "pqverify"))
        .args(["suites", "--json"])
        .output()
        .map_err(|e| format!("qemu-aarch64 pqverify suites: cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!("qemu-aarch64 pqverify suites: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap_or_default())
        .map_err(|e| format!("pqverify suites --json under qemu: {e}"))?;
    first["available_kernels"]
        .as_array()
        .map(|sets| sets.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        .ok_or_else(|| "pqverify suites --json under qemu: no available_kernels".to_owned())
}

/// The crates whose tests run under qemu: all but the wasm bindings (wasm32 only) and
/// xtask (the host's build tool).
const CRATES: [&str; 7] = [
    "pqverify-core",
    "pqverify-native",
    "pqverify-kats",
    "pqverify-testkit",
    "pqverify-bench",
    "pqverify-bench-native",
    "pqverify-differential",
];

/// Cross-builds every crate whose tests do not need x86-64 or a browser (core, the
/// native twin and its CLI, the KATs, the test kit, the benchmark driver, the
/// differential campaign), then runs their tests under qemu with `env` set (where the
/// reports go, the signature cache), the CLI tests running the AArch64 binaries under
/// qemu too, and the liboqs-loading tests loading the vendored liboqs cross-built; then
/// liboqs 0.16 loaded by the AArch64 CLI, alone and in the dual check. Returns the test
/// runner's output.
pub(crate) fn run_tests(env: [(&str, &Path); 2]) -> Result<String> {
    let liboqs = crate::liboqs::shared_aarch64()?;
    let packages: Vec<&str> = CRATES.iter().flat_map(|name| ["-p", name]).collect();
    // One build of every test (and of the `pqverify` binary the CLI tests run): the
    // liboqs-loading tests' executable is taken from it, not built again with another
    // package selection (whose features would differ).
    let built = builds::executables(cross_cargo(Profile::Test, &["test", "--no-run"]).args(&packages))?;
    let loaded_tests = builds::find(&built, Kind::Test, "liboqs_loaded")?;
    let runner = qemu().join(" ");
    let mut out = exec_capture(
        "cargo test under qemu-aarch64",
        cross_cargo(Profile::Test, &["test"])
            .args(&packages)
            .env("PQVERIFY_TEST_RUNNER", &runner)
            .env("PQVERIFY_CCTV_ITERATIONS", CCTV_SIGNATURES.to_string())
            .envs(env),
    )?;
    let words = qemu();
    out.push_str(&exec_capture(
        "the liboqs-loading tests under qemu-aarch64 (a cross-built liboqs loaded at run time)",
        Command::new(&words[0])
            .args(&words[1..])
            .arg(&loaded_tests)
            .arg("--include-ignored")
            .current_dir(path("native"))
            .env("PQVERIFY_TEST_RUNNER", &runner)
            .env("PQVERIFY_LIBOQS", &liboqs)
            .envs(env),
    )?);
    dual_with_liboqs_016()?;
    Ok(out)
}

/// The suites of the batches checked with liboqs 0.16 under qemu.
const BATCH_SUITES: [&str; 4] = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "SLH-DSA-SHA2-128f"];

/// liboqs 0.16 (mldsa-native's AArch64 code, slhdsa-c) cross-built from
/// `../shared/peers/` and loaded at run time by the AArch64 `pqverify batch` under
/// qemu, as the liboqs backend alone and as the primary of a dual check (enforce and
/// shadow), on batches of every ML-DSA set and an SLH-DSA set whose every tenth
/// signature has a flipped byte (`make_batch`): every line answered, valid exactly
/// where the signature is intact, no disagreement logged.
fn dual_with_liboqs_016() -> Result {
    let liboqs = crate::liboqs::peer_016_aarch64()?;
    let make_batch = Build::Tests.executable(Kind::Example, "make_batch")?;
    let dir = path("target/aarch64-liboqs-0.16");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let words = qemu();
    let mut lines = 0;
    for suite in BATCH_SUITES {
        let input = Command::new(&make_batch)
            .args([suite, "20", "4"])
            .output()
            .map_err(|e| format!("make_batch: cannot start: {e}"))?;
        if !input.status.success() {
            return Err(format!("make_batch {suite}: {}", input.status));
        }
        for way in [&["--backend", "liboqs"][..], &["--backend", "dual"], &["--backend", "dual", "--mode", "shadow"]] {
            let what = format!("pqverify batch {} --liboqs (0.16) under qemu-aarch64, {suite}", way.join(" "));
            let log = dir.join("disagreements.jsonl");
            let _ = std::fs::remove_file(&log);
            let out = run_with_input(
                &what,
                Command::new(&words[0])
                    .args(&words[1..])
                    .arg(binary(Profile::Test, "pqverify"))
                    .arg("batch")
                    .args(way)
                    .arg("--liboqs")
                    .arg(&liboqs)
                    .arg("--disagreements")
                    .arg(&log),
                &input.stdout,
            )?;
            let stderr = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() || !stderr.contains("liboqs 0.16") {
                return Err(format!("{what}: {}\n{stderr}", out.status));
            }
            let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .map(|l| serde_json::from_str(l).map_err(|e| format!("{what}: {l:?}: {e}")))
                .collect::<Result<_>>()?;
            let expected = |a: &serde_json::Value| a["id"].as_u64().map(|id| id % 10 != 9);
            if answers.len() != 20 || answers.iter().any(|a| a["valid"].as_bool() != expected(a)) {
                return Err(format!("{what}: answers not as signed: {answers:?}"));
            }
            let logged = std::fs::read_to_string(&log).unwrap_or_default();
            if !logged.trim().is_empty() {
                return Err(format!("{what}: disagreements logged:\n{logged}"));
            }
            lines += answers.len();
        }
    }
    eprintln!("xtask: liboqs 0.16 under qemu-aarch64: {lines} batch lines answered as signed, no disagreement");
    Ok(())
}

/// `cargo xtask count`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Flags {
    /// Verifies per counted run (the run with none is subtracted).
    #[arg(long, default_value_t = 20)]
    pub(crate) count: u64,
    /// The qemu CPU model (`max` has the SHA-3 and SHA-512 instructions; `neoverse-n1` has not).
    #[arg(long, default_value = "max")]
    pub(crate) cpu: String,
    /// Where the records and the table go.
    #[arg(long, default_value = "target/count")]
    pub(crate) out: PathBuf,
}

/// The suites counted: ML-DSA, and one SLH-DSA-SHA2 and -SHAKE of each speed.
const SUITES: [&str; 6] =
    ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "SLH-DSA-SHA2-128s", "SLH-DSA-SHA2-128f", "SLH-DSA-SHAKE-128f"];

/// The ways counted: (column, `verify-loop` way, pqverify's kernel set).
const WAYS: [(&str, &str, &str); 5] = [
    ("pqverify neon-sha3", "pqverify", "neon-sha3"),
    ("pqverify neon", "pqverify", "neon"),
    ("pqverify portable", "pqverify", "portable"),
    ("pqverify-prepared neon-sha3", "pqverify-prepared", "neon-sha3"),
    ("liboqs 0.16", "liboqs", "portable"),
];

/// `cargo xtask count`.
pub(crate) fn count(flags: &Flags) -> Result {
    crate::setup::aarch64_tools()?;
    exec(
        "cargo build (AArch64: pqverify-bench)",
        &mut cross_cargo(Profile::Release, &["build", "-p", "pqverify-bench-native", "--bin", "pqverify-bench"]),
    )?;
    let liboqs = crate::liboqs::peer_016_aarch64()?;
    let plugin = crate::qemu_plugin::build("count")?;
    let out_dir = path(&flags.out.to_string_lossy());
    // The runs' own files (totals, traces, the streams llvm-mca read) stay in target/.
    let scratch = path("target/count-runs");
    for dir in [&out_dir, &scratch] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut records = String::new();
    let mut rows = Vec::new();
    for suite in SUITES {
        let mut row = Vec::new();
        for (column, way, kernels) in WAYS {
            let run = |n: u64| count_one(&plugin, &flags.cpu, &liboqs, way, suite, kernels, n, &scratch);
            let (with, without) = (run(flags.count)?, run(0)?);
            let per_verify = with.saturating_sub(without) as f64 / flags.count as f64;
            eprintln!("xtask count: {suite} {column}: {per_verify:.0} instructions per verify");
            records.push_str(
                &serde_json::json!({
                    "kind": "instructions",
                    "measure": "guest instructions executed per verify, under emulation (not a time)",
                    "emulator": qemu_version()?,
                    "cpu": flags.cpu,
                    "target": TARGET,
                    "suite": suite,
                    "way": column,
                    "kernels": if way == "liboqs" { serde_json::Value::Null } else { kernels.into() },
                    "verifies": flags.count,
                    "instructions_per_verify": per_verify.round() as u64,
                })
                .to_string(),
            );
            records.push('\n');
            row.push(per_verify);
        }
        rows.push((suite, row));
    }
    let mut words = qemu();
    words.extend(["-cpu".to_owned(), flags.cpu.clone()]);
    let estimates = crate::mca::estimate(&binary(Profile::Release, "pqverify-bench"), &words, &liboqs, &scratch)?;
    records.push_str(&estimates.records);
    let table = format!("{}\n{}", table(&flags.cpu, &rows), estimates.table);
    println!("{table}");
    for (file, text) in [("counts.jsonl", &records), ("counts.md", &table)] {
        let file = out_dir.join(file);
        std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    Ok(())
}

/// Instructions one run of `verify-loop` executes under qemu with the counting plugin.
#[allow(clippy::too_many_arguments, reason = "one run's every parameter, named")]
fn count_one(
    plugin: &Path,
    cpu: &str,
    liboqs: &Path,
    way: &str,
    suite: &str,
    kernels: &str,
    n: u64,
    dir: &Path,
) -> Result<u64> {
    let total = dir.join(format!("{suite}.{way}.{kernels}.{n}.count"));
    let words = qemu();
    exec(
        &format!("qemu-aarch64 -cpu {cpu}: {way} ({kernels}) {suite} × {n}"),
        Command::new(&words[0])
            .args(&words[1..])
            .args(["-cpu", cpu, "-plugin"])
            .arg(format!("{},out={}", plugin.display(), total.display()))
            .arg(binary(Profile::Release, "pqverify-bench"))
            .args(["verify-loop", "--way", way, "--suite", suite, "--count", &n.to_string(), "--kernels", kernels])
            .arg("--liboqs")
            .arg(liboqs),
    )?;
    let text = std::fs::read_to_string(&total).map_err(|e| format!("{}: {e}", total.display()))?;
    text.trim().parse().map_err(|e| format!("{}: {e}", total.display()))
}

/// `qemu-aarch64 --version`'s first line.
fn qemu_version() -> Result<String> {
    let out = Command::new("qemu-aarch64")
        .arg("--version")
        .output()
        .map_err(|e| format!("qemu-aarch64 --version: cannot start: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_owned())
}

/// The Markdown table: one row per suite, one column per way, thousands of
/// instructions, with the ratios the targets name.
fn table(cpu: &str, rows: &[(&str, Vec<f64>)]) -> String {
    let mut out = format!(
        "Instructions per verify under qemu-aarch64 (-cpu {cpu}), thousands: counts of executed guest \
         instructions, not times.\n\n| suite | {} | neon-sha3 / liboqs 0.16 | neon-sha3 / portable |\n|---|{}---:|---:|\n",
        WAYS.iter().map(|(c, _, _)| *c).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(WAYS.len())
    );
    for (suite, row) in rows {
        let cells: Vec<String> = row.iter().map(|v| format!("{:.1}", v / 1000.0)).collect();
        let ratio = |a: f64, b: f64| if b > 0.0 { format!("{:.2}", a / b) } else { "—".into() };
        out.push_str(&format!(
            "| {suite} | {} | {} | {} |\n",
            cells.join(" | "),
            ratio(row[0], row[4]),
            ratio(row[0], row[2])
        ));
    }
    out
}
