//! The certificate scenario's fixtures: n validators per suite, each signing one block
//! hash, made by the testkit's signers (`benches/examples/make_certificates.rs`).

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::builds::{Build, Kind};
use crate::process::exec;
use crate::project::root;

/// Validators per certificate unless told: a typical committee.
pub(crate) const VALIDATORS: u32 = 100;

/// Validators per certificate in the test steps: the scenario end to end (pool, page,
/// records) on a committee signed in seconds; 100 SLH-DSA-SHAKE-128s signatures take
/// two minutes on two cores.
pub(crate) const CHECK_VALIDATORS: u32 = 10;

/// The certificate scenario's fixtures for `validators` validators, made once per
/// count into `target/bench-fixtures/` by the testkit's signers (SLH-DSA signing takes
/// a while), the maker taken from `build`, and reused; every target of a run reads the
/// same file.
pub(crate) fn fixtures(validators: u32, build: Build) -> Result<PathBuf> {
    let file = root().join(format!("target/bench-fixtures/certificates-{validators}.json"));
    let usable = std::fs::read(&file).ok().is_some_and(|b| {
        pqverify_bench::certificates::CertificateFixtures::parse(&b).is_ok_and(|f| f.validators == validators as usize)
    });
    if !usable {
        std::fs::create_dir_all(file.parent().unwrap_or(&root())).map_err(|e| e.to_string())?;
        exec(
            &format!("certificate fixtures: {validators} validators per suite (fips204/fips205, deterministic)"),
            Command::new(build.executable(Kind::Example, "make_certificates")?).arg(&file).arg(validators.to_string()),
        )?;
    }
    Ok(file)
}
