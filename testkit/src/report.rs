//! Counts that a test reports to `cargo xtask test` as data, not as text to match.
//!
//! With `PQVERIFY_TEST_REPORTS=<dir>` set, [`count`] writes `<dir>/<name>.json`
//! (`{"name":…,"passed":…,"total":…}`); `cargo xtask test` requires the reports it
//! expects, each with every case passed, so a test that stops running is noticed.

use std::path::PathBuf;

/// The environment variable naming the report folder.
pub const REPORTS_DIR: &str = "PQVERIFY_TEST_REPORTS";

/// Prints "`name`: `passed`/`total`" and, when [`REPORTS_DIR`] is set, writes it as
/// JSON there. Returns the error of writing the file, if any.
pub fn count(name: &str, passed: usize, total: usize) -> std::io::Result<()> {
    println!("{name}: {passed}/{total}");
    let Some(dir) = std::env::var_os(REPORTS_DIR).map(PathBuf::from) else { return Ok(()) };
    std::fs::create_dir_all(&dir)?;
    let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let json = format!(r#"{{"name":{name:?},"passed":{passed},"total":{total}}}"#);
    std::fs::write(dir.join(format!("{file}.json")), json + "\n")
}
