//! The records: JSON lines, one environment record per run and one sample record per
//! (target, way, suite, case, round). Their field names are the contract between
//! targets and tools (more fields are fine).

use serde::{Deserialize, Serialize};

/// The records' schema name.
pub const SCHEMA: &str = "pqverify-bench/1";

/// liboqs as the native run saw it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LiboqsInfo {
    /// e.g. `0.13.0`.
    pub version: String,
    /// Whether its AVX2 code runs.
    pub avx2: bool,
    /// `linked` (the vendored release) or the path of the shared library loaded
    /// (absent in records written before runs could load one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
}

/// What a run ran on.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Env {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native`, `node`, or the browser engine: `chromium`, `firefox`, `webkit`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// CPU model.
    pub cpu: String,
    /// Logical cores.
    pub cores: u32,
    /// OS and kernel.
    pub os: String,
    /// rustc / Node / browser version.
    pub runtime: String,
    /// liboqs version and AVX2 (native only).
    pub liboqs: Option<LiboqsInfo>,
    /// pqverify's kernels: `avx2`, `portable` or `simd128`.
    pub backend: String,
    /// `sha256:<hex>` of the fixtures.
    pub fixtures: String,
    /// The ways measured.
    #[serde(default)]
    pub ways: Vec<String>,
    /// Anything else the runner knows (time, host, CPU identity and flags, pqverify version,
    /// peers' versions, mode).
    #[serde(default)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// One (way, suite, case, round) measurement. The case `first-call` is the first
/// verify on fresh handles (a fresh process or worker; a fresh prepared key): its
/// statistics are over the handles (`samples` of them, one call each), round 1.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Sample {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native`, `node`, or the browser engine: `chromium`, `firefox`, `webkit`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// e.g. `pqverify`, `liboqs`, `dual-enforce`, `noble`.
    pub way: String,
    /// FIPS name.
    pub suite: String,
    /// `valid`, `invalid`, `valid-1k` or `first-call`.
    pub case: String,
    /// Round number, from 1.
    pub round: u32,
    /// Verify calls timed.
    pub iterations: u64,
    /// Timing samples (each the mean of `iterations / samples` calls).
    pub samples: u32,
    /// Median time per verify.
    pub median_ns: f64,
    /// 95th percentile over samples.
    pub p95_ns: f64,
    /// 99th percentile over samples.
    pub p99_ns: f64,
    /// Fastest sample.
    pub min_ns: f64,
    /// Verdicts checked against the expected one.
    pub checks: u64,
    /// Verdicts that differed from the expected one (plus the way's own count of
    /// disagreements between its verifiers).
    pub disagreements: u64,
}

/// A worst-case block verified for real through the parallel batch (native).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Block {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// The verifier, e.g. `dual-enforce`.
    pub way: String,
    /// FIPS name.
    pub suite: String,
    /// Signatures in the block.
    pub signatures: u64,
    /// Verify Units of one signature.
    pub units: u64,
    /// The block budget in Verify Units.
    pub budget_units: u64,
    /// Worker threads.
    pub threads: u32,
    /// Wall time of the whole block.
    pub wall_ns: f64,
    /// Signatures that verified (all should).
    pub valid: u64,
}

/// Memory held by prepared keys: N keys created and held, the growth divided by N.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Memory {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native`, `node`, or the browser engine: `chromium`, `firefox`, `webkit`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// FIPS name.
    pub suite: String,
    /// `pqverify-prepared`.
    pub way: String,
    /// Keys created and held.
    pub keys: u32,
    /// Natively: heap bytes counted by the allocator; in wasm: linear-memory growth
    /// (64 KiB pages, so small keys can show 0 or one page's share).
    pub bytes_per_key: f64,
    /// Natively: resident-set growth per key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rss_bytes_per_key: Option<f64>,
    /// In JS engines: JS heap growth per key (the key's wrapper objects).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_heap_bytes_per_key: Option<f64>,
}

/// Throughput with `threads` threads (natively the batch's rayon pool; in Node,
/// worker threads each with its own instance of the package, or the native build's
/// thread pool under `verifyMany`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Scaling {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native` or `node`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// FIPS name.
    pub suite: String,
    /// `pqverify`, `pqverify-prepared`, (natively) `dual-enforce`, or (Node, Bun) the
    /// native build's `pqverify-native-batch`.
    pub way: String,
    /// Threads verifying at once.
    pub threads: u32,
    /// Verifications per second, all threads together.
    pub ops_per_s: f64,
    /// `pqverify-native-batch`: the event loop's delay while the batch verified, after
    /// the call returned (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution, whose
    /// interval it includes), the 99th percentile of the round where it was largest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_loop_p99_ns: Option<f64>,
    /// And its longest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_loop_max_ns: Option<f64>,
    /// The same histogram's 99th percentile with the loop idle, in the same process: the
    /// floor of the two above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_loop_idle_p99_ns: Option<f64>,
    /// `pqverify-native-batch`: the median time of the call itself, until it returns its
    /// promise (every item checked and copied on the JS thread, which waits for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_ns: Option<f64>,
}

