//! The report: reads records from any mix of targets and writes the tables of a
//! dual-verifier benchmark (Markdown) and a chart (SVG).
//!
//! 1. valid signatures: median per suite per way, % of liboqs in the same run;
//! 2. invalid signatures: the same;
//! 3. Verify Units: estimate = ⌈100 × median / median of ML-DSA-44⌉ (both through
//!    dual-enforce) against the consensus table, flagging constants that do not cover it;
//! 4. worst-case block: signatures filling the budget × the median (one core), and the
//!    block measured through the parallel batch on all cores;
//! 5. native vs Node vs each browser engine, and the platforms' own verifiers;
//! 6. the environments and the round-to-round spread;
//! 7. capacity planning: first call beside the steady state, memory per prepared key,
//!    throughput by thread count (and a chart of the scaling);
//! 8. quorum certificates: n validators' signatures on one message, per certificate by
//!    threads or workers, beside liboqs and the platform's WebCrypto (and a chart).

use crate::names;
use std::collections::BTreeMap;

use pqverify_core::Suite;

use crate::record::{Block, BundleSize, Certificate, ColdStart, Env, Memory, Record, Sample, Scaling, WasmSize};
use crate::stats::{median, spread_bp};

mod capacity;
mod certificates;
mod check;
mod sections;
mod startup;
mod svg;

/// The Verify-Unit budget of one block.
pub const BLOCK_BUDGET: u64 = 200_000;

/// Median over rounds and spread for one (target, way, suite, case).
#[derive(Clone, Debug)]
struct Cell {
    median_ns: f64,
    spread_bp: f64,
    disagreements: u64,
}

/// Records of one run of one target.
struct Run {
    env: Env,
    cells: BTreeMap<(String, String, String), Cell>,
    blocks: Vec<Block>,
    memory: Vec<Memory>,
    scaling: Vec<Scaling>,
    certificates: Vec<Certificate>,
    cold_starts: Vec<ColdStart>,
    wasm_sizes: Vec<WasmSize>,
    bundle_sizes: Vec<BundleSize>,
}

impl Run {
    fn get(&self, way: &str, suite: &str, case: &str) -> Option<&Cell> {
        self.cells.get(&(way.to_owned(), suite.to_owned(), case.to_owned()))
    }
}

/// Everything the report needs, parsed from record lines.
pub struct Report {
    runs: BTreeMap<String, Run>,
    suites: Vec<String>,
    /// The Verify-Unit constant of each suite, by FIPS name.
    units: BTreeMap<String, u64>,
}

/// Native ways in column order (liboqs first: the check relies on it). A liboqs loaded
/// at run time is a way of its own, `liboqs-<version>`, after the linked one.
const NATIVE_WAYS: [&str; 13] = [
    "liboqs",
    "reference",
    "pqverify",
    "pqverify-portable",
    "pqverify-prepared",
    "pqverify-cached",
    "pqverify-distinct",
    "pqverify-cached-distinct",
    "dual-enforce",
    "dual-enforce-distinct",
    "dual-enforce-unaudited",
    "dual-shadow",
    "dual-shadow-distinct",
];

/// The dual check's cost in the dual-verification benchmark this project answers:
/// 418 % of liboqs alone (the seed's figure).
const SEED_DUAL_PERCENT: f64 = 418.0;

/// The browser engines of the page's runs, as targets of their records.
pub const BROWSERS: [&str; 3] = ["chromium", "firefox", "webkit"];

/// The JS targets in report order (Bun: the package's ways only).
const JS_TARGETS: [&str; 5] = ["node", "bun", BROWSERS[0], BROWSERS[1], BROWSERS[2]];

/// The platforms' own verifiers, as ways of the JS runners.
const PLATFORM_WAYS: [&str; 5] = [
    names::WEBCRYPTO,
    names::WEBCRYPTO_INFLIGHT,
    names::NODE_CRYPTO,
    names::WEBCRYPTO_IMPORT,
    names::NODE_CRYPTO_IMPORT,
];

