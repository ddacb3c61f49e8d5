//! `cargo xtask test`: every check, as a table of steps.
//!
//! The rule: a step that runs tests must report how many it ran, and fails when it ran
//! none (a filter, a skipped binary or an empty runner would otherwise pass
//! silently). Decisions come from exit codes and counts: the runners' closing lines
//! read as numbers, and the ACVP tests' counts handed over as JSON
//! (`pqverify_testkit::report`); never from matching an error message.

use std::path::Path;
use std::process::Command;

use crate::builds::{self, Build, Kind};
use crate::certificates::CHECK_VALIDATORS;
use crate::process::{cargo, exec, exec_capture, run_with_input, succeeds};
use crate::project::{path, test_js, www_dir};
use crate::{Result, aarch64, acvp, addon, bench, differential, fuzz, liboqs, package, setup, wasm_setup, www};

/// What a step did.
enum Ran {
    /// A check that passes or fails as a whole (format, lints, a build, a campaign).
    Check,
    /// Tests, with how many passed (none failed, or the step would have failed).
    Tests(u64),
}

/// One step of the table.
struct Step {
    name: &'static str,
    run: fn() -> Result<Ran>,
}

/// Every step, in order.
const STEPS: &[Step] = &[
    Step { name: "cargo fmt --check", run: fmt },
    Step { name: "clippy -D warnings (native, all targets)", run: clippy_native },
    Step {
        name: "clippy -D warnings (wasm32, baseline and simd128: the wasm crate, the bench suite's JS bindings)",
        run: clippy_wasm,
    },
    Step { name: "native tests (core, kats, testkit, native twin, bench suite, xtask)", run: native_tests },
    Step { name: "doc tests", run: doc_tests },
    Step { name: "liboqs loaded at run time (a shared build of the vendored source)", run: liboqs_loaded },
    Step {
        name: "AArch64 under qemu-user: every crate's tests cross-built, on every kernel set, with liboqs 0.13 and 0.16 loaded",
        run: aarch64_tests,
    },
    Step { name: "pqverify-core builds for wasm32 (no_std and alloc)", run: core_wasm_builds },
    Step { name: "the native library compiles without the CLI's dependencies", run: native_library_alone },
    Step { name: "cargo doc and cargo package (pqverify-core, pqverify-native)", run: packages },
    Step { name: "wasm tests, baseline build, in Node", run: || wasm_tests(Variant::Baseline, Engine::Node) },
    Step {
        name: "wasm tests, baseline build, in headless Chromium",
        run: || wasm_tests(Variant::Baseline, Engine::Chromium),
    },
    Step { name: "wasm tests, simd128 build, in Node", run: || wasm_tests(Variant::Simd128, Engine::Node) },
    Step {
        name: "wasm tests, simd128 build, in headless Chromium",
        run: || wasm_tests(Variant::Simd128, Engine::Chromium),
    },
    Step { name: "the npm package as users import it (node --test)", run: package_tests },
    Step { name: "fuzz smoke runs (10 s per target)", run: || fuzz::run(10).map(|()| Ran::Check) },
    Step { name: "differential campaign over every verifier, SIMD kernels (2,000 cases)", run: || campaign(false) },
    Step { name: "differential campaign over every verifier, portable kernels (2,000 cases)", run: || campaign(true) },
    Step { name: "pqverify batch under valgrind", run: valgrind_batch },
    Step { name: "quick benchmark pipeline, records checked complete", run: bench_pipeline },
    Step { name: "the benchmark page in headless Chromium (Playwright)", run: www_page },
    Step { name: "the package and the benchmark page in Firefox ESR and WebKit (WebDriver)", run: www_engines },
];

/// Prints the steps (or those whose name contains `only`), numbered, one line each.
pub(crate) fn list(only: Option<&str>) {
    for (i, step) in STEPS.iter().filter(|s| only.is_none_or(|o| s.name.contains(o))).enumerate() {
        println!("{:>2}. {}", i + 1, step.name);
    }
}

