//! `pqverify-bench` as a user runs it: the report of committed records, its exit codes
//! for bad input (2) and for output that cannot be written (3, never a panic).
#![allow(clippy::unwrap_used, reason = "a test")]

use std::process::{Command, Output, Stdio};

use pqverify_testkit::runner;

/// `pqverify-bench`, under the test runner when one is set.
fn bench() -> Command {
    runner::command(env!("CARGO_BIN_EXE_pqverify-bench"))
}

/// Runs `pqverify-bench ARGS` through the shell with standard output and error sent to
/// the files given, or closed (`None`).
fn run(args: &str, stdout: Option<&str>, stderr: Option<&str>) -> Output {
    let redirect = |fd: u8, to: Option<&str>| to.map_or(format!("{fd}>&-"), |f| format!("{fd}>{f}"));
    let script = format!(
        "{} {args} {} {}",
        runner::shell(env!("CARGO_BIN_EXE_pqverify-bench")),
        redirect(1, stdout),
        redirect(2, stderr)
    );
    Command::new("sh").args(["-c", &script]).stdin(Stdio::null()).output().unwrap()
}

/// A kernel set of another architecture, which no CPU this test runs on has.
const LACKED: &str = if cfg!(target_arch = "aarch64") { "avx2" } else { "neon" };

const RECORDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results/2026-12-01_vm-4/native.jsonl");

#[test]
fn the_report_of_committed_records_and_its_exit_codes() {
    let out = bench().args(["report", RECORDS]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let markdown = String::from_utf8(out.stdout).unwrap();
    assert!(markdown.starts_with("# pqverify benchmark report"), "{markdown}");
    assert!(markdown.contains("ML-DSA-44"), "the report names the suites");
    // Output that cannot be written is exit 3, never a panic (101).
    assert_eq!(run(&format!("report {RECORDS}"), Some("/dev/full"), Some("/dev/null")).status.code(), Some(3));
    assert_ne!(run(&format!("report {RECORDS}"), None, None).status.code(), Some(101));
    // A file that does not exist, or is not records: bad input, one line, exit 2.
    for bad in ["/nonexistent/records.jsonl", "/etc/hostname"] {
        let out = bench().args(["report", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "report {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("pqverify-bench: error: ") && err.trim_end().lines().count() == 1, "{err}");
    }
    // An unknown command is a usage error (2); --help is not.
    assert_eq!(bench().arg("nonsense").output().unwrap().status.code(), Some(2));
    assert_eq!(bench().arg("--help").output().unwrap().status.code(), Some(0));
}

#[test]
fn run_refuses_an_unknown_suite_before_measuring() {
    let out = bench()
        .args(["run", "--quick", "--suites", "ML-DSA-99", "--disagreements", "/dev/null", "--distinct", "/nonexistent"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown suite"), "{}", String::from_utf8_lossy(&out.stderr));
    // Distinct-key fixtures that are not there, or a kernel set the CPU lacks: exit 2, one line.
    let lacked = format!("--kernels {LACKED}: no such kernel set");
    for (args, says) in [
        (&["--distinct", "/nonexistent"][..], "--distinct: /nonexistent"),
        (&["--distinct", "/etc/hostname"][..], "distinct-key fixtures"),
        (&["--distinct", "/nonexistent", "--kernels", LACKED][..], lacked.as_str()),
    ] {
        let out = bench().args(["run", "--quick", "--disagreements", "/dev/null"]).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(says) && err.trim_end().lines().last().unwrap().starts_with("pqverify-bench: error: "),
            "{err}"
        );
    }
}