/// The pairs section 5 sets side by side: (the question, the package's way, the
/// platform's ways that answer it). One-shot: a key seen for the first time, decoded
/// (the package) or imported (the platform) on every call; known key: the package's
/// prepared key beside the platform's key object made once.
const PLATFORM_PAIRS: [(&str, &str, [&str; 2]); 2] = [
    ("one-shot (a key seen for the first time)", names::PQVERIFY, [names::WEBCRYPTO_IMPORT, names::NODE_CRYPTO_IMPORT]),
    ("known key (imported or prepared once)", names::PQVERIFY_PREPARED, [names::WEBCRYPTO, names::NODE_CRYPTO]),
];

/// Operations per second at `ns` per operation: "46.7k/s", "1.20M/s", "812/s".
fn ops(ns: f64) -> String {
    if !(ns.is_finite() && ns > 0.0) {
        return "—".into();
    }
    per_s(1e9 / ns)
}

/// A rate with three significant figures: "46.7k/s".
fn per_s(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2}M/s", rate / 1e6)
    } else if rate >= 1e4 {
        format!("{:.1}k/s", rate / 1e3)
    } else if rate >= 1e3 {
        format!("{:.2}k/s", rate / 1e3)
    } else {
        format!("{rate:.0}/s")
    }
}

/// Nanoseconds as µs with three significant figures ("—" when not finite).
fn us(ns: f64) -> String {
    if !ns.is_finite() {
        return "—".into();
    }
    let v = ns / 1000.0;
    if v >= 1000.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

impl Report {
    /// Parses record lines (from any number of files); the last run of each target is reported.
    pub fn from_lines<'a>(
        lines: impl IntoIterator<Item = &'a str>,
        units: BTreeMap<String, u64>,
    ) -> Result<Report, String> {
        let mut envs: BTreeMap<String, Env> = BTreeMap::new();
        let mut latest: BTreeMap<String, String> = BTreeMap::new();
        let mut samples: Vec<Sample> = Vec::new();
        let mut blocks: Vec<Block> = Vec::new();
        let mut memory: Vec<Memory> = Vec::new();
        let mut scaling: Vec<Scaling> = Vec::new();
        let mut certificates: Vec<Certificate> = Vec::new();
        let mut cold_starts: Vec<ColdStart> = Vec::new();
        let mut wasm_sizes: Vec<WasmSize> = Vec::new();
        let mut bundle_sizes: Vec<BundleSize> = Vec::new();
        for (n, line) in lines.into_iter().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            match Record::parse(line).map_err(|e| format!("record {}: {e}", n + 1))? {
                Record::Env(e) => {
                    latest.insert(e.target.clone(), e.run.clone());
                    envs.insert(e.run.clone(), e);
                }
                Record::Sample(s) => samples.push(s),
                Record::Block(b) => blocks.push(b),
                Record::Memory(m) => memory.push(m),
                Record::Scaling(r) => scaling.push(r),
                Record::Certificate(r) => certificates.push(r),
                Record::ColdStart(r) => cold_starts.push(r),
                Record::WasmSize(r) => wasm_sizes.push(r),
                Record::BundleSize(r) => bundle_sizes.push(r),
            }
        }
        let mut runs = BTreeMap::new();
        for (target, run_id) in &latest {
            let env = envs[run_id].clone();
            let mut rounds: BTreeMap<(String, String, String), (Vec<f64>, u64)> = BTreeMap::new();
            for s in samples.iter().filter(|s| &s.run == run_id) {
                let e = rounds.entry((s.way.clone(), s.suite.clone(), s.case.clone())).or_default();
                e.0.push(s.median_ns);
                e.1 += s.disagreements;
            }
            let cells = rounds
                .into_iter()
                .map(|(k, (mut v, d))| {
                    let spread = spread_bp(&v);
                    v.sort_by(f64::total_cmp);
                    (k, Cell { median_ns: median(&v), spread_bp: spread, disagreements: d })
                })
                .collect();
            let of_run = |r: &str| r == run_id;
            runs.insert(
                target.clone(),
                Run {
                    env,
                    cells,
                    blocks: blocks.iter().filter(|b| of_run(&b.run)).cloned().collect(),
                    memory: memory.iter().filter(|m| of_run(&m.run)).cloned().collect(),
                    scaling: scaling.iter().filter(|r| of_run(&r.run)).cloned().collect(),
                    certificates: certificates.iter().filter(|r| of_run(&r.run)).cloned().collect(),
                    cold_starts: cold_starts.iter().filter(|r| of_run(&r.run)).cloned().collect(),
                    wasm_sizes: wasm_sizes.iter().filter(|r| of_run(&r.run)).cloned().collect(),
                    bundle_sizes: bundle_sizes.iter().filter(|r| of_run(&r.run)).cloned().collect(),
                },
            );
        }
        if runs.is_empty() {
            return Err("no environment record: nothing to report".into());
        }
        let present: std::collections::BTreeSet<&str> =
            runs.values().flat_map(|r| r.cells.keys().map(|k| k.1.as_str())).collect();
        // Rows in pqverify's suite order.
        let suites = Suite::ALL.iter().map(|s| s.name()).filter(|s| present.contains(s)).map(str::to_owned).collect();
        Ok(Report { runs, suites, units })
    }

    /// The targets present (`native`, `node`, `chromium`, `firefox`, `webkit`).
    pub fn targets(&self) -> Vec<&str> {
        self.runs.keys().map(String::as_str).collect()
    }

    /// The native run, if any.
    fn native(&self) -> Option<&Run> {
        self.runs.get("native")
    }

    /// The native ways measuring a liboqs loaded at run time (`liboqs-<version>`).
    fn loaded_liboqs_ways(&self) -> Vec<String> {
        let Some(run) = self.native() else { return Vec::new() };
        let ways: std::collections::BTreeSet<&String> = run.cells.keys().map(|k| &k.0).collect();
        // The one held to AVX2 (`liboqs-<version>-avx2`) is no baseline: `avx2_pair`'s alone;
        // nor is the primary on distinct keys (`liboqs-<version>-distinct`).
        ways.into_iter()
            .filter(|w| {
                w.starts_with("liboqs-") && !w.ends_with(names::AVX2_SUFFIX) && !w.ends_with(names::DISTINCT_SUFFIX)
            })
            .cloned()
            .collect()
    }

    /// The way of the dual verifier's primary alone on the distinct keys
    /// (`<primary>-distinct`), where the run has it.
    fn primary_distinct_way(&self) -> Option<String> {
        let run = self.native()?;
        let primary = self.loaded_liboqs_ways().into_iter().next().unwrap_or_else(|| NATIVE_WAYS[0].to_owned());
        let way = names::distinct(&primary);
        run.cells.keys().any(|k| k.0 == way).then_some(way)
    }

    /// The native ways present, in column order: liboqs, the loaded ones, the rest, the
    /// primary on distinct keys beside pqverify's distinct-key ways.
    fn native_ways(&self) -> Vec<String> {
        let mut ways = vec![NATIVE_WAYS[0].to_owned()];
        ways.extend(self.loaded_liboqs_ways());
        for way in &NATIVE_WAYS[1..] {
            ways.push((*way).to_owned());
            if *way == "pqverify-cached-distinct" {
                ways.extend(self.primary_distinct_way());
            }
        }
        ways
    }

    /// The baseline of `suite`'s native percentages: the dual verifier's primary, i.e.
    /// the loaded liboqs where it has the suite, else the linked one, else the
    /// pure-Rust reference; with its way name.
    fn baseline(&self, suite: &str, case: &str) -> Option<(String, f64)> {
        let run = self.native()?;
        self.loaded_liboqs_ways()
            .into_iter()
            .chain(["liboqs".to_owned(), "reference".to_owned()])
            .find_map(|w| run.get(&w, suite, case).map(|c| (w, c.median_ns)))
    }
}