/// Runs set-up, then every step (or those whose name contains `only`); prints the
/// closing count CI reads.
pub(crate) fn run(only: Option<&str>) -> Result {
    setup::all()?;
    wasm_setup::tools()?;
    let steps: Vec<&Step> = STEPS.iter().filter(|s| only.is_none_or(|o| s.name.contains(o))).collect();
    if steps.is_empty() {
        return Err(format!("no step's name contains {only:?}"));
    }
    let mut passed = 0;
    let mut took = Vec::new();
    let all = std::time::Instant::now();
    for (i, step) in steps.iter().enumerate() {
        eprintln!("xtask test [{}/{}]: {}", i + 1, steps.len(), step.name);
        let start = std::time::Instant::now();
        match (step.run)().map_err(|e| format!("{}: {e}", step.name))? {
            Ran::Tests(0) => return Err(format!("{}: ran no test", step.name)),
            Ran::Tests(n) => passed += n,
            Ran::Check => {}
        }
        took.push((step.name, start.elapsed()));
    }
    // Where the time went, so a slow step is seen where CI prints it.
    for (name, elapsed) in took {
        println!("{:>7.1} s  {name}", elapsed.as_secs_f64());
    }
    println!("{:>7.1} s  all steps (set-up before them not included)", all.elapsed().as_secs_f64());
    println!("tests: {passed} passed, 0 failed");
    match only {
        None => println!("xtask test: all {} steps ok", STEPS.len()),
        Some(_) => println!("xtask test: {} of {} steps ok (--only)", steps.len(), STEPS.len()),
    }
    Ok(())
}

fn fmt() -> Result<Ran> {
    exec("cargo fmt --check", cargo().args(["fmt", "--all", "--", "--check"])).map(|()| Ran::Check)
}

fn clippy_native() -> Result<Ran> {
    exec("cargo clippy", cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))
        .map(|()| Ran::Check)
}

fn clippy_wasm() -> Result<Ran> {
    // Both builds: the simd128 kernels exist only with their target feature.
    for (simd, target_dir) in [(false, "target"), (true, "target/simd")] {
        exec(
            &format!("cargo clippy --target wasm32-unknown-unknown{}", if simd { " (simd128)" } else { "" }),
            cargo()
                .args(["clippy", "-p", "pqverify-wasm", "-p", "pqverify-bench", "--features", "pqverify-bench/wasm"])
                .args(["--target", "wasm32-unknown-unknown", "--all-targets", "--", "-D", "warnings"])
                .env("RUSTFLAGS", wasm_setup::rustflags(simd))
                .env("CARGO_TARGET_DIR", path(target_dir)),
        )?;
        // The package's modules: the library alone, without the standard library.
        exec(
            &format!(
                "cargo clippy --target wasm32-unknown-unknown --features module{}",
                if simd { " (simd128)" } else { "" }
            ),
            cargo()
                .args(["clippy", "-p", "pqverify-wasm", "--lib", "--features", "module"])
                .args(["--target", "wasm32-unknown-unknown", "--", "-D", "warnings"])
                .env("RUSTFLAGS", wasm_setup::rustflags(simd))
                .env("CARGO_TARGET_DIR", path(target_dir)),
        )?;
    }
    Ok(Ran::Check)
}

/// The counts each native run must hand over, with every case passed: (report name,
/// cases). Every ACVP case and every C2SP CCTV accumulated signature (the first
/// `cctv_signatures` per parameter set) on each of the kernel `sets` the CPU has, which
/// the step names.
fn required_reports<S: AsRef<str>>(sets: &[S], cctv_signatures: u64) -> Vec<(String, u64)> {
    let mut required: Vec<(String, u64)> = [
        ("ML-DSA ACVP sigVer", 180),
        ("SLH-DSA ACVP sigVer", 504),
        ("backend pqverify", 684),
        ("backend rustcrypto", 684),
        ("dual-enforce", 684),
        ("dual-shadow", 684),
    ]
    .into_iter()
    .map(|(name, cases)| (name.to_owned(), cases))
    .collect();
    required.extend(sets.iter().map(|set| (format!("kernels {}", set.as_ref()), 684)));
    for suite in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] {
        required.push((format!("CCTV accumulated {suite}"), cctv_signatures * sets.len() as u64));
    }
    required
}

