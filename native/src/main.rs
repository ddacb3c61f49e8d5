//! `pqverify`: verify post-quantum signatures from the command line, one at a time
//! or as a JSON-lines batch, with one backend or two (dual verification).

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};
use pqverify_core::Suite;
use pqverify_native::backend::{Backend, Interface, Liboqs, Pqverify, Reference};
use pqverify_native::batch::{Item, OwnedMessage};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::sink::{DisagreementSink, JsonLines};
use pqverify_native::units::UnitTable;
use pqverify_native::{Single, Verify, interfaces_of, jsonl, stream};
use serde_json::json;

#[derive(Parser)]
#[command(name = "pqverify", version, about = "Verify ML-DSA (FIPS 204) and SLH-DSA (FIPS 205) signatures")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum BackendName {
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
enum ModeArg {
    Enforce,
    Shadow,
}

#[derive(clap::Args)]
struct VerifierArgs {
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
enum Command {
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
const DISAGREEMENT_LOG: &str = "pqverify-disagreements.jsonl";

/// Why a command failed: a one-line message and an exit status.
enum Failure {
    /// Unusable arguments or input: exit status 2.
    BadInput(String),
    /// An I/O failure (a closed pipe, a full disk) or a fault on this side (a backend
    /// or the disagreement sink failed): exit status 3.
    Internal(String),
}

use Failure::{BadInput, Internal};

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Internal(format!("I/O: {e}"))
    }
}

/// Writes a line to standard error, best effort: a failing standard error must not
/// turn into a panic (as `eprintln!` would) or hide the real outcome.
macro_rules! note {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// Writes a line to standard output; a closed or full output is an error (exit 3),
/// never a panic.
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*).map_err(|e| Internal(format!("standard output: {e}")))?
    };
}

fn main() -> ExitCode {
    // PQVERIFY_FORCE_PORTABLE=1 runs pqverify's portable kernels instead of SIMD ones.
    if std::env::var("PQVERIFY_FORCE_PORTABLE").is_ok_and(|v| v == "1") {
        pqverify_core::force_portable(true);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Suites { json } => suites(json),
        Command::Verify { suite, pk, msg, sig, ctx, prehash, interface, mu, verifier } => {
            verify_one(&suite, &pk, msg, &sig, ctx, prehash, &interface, mu, &verifier)
        }
        Command::Batch { verifier, threads, budget, units, max_in_flight } => {
            batch(&verifier, threads, budget, &units, max_in_flight)
        }
        Command::Bench { out, rounds, suites, quick, no_block, run, disagreements } => {
            bench(out, rounds, suites, quick, no_block, run, disagreements)
        }
        Command::Report { files, out_dir, units, check } => report(&files, out_dir, &units, check),
    };
    match result {
        Ok(code) => code,
        Err(BadInput(message)) => {
            note!("pqverify: error: {message}");
            ExitCode::from(2)
        }
        Err(Internal(message)) => {
            note!("pqverify: failure: {message}");
            ExitCode::from(3)
        }
    }
}

