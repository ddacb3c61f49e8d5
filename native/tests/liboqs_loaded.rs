//! A liboqs loaded at run time (`Liboqs::load`, `--liboqs`, `PQVERIFY_LIBOQS`), the
//! way a node that ships its own liboqs uses it. `cargo xtask test` builds the
//! vendored source as a shared library and runs these with `PQVERIFY_LIBOQS` naming
//! it; without that variable they are ignored (shown as such), never passed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pqverify_native::backend::{Backend, LIBOQS_ENV, Liboqs};
use pqverify_native::{OneBackend, Verifier};
use serde_json::Value;

fn library() -> PathBuf {
    PathBuf::from(std::env::var_os(LIBOQS_ENV).expect("PQVERIFY_LIBOQS names a liboqs shared library"))
}

#[test]
#[ignore = "needs PQVERIFY_LIBOQS (cargo xtask test builds a shared liboqs and sets it)"]
fn a_loaded_liboqs_gives_the_expected_verdict_on_every_case_it_has() {
    let loaded = Arc::new(Liboqs::load(&library()).unwrap());
    let info = loaded.info();
    assert_eq!(info.library, library().display().to_string());
    assert_eq!(info.version, Liboqs::new().info().version, "built from the vendored source");
    assert!(loaded.version().contains(&info.library), "the version names the library: {}", loaded.version());
    assert_eq!(info.suites, ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]);
    let single = OneBackend(loaded.clone());
    let (mut ran, mut passed) = (0, 0);
    for case in common::acvp_cases() {
        let item = common::item_of(&case);
        let r = item.request().unwrap();
        if !loaded.supports(r.suite(), r.interface()) {
            continue;
        }
        ran += 1;
        match single.decide(&r) {
            Ok(v) if v == case.expected => passed += 1,
            other => eprintln!("tcId {} ({}): expected {}, got {other:?}", case.tc_id, case.suite, case.expected),
        }
    }
    pqverify_testkit::report::count("backend liboqs (loaded)", passed, ran).unwrap();
    assert!(ran >= 45, "ran {ran}");
    assert_eq!(passed, ran);
}

#[test]
#[ignore = "needs PQVERIFY_LIBOQS (cargo xtask test builds a shared liboqs and sets it)"]
fn loading_the_same_library_twice_gives_the_same_functions() {
    let a = Liboqs::load(&library()).unwrap();
    let b = Liboqs::load(&library()).unwrap();
    assert_eq!(a.version(), b.version());
}

fn pqverify(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    common::pqverify_command().current_dir(dir).args(args).output().unwrap()
}

#[test]
#[ignore = "needs PQVERIFY_LIBOQS (cargo xtask test builds a shared liboqs and sets it)"]
fn the_cli_uses_and_names_the_loaded_library() {
    let lib = library();
    let lib_arg = lib.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("pqverify-liboqs-loaded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `suites --json`: the first line is the liboqs used.
    let out = pqverify(&["suites", "--json", "--liboqs", lib_arg], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let first: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["liboqs"]["library"], lib_arg);
    // Enforce mode with the loaded liboqs as primary: the three valid Wycheproof
    // signatures it rejects are audited, and each disagreement record names it.
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wycheproof-use-hint/cases.jsonl");
    let out = common::pqverify_command()
        .current_dir(&dir)
        .args(["batch", "--backend", "dual", "--liboqs", lib_arg])
        .stdin(std::fs::File::open(cases).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // liboqs 0.13 rejects the three in its AVX2 code only (see dual_faults.rs).
    let expected = if first["liboqs"]["avx2"].as_bool().unwrap() { 3 } else { 0 };
    let log = std::fs::read_to_string(dir.join("pqverify-disagreements.jsonl")).unwrap_or_default();
    assert_eq!(log.lines().count(), expected);
    for line in log.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let text = record.to_string();
        assert!(text.contains(lib_arg), "the record names the loaded library: {text}");
    }
    // The same through the environment variable.
    let out = common::pqverify_command()
        .current_dir(&dir)
        .args(["suites", "--json"])
        .env(LIBOQS_ENV, lib_arg)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(lib_arg));
    // A library that is not liboqs: exit 2 with one line naming it and what is missing.
    let out = pqverify(
        &[
            "verify",
            "--suite",
            "ML-DSA-44",
            "--pk",
            "00",
            "--msg",
            "00",
            "--sig",
            "00",
            "--backend",
            "liboqs",
            "--liboqs",
            "libm.so.6",
        ],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("libm.so.6") && err.contains("OQS_version"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
