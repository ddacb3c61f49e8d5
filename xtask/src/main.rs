//! `cargo xtask …`: set-up and orchestration, the README's commands.
//!
//! * `cargo xtask test`  — installs what is missing, then runs every check.
//! * `cargo xtask bench` — installs what is missing, then runs the benchmarks.
//!
//! Every step that runs tests fails when it ran none.

use std::io::{BufRead, BufReader};
use std::process::{Command, ExitCode, Stdio};

mod bench;
mod setup;
mod wasm;

/// A failed step, with what to tell the user.
type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("bench") => bench(&args[1..]),
        Some("setup") => setup::all().and_then(|()| wasm::tools()),
        Some("www") => www(),
        Some("fixtures") => fixtures(),
        Some("differential") => differential(&args[1..]),
        Some("fuzz") => {
            let seconds =
                args.iter().position(|a| a == "--seconds").and_then(|i| args.get(i + 1)).map_or("60", String::as_str);
            fuzz(seconds.parse().unwrap_or(60))
        }
        _ => {
            eprintln!("usage: cargo xtask <test|bench|www|fixtures|differential|fuzz|setup>");
            eprintln!("  test   set up, then fmt, clippy, every test, the wasm32 build");
            eprintln!("  bench  set up, then the benchmark suite natively and in Node, and the report");
            eprintln!("         (--quick: a short run; --criterion [args]: the criterion micro-benches)");
            eprintln!("  www    build the browser benchmark page and serve it on 127.0.0.1:8765");
            eprintln!("  fixtures  regenerate benches/fixtures/fixtures.json with the independent signers");
            eprintln!("  differential --count N [--seed S] [--portable]  the differential campaign");
            eprintln!("  fuzz --seconds N  run each fuzz target for N seconds (cargo-fuzz, nightly)");
            eprintln!("  setup  only install what is missing");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a command with inherited output; fails if it fails.
fn run(what: &str, cmd: &mut Command) -> Result {
    eprintln!("xtask: {what}");
    let status = cmd.status().map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what}: {status}")) }
}

/// Runs a command, echoing its output line by line, and returns everything it printed.
fn run_capture(what: &str, cmd: &mut Command) -> Result<String> {
    eprintln!("xtask: {what}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    let mut seen = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line.map_err(|e| format!("{what}: reading output: {e}"))?;
            println!("{line}");
            seen.push_str(&line);
            seen.push('\n');
        }
    }
    let status = child.wait().map_err(|e| format!("{what}: {e}"))?;
    if status.success() { Ok(seen) } else { Err(format!("{what}: {status}")) }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Sums the `test result:` lines of libtest output: (passed, failed).
fn libtest_totals(output: &str) -> (u64, u64) {
    let mut totals = (0, 0);
    for line in output.lines().filter(|l| l.starts_with("test result:")) {
        let number_before = |word: &str| {
            line.split(';')
                .find(|part| part.trim_end().ends_with(word))
                .and_then(|part| part.split_whitespace().rev().nth(1))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(0)
        };
        totals.0 += number_before("passed");
        totals.1 += number_before("failed");
    }
    totals
}

/// Fails unless `output` has a line exactly equal to `line`.
fn require_line(output: &str, line: &str) -> Result {
    if output.lines().any(|l| l.trim() == line) { Ok(()) } else { Err(format!("expected the line `{line}`")) }
}

/// Sums node's TAP summary (`# pass N`, `# fail N`): (passed, failed).
fn tap_totals(output: &str) -> (u64, u64) {
    let count = |key: &str| {
        output.lines().filter_map(|l| l.strip_prefix(key)).filter_map(|n| n.trim().parse::<u64>().ok()).sum()
    };
    (count("# pass "), count("# fail "))
}

/// Runs a libtest binary set and fails unless it passed at least one test and failed none.
fn libtest_step(what: &str, cmd: &mut Command) -> Result<(u64, String)> {
    let out = run_capture(what, cmd)?;
    let (passed, failed) = libtest_totals(&out);
    if passed == 0 || failed != 0 {
        return Err(format!("{what}: {passed} passed, {failed} failed"));
    }
    Ok((passed, out))
}

