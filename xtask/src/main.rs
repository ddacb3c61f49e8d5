//! `cargo xtask …`: set-up and orchestration, the README's commands.
//!
//! * `cargo xtask test`  — installs what is missing, then runs every check.
//! * `cargo xtask bench` — installs what is missing, then runs the benchmarks.
//!
//! Every step that runs tests fails when it ran none.

use std::io::{BufRead, BufReader};
use std::process::{Command, ExitCode, Stdio};

mod setup;

/// A failed step, with what to tell the user.
type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("bench") => bench(&args[1..]),
        Some("setup") => setup::all(),
        _ => {
            eprintln!("usage: cargo xtask <test|bench|setup>");
            eprintln!("  test   set up, then fmt, clippy, every test, the wasm32 build");
            eprintln!("  bench  set up, then run the criterion benches (extra args go to criterion)");
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

fn test() -> Result {
    setup::all()?;
    let mut steps = 0u64;
    run("cargo fmt --check", cargo().args(["fmt", "--all", "--", "--check"]))?;
    steps += 1;
    run(
        "cargo clippy (all targets, -D warnings)",
        cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    )?;
    steps += 1;

    let out = run_capture(
        "cargo test --workspace",
        cargo().args(["test", "--workspace", "--all-targets", "--", "--nocapture"]),
    )?;
    let (passed, failed) = libtest_totals(&out);
    if passed == 0 || failed != 0 {
        return Err(format!("cargo test: {passed} passed, {failed} failed"));
    }
    require_line(&out, "ML-DSA ACVP sigVer: 180/180")?;
    require_line(&out, "SLH-DSA ACVP sigVer: 504/504")?;
    for backend in ["pqverify", "liboqs", "rustcrypto"] {
        if !out.lines().any(|l| l.starts_with(&format!("{backend}: ")) && l.ends_with("ACVP cases")) {
            return Err(format!("the ACVP run through the {backend} backend did not report"));
        }
    }
    steps += 1;

    let doc = run_capture("cargo test --doc", cargo().args(["test", "--workspace", "--doc"]))?;
    let (doc_passed, doc_failed) = libtest_totals(&doc);
    if doc_passed == 0 || doc_failed != 0 {
        return Err(format!("doc tests: {doc_passed} passed, {doc_failed} failed"));
    }
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

    println!("xtask test: {} passed, 0 failed", passed + doc_passed);
    println!("xtask test: all {steps} steps ok");
    Ok(())
}

fn bench(extra: &[String]) -> Result {
    setup::all()?;
    run(
        "criterion: verify per suite (pqverify one-shot and prepared, RustCrypto ml-dsa)",
        cargo().args(["bench", "-p", "pqverify-core", "--bench", "verify", "--"]).args(extra),
    )
}