fn native_tests() -> Result<Ran> {
    let reports = path("target/test-reports");
    let _ = std::fs::remove_dir_all(&reports);
    // Signed anew here, and kept for the AArch64 step (see `pqverify_testkit::cache`).
    let _ = std::fs::remove_dir_all(path(SIGNATURE_CACHE));
    let out = exec_capture(
        "cargo test (native)",
        cargo()
            .arg("test")
            .args(builds::NATIVE_PACKAGES)
            .args(builds::TEST_TARGETS)
            .env(REPORTS_ENV, &reports)
            .env(SIGNATURE_CACHE_ENV, path(SIGNATURE_CACHE)),
    )?;
    let sets = pqverify_core::available_kernels();
    eprintln!("kernel sets of this CPU, each tested: {}", sets.join(", "));
    check_reports(&reports, &required_reports(sets, 10_000))?;
    // liboqs covers only some cases; it must have run and passed all it ran.
    let (passed, total) = read_report(&reports, "backend liboqs")?;
    if total == 0 || passed != total {
        return Err(format!("backend liboqs: {passed}/{total}"));
    }
    libtest_count(&out)
}

/// Every report in `required` was handed over with all its cases, and passed.
fn check_reports(reports: &Path, required: &[(String, u64)]) -> Result {
    for (name, cases) in required {
        let (passed, total) = read_report(reports, name)?;
        if passed != total || total != *cases {
            return Err(format!("{name}: {passed}/{total}, expected {cases}/{cases}"));
        }
    }
    Ok(())
}

/// The native tests of pqverify-core and pqverify-native (the CLI's included, and the
/// loaded-liboqs ones) cross-built for AArch64 and run under qemu-user: the same
/// reports as natively, on every AArch64 kernel set.
fn aarch64_tests() -> Result<Ran> {
    let reports = path("target/test-reports-aarch64");
    let _ = std::fs::remove_dir_all(&reports);
    let cache = path(SIGNATURE_CACHE);
    let out = aarch64::run_tests([(REPORTS_ENV, &reports), (SIGNATURE_CACHE_ENV, &cache)])?;
    let sets = aarch64::kernel_sets()?;
    eprintln!("AArch64 kernel sets under qemu, each tested: {}", sets.join(", "));
    check_reports(&reports, &required_reports(&sets, aarch64::CCTV_SIGNATURES))?;
    for name in ["backend liboqs", "backend liboqs (loaded)"] {
        let (passed, total) = read_report(&reports, name)?;
        if total == 0 || passed != total {
            return Err(format!("{name}: {passed}/{total}"));
        }
    }
    libtest_count(&out)
}

/// Where the native tests keep the SLH-DSA signer's outputs for the AArch64 tests.
const SIGNATURE_CACHE: &str = "target/signature-cache";

/// The variable the tests read it from: `pqverify_testkit::cache::CACHE_ENV`.
const SIGNATURE_CACHE_ENV: &str = "PQVERIFY_SIGNATURE_CACHE";

/// The variable the tests read: `pqverify_testkit::report::REPORTS_DIR`.
const REPORTS_ENV: &str = "PQVERIFY_TEST_REPORTS";

/// (passed, total) of the JSON report `name` in `dir`.
fn read_report(dir: &Path, name: &str) -> Result<(u64, u64)> {
    let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let text = std::fs::read_to_string(dir.join(format!("{file}.json")))
        .map_err(|e| format!("the test reporting `{name}` did not run ({e})"))?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    let number = |key: &str| json.get(key).and_then(serde_json::Value::as_u64).ok_or(format!("{name}: no {key}"));
    Ok((number("passed")?, number("total")?))
}

/// The tests ignored without `PQVERIFY_LIBOQS`, run with it naming a shared liboqs.
fn liboqs_loaded() -> Result<Ran> {
    let library = liboqs::shared()?;
    let reports = path("target/test-reports");
    // The native tests' executable: a build of this package alone would differ in features.
    let tests = Build::Tests.executable(Kind::Test, "liboqs_loaded")?;
    let out = exec_capture(
        "the liboqs_loaded tests, with --include-ignored",
        Command::new(tests)
            .arg("--include-ignored")
            .current_dir(path("native"))
            .env("PQVERIFY_LIBOQS", &library)
            .env(REPORTS_ENV, &reports),
    )?;
    let (passed, total) = read_report(&reports, "backend liboqs (loaded)")?;
    if total == 0 || passed != total {
        return Err(format!("backend liboqs (loaded): {passed}/{total}"));
    }
    libtest_count(&out)
}