fn test() -> Result {
    setup::all()?;
    wasm::tools()?;
    let mut passed_total = 0u64;
    let mut steps = 0u64;
    run("cargo fmt --check", cargo().args(["fmt", "--all", "--", "--check"]))?;
    run(
        "cargo clippy (all targets, -D warnings)",
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    )?;
    run(
        "cargo clippy for wasm32 (the wasm crate, its tests, the bench suite's JS bindings)",
        cargo()
            .args(["clippy", "-p", "pqverify-wasm", "-p", "pqverify-bench", "--features", "pqverify-bench/wasm"])
            .args(["--target", "wasm32-unknown-unknown", "--all-targets", "--", "-D", "warnings"]),
    )?;
    steps += 3;

    let (passed, out) = libtest_step(
        "cargo test (native: core, kats, native twin, bench suite)",
        cargo().args(["test", "--workspace", "--exclude", "pqverify-wasm", "--all-targets", "--", "--nocapture"]),
    )?;
    require_line(&out, "ML-DSA ACVP sigVer: 180/180")?;
    require_line(&out, "SLH-DSA ACVP sigVer: 504/504")?;
    require_line(&out, "kernels portable: 684/684 ACVP cases")?;
    for backend in ["pqverify", "liboqs", "rustcrypto"] {
        if !out.lines().any(|l| l.starts_with(&format!("{backend}: ")) && l.ends_with("ACVP cases")) {
            return Err(format!("the ACVP run through the {backend} backend did not report"));
        }
    }
    passed_total += passed;
    steps += 1;

    let (passed, _) =
        libtest_step("cargo test --doc", cargo().args(["test", "--workspace", "--exclude", "pqverify-wasm", "--doc"]))?;
    passed_total += passed;
    steps += 1;

    for features in [&["--no-default-features"][..], &[][..]] {
        run(
            &format!("build pqverify-core for wasm32-unknown-unknown {features:?}"),
            cargo()
                .args(["build", "-p", "pqverify-core", "--release", "--target", "wasm32-unknown-unknown"])
                .args(features),
        )?;
        steps += 1;
    }

    // The wasm tests on both builds (baseline and simd128 kernels), in Node and Chromium.
    for (variant, rustflags, target_dir) in
        [("baseline", "", "target"), ("simd128", "-C target-feature=+simd128", "target/simd")]
    {
        let wasm_test = || {
            let mut c = cargo();
            c.args(["test", "-p", "pqverify-wasm", "--target", "wasm32-unknown-unknown", "--release", "--test", "web"])
                .env("RUSTFLAGS", rustflags)
                .env("CARGO_TARGET_DIR", wasm::root().join(target_dir));
            c
        };
        let (passed, _) = libtest_step(&format!("wasm tests, {variant} build, in Node"), &mut wasm_test())?;
        passed_total += passed;
        let (passed, _) = libtest_step(
            &format!("wasm tests, {variant} build, in headless Chromium"),
            wasm_test().env("WASM_BINDGEN_USE_BROWSER", "1").env("CHROMEDRIVER", "/usr/bin/chromedriver"),
        )?;
        passed_total += passed;
        steps += 2;
    }

    let tarball = wasm::build_package()?;
    wasm::install_package(&tarball)?;
    let out = run_capture(
        "node --test: the npm package as users import it",
        Command::new("node").args(["--expose-gc", "--test", "--test-reporter=tap"]).current_dir(wasm::test_js()),
    )?;
    let (passed, failed) = tap_totals(&out);
    if passed == 0 || failed != 0 {
        return Err(format!("node --test: {passed} passed, {failed} failed"));
    }
    passed_total += passed;
    steps += 1;

    // Fuzz smoke runs: seconds per target, new inputs kept out of the committed corpus.
    fuzz(10)?;
    steps += 1;

    // A small fixed-seed differential campaign, on the SIMD kernels and on the portable ones.
    for portable in [false, true] {
        let mut args = vec!["--count".to_owned(), "1500".to_owned(), "--seed".to_owned(), "20261130".to_owned()];
        if portable {
            args.push("--portable".to_owned());
        }
        let out = run_capture(
            "small differential campaign",
            cargo()
                .args(["run", "--release", "-p", "pqverify-native", "--example", "differential", "--"])
                .args(&args)
                .arg("--out")
                .arg(wasm::root().join("target/differential")),
        )?;
        if !out.lines().any(|l| l.starts_with("differential: 0 disagreements")) {
            return Err("the differential campaign did not report zero disagreements".into());
        }
        steps += 1;
    }

    // The native CLI batch under valgrind: no memory error, no definite leak.
    valgrind_batch()?;
    steps += 1;

    // The quick benchmark pipeline end to end: records and report complete and clean.
    let check_dir = wasm::root().join("target/bench-check");
    bench::pipeline(&check_dir, true, true, false)?;
    steps += 1;

    // The browser page in a real headless Chromium.
    wasm::build_www()?;
    let shots = wasm::root().join("target/www-check");
    std::fs::create_dir_all(&shots).map_err(|e| e.to_string())?;
    let out = run_capture(
        "www: the benchmark page in headless Chromium (Playwright)",
        Command::new("node")
            .arg("check.mjs")
            .arg("dist")
            .arg(check_dir.join("native.jsonl"))
            .arg(shots.join("screenshot.png"))
            .current_dir(wasm::root().join("www")),
    )?;
    let summary = out.lines().rev().find_map(|l| l.strip_suffix(" failed")).unwrap_or_default().to_owned();
    let www_passed: u64 = summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    if www_passed == 0 || !summary.ends_with(", 0") {
        return Err(format!("www check: {summary} failed"));
    }
    passed_total += www_passed;
    steps += 1;

    println!("tests: {passed_total} passed, 0 failed");
    println!("xtask test: all {steps} steps ok");
    Ok(())
}

