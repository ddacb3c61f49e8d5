//! The benchmark's capacity records, natively: the first call in a fresh process,
//! memory per prepared key, and throughput by thread count.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pqverify_bench::{Memory, SCHEMA, Sample, Scaling, SuiteFixture};
use pqverify_core::{Message, PreparedKey, PublicKey, Suite};
use rayon::prelude::*;

use pqverify_native::Verifier;
use pqverify_native::backend::Request;
use pqverify_native::dual::DualVerifier;

/// What a fresh process measures: its first one-shot verify, then a new prepared key
/// and its first verify (ns each), and whether both verdicts were "valid".
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct FirstCall {
    /// The first `pqverify_core::verify` of the process.
    pub one_shot_ns: f64,
    /// `PreparedKey::new` and its first verify.
    pub prepared_ns: f64,
    /// Both verdicts were "valid" (the fixture's signature is).
    pub valid: bool,
}

fn suite_of(f: &SuiteFixture) -> Result<Suite, String> {
    crate::ways::suite_of(f).ok_or_else(|| format!("fixture suite {:?} is not a suite", f.suite))
}

/// Runs in the fresh process (`pqverify-bench first-call`): nothing of pqverify has
/// run before the first call but parsing the fixtures.
pub(crate) fn first_call_here(f: &SuiteFixture) -> Result<FirstCall, String> {
    let suite = suite_of(f)?;
    let message = Message::pure(&f.msg, &[]);
    let t0 = Instant::now();
    let one = pqverify_core::PublicKey::from_raw(suite, &f.public_key)
        .and_then(|key| pqverify_core::verify(key, message, &f.sig))
        .is_ok();
    let t1 = Instant::now();
    let two = PublicKey::from_raw(suite, &f.public_key)
        .and_then(PreparedKey::new)
        .and_then(|k| k.verify(message, &f.sig))
        .is_ok();
    let t2 = Instant::now();
    Ok(FirstCall {
        one_shot_ns: (t1 - t0).as_nanos() as f64,
        prepared_ns: (t2 - t1).as_nanos() as f64,
        valid: one && two,
    })
}

/// The sample record of `values` (one per fresh handle) for `way`.
fn first_call_sample(run: &str, target: &str, way: &str, suite: &str, mut values: Vec<f64>, wrong: u64) -> Sample {
    use pqverify_bench::stats::{median, quantile};
    values.sort_by(f64::total_cmp);
    Sample {
        schema: SCHEMA.into(),
        target: target.into(),
        run: run.into(),
        way: way.into(),
        suite: suite.into(),
        case: "first-call".into(),
        round: 1,
        iterations: values.len() as u64,
        samples: values.len() as u32,
        median_ns: median(&values),
        p95_ns: quantile(&values, 0.95),
        p99_ns: quantile(&values, 0.99),
        min_ns: values[0],
        checks: values.len() as u64,
        disagreements: wrong,
    }
}

/// First call of `pqverify` and `pqverify-prepared` per suite: `handles` fresh
/// processes of `exe first-call --suite S` each, on the kernel set this one runs.
pub(crate) fn first_calls(
    exe: &std::path::Path,
    fixtures: &[SuiteFixture],
    run: &str,
    handles: usize,
) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for f in fixtures {
        let (mut one, mut prepared, mut wrong) = (Vec::new(), Vec::new(), 0);
        for _ in 0..handles.max(1) {
            let child = Command::new(exe)
                .args(["first-call", "--suite", &f.suite])
                .env(pqverify_native::kernels::KERNELS_ENV, pqverify_core::kernels())
                .output()
                .map_err(|e| format!("first call: cannot start {}: {e}", exe.display()))?;
            if !child.status.success() {
                return Err(format!("first call {}: {}", f.suite, String::from_utf8_lossy(&child.stderr).trim()));
            }
            let r: FirstCall =
                serde_json::from_slice(&child.stdout).map_err(|e| format!("first call {}: {e}", f.suite))?;
            one.push(r.one_shot_ns);
            prepared.push(r.prepared_ns);
            wrong += u64::from(!r.valid);
        }
        out.push(first_call_sample(run, "native", "pqverify", &f.suite, one, wrong));
        out.push(first_call_sample(run, "native", "pqverify-prepared", &f.suite, prepared, wrong));
    }
    Ok(out)
}

/// Resident set size in bytes (Linux `/proc/self/statm`), if readable.
fn rss_bytes() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0)
}