/// A quorum certificate verified as a whole: n validators' signatures on one message,
/// timed per certificate (natively a rayon pool of `threads`; in JS engines the
/// package's verifier pool of `threads` workers, or the platform's WebCrypto with all n
/// in flight, `threads` 0).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Certificate {
    /// [`SCHEMA`].
    pub schema: String,
    /// `native`, `node` or a browser engine.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// `pqverify-prepared` (the validator set prepared once), `pqverify` (keys decoded
    /// per signature), `liboqs`; in JS `pool-prepared`, `pool`, `webcrypto-inflight`.
    pub way: String,
    /// FIPS name.
    pub suite: String,
    /// Signatures per certificate.
    pub validators: u64,
    /// Threads or workers verifying (0: the platform's own scheduling).
    pub threads: u32,
    /// Certificates timed.
    pub certificates: u64,
    /// Median wall time of one certificate.
    pub median_ns: f64,
    /// Its 95th percentile.
    pub p95_ns: f64,
    /// `median_ns / validators`.
    pub per_signature_ns: f64,
    /// Certificates whose verdicts were not all valid (all should be).
    pub wrong: u64,
    /// JS pools: the longest a timer on the calling thread fired late meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked_ns: Option<f64>,
}

/// Cold start of one way in fresh Node processes or fresh workers of a browser page: the
/// time from just before the import to the end of the first verify of the valid
/// ML-DSA-44 fixture.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ColdStart {
    /// [`SCHEMA`].
    pub schema: String,
    /// `node`, or the browser engine of the page (`chromium`, `firefox`, `webkit`).
    pub target: String,
    /// The run's id.
    pub run: String,
    /// How the code was loaded, e.g. `pqverify` (import of the default entry),
    /// `pqverify (require)`, `pqverify/manual + init()`, `liboqs-js`, `noble`.
    pub way: String,
    /// FIPS name of the suite verified.
    pub suite: String,
    /// Fresh processes (Node) or fresh workers (a browser page) measured.
    pub processes: u32,
    /// Median time of the import (and, where the way needs one, its initialisation).
    pub import_ns: f64,
    /// Median time from before the import to the end of the first verify.
    pub first_verify_ns: f64,
}

/// The size of one `.wasm` build of the package, as installed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WasmSize {
    /// [`SCHEMA`].
    pub schema: String,
    /// `node`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// The build's folder in the package: `wasm` (baseline, every suite), `wasm-simd`
    /// (simd128, every suite), `wasm-ml-dsa`, `wasm-slh-dsa` (simd128, one scheme).
    pub build: String,
    /// Bytes of the `.wasm` file.
    pub bytes: u64,
    /// Bytes after gzip at its highest level.
    pub gzip_bytes: u64,
}

/// What a bundler ships for one import (Node runner: esbuild `--bundle --minify`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct BundleSize {
    /// [`SCHEMA`].
    pub schema: String,
    /// `node`.
    pub target: String,
    /// The run's id.
    pub run: String,
    /// The import bundled, e.g. `import { ml_dsa44 } from 'pqverify'` (peers prefixed
    /// with their name).
    pub import: String,
    /// Bytes of the bundle.
    pub bytes: u64,
    /// Bytes after gzip at its highest level.
    pub gzip_bytes: u64,
}

/// Any record; its `type` field (`env`, `sample`, `block`, `memory`, `scaling`,
/// `certificate`, `cold-start`, `wasm-size`, `bundle-size`) says which.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Record {
    /// Environment.
    Env(Env),
    /// Measurement.
    Sample(Sample),
    /// Worst-case block.
    Block(Block),
    /// Memory per prepared key.
    Memory(Memory),
    /// Throughput by thread count.
    Scaling(Scaling),
    /// A quorum certificate.
    Certificate(Certificate),
    /// Import and first verify in a fresh process.
    #[serde(rename = "cold-start")]
    ColdStart(ColdStart),
    /// A `.wasm` build's size.
    #[serde(rename = "wasm-size")]
    WasmSize(WasmSize),
    /// A bundled import's size.
    #[serde(rename = "bundle-size")]
    BundleSize(BundleSize),
}

impl Record {
    /// Parses one JSON line, checking its type and schema.
    pub fn parse(line: &str) -> Result<Record, String> {
        let record: Record = serde_json::from_str(line).map_err(|e| format!("not a record: {e}"))?;
        if record.schema() != SCHEMA {
            return Err(format!("schema is {:?}, not {SCHEMA}", record.schema()));
        }
        Ok(record)
    }

    /// The schema the record names.
    pub fn schema(&self) -> &str {
        match self {
            Record::Env(r) => &r.schema,
            Record::Sample(r) => &r.schema,
            Record::Block(r) => &r.schema,
            Record::Memory(r) => &r.schema,
            Record::Scaling(r) => &r.schema,
            Record::Certificate(r) => &r.schema,
            Record::ColdStart(r) => &r.schema,
            Record::WasmSize(r) => &r.schema,
            Record::BundleSize(r) => &r.schema,
        }
    }

    /// One JSON line.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` for seconds since the Unix epoch (proleptic Gregorian, UTC).
pub fn utc_timestamp(unix_secs: u64) -> String {
    let days = (unix_secs / 86_400) as i64;
    let secs = unix_secs % 86_400;
    // Civil date from days since 1970-01-01 (days-from-civil inverted: 400-year eras of 146,097 days).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_carry_their_type_and_schema() {
        let line = r#"{"type":"block","schema":"pqverify-bench/1","target":"native","run":"r","way":"dual-enforce","suite":"ML-DSA-44","signatures":2,"units":100,"budget_units":200,"threads":2,"wall_ns":5.0,"valid":2}"#;
        let record = Record::parse(line).unwrap();
        assert!(matches!(&record, Record::Block(b) if b.signatures == 2));
        let again: serde_json::Value = serde_json::from_str(&record.to_line()).unwrap();
        assert_eq!(again["type"], "block");
        assert!(Record::parse(&line.replace("pqverify-bench/1", "other/2")).unwrap_err().contains("schema"));
        assert!(Record::parse(&line.replace("\"block\"", "\"nope\"")).is_err());
    }

    #[test]
    fn timestamps() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_timestamp(1_796_021_999), "2026-11-30T06:59:59Z");
    }
}
