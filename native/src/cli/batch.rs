//! `pqverify batch`: JSON lines in, answers out, streaming (`pqverify_native::stream`).

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use pqverify_native::jsonl::{self, Answer, LineError};
use pqverify_native::stream::{self, Parsed, Pending};
use pqverify_native::units::UnitTable;
use pqverify_native::{ErrorKind, batch};

use super::verifier::build_verifier;
use super::{BackendName, VerifierArgs};
use pqverify_native::command::Failure::{self, BadInput};
use pqverify_native::note;

/// Longest request line accepted; longer lines are answered with an error and
/// skipped without being held in memory.
pub(crate) const MAX_LINE: usize = 1 << 22;

/// Lines verified together (keeps memory bounded for any input length).
pub(crate) const CHUNK: usize = 4096;

pub(crate) fn batch(
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
        // held whole (at most --max-in-flight bytes of text): each line parsed once, as
        // it is read, and held as its item, which the stream then verifies.
        Some(limit) => {
            let mut all: Vec<Parsed> = Vec::new();
            let mut held = 0usize;
            while let Some(line) = jsonl::read_line(&mut stdin, MAX_LINE)? {
                held += line.weight();
                if held > max_in_flight {
                    return Err(BadInput(format!(
                        "a batch with --budget is held whole and this one is over --max-in-flight ({max_in_flight} \
                         bytes); split it or raise the limit"
                    )));
                }
                all.push(stream::parse(&line, &limits));
            }
            let items = all.iter().filter_map(|p| p.as_ref().ok()).map(|(_, item)| item);
            if let Err(e) = batch::charge(&table, items, limit) {
                for parsed in &all {
                    let id = match parsed {
                        Ok((id, _)) | Err(LineError { id, .. }) => id.clone(),
                    };
                    writeln!(out, "{}", Answer::failed(id, ErrorKind::Budget, e.clone()))?;
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