fn doc_tests() -> Result<Ran> {
    let out =
        exec_capture("cargo test --doc", cargo().args(["test", "--workspace", "--exclude", "pqverify-wasm", "--doc"]))?;
    libtest_count(&out)
}

fn core_wasm_builds() -> Result<Ran> {
    for features in [&["--no-default-features"][..], &[][..]] {
        exec(
            &format!("build pqverify-core for wasm32 {features:?}"),
            cargo()
                .args(["build", "-p", "pqverify-core", "--release", "--target", "wasm32-unknown-unknown"])
                .args(features),
        )?;
    }
    Ok(Ran::Check)
}

/// The native library without clap and indicatif (`default-features = false`), type-
/// checked: the dependency graph and the code without the CLI are what can break, and
/// every other step generates code for the same sources. In the dev profile, whose checked
/// dependencies clippy left.
fn native_library_alone() -> Result<Ran> {
    exec(
        "cargo check -p pqverify-native --no-default-features --lib",
        cargo().args(["check", "-p", "pqverify-native", "--no-default-features", "--lib"]),
    )
    .map(|()| Ran::Check)
}

/// The publishable crates: their docs build without a warning, and `cargo package`
/// (which builds each from its packaged files, path dependencies as the registry would
/// see them) passes.
fn packages() -> Result<Ran> {
    exec(
        "cargo doc -p pqverify-core -p pqverify-native --no-deps",
        cargo()
            .args(["doc", "-p", "pqverify-core", "-p", "pqverify-native", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    forget_packaged_sources()?;
    exec(
        "cargo package -p pqverify-core -p pqverify-native",
        cargo().args(["package", "-p", "pqverify-core", "-p", "pqverify-native", "--allow-dirty"]),
    )
    .map(|()| Ran::Check)
}

/// Removes what an earlier `cargo package` of this checkout's path unpacked from its
/// temporary registry (`$CARGO_HOME/registry/src/-<hash>/pqverify-*`): cargo finds the
/// unpacked `pqverify-core 0.1.0` there and does not unpack the new one, so pqverify-native
/// would be verified against the old core. crates.io's folders (`index.…`) are left alone.
fn forget_packaged_sources() -> Result {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    for kind in ["src", "cache"] {
        let Ok(registries) = std::fs::read_dir(home.join("registry").join(kind)) else { continue };
        for registry in registries.flatten().filter(|r| r.file_name().to_string_lossy().starts_with('-')) {
            for entry in std::fs::read_dir(registry.path()).into_iter().flatten().flatten() {
                if entry.file_name().to_string_lossy().starts_with("pqverify-") {
                    let path = entry.path();
                    let removed =
                        if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
                    removed.map_err(|e| format!("{}: {e}", path.display()))?;
                }
            }
        }
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Variant {
    Baseline,
    Simd128,
}

#[derive(Clone, Copy)]
enum Engine {
    Node,
    Chromium,
}

/// The wasm tests (every ACVP case, bad input) of one build in one engine.
fn wasm_tests(variant: Variant, engine: Engine) -> Result<Ran> {
    let (rustflags, target_dir) = match variant {
        Variant::Baseline => (wasm_setup::rustflags(false), "target"),
        Variant::Simd128 => (wasm_setup::rustflags(true), "target/simd"),
    };
    let mut cmd = cargo();
    cmd.args(["test", "-p", "pqverify-wasm", "--target", "wasm32-unknown-unknown", "--release", "--test", "web"])
        .env("RUSTFLAGS", rustflags)
        .env("CARGO_TARGET_DIR", path(target_dir));
    if let Engine::Chromium = engine {
        // Without WASM_BINDGEN_USE_BROWSER the runner skips these tests and reports 0 passed.
        cmd.env("WASM_BINDGEN_USE_BROWSER", "1").env("CHROMEDRIVER", "/usr/bin/chromedriver");
        // The runner's watchdog (20 s by default) would end the 30,000 CCTV signatures.
        cmd.env("WASM_BINDGEN_TEST_TIMEOUT", "900");
    }
    libtest_count(&exec_capture("cargo test -p pqverify-wasm", &mut cmd)?)
}

/// The package's JS tests that exercise the Node entries, which `package_tests` runs a
/// second time with `PQVERIFY_ENGINE=wasm`: the same tests through WebAssembly.
const ENGINE_TESTS: [&str; 9] = [
    "acvp.test.mjs",
    "boundary.test.mjs",
    "entries.test.mjs",
    "key-decoders.test.mjs",
    "keys.test.mjs",
    "noble-parity.test.mjs",
    "package.test.mjs",
    "runtimes.test.mjs",
    "server.test.mjs",
];

/// The package as users install it (its platform package beside it): every JS test, the
/// Node entries answering with the native build; then the Node entries' tests again with
/// `PQVERIFY_ENGINE=wasm`.
fn package_tests() -> Result<Ran> {
    let packages = package::build_package()?;
    package::install_package(&packages)?;
    let cases = path("target/npm/acvp-cases.json");
    acvp::write_cases(&cases)?;
    let liboqs = liboqs::peer_016()?;
    let liar = liboqs::lying_stand_in()?;
    // What install.test.mjs publishes to its local registry.
    let tarballs = std::env::join_paths(std::iter::once(&packages.main).chain(&packages.platforms))
        .map_err(|e| format!("tarball paths: {e}"))?;
    let node_test = |what: &str, engine: Option<&str>, files: &[&str]| {
        let mut cmd = Command::new("node");
        cmd.args(["--expose-gc", "--test", "--test-reporter=tap"])
            .args(files)
            .env("PQVERIFY_ACVP_CASES", &cases)
            .env("PQVERIFY_TEST_LIBOQS", &liboqs)
            .env("PQVERIFY_TEST_LYING_LIBOQS", &liar)
            .env("PQVERIFY_TEST_ARM64_PACKAGE", addon::platform("arm64").dir())
            .env("PQVERIFY_TEST_TARBALLS", &tarballs)
            .env_remove("PQVERIFY_ENGINE")
            .current_dir(test_js());
        if let Some(engine) = engine {
            cmd.env("PQVERIFY_ENGINE", engine);
        }
        tap_count(&exec_capture(what, &mut cmd)?)
    };
    let native = node_test("node --test (the native build)", None, &[])?;
    let wasm = node_test("node --test (PQVERIFY_ENGINE=wasm)", Some("wasm"), &ENGINE_TESTS)?;
    Ok(Ran::Tests(native + wasm))
}

/// The passed count of a `node --test --test-reporter=tap` run (an error if any failed).
fn tap_count(out: &str) -> Result<u64> {
    let count = |key: &str| -> u64 {
        out.lines().filter_map(|l| l.strip_prefix(key)).filter_map(|n| n.trim().parse::<u64>().ok()).sum()
    };
    match (count("# pass "), count("# fail ")) {
        (passed, 0) => Ok(passed),
        (passed, failed) => Err(format!("{passed} passed, {failed} failed")),
    }
}

fn campaign(portable: bool) -> Result<Ran> {
    // Built as the native tests were (optimised, with overflow checks): their build of the
    // peers (AWS-LC, libcrux) serves again.
    differential::campaign(&differential::Flags { count: 2000, seed: Some(20_261_130), portable }, "test")
        .map(|()| Ran::Check)
}

/// `pqverify batch` (dual verification, two threads) under valgrind's memcheck: no
/// memory error, no definite leak, an answer for every line.
fn valgrind_batch() -> Result<Ran> {
    if !succeeds("valgrind", &["--version"]) {
        setup::apt_install(&["valgrind"])?;
    }
    let make_batch = Build::Tests.executable(Kind::Example, "make_batch")?;
    let pqverify = Build::Tests.executable(Kind::Bin, "pqverify")?;
    let input =
        Command::new(make_batch).args(["ML-DSA-65", "30", "3"]).output().map_err(|e| format!("make_batch: {e}"))?;
    let out = run_with_input(
        "valgrind",
        Command::new("valgrind")
            .args(["-q", "--error-exitcode=9", "--leak-check=full", "--errors-for-leak-kinds=definite"])
            .arg(pqverify)
            .args(["batch", "--backend", "dual", "--threads", "2", "--disagreements"])
            .arg(path("target/valgrind-disagreements.jsonl")),
        &input.stdout,
    )?;
    let answers = String::from_utf8_lossy(&out.stdout).lines().count();
    if !out.status.success() || answers != 30 {
        return Err(format!("{} ({answers} answers)\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    Ok(Ran::Check)
}

fn bench_pipeline() -> Result<Ran> {
    // From the native tests' build: the step checks the records, not their figures.
    let run = bench::Run {
        quick: true,
        check: true,
        browser: false,
        validators: CHECK_VALIDATORS,
        kernels: None,
        build: Build::Tests,
    };
    bench::pipeline(&path("target/bench-check"), &run).map(|_| Ran::Check)
}

/// The package (default entry and pqverify/js: the ACVP cases, a page, a module worker,
/// the pool), checked by `wasm/test-js/engines-check.mjs`, and the benchmark page, checked
/// by `benches/www/check-engines.mjs`, in Firefox ESR and WebKitGTK (both from Debian's
/// packages). Each prints `N passed, M failed` last.
fn www_engines() -> Result<Ran> {
    www::build_www(CHECK_VALIDATORS, Build::Tests)?;
    wasm_setup::browser_engines()?;
    let cases = path("target/npm/acvp-cases.json");
    acvp::write_cases(&cases)?;
    let package = exec_capture(
        "the package in Firefox and WebKit",
        Command::new("node").arg("engines-check.mjs").env("PQVERIFY_ACVP_CASES", &cases).current_dir(test_js()),
    )?;
    let page = exec_capture(
        "the benchmark page in Firefox and WebKit",
        Command::new("node").args(["check-engines.mjs", "dist"]).current_dir(www_dir()),
    )?;
    Ok(Ran::Tests(closing_count(&package)? + closing_count(&page)?))
}

/// The page check prints its own count as the closing line `N passed, M failed`.
fn www_page() -> Result<Ran> {
    www::build_www(CHECK_VALIDATORS, Build::Tests)?;
    let shots = path("target/www-check");
    std::fs::create_dir_all(&shots).map_err(|e| e.to_string())?;
    let out = exec_capture(
        "www check",
        Command::new("node")
            .arg("check.mjs")
            .arg("dist")
            .arg(path("target/bench-check/native.jsonl"))
            .arg(shots.join("screenshot.png"))
            .current_dir(www_dir()),
    )?;
    closing_count(&out).map(Ran::Tests)
}

/// A check script's closing line `N passed, M failed`: N (an error unless M is 0).
fn closing_count(out: &str) -> Result<u64> {
    let counts = out.lines().rev().find_map(|l| {
        let (passed, failed) = l.strip_suffix(" failed")?.split_once(" passed, ")?;
        Some((passed.parse::<u64>().ok()?, failed.parse::<u64>().ok()?))
    });
    match counts {
        Some((passed, 0)) => Ok(passed),
        other => Err(format!("check counts: {other:?}")),
    }
}

/// The passed count of libtest runs (its `test result:` lines); their failures
/// already made the command fail.
fn libtest_count(output: &str) -> Result<Ran> {
    let passed = output
        .lines()
        .filter_map(|l| l.strip_prefix("test result: ok. "))
        .filter_map(|rest| rest.split(" passed").next()?.parse::<u64>().ok())
        .sum();
    Ok(Ran::Tests(passed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_counts_add_up() {
        let out = "test result: ok. 3 passed; 0 failed; 0 ignored\nnoise\ntest result: ok. 0 passed; 0 failed\ntest result: ok. 12 passed; 0 failed; 1 ignored";
        assert!(matches!(libtest_count(out), Ok(Ran::Tests(15))));
        assert!(matches!(libtest_count("nothing"), Ok(Ran::Tests(0))));
    }
}
