//! `cargo xtask fixtures`: regenerate the benchmark fixtures.

use crate::process::{cargo, exec};
use crate::{Result, project};

/// Writes benches/fixtures/fixtures.json with the independent signers (deterministic).
pub(crate) fn run() -> Result {
    exec(
        "generate benches/fixtures/fixtures.json (fips204/fips205, deterministic)",
        cargo()
            .args(["run", "--release", "-p", "pqverify-bench", "--example", "make_fixtures", "--"])
            .arg(project::path("benches/fixtures/fixtures.json")),
    )
}
