//! `pqverify-bench`: the benchmark suite natively (`run`), and the report of any
//! targets' records (`report`). The driver of the benchmark lives here, beside the
//! suite (`pqverify-bench`), so that `pqverify-native` is the verifier and nothing else.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use pqverify_native::command;

mod alloc_count;
mod blocks;
mod capacity;
mod certificates;
mod env;
mod profile;
mod report;
mod run;
mod ways;

/// Counts heap bytes in use, for the memory-per-key records.
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

#[derive(Parser)]
#[command(name = "pqverify-bench", version, about = "The pqverify benchmark suite, natively, and its report")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the benchmark suite natively and write its JSON-lines records.
    Run(RunArgs),
    /// Measures the first verify of a fresh process (run by `run`; one JSON line).
    #[command(hide = true)]
    FirstCall {
        /// FIPS suite name.
        #[arg(long)]
        suite: String,
        /// The kernel set to run (see `run --kernels`).
        #[arg(long, value_name = "NAME", env = pqverify_native::kernels::KERNELS_ENV)]
        kernels: Option<String>,
    },
    /// Verifies a fixture's valid signature COUNT times through one way, nothing else:
    /// for profilers (`cargo xtask profile`).
    #[command(hide = true)]
    VerifyLoop {
        /// `pqverify`, `pqverify-prepared` or `liboqs`.
        #[arg(long)]
        way: String,
        /// FIPS suite name.
        #[arg(long)]
        suite: String,
        /// Verifies.
        #[arg(long)]
        count: u64,
        /// The liboqs shared library of the `liboqs` way (default: the linked one).
        #[arg(long, value_name = "PATH")]
        liboqs: Option<std::path::PathBuf>,
        /// The kernel set pqverify runs (see `run --kernels`).
        #[arg(long, value_name = "NAME", env = pqverify_native::kernels::KERNELS_ENV)]
        kernels: Option<String>,
    },
    /// Read benchmark records from any mix of targets; print the report (Markdown).
    Report {
        /// Record files (JSON lines).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Also write report.md, chart.svg, scaling.svg and certificates.svg into this directory.
        #[arg(long)]
        out_dir: Option<std::path::PathBuf>,
        /// Verify-Unit constants over the defaults: SUITE=UNITS[,SUITE=UNITS…].
        #[arg(long, default_value = "")]
        units: String,
        /// Fail unless every target's run is complete and clean (all ways, suites, cases
        /// and rounds; no disagreement; one fixture digest; the capacity and certificate
        /// records; all eight sections).
        #[arg(long)]
        check: bool,
    },
}

/// `run`'s options.
#[derive(clap::Args)]
pub(crate) struct RunArgs {
    /// Records file (JSON lines); default: standard output.
    #[arg(long)]
    pub(crate) out: Option<std::path::PathBuf>,
    /// Rounds (default 3; 2 with --quick).
    #[arg(long)]
    pub(crate) rounds: Option<u32>,
    /// Only these suites (comma-separated FIPS names), certificates included.
    #[arg(long, value_delimiter = ',')]
    pub(crate) suites: Vec<String>,
    /// A short run: 40 ms per measurement, valid and invalid cases only.
    #[arg(long)]
    pub(crate) quick: bool,
    /// Skip the worst-case block measured through the parallel batch.
    #[arg(long)]
    pub(crate) no_block: bool,
    /// Run id for the records (default: time and host).
    #[arg(long)]
    pub(crate) run: Option<String>,
    /// The disagreement log (`-`: standard error).
    #[arg(long, value_name = "FILE", default_value = command::DISAGREEMENT_LOG)]
    pub(crate) disagreements: std::path::PathBuf,
    /// A liboqs shared library to measure beside the linked one (as the way
    /// `liboqs-<its version>`), and to use as the dual verifier's primary.
    #[arg(long, value_name = "PATH", env = pqverify_native::backend::LIBOQS_ENV)]
    pub(crate) liboqs: Option<std::path::PathBuf>,
    /// A liboqs built without its AVX-512 code (liboqs 0.16: `-DOQS_USE_SHA3_AVX512VL=OFF`;
    /// `cargo xtask bench` builds it): on a CPU with AVX-512 measured as the way
    /// `liboqs-<version>-avx2` beside `pqverify-avx2` (pqverify on its AVX2 kernels), the
    /// comparison a CPU without AVX-512 makes; elsewhere not loaded.
    #[arg(long, value_name = "PATH")]
    pub(crate) liboqs_avx2: Option<std::path::PathBuf>,
    /// The distinct-key fixtures (`pqverify-distinct/1` JSON, written by `cargo xtask
    /// bench`): one key per signature, for the `*-distinct` ways and the worst-case blocks.
    #[arg(long, value_name = "FILE")]
    pub(crate) distinct: std::path::PathBuf,
    /// The kernel set pqverify runs (one of `pqverify_core::available_kernels()`:
    /// `avx512`, `avx2`, `portable` on x86-64); default: the fastest this CPU has.
    #[arg(long, value_name = "NAME", env = pqverify_native::kernels::KERNELS_ENV)]
    pub(crate) kernels: Option<String>,
    /// The certificate scenario's fixtures (`pqverify-certificates/1` JSON, written by
    /// `cargo xtask bench`): measure whole quorum certificates on 1 … all cores.
    #[arg(long, value_name = "FILE")]
    pub(crate) certificates: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    let result = match cli.command {
        Command::Run(args) => run::run(args),
        Command::FirstCall { suite, kernels } => run::first_call(&suite, kernels.as_deref()),
        Command::Report { files, out_dir, units, check } => report::report(&files, out_dir, &units, check),
        Command::VerifyLoop { way, suite, count, liboqs, kernels } => kernels
            .as_deref()
            .map_or(Ok(()), command::force_kernels)
            .and_then(|()| command::load_liboqs(liboqs.as_deref()))
            .and_then(|l| profile::verify_loop(&way, &suite, count, l)),
    };
    result.unwrap_or_else(|failure| failure.exit("pqverify-bench"))
}
