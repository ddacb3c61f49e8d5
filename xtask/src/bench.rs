//! The benchmark pipeline: the native suite, the same suite in Node (and, with the
//! www page, in headless Chromium), then the report.

use std::path::{Path, PathBuf};
use std::process::Command;

use pqverify_bench::record::Record;

use crate::builds::{Build, Kind};
use crate::process::{cargo, exec, exec_capture};
use crate::project::{bench_js, root, testkit_js, www_dir};
use crate::wasm_setup::tool_path;
use crate::{Result, certificates, distinct, liboqs, package, setup, wasm_setup, www};

/// The benchmark's flags.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Flags {
    /// A short run (fewer rounds and samples), written under target/bench-quick/, never
    /// into results/.
    #[arg(long, conflicts_with = "criterion")]
    pub(crate) quick: bool,
    /// Replace an existing results/<date>_<host>/ instead of writing a new numbered folder.
    #[arg(long, conflicts_with_all = ["quick", "criterion"])]
    pub(crate) overwrite: bool,
    /// Run the criterion micro-benches instead (the arguments after `--` go to criterion).
    #[arg(long)]
    pub(crate) criterion: bool,
    /// The kernel set pqverify runs natively (`avx512`, `avx2`, `portable` on x86-64;
    /// default: the fastest the CPU has); the native records name it.
    #[arg(long, value_name = "NAME")]
    pub(crate) kernels: Option<String>,
    /// Validators per quorum certificate in the certificate scenario.
    #[arg(long, default_value_t = certificates::VALIDATORS, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub(crate) validators: u32,
    /// Arguments for criterion.
    #[arg(last = true)]
    pub(crate) criterion_args: Vec<String>,
}

/// `cargo xtask bench`.
pub(crate) fn run(flags: &Flags) -> Result {
    setup::all()?;
    if flags.criterion {
        return exec(
            "criterion micro-benches: verify per suite (pqverify one-shot and prepared, RustCrypto)",
            cargo().args(["bench", "-p", "pqverify-core", "--bench", "verify", "--"]).args(&flags.criterion_args),
        );
    }
    let tarball = package::build_package()?;
    package::install_package(&tarball)?;
    let dir =
        if flags.quick { root().join("target/bench-quick").join(run_name()) } else { results_dir(flags.overwrite) };
    let run = Run {
        quick: flags.quick,
        check: false,
        browser: true,
        validators: flags.validators,
        kernels: flags.kernels.as_deref(),
        build: Build::Release,
    };
    pipeline(&dir, &run)?;
    eprintln!("xtask bench: records, env, report.md and chart.svg in {}", dir.display());
    Ok(())
}

/// `<date>_<host>`.
fn run_name() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let date = pqverify_bench::record::utc_timestamp(now);
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").map_or_else(|_| "host".into(), |h| h.trim().to_owned());
    format!("{}_{host}", &date[..10])
}

/// `results/<date>_<host>/`, or with `-2`, `-3`, … where that exists already (a
/// committed run is replaced only when asked).
fn results_dir(overwrite: bool) -> PathBuf {
    free_dir(&root().join("results"), &run_name(), overwrite)
}

/// `parent/name`, or the first free `parent/name-N` unless `overwrite`.
fn free_dir(parent: &Path, name: &str, overwrite: bool) -> PathBuf {
    let first = parent.join(name);
    if overwrite || !first.exists() {
        return first;
    }
    (2..).map(|n| parent.join(format!("{name}-{n}"))).find(|d| !d.exists()).unwrap_or(first)
}

/// `cargo xtask www`: builds the package, the bench wasm and the page, then serves it
/// on 127.0.0.1:8765.
pub(crate) fn serve_page() -> Result {
    setup::all()?;
    let tarball = package::build_package()?;
    package::install_package(&tarball)?;
    build_bench_wasm()?;
    www::build_www(certificates::VALIDATORS, Build::Release)?;
    exec(
        "serve benches/www/dist on http://127.0.0.1:8765/ (Ctrl-C stops)",
        Command::new("node").arg(testkit_js().join("serve.mjs")).arg(www_dir().join("dist")).arg("8765"),
    )
}

/// Builds the bench wasm module (the suite engine with JS ways) for Node and the page.
pub(crate) fn build_bench_wasm() -> Result {
    let root = root();
    exec(
        "wasm-pack build the benchmark suite (benches, feature wasm)",
        Command::new("wasm-pack")
            .args(["build", "benches", "--release", "--target", "web", "--no-pack", "--out-name", "pqverify_bench"])
            .arg("--out-dir")
            .arg(root.join("target/wasm-build/bench"))
            .args(["--", "--features", "wasm"])
            .env("PATH", tool_path())
            .env("WASM_PACK_CACHE", root.join("target/wasm-pack-cache"))
            .current_dir(&root),
    )
}

/// What one pass of the pipeline runs.
pub(crate) struct Run<'a> {
    /// Fewer rounds and samples, three distinct keys per suite.
    pub(crate) quick: bool,
    /// Fail unless the records are complete and clean (never on a duration).
    pub(crate) check: bool,
    /// The page in Chromium, Firefox and WebKit too.
    pub(crate) browser: bool,
    /// Validators per quorum certificate.
    pub(crate) validators: u32,
    /// The native kernel set, when not the fastest.
    pub(crate) kernels: Option<&'a str>,
    /// Where the driver and the fixture makers come from.
    pub(crate) build: Build,
}