/// Memory per prepared key: `keys` keys of each suite created and held; the growth of
/// the counted heap (and of the RSS) divided by `keys`. Needs the counting allocator.
pub(crate) fn memory_per_key(fixtures: &[SuiteFixture], run: &str, keys: u32) -> Result<Vec<Memory>, String> {
    let mut out = Vec::new();
    for f in fixtures {
        let suite = suite_of(f)?;
        let (Some(heap0), rss0) = (crate::alloc_count::live_bytes(), rss_bytes()) else {
            return Err("memory per key needs the counting allocator (the pqverify binary installs it)".into());
        };
        let held: Vec<PreparedKey> = (0..keys)
            .map(|_| PublicKey::from_raw(suite, &f.public_key).and_then(PreparedKey::new))
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{suite}: {e}"))?;
        let heap1 = crate::alloc_count::live_bytes().unwrap_or(heap0);
        let rss1 = rss_bytes();
        // Every key still verifies: the memory measured is of working keys.
        if !held.iter().all(|k| k.verify(Message::pure(&f.msg, &[]), &f.sig).is_ok()) {
            return Err(format!("{suite}: a held prepared key rejected the fixture"));
        }
        drop(held);
        out.push(Memory {
            schema: SCHEMA.into(),
            target: "native".into(),
            run: run.into(),
            suite: f.suite.clone(),
            way: "pqverify-prepared".into(),
            keys,
            bytes_per_key: (heap1 - heap0) as f64 / f64::from(keys),
            rss_bytes_per_key: rss0.zip(rss1).map(|(a, b)| (b - a).max(0.0) / f64::from(keys)),
            js_heap_bytes_per_key: None,
        });
    }
    Ok(out)
}

/// Verifications per second with `threads` threads each calling `verify` until
/// `duration` has passed (every verdict must be "valid").
fn rate(threads: u32, duration: Duration, verify: &(dyn Fn() -> bool + Sync)) -> Result<f64, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads as usize).build().map_err(|e| e.to_string())?;
    let wrong = AtomicU64::new(0);
    let start = Instant::now();
    let total: u64 = pool.install(|| {
        (0..threads)
            .into_par_iter()
            .map(|_| {
                let mut n = 0u64;
                while start.elapsed() < duration || n == 0 {
                    if !verify() {
                        wrong.fetch_add(1, Ordering::Relaxed);
                    }
                    n += 1;
                }
                n
            })
            .sum()
    });
    let secs = start.elapsed().as_secs_f64();
    match wrong.load(Ordering::Relaxed) {
        0 => Ok(total as f64 / secs),
        n => Err(format!("{n} wrong verdicts while measuring throughput")),
    }
}

/// Throughput of `pqverify`, `pqverify-prepared` and `dual-enforce` on every suite for
/// 1, 2, 4, … threads up to `cores`, `duration` per measurement.
pub(crate) fn scaling(
    fixtures: &[SuiteFixture],
    run: &str,
    cores: u32,
    duration: Duration,
    dual: &DualVerifier,
) -> Result<Vec<Scaling>, String> {
    let mut out = Vec::new();
    for f in fixtures {
        let suite = suite_of(f)?;
        let message = Message::pure(&f.msg, &[]);
        let public_key = PublicKey::from_raw(suite, &f.public_key).map_err(|e| format!("{suite}: {e}"))?;
        let request = Request { public_key, message, signature: &f.sig };
        let key = PreparedKey::new(public_key).map_err(|e| format!("{suite}: {e}"))?;
        let ways: [(&str, &(dyn Fn() -> bool + Sync)); 3] = [
            ("pqverify", &|| pqverify_core::verify(public_key, message, &f.sig).is_ok()),
            ("pqverify-prepared", &|| key.verify(message, &f.sig).is_ok()),
            ("dual-enforce", &|| dual.decide(&request) == Ok(true)),
        ];
        for (way, verify) in ways {
            for threads in pqverify_bench::thread_counts(cores) {
                out.push(Scaling {
                    schema: SCHEMA.into(),
                    target: "native".into(),
                    run: run.into(),
                    suite: f.suite.clone(),
                    way: way.into(),
                    threads,
                    ops_per_s: rate(threads, duration, verify).map_err(|e| format!("{suite} {way}: {e}"))?,
                    event_loop_p99_ns: None,
                    event_loop_max_ns: None,
                    call_ns: None,
                    event_loop_idle_p99_ns: None,
                });
            }
        }
    }
    Ok(out)
}
