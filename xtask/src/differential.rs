//! `cargo xtask differential`: pqverify vs liboqs vs the reference on mutated signatures.

use crate::process::{cargo, exec};
use crate::{Result, project, setup};

/// The campaign's flags.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Flags {
    /// Cases to run.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) count: u64,
    /// Seed of the case generator.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Verify with pqverify's portable kernels forced.
    #[arg(long)]
    pub(crate) portable: bool,
}

/// Runs the campaign; it fails (non-zero exit) on any disagreement.
pub(crate) fn run(flags: &Flags) -> Result {
    setup::all()?;
    campaign(flags)
}

/// The campaign without the set-up, for `cargo xtask test`.
pub(crate) fn campaign(flags: &Flags) -> Result {
    let mut cmd = cargo();
    cmd.args(["run", "--release", "-p", "pqverify-native", "--example", "differential", "--"])
        .args(["--count", &flags.count.to_string()]);
    if let Some(seed) = flags.seed {
        cmd.args(["--seed", &seed.to_string()]);
    }
    if flags.portable {
        cmd.arg("--portable");
    }
    cmd.arg("--out").arg(project::path("target/differential"));
    exec(
        &format!("differential campaign ({} cases{})", flags.count, if flags.portable { ", portable" } else { "" }),
        &mut cmd,
    )
}
