//! The host's builds of the workspace, and the executables steps take from them.
//!
//! The test steps after the native tests (the liboqs-loading tests, the CLI under
//! valgrind, the quick benchmark pipeline and its fixture makers, the batches the AArch64
//! step feeds) run executables of the native tests' own build, the tests' profile over
//! the same packages: cargo unifies features per selection, so building one package
//! alone would rebuild its dependencies, and a release build would rebuild everything.
//! A benchmark run (`cargo xtask bench`) builds its executables in the release profile.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::Result;
use crate::process::cargo;

/// The packages the native tests build and run: all but the wasm bindings.
pub(crate) const NATIVE_PACKAGES: [&str; 3] = ["--workspace", "--exclude", "pqverify-wasm"];

/// The targets the native tests build and run: everything but the examples, which are
/// executables the steps run (built by [`Build::Tests`] as programs, not test harnesses).
pub(crate) const TEST_TARGETS: [&str; 4] = ["--lib", "--bins", "--tests", "--benches"];

/// A build whose executables a step runs.
#[derive(Clone, Copy)]
pub(crate) enum Build {
    /// The native tests' build (`cargo test --no-run`, the tests' profile) and the
    /// examples in the same profile and package selection.
    Tests,
    /// The release profile: what a benchmark run measures (the driver and the fixture
    /// makers).
    Release,
}

/// What kind of target an executable is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A `[[bin]]`, as users run it (not its unit-test harness).
    Bin,
    /// An example program.
    Example,
    /// An integration test's harness.
    Test,
}

impl Kind {
    /// Cargo's name for the target kind.
    fn cargo_name(self) -> &'static str {
        match self {
            Kind::Bin => "bin",
            Kind::Example => "example",
            Kind::Test => "test",
        }
    }
}

/// One executable a build wrote: its kind, name and path.
pub(crate) struct Executable {
    kind: Kind,
    name: String,
    path: PathBuf,
}

impl Build {
    /// The executable `name` of `kind`, built now if it is not up to date (a no-op
    /// when the native tests' step built it already).
    pub(crate) fn executable(self, kind: Kind, name: &str) -> Result<PathBuf> {
        let commands: Vec<Command> = match self {
            Build::Tests => {
                let mut tests = cargo();
                tests.args(["test", "--no-run"]).args(NATIVE_PACKAGES).args(TEST_TARGETS);
                let mut examples = cargo();
                examples.args(["build", "--profile", "test", "--examples"]).args(NATIVE_PACKAGES);
                vec![tests, examples]
            }
            Build::Release => {
                let mut release = cargo();
                release.args(["build", "--release", "-p", "pqverify-bench", "-p", "pqverify-bench-native"]).args([
                    "--bin",
                    "pqverify-bench",
                    "--example",
                    "make_certificates",
                    "--example",
                    "make_distinct",
                ]);
                vec![release]
            }
        };
        let mut built = Vec::new();
        for mut command in commands {
            built.extend(executables(&mut command)?);
        }
        find(&built, kind, name)
    }
}

/// Runs a cargo build with JSON messages (the compiler's diagnostics still shown) and
/// returns the executables it reports.
pub(crate) fn executables(command: &mut Command) -> Result<Vec<Executable>> {
    let words: Vec<String> = command.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
    let what = format!("cargo {}", words.join(" "));
    eprintln!("xtask: {what}");
    let out = command
        .arg("--message-format=json-render-diagnostics")
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!("{what}: {}", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact")
        .filter_map(|m| {
            let path = PathBuf::from(m["executable"].as_str()?);
            let kinds = m["target"]["kind"].as_array()?;
            // A bin's or an example's test harness is not the program.
            let harness = m["profile"]["test"].as_bool() == Some(true);
            let kind = [Kind::Bin, Kind::Example, Kind::Test]
                .into_iter()
                .find(|k| kinds.iter().any(|n| n == k.cargo_name()) && (*k == Kind::Test || !harness))?;
            Some(Executable { kind, name: m["target"]["name"].as_str()?.to_owned(), path })
        })
        .collect())
}

/// The executable `name` of `kind` among `built`.
pub(crate) fn find(built: &[Executable], kind: Kind, name: &str) -> Result<PathBuf> {
    built
        .iter()
        .find(|e| e.kind == kind && e.name == name)
        .map(|e| e.path.clone())
        .ok_or_else(|| format!("the build made no {} named {name}", kind.cargo_name()))
}
