//! The benchmark pipeline: the native suite, the same suite in Node (and, with the
//! www page, in headless Chromium), then the report.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::wasm::{root, test_js, tool_path};
use crate::{Result, cargo, run, run_capture};

/// `results/<date>_<host>/`.
pub(crate) fn results_dir() -> PathBuf {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let date = pqverify_bench::record::utc_timestamp(now);
    let host =
        std::fs::read_to_string("/proc/sys/kernel/hostname").map_or_else(|_| "host".into(), |h| h.trim().to_owned());
    root().join("results").join(format!("{}_{host}", &date[..10]))
}

/// Builds the bench wasm module (the suite engine with JS ways) for Node and the page.
pub(crate) fn build_bench_wasm() -> Result {
    let root = root();
    run(
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

/// Runs the native, Node and (with `browser`) headless-Chromium suites into `dir` and
/// writes the report there. With `check`, fails unless the records are complete and
/// clean (never on a duration).
pub(crate) fn pipeline(dir: &Path, quick: bool, check: bool, browser: bool) -> Result<String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    run(
        "cargo build --release -p pqverify-native",
        cargo().args(["build", "--release", "-p", "pqverify-native", "--bin", "pqverify"]),
    )?;
    build_bench_wasm()?;
    let pqverify = root().join("target/release/pqverify");
    let native = dir.join("native.jsonl");
    let node = dir.join("node.jsonl");
    let mut bench = Command::new(&pqverify);
    bench.arg("bench").arg("--out").arg(&native).arg("--disagreements").arg(dir.join("disagreements.jsonl"));
    if quick {
        bench.arg("--quick");
    }
    run("native benchmark suite", &mut bench)?;
    let mut node_bench = Command::new("node");
    node_bench.arg("bench-node.mjs").arg("--out").arg(&node).current_dir(test_js());
    if quick {
        node_bench.arg("--quick");
    }
    run("Node benchmark suite (the npm package and noble)", &mut node_bench)?;
    let mut files = vec![native, node];
    if browser {
        crate::wasm::build_www()?;
        let records = dir.join("browser.jsonl");
        let mut page = Command::new("node");
        page.arg("bench-browser.mjs").arg("dist").arg(&records).current_dir(root().join("www"));
        if quick {
            page.arg("--quick");
        }
        run("browser benchmark suite (headless Chromium, the www page)", &mut page)?;
        files.push(records);
    }
    let mut report = Command::new(&pqverify);
    report.arg("report").args(&files).arg("--out-dir").arg(dir);
    if check {
        report.arg("--check");
    }
    let md = run_capture("report", &mut report)?;
    let envs: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .flat_map(|t| t.lines().filter(|l| l.contains(r#""type":"env""#)).map(str::to_owned).collect::<Vec<_>>())
        .collect();
    std::fs::write(dir.join("env.jsonl"), envs.join("\n") + "\n").map_err(|e| e.to_string())?;
    Ok(md)
}
