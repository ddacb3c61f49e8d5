//! The distinct-key fixtures: one key per signature for every suite, made by the
//! testkit's signers (`benches/native/examples/make_distinct.rs`) once into
//! `target/bench-fixtures/` and reused; the native driver's `*-distinct` ways and
//! worst-case blocks read them.

use std::path::PathBuf;
use std::process::Command;

use crate::Result;
use crate::builds::{Build, Kind};
use crate::process::exec;
use crate::project::root;

/// Keys per suite in a quick run: short blocks, made in seconds rather than the full
/// blocks' ten minutes of SLH-DSA signing.
const QUICK_KEYS: u32 = 3;

/// The fixtures for a full run (every suite's whole worst-case block) or a quick one
/// ([`QUICK_KEYS`] per suite), made once and kept while they parse for the fixtures
/// of this checkout; the maker is taken from `build`.
pub(crate) fn fixtures(quick: bool, build: Build) -> Result<PathBuf> {
    let name = if quick { format!("distinct-keys-{QUICK_KEYS}.json") } else { "distinct-keys.json".into() };
    let file = root().join("target/bench-fixtures").join(name);
    let digest = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON)?.digest;
    let usable = std::fs::read(&file)
        .ok()
        .is_some_and(|b| pqverify_bench::distinct::DistinctFixtures::parse(&b, &digest).is_ok());
    if !usable {
        std::fs::create_dir_all(file.parent().unwrap_or(&root())).map_err(|e| e.to_string())?;
        let mut make = Command::new(build.executable(Kind::Example, "make_distinct")?);
        make.arg(&file);
        if quick {
            make.arg(QUICK_KEYS.to_string());
        }
        exec(
            &format!(
                "distinct-key fixtures: {} (fips204/fips205, deterministic)",
                if quick { "3 keys per suite" } else { "every suite's worst-case block, one key per signature" }
            ),
            &mut make,
        )?;
    }
    Ok(file)
}