fn suites(as_json: bool) -> Result<ExitCode, Failure> {
    let backends: Vec<Arc<dyn Backend>> =
        vec![Arc::new(Pqverify::one_shot()), Arc::new(Liboqs::new()), Arc::new(Reference)];
    if !as_json {
        say!("{:<20} {:>10} {:>10}  backends (interfaces)", "suite", "public key", "signature");
    }
    for suite in Suite::ALL {
        let support: Vec<(String, Vec<&str>)> = backends
            .iter()
            .map(|b| {
                (
                    b.name().to_owned(),
                    interfaces_of(b.as_ref(), suite).into_iter().map(Interface::name).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, i)| !i.is_empty())
            .collect();
        if as_json {
            let backends: serde_json::Map<String, serde_json::Value> =
                support.into_iter().map(|(n, i)| (n, json!(i))).collect();
            say!(
                "{}",
                json!({"suite": suite.name(), "public_key": suite.public_key_len(),
                       "signature": suite.signature_len(), "backends": backends})
            );
        } else {
            let list: Vec<String> = support.iter().map(|(n, i)| format!("{n} ({})", i.join(", "))).collect();
            say!(
                "{:<20} {:>10} {:>10}  {}",
                suite.name(),
                suite.public_key_len(),
                suite.signature_len(),
                list.join("; ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Hex, or `@path` for a file's raw bytes.
fn bytes_arg(name: &str, value: &str) -> Result<Vec<u8>, Failure> {
    match value.strip_prefix('@') {
        Some(path) => std::fs::read(path).map_err(|e| BadInput(format!("--{name}: cannot read {path}: {e}"))),
        None => {
            hex::decode(value.trim()).map_err(|e| BadInput(format!("--{name}: not hex ({e}); use @FILE for raw bytes")))
        }
    }
}

fn pqverify_backend(args: &VerifierArgs) -> Arc<dyn Backend> {
    if args.key_cache == 0 { Arc::new(Pqverify::one_shot()) } else { Arc::new(Pqverify::with_cache(args.key_cache)) }
}

fn build_verifier(args: &VerifierArgs) -> Result<Box<dyn Verify>, Failure> {
    if !matches!(args.backend, BackendName::Dual) && (args.mode.is_some() || args.audit_rejections.is_some()) {
        return Err(BadInput("--mode and --audit-rejections need --backend dual".into()));
    }
    Ok(match args.backend {
        BackendName::Pqverify => Box::new(Single(pqverify_backend(args))),
        BackendName::Liboqs => Box::new(Single(Arc::new(Liboqs::new()))),
        BackendName::Rustcrypto => Box::new(Single(Arc::new(Reference))),
        BackendName::Dual => {
            let mode = match args.mode {
                None | Some(ModeArg::Enforce) => Mode::Enforce,
                Some(ModeArg::Shadow) => Mode::Shadow,
            };
            Box::new(
                DualVerifier::new(
                    vec![Arc::new(Liboqs::new()), Arc::new(Reference)],
                    pqverify_backend(args),
                    mode,
                    open_sink(&args.disagreements)?,
                )
                .with_audit(args.audit_rejections.unwrap_or(1)),
            )
        }
    })
}

#[allow(clippy::too_many_arguments, reason = "one parameter per command-line option")]
fn verify_one(
    suite: &str,
    pk: &str,
    msg: Option<String>,
    sig: &str,
    ctx: Option<String>,
    prehash: Option<String>,
    interface: &str,
    mu: Option<String>,
    args: &VerifierArgs,
) -> Result<ExitCode, Failure> {
    let suite: Suite = suite.parse().map_err(|e| BadInput(format!("--suite: {e}")))?;
    let public_key = bytes_arg("pk", pk)?;
    let signature = bytes_arg("sig", sig)?;
    let msg = msg.map(|m| bytes_arg("msg", &m)).transpose()?;
    let ctx = ctx.map(|c| bytes_arg("ctx", &c)).transpose()?;
    let mu = mu.map(|m| bytes_arg("mu", &m)).transpose()?;
    let message = match (interface, msg, mu) {
        ("external", Some(msg), None) => {
            let ctx = ctx.unwrap_or_default();
            match prehash {
                None => OwnedMessage::Pure { msg, ctx },
                Some(h) => OwnedMessage::PreHash {
                    msg,
                    ctx,
                    hash: h.parse().map_err(|e| BadInput(format!("--prehash: {e}")))?,
                },
            }
        }
        ("internal", Some(m), None) if ctx.is_none() && prehash.is_none() => OwnedMessage::Internal(m),
        ("internal", None, Some(mu)) if ctx.is_none() && prehash.is_none() => OwnedMessage::ExternalMu(mu),
        ("external" | "internal", _, _) => {
            return Err(BadInput(
                "give --msg (with optional --ctx/--prehash) for external, or --msg (M′) or --mu for internal".into(),
            ));
        }
        (other, _, _) => return Err(BadInput(format!("--interface: {other:?}; expected external or internal"))),
    };
    let item = Item { suite, public_key, message, signature };
    let verifier = build_verifier(args)?;
    match verifier.verify(&item.request()) {
        Ok(true) => {
            say!("valid");
            Ok(ExitCode::SUCCESS)
        }
        Ok(false) => {
            say!("invalid");
            Ok(ExitCode::from(1))
        }
        Err(e) if e.is_fault() => Err(Internal(e.to_string())),
        Err(e) => Err(BadInput(e.to_string())),
    }
}

/// Longest request line accepted; longer lines are answered with an error and
/// skipped without being held in memory.
const MAX_LINE: usize = 1 << 22;
/// Lines verified together (keeps memory bounded for any input length).
const CHUNK: usize = 4096;

fn batch(
    args: &VerifierArgs,
    threads: Option<usize>,
    budget: Option<u64>,
    units: &str,
    max_in_flight: usize,
) -> Result<ExitCode, Failure> {
    let table = UnitTable::default().with_overrides(units).map_err(|e| BadInput(format!("--units: {e}")))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| BadInput(format!("--threads: {e}")))?;
    let verifier = build_verifier(args)?;
    if let BackendName::Dual = args.backend {
        note!("pqverify batch: disagreements are logged to {}", args.disagreements.display());
    }
    let limits = stream::Limits { max_line: MAX_LINE, max_in_flight, max_chunk: CHUNK };
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let progress = indicatif::ProgressBar::new_spinner();
    progress.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {pos} lines verified ({per_sec}) {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    let started = Instant::now();
    // Buffered here (not `stdin().lock()`) so that the reading thread can own it.
    let mut stdin = std::io::BufReader::with_capacity(1 << 16, std::io::stdin());
    let totals = match budget {
        // Streaming: each line answered as soon as it is verified.
        None => {
            let source = std::iter::from_fn(move || jsonl::read_line(&mut stdin, MAX_LINE).transpose());
            stream::run(verifier.as_ref(), source, &mut out, limits, &pool, |n| progress.inc(n))?
        }
        // With a budget the whole batch is charged before any verification, so it is
        // held whole: at most --max-in-flight bytes.
        Some(limit) => {
            let mut all = Vec::new();
            let mut held = 0usize;
            while let Some(line) = jsonl::read_line(&mut stdin, MAX_LINE)? {
                held += line.as_ref().map_or(0, String::len);
                if held > max_in_flight {
                    return Err(BadInput(format!(
                        "a batch with --budget is held whole and this one is over --max-in-flight ({max_in_flight} \
                         bytes); split it or raise the limit"
                    )));
                }
                all.push(line);
            }
            let names: Vec<Suite> = all
                .iter()
                .filter_map(|l| l.as_ref().ok())
                .filter_map(|l| jsonl::parse_line(l).ok())
                .map(|(_, item)| item.suite)
                .collect();
            if let Err(e) = table.charge(names.iter().map(|s| s.name()), limit) {
                for line in &all {
                    let id = line.as_ref().ok().and_then(|l| jsonl::parse_line(l).ok()).map(|(id, _)| id);
                    writeln!(out, "{}", json!({"id": id, "valid": false, "error": e, "kind": "budget"}))?;
                }
                out.flush()?;
                note!("pqverify batch: refused: {e}");
                return Ok(ExitCode::from(1));
            }
            stream::run(verifier.as_ref(), all.into_iter().map(Ok), &mut out, limits, &pool, |n| progress.inc(n))?
        }
    };
    progress.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let stream::Totals { lines, valid, errors, faults } = totals;
    note!(
        "pqverify batch: {lines} lines ({valid} valid, {} invalid, {errors} with errors) in {secs:.3} s ({:.0}/s) with {}",
        lines - valid - errors,
        lines as f64 / secs.max(1e-9),
        verifier.describe()
    );
    Ok(match (faults, errors) {
        (0, 0) => ExitCode::SUCCESS,
        (0, _) => ExitCode::from(2),
        _ => ExitCode::from(3),
    })
}

/// Opens the disagreement log before any verification: a file (appended), or standard
/// error when the path is `-`. Rust points a closed descriptor 2 at /dev/null before
/// `main`, so standard error that is /dev/null (closed, or `2>/dev/null`) is refused:
/// the log would be lost. Every record is written and flushed on its own, and a
/// failing write fails that request.
fn open_sink(path: &std::path::Path) -> Result<Arc<dyn DisagreementSink>, Failure> {
    let (target, shown) = if path.as_os_str() == "-" {
        let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino(), a.rdev()) == (b.dev(), b.ino(), b.rdev())
        };
        if let (Ok(err), Ok(null)) = (std::fs::metadata("/dev/stderr"), std::fs::metadata("/dev/null"))
            && same(&err, &null)
        {
            return Err(BadInput(
                "--disagreements -: standard error is closed or /dev/null, so disagreements would be lost; \
                 give a file"
                    .into(),
            ));
        }
        (std::path::Path::new("/dev/stderr"), "standard error".to_owned())
    } else {
        (path, path.display().to_string())
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(target)
        .map_err(|e| BadInput(format!("--disagreements: cannot open {shown}: {e}")))?;
    Ok(Arc::new(JsonLines::new(file)))
}

fn bench(
    out: Option<std::path::PathBuf>,
    rounds: Option<u32>,
    suites: Vec<String>,
    quick: bool,
    no_block: bool,
    run: Option<String>,
    disagreements: std::path::PathBuf,
) -> Result<ExitCode, Failure> {
    use pqverify_bench::{Config, Fixtures, Record};
    let fixtures = Fixtures::parse(pqverify_bench::FIXTURES_JSON).map_err(BadInput)?;
    for s in &suites {
        if !fixtures.suites.iter().any(|f| f.suite.eq_ignore_ascii_case(s)) {
            return Err(BadInput(format!("--suites: unknown suite {s:?}")));
        }
    }
    let mut config = if quick { Config::quick() } else { Config::full() };
    if let Some(r) = rounds {
        config.rounds = r.max(1);
    }
    config.suites = suites.clone();
    let run = run.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        format!("{}-native", pqverify_bench::record::utc_timestamp(now))
    });
    note!("pqverify bench: for steadier numbers, pin to one core and lower other load, e.g.");
    note!("  nice -n -5 taskset -c 1 pqverify bench …   (taskset pins; nice needs root for a negative value)");
    let sink = open_sink(&disagreements)?;
    let mut writer: Box<dyn Write> = match &out {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).map_err(|e| BadInput(format!("--out: {}: {e}", path.display())))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    };
    let mut ways = pqverify_native::bench::native_ways(&sink);
    let env = pqverify_native::bench::native_env(&run);
    let bar = indicatif::ProgressBar::new(config.steps(&fixtures, ways.len()));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut failure = None;
    let mut emit = |r: &Record| {
        if let Err(e) = writeln!(writer, "{}", r.to_line()) {
            failure.get_or_insert(e);
        }
    };
    pqverify_bench::run(
        &mut ways,
        &fixtures,
        &mut pqverify_native::bench::NativeClock::new(),
        &config,
        &env,
        &mut emit,
        &mut |p| {
            bar.set_position(p.done);
            bar.set_message(p.current.clone());
        },
    );
    bar.finish_and_clear();
    if !no_block {
        note!(
            "pqverify bench: worst-case blocks through the parallel batch ({} threads)",
            rayon::current_num_threads()
        );
        let table = UnitTable::default();
        for block in pqverify_native::bench::worst_case_blocks(&fixtures, &suites, &table, &run, &sink) {
            emit(&Record::Block(block));
        }
    }
    if let Some(e) = failure {
        return Err(BadInput(format!("writing records: {e}")));
    }
    writer.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn report(
    files: &[std::path::PathBuf],
    out_dir: Option<std::path::PathBuf>,
    units: &str,
    check: bool,
) -> Result<ExitCode, Failure> {
    let table = UnitTable::default().with_overrides(units).map_err(|e| BadInput(format!("--units: {e}")))?;
    let mut text = String::new();
    for f in files {
        text.push_str(&std::fs::read_to_string(f).map_err(|e| BadInput(format!("{}: {e}", f.display())))?);
        text.push('\n');
    }
    let report = pqverify_bench::Report::from_lines(text.lines(), table).map_err(BadInput)?;
    if check {
        let lines: Vec<&str> = text.lines().collect();
        report.check_complete(&lines).map_err(|e| BadInput(format!("incomplete records: {e}")))?;
        note!("pqverify report: records complete for {}", report.targets().join(", "));
    }
    let markdown = report.markdown();
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("report.md"), &markdown)?;
        std::fs::write(dir.join("chart.svg"), report.svg())?;
    }
    write!(std::io::stdout().lock(), "{markdown}").map_err(|e| Internal(format!("standard output: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
