//! The `pqverify` command's parts: its arguments here, one module per subcommand, and
//! the verifier they share. The rules (verification, dual checks, the batch stream)
//! live in the library, and so does what the benchmark driver shares with this command
//! (`pqverify_native::command`: the failure type that sets the exit status, the openers
//! of `--liboqs` and `--disagreements`).

use std::sync::LazyLock;

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand, ValueEnum};
use pqverify_core::{PreHash, Suite};
use pqverify_native::dual::Mode;
use pqverify_native::key::KeyFormat;

pub(crate) mod batch;
pub(crate) mod qc;
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
    /// liboqs: the linked 0.13 (ML-DSA), or the library `--liboqs` loads (any of the 15
    /// suites it has, SLH-DSA through its `SLH_DSA_PURE_*` schemes)
    Liboqs,
    /// RustCrypto ml-dsa and slh-dsa, the independent reference
    Rustcrypto,
    /// two verifiers: liboqs (or the reference where liboqs lacks it) and pqverify
    Dual,
}

/// A core enum with `ALL` and `name()` as a clap `ValueEnum` (its names, any case).
macro_rules! named_arg {
    ($(#[$doc:meta])* $arg:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub(crate) struct $arg(pub(crate) $inner);

        impl ValueEnum for $arg {
            fn value_variants<'a>() -> &'a [Self] {
                static ALL: LazyLock<Vec<$arg>> = LazyLock::new(|| <$inner>::ALL.map($arg).to_vec());
                &ALL
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(self.0.name()))
            }
        }
    };
}

named_arg!(
    /// A suite name on the command line (FIPS names, any case).
    SuiteArg(Suite)
);
named_arg!(
    /// A pre-hash function on the command line (ACVP names, any case).
    PreHashArg(PreHash)
);
named_arg!(
    /// How `--pk` is encoded: raw, spki (DER) or pem.
    KeyFormatArg(KeyFormat)
);

#[derive(clap::Args)]
pub(crate) struct VerifierArgs {
    /// Which verifier to use.
    #[arg(long, value_enum, default_value = "dual")]
    backend: BackendName,
    /// With `--backend dual`: enforce (both must accept; the default) or shadow (primary
    /// decides, both run).
    #[arg(long, value_enum)]
    mode: Option<Mode>,
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
    /// A liboqs shared library (release ≥ 0.12) to use instead of the linked 0.13: its
    /// version and path are named in `suites`, reports and every disagreement record.
    #[arg(long, value_name = "PATH", env = pqverify_native::backend::LIBOQS_ENV)]
    liboqs: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// List every suite with its sizes and the backends (and interfaces) that support it.
    Suites {
        /// One JSON object per suite instead of a table (after one with the liboqs used).
        #[arg(long)]
        json: bool,
        /// A liboqs shared library to list instead of the linked one.
        #[arg(long, value_name = "PATH", env = pqverify_native::backend::LIBOQS_ENV)]
        liboqs: Option<std::path::PathBuf>,
    },
    /// Verify one signature. Exit status: 0 valid, 1 invalid, 2 bad input (one-line
    /// error), 3 I/O failure or a fault on this side (a backend or the disagreement log).
    Verify(verify::VerifyArgs),
    /// Verify a quorum certificate: validators' signatures on one message (pure
    /// interface, pqverify-core), the set's keys prepared once, on all cores. Prints one
    /// JSON line (suite, validators, signatures, valid, threshold, reached, verdicts in
    /// input order). Exit status: 0 at least --threshold signatures verify, 1 fewer do,
    /// 2 bad input (an unknown or repeated validator, a key of the wrong length…), 3 I/O.
    Qc(qc::Qc),
    /// Verify JSON lines from standard input; one answer line per input line, in order.
    ///
    /// Input fields: id (echoed), suite, pk, sig, msg, ctx (hex), prehash (ACVP name),
    /// interface (pure, prehash, internal, external-mu; or external/internal), mu, key_format (raw, the default; spki: pk is the
    /// DER in hex; pem: pk is the PEM text). Output: {"id":…,"valid":true|false}, with
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
        /// Refuse the whole batch if it costs more Verify Units than this (checked before
        /// any work). A signature costs its suite's units plus, per whole KiB of message
        /// (and context) it hashes, the KiB charge (32 by default).
        #[arg(long)]
        budget: Option<u64>,
        /// Verify-Unit costs over the defaults: SUITE=UNITS or KiB=UNITS, comma-separated.
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
pub(crate) use pqverify_native::command::DISAGREEMENT_LOG;