/// Whether this CPU has AVX-512 F (the AVX2 pair's liboqs is built only then).
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Runs the native, Node and (with `browser`) Chromium, Firefox and WebKit suites into
/// `dir` and writes the report there.
pub(crate) fn pipeline(dir: &Path, run: &Run) -> Result<String> {
    let Run { quick, check, browser, validators, kernels, build } = *run;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let driver = build.executable(Kind::Bin, "pqverify-bench")?;
    build_bench_wasm()?;
    let certificates = certificates::fixtures(validators, build)?;
    let distinct = distinct::fixtures(quick, build)?;
    // liboqs 0.16 (mldsa-native, slhdsa-c) beside the linked 0.13, and the dual
    // verifier's primary.
    let liboqs_016 = liboqs::peer_016()?;
    // And its ML-DSA held to AVX2: measured beside pqverify's AVX2 kernels, only where
    // the CPU has AVX-512 (elsewhere the two would repeat liboqs 0.16 and pqverify).
    let liboqs_avx2 = if has_avx512() { Some(liboqs::peer_016_avx2()?) } else { None };
    let native = dir.join("native.jsonl");
    let node = dir.join("node.jsonl");
    let mut bench = Command::new(&driver);
    bench.arg("run").arg("--out").arg(&native).arg("--disagreements").arg(dir.join("disagreements.jsonl"));
    bench.arg("--certificates").arg(&certificates);
    bench.arg("--distinct").arg(&distinct).arg("--liboqs").arg(&liboqs_016);
    if let Some(path) = &liboqs_avx2 {
        bench.arg("--liboqs-avx2").arg(path);
    }
    if quick {
        bench.arg("--quick");
    }
    if let Some(name) = kernels {
        bench.arg("--kernels").arg(name);
    }
    exec("native benchmark suite", &mut bench)?;
    // The JS runners: the package's ways on both its builds, the native build's dual
    // check with liboqs 0.16 on the distinct keys (its disagreements logged beside the
    // native ones'), and the peers.
    let js_args = |cmd: &mut Command, target: &str| {
        cmd.arg("--distinct").arg(&distinct).arg("--liboqs").arg(&liboqs_016);
        cmd.arg("--dual-log").arg(dir.join(format!("disagreements-{target}.jsonl")));
        if quick {
            cmd.arg("--quick");
        }
    };
    // The active LTS: Node 20 (Debian's, which the tools use) is past its end of life.
    let mut node_bench = Command::new(crate::project::node24()?);
    node_bench
        .arg("bench-node.mjs")
        .arg("--out")
        .arg(&node)
        .arg("--certificates")
        .arg(&certificates)
        .current_dir(bench_js());
    js_args(&mut node_bench, "node");
    exec("Node benchmark suite in Node 24 (the npm package's two builds, noble and liboqs-js)", &mut node_bench)?;
    let bun = dir.join("bun.jsonl");
    let mut bun_bench = Command::new(crate::project::bun()?);
    bun_bench
        .args(["run", "--no-install", "bench-node.mjs", "--target", "bun", "--out"])
        .arg(&bun)
        .current_dir(bench_js());
    js_args(&mut bun_bench, "bun");
    exec("Bun benchmark suite (the npm package's two builds)", &mut bun_bench)?;
    let mut files = vec![native, node, bun];
    if browser {
        www::build_www(validators, build)?;
        wasm_setup::browser_engines()?;
        for engine in ["chromium", "firefox", "webkit"] {
            let records = dir.join(format!("{engine}.jsonl"));
            let mut page = Command::new("node");
            page.arg("bench-browser.mjs").arg("dist").arg(&records).args(["--engine", engine]);
            page.current_dir(www_dir());
            if quick {
                page.arg("--quick");
            }
            exec(&format!("browser benchmark suite in {engine} (the benchmark page)"), &mut page)?;
            files.push(records);
        }
    }
    let mut report = Command::new(&driver);
    report.arg("report").args(&files).arg("--out-dir").arg(dir);
    if check {
        report.arg("--check");
    }
    let md = exec_capture("report", &mut report)?;
    let envs: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .flat_map(|t| {
            t.lines().filter(|l| matches!(Record::parse(l), Ok(Record::Env(_)))).map(str::to_owned).collect::<Vec<_>>()
        })
        .collect();
    std::fs::write(dir.join("env.jsonl"), envs.join("\n") + "\n").map_err(|e| e.to_string())?;
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_the_same_day_gets_a_new_folder() {
        let parent = std::env::temp_dir().join(format!("xtask-results-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        assert_eq!(free_dir(&parent, "2026-11-30_vm", false), parent.join("2026-11-30_vm"));
        std::fs::create_dir_all(parent.join("2026-11-30_vm")).unwrap();
        assert_eq!(free_dir(&parent, "2026-11-30_vm", false), parent.join("2026-11-30_vm-2"));
        std::fs::create_dir_all(parent.join("2026-11-30_vm-2")).unwrap();
        assert_eq!(free_dir(&parent, "2026-11-30_vm", false), parent.join("2026-11-30_vm-3"));
        assert_eq!(free_dir(&parent, "2026-11-30_vm", true), parent.join("2026-11-30_vm"));
        std::fs::remove_dir_all(&parent).unwrap();
    }
}