fn bench(args: &[String]) -> Result {
    setup::all()?;
    if args.iter().any(|a| a == "--criterion") {
        let extra: Vec<&String> = args.iter().filter(|a| *a != "--criterion").collect();
        return run(
            "criterion micro-benches: verify per suite (pqverify one-shot and prepared, RustCrypto)",
            cargo().args(["bench", "-p", "pqverify-core", "--bench", "verify", "--"]).args(extra),
        );
    }
    let quick = args.iter().any(|a| a == "--quick");
    let tarball = wasm::build_package()?;
    wasm::install_package(&tarball)?;
    let dir = bench::results_dir();
    bench::pipeline(&dir, quick, false, true)?;
    eprintln!("xtask bench: records, env, report.md and chart.svg in {}", dir.display());
    Ok(())
}

fn www() -> Result {
    setup::all()?;
    let tarball = wasm::build_package()?;
    wasm::install_package(&tarball)?;
    bench::build_bench_wasm()?;
    wasm::build_www()?;
    run(
        "serve www/dist on http://127.0.0.1:8765/ (Ctrl-C stops)",
        Command::new("node").args(["serve.mjs", "dist", "8765"]).current_dir(wasm::root().join("www")),
    )
}

fn fixtures() -> Result {
    run(
        "generate benches/fixtures/fixtures.json (fips204/fips205, deterministic)",
        cargo()
            .args(["run", "--release", "-p", "pqverify-bench", "--example", "make_fixtures", "--"])
            .arg(wasm::root().join("benches/fixtures/fixtures.json")),
    )
}

/// The differential campaign (pqverify vs liboqs vs the reference on mutated signatures).
fn differential(args: &[String]) -> Result {
    setup::all()?;
    run(
        "differential campaign",
        cargo()
            .args(["run", "--release", "-p", "pqverify-native", "--example", "differential", "--"])
            .args(args)
            .arg("--out")
            .arg(wasm::root().join("target/differential")),
    )
}

/// Runs each fuzz target for `seconds`, seeded from the committed corpus; new inputs
/// go to target/fuzz-corpus/, crashes fail the run.
fn fuzz(seconds: u64) -> Result {
    setup::all()?;
    setup::fuzz_tools()?;
    let root = wasm::root();
    for target in ["verify", "batch_line"] {
        let scratch = root.join("target/fuzz-corpus").join(target);
        std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
        run(
            &format!("cargo fuzz run {target} for {seconds} s"),
            Command::new("cargo")
                .args(["+nightly", "fuzz", "run", target])
                .arg(&scratch)
                .arg(root.join("fuzz/corpus").join(target))
                .arg("--")
                .arg(format!("-max_total_time={seconds}"))
                .arg("-print_final_stats=1")
                .current_dir(root.join("fuzz")),
        )?;
    }
    Ok(())
}

/// `pqverify batch` (dual verification, two threads) under valgrind's memcheck.
fn valgrind_batch() -> Result {
    if !setup::succeeds("valgrind", &["--version"]) {
        setup::apt_install(&["valgrind"])?;
    }
    run(
        "cargo build --release -p pqverify-native (bin and make_batch)",
        cargo().args(["build", "--release", "-p", "pqverify-native", "--bin", "pqverify", "--example", "make_batch"]),
    )?;
    let root = wasm::root();
    let input = Command::new(root.join("target/release/examples/make_batch"))
        .args(["ML-DSA-65", "30", "3"])
        .output()
        .map_err(|e| format!("make_batch: {e}"))?;
    let mut child = Command::new("valgrind")
        .args(["-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite"])
        .arg(root.join("target/release/pqverify"))
        .args(["batch", "--backend", "dual", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("valgrind: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin.write_all(&input.stdout).map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let answers = String::from_utf8_lossy(&out.stdout).lines().count();
    if !out.status.success() || answers != 30 {
        return Err(format!(
            "valgrind batch: {} ({answers} answers)\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    eprintln!("xtask: valgrind: pqverify batch clean (30 lines, dual verification)");
    Ok(())
}
