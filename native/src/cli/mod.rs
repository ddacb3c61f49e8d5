//! The `pqverify` command's parts: its arguments here, one module per subcommand,
//! the verifier they share, and the failure type that sets the exit status. The
//! rules (verification, dual checks, the batch stream) live in the library.

use clap::{Parser, Subcommand, ValueEnum};

pub(crate) mod batch;
pub(crate) mod bench;
pub(crate) mod failure;
pub(crate) mod report;
pub(crate) mod suites;
pub(crate) mod verifier;
pub(crate) mod verify;

#[derive(Parser)]
#[command(name = "pqverify", version, about = "Verify ML-DSA (FIPS 204) and SLH-DSA (FIPS 205) signatures")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum BackendName {
    /// pqverify-core (with a prepared-key cache)
    Pqverify,
    /// liboqs (ML-DSA with the vendored 0.13; SLH-DSA too with a system liboqs ≥ 0.14)
    Liboqs,
    /// RustCrypto ml-dsa and slh-dsa, the independent reference
    Rustcrypto,
    /// two verifiers: liboqs (or the reference where liboqs lacks it) and pqverify
    Dual,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ModeArg {
    Enforce,
    Shadow,
}

#[derive(clap::Args)]
pub(crate) struct VerifierArgs {
    /// Which verifier to use.
    #[arg(long, value_enum, default_value = "dual")]
    backend: BackendName,
    /// With `--backend dual`: enforce (both must accept; the default) or shadow (primary
    /// decides, both run).
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// The disagreement log: JSON lines appended to FILE, one flushed record each
    /// (`-`: standard error, checked to be open). Opened before any verification.
    #[arg(long, value_name = "FILE", default_value = DISAGREEMENT_LOG)]
    disagreements: std::path::PathBuf,
    /// Prepared keys kept for keys seen again (0: none).
    #[arg(long, default_value_t = 1024)]
    key_cache: usize,
    /// With `--mode enforce`: the secondary audits one in N of the primary's rejections
    /// (1: every one; 0: none). The verdict stays "invalid"; a secondary that accepts is
    /// logged as a disagreement. Cost: one secondary verify per audited invalid
    /// signature (the benchmark's invalid rows show dual-enforce with and without it).
    #[arg(long, value_name = "N")]
    audit_rejections: Option<u64>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// List every suite with its sizes and the backends (and interfaces) that support it.
    Suites {
        /// One JSON object per suite instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Verify one signature. Exit status: 0 valid, 1 invalid, 2 bad input (one-line
    /// error), 3 I/O failure or a fault on this side (a backend or the disagreement log).
    Verify {
        /// FIPS suite name, e.g. ML-DSA-65 or SLH-DSA-SHAKE-128s.
        #[arg(long)]
        suite: String,
        /// Public key: hex, or @FILE for raw bytes.
        #[arg(long)]
        pk: String,
        /// Message: hex, or @FILE (M; M′ with --interface internal).
        #[arg(long)]
        msg: Option<String>,
        /// Signature: hex, or @FILE.
        #[arg(long)]
        sig: String,
        /// Context string: hex, or @FILE (default empty).
        #[arg(long)]
        ctx: Option<String>,
        /// Pre-hash function (ACVP name, e.g. SHA2-256, SHAKE-128): HashML-DSA / HashSLH-DSA.
        #[arg(long)]
        prehash: Option<String>,
        /// external (default) or internal (M′ as given, or --mu).
        #[arg(long, default_value = "external")]
        interface: String,
        /// External μ (64 bytes, hex or @FILE): ML-DSA with --interface internal.
        #[arg(long)]
        mu: Option<String>,
        #[command(flatten)]
        verifier: VerifierArgs,
    },
    /// Run the benchmark suite natively and write its JSON-lines records.
    Bench {
        /// Records file (JSON lines); default: standard output.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Rounds (default 3; 2 with --quick).
        #[arg(long)]
        rounds: Option<u32>,
        /// Only these suites (comma-separated FIPS names).
        #[arg(long, value_delimiter = ',')]
        suites: Vec<String>,
        /// A short run: 40 ms per measurement, valid and invalid cases only.
        #[arg(long)]
        quick: bool,
        /// Skip the worst-case block measured through the parallel batch.
        #[arg(long)]
        no_block: bool,
        /// Run id for the records (default: time and host).
        #[arg(long)]
        run: Option<String>,
        /// The disagreement log (`-`: standard error).
        #[arg(long, value_name = "FILE", default_value = DISAGREEMENT_LOG)]
        disagreements: std::path::PathBuf,
    },
    /// Read benchmark records from any mix of targets; print the report (Markdown).
    Report {
        /// Record files (JSON lines).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Also write report.md and chart.svg into this directory.
        #[arg(long)]
        out_dir: Option<std::path::PathBuf>,
        /// Verify-Unit constants over the defaults: SUITE=UNITS[,SUITE=UNITS…].
        #[arg(long, default_value = "")]
        units: String,
        /// Fail unless every target's run is complete and clean (all ways, suites, cases
        /// and rounds; no disagreement; one fixture digest; all six sections).
        #[arg(long)]
        check: bool,
    },
    /// Verify JSON lines from standard input; one answer line per input line, in order.
    ///
    /// Input fields: id (echoed), suite, pk, sig, msg, ctx (hex), prehash (ACVP name),
    /// interface (external/internal), mu. Output: {"id":…,"valid":true|false}, with
    /// "error" and "kind" (input, unsupported, budget, backend, sink) when a line could
    /// not be verified. Lines over 4 MiB are answered and skipped.
    ///
    /// Exit status: 0 every line answered without error; 1 refused by --budget (nothing
    /// verified); 2 some lines were unusable (each answered with its error); 3 a fault on
    /// this side (a backend, the disagreement log, or I/O).
    Batch {
        #[command(flatten)]
        verifier: VerifierArgs,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Refuse the whole batch if it costs more Verify Units than this (checked before any work).
        #[arg(long)]
        budget: Option<u64>,
        /// Verify-Unit costs over the defaults: SUITE=UNITS[,SUITE=UNITS…].
        #[arg(long, default_value = "")]
        units: String,
        /// Bytes of input lines read but not yet answered, at most (memory stays
        /// bounded by it; a single line is always let through). With --budget the
        /// whole batch is held, and a larger one is refused.
        #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
        max_in_flight: usize,
    },
}

/// The default disagreement log, in the working directory.
pub(crate) const DISAGREEMENT_LOG: &str = "pqverify-disagreements.jsonl";
