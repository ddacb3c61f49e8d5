//! `cargo xtask fuzz`: each fuzz target for a while (cargo-fuzz on nightly).

use std::process::Command;

use crate::process::exec;
use crate::{Result, project, setup};

/// The fuzz flags.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Flags {
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    pub(crate) seconds: u64,
}

/// Runs each target for `seconds`, seeded from the committed corpus; new inputs go to
/// target/fuzz-corpus/ (never into the committed corpus), a crash fails the run.
pub(crate) fn run(seconds: u64) -> Result {
    setup::all()?;
    setup::fuzz_tools()?;
    for target in ["verify", "batch_line", "public_key"] {
        let scratch = project::path("target/fuzz-corpus").join(target);
        std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
        exec(
            &format!("cargo fuzz run {target} for {seconds} s"),
            Command::new("cargo")
                .args(["+nightly", "fuzz", "run", target])
                .arg(&scratch)
                .arg(project::path("fuzz/corpus").join(target))
                .arg("--")
                .arg(format!("-max_total_time={seconds}"))
                .arg("-print_final_stats=1")
                .current_dir(project::path("fuzz")),
        )?;
    }
    Ok(())
}
