//! `cargo xtask differential`: the differential campaign (`differential/`): pqverify
//! beside liboqs 0.13 (linked) and 0.16 (loaded), RustCrypto, fips204/fips205,
//! libcrux-ml-dsa, AWS-LC, and through Node 24 OpenSSL, noble and Chromium's WebCrypto, on
//! one case file per chunk.

use crate::process::{cargo, exec};
use crate::{Result, liboqs, project, setup};

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

/// Runs the campaign; it fails (non-zero exit) on any unexplained disagreement.
pub(crate) fn run(flags: &Flags) -> Result {
    setup::all()?;
    campaign(flags, "release")
}

/// The campaign without the set-up, built with the cargo `profile` given (`cargo xtask
/// test` uses the tests' own, whose build the native tests have already made).
pub(crate) fn campaign(flags: &Flags, profile: &str) -> Result {
    let liboqs = liboqs::peer_016()?;
    let helper = project::path("differential/js/answer.mjs");
    let out = project::path(if flags.portable { "target/differential-portable" } else { "target/differential" });
    let mut cmd = cargo();
    cmd.args(["run", "--profile", profile, "-p", "pqverify-differential", "--", "run"])
        .args(["--count", &flags.count.to_string()])
        .arg("--liboqs")
        .arg(&liboqs)
        .arg("--node")
        .arg(project::node24()?)
        .arg("--helper")
        .arg(&helper)
        .args(["--chromium", "/usr/bin/chromium"])
        .arg("--out")
        .arg(&out);
    if let Some(seed) = flags.seed {
        cmd.args(["--seed", &seed.to_string()]);
    }
    if flags.portable {
        cmd.arg("--portable");
    }
    exec(
        &format!("differential campaign ({} cases{})", flags.count, if flags.portable { ", portable" } else { "" }),
        &mut cmd,
    )
}
