//! The report: reads records from any mix of targets and writes the tables of a
//! dual-verifier benchmark (Markdown) and a chart (SVG).
//!
//! 1. valid signatures: median per suite per way, % of liboqs in the same run;
//! 2. invalid signatures: the same;
//! 3. Verify Units: estimate = ⌈100 × median / median of ML-DSA-44⌉ (both through
//!    dual-enforce) against the consensus table, flagging constants that do not cover it;
//! 4. worst-case block: signatures filling the budget × the median (one core), and the
//!    block measured through the parallel batch on all cores;
//! 5. native vs Node vs browser ratios;
//! 6. the environments and the round-to-round spread.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::record::{Block, Env, Record, Sample};
use crate::stats::{median, spread_bp};
use crate::units::UnitTable;

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
    table: UnitTable,
}

/// The suites in pqverify's order, for rows.
const SUITE_ORDER: [&str; 15] = [
    "ML-DSA-44",
    "ML-DSA-65",
    "ML-DSA-87",
    "SLH-DSA-SHA2-128s",
    "SLH-DSA-SHA2-128f",
    "SLH-DSA-SHA2-192s",
    "SLH-DSA-SHA2-192f",
    "SLH-DSA-SHA2-256s",
    "SLH-DSA-SHA2-256f",
    "SLH-DSA-SHAKE-128s",
    "SLH-DSA-SHAKE-128f",
    "SLH-DSA-SHAKE-192s",
    "SLH-DSA-SHAKE-192f",
    "SLH-DSA-SHAKE-256s",
    "SLH-DSA-SHAKE-256f",
];

/// Native ways in column order.
const NATIVE_WAYS: [&str; 7] =
    ["liboqs", "reference", "pqverify", "pqverify-portable", "pqverify-prepared", "dual-enforce", "dual-shadow"];

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
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>, table: UnitTable) -> Result<Report, String> {
        let mut envs: BTreeMap<String, Env> = BTreeMap::new();
        let mut latest: BTreeMap<String, String> = BTreeMap::new();
        let mut samples: Vec<Sample> = Vec::new();
        let mut blocks: Vec<Block> = Vec::new();
        for (n, line) in lines.into_iter().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            match Record::parse(line).map_err(|e| format!("record {}: {e}", n + 1))? {
                Record::Env(e) => {
                    latest.insert(e.target.clone(), e.run.clone());
                    envs.insert(e.run.clone(), e);
                }
                Record::Sample(s) => samples.push(s),
                Record::Block(b) => blocks.push(b),
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
            let run_blocks = blocks.iter().filter(|b| &b.run == run_id).cloned().collect();
            runs.insert(target.clone(), Run { env, cells, blocks: run_blocks });
        }
        if runs.is_empty() {
            return Err("no environment record: nothing to report".into());
        }
        let present: std::collections::BTreeSet<&str> =
            runs.values().flat_map(|r| r.cells.keys().map(|k| k.1.as_str())).collect();
        let suites = SUITE_ORDER.iter().filter(|s| present.contains(*s)).map(|s| (*s).to_owned()).collect();
        Ok(Report { runs, suites, table })
    }

    /// The targets present (`native`, `node`, `browser`).
    pub fn targets(&self) -> Vec<&str> {
        self.runs.keys().map(String::as_str).collect()
    }

    fn native(&self) -> Option<&Run> {
        self.runs.get("native")
    }

    fn case_table(&self, out: &mut String, case: &str) {
        let Some(run) = self.native() else {
            out.push_str("(no native run)\n\n");
            return;
        };
        let ways: Vec<&str> =
            NATIVE_WAYS.iter().copied().filter(|w| self.suites.iter().any(|s| run.get(w, s, case).is_some())).collect();
        let _ = writeln!(out, "| suite | {} |", ways.join(" | "));
        let _ = writeln!(out, "|---|{}", "---:|".repeat(ways.len()));
        for suite in &self.suites {
            // Baseline: liboqs where it has the suite, else the reference (marked ʳ).
            let (base, mark) = match run.get("liboqs", suite, case) {
                Some(c) => (Some(c.median_ns), ""),
                None => (run.get("reference", suite, case).map(|c| c.median_ns), "ʳ"),
            };
            let cells: Vec<String> = ways
                .iter()
                .map(|w| match (run.get(w, suite, case), base) {
                    (None, _) => "—".into(),
                    (Some(c), Some(b)) if *w != "liboqs" && !(mark == "ʳ" && *w == "reference") => {
                        format!("{} ({:.0}%{mark})", us(c.median_ns), 100.0 * c.median_ns / b)
                    }
                    (Some(c), _) => us(c.median_ns),
                })
                .collect();
            let _ = writeln!(out, "| {suite} | {} |", cells.join(" | "));
        }
        out.push_str("\nMedians in µs (median of the round medians); in brackets, % of liboqs in the same run, or of the pure-Rust reference (ʳ) where liboqs lacks the suite.\n\n");
    }

    fn dual_median(&self, suite: &str) -> Option<f64> {
        self.native()?.get("dual-enforce", suite, "valid").map(|c| c.median_ns)
    }

    /// Checks that every target's last run is complete and clean: an environment
    /// record with a fixture digest shared by all targets, every expected way on
    /// every suite and case in every round, no disagreement, finite statistics, and
    /// (natively) a worst-case block per suite with every signature valid.
    pub fn check_complete(&self, lines: &[&str]) -> Result<(), String> {
        let mut digests = std::collections::BTreeSet::new();
        for (target, run) in &self.runs {
            digests.insert(run.env.fixtures.clone());
            let expected_ways: &[&str] = match target.as_str() {
                "native" => {
                    &["reference", "pqverify", "pqverify-portable", "pqverify-prepared", "dual-enforce", "dual-shadow"]
                }
                _ => &["pqverify", "pqverify-portable", "pqverify-prepared"],
            };
            let samples: Vec<Sample> = lines
                .iter()
                .filter_map(|l| match Record::parse(l) {
                    Ok(Record::Sample(s)) if s.run == run.env.run => Some(s),
                    _ => None,
                })
                .collect();
            let rounds: std::collections::BTreeSet<u32> = samples.iter().map(|s| s.round).collect();
            let cases: std::collections::BTreeSet<&str> = samples.iter().map(|s| s.case.as_str()).collect();
            if rounds.is_empty() || !cases.contains("valid") || !cases.contains("invalid") {
                return Err(format!("{target}: no rounds, or the valid/invalid cases are missing"));
            }
            for suite in &self.suites {
                for way in expected_ways.iter().chain(if suite.starts_with("ML-DSA") && target == "native" {
                    &["liboqs"][..]
                } else {
                    &[][..]
                }) {
                    for case in &cases {
                        for round in &rounds {
                            let found = samples
                                .iter()
                                .find(|s| &s.way == way && &s.suite == suite && s.case == *case && s.round == *round)
                                .ok_or_else(|| format!("{target}: no record for {way} {suite} {case} round {round}"))?;
                            if found.disagreements != 0 {
                                return Err(format!(
                                    "{target}: {way} {suite} {case}: {} disagreements",
                                    found.disagreements
                                ));
                            }
                            if !(found.median_ns.is_finite() && found.median_ns > 0.0 && found.checks > 0) {
                                return Err(format!("{target}: {way} {suite} {case}: malformed statistics"));
                            }
                        }
                    }
                }
            }
            if target == "native" {
                for suite in &self.suites {
                    let b = run
                        .blocks
                        .iter()
                        .find(|b| &b.suite == suite)
                        .ok_or_else(|| format!("native: no block for {suite}"))?;
                    if b.valid != b.signatures || b.signatures == 0 {
                        return Err(format!("native: block {suite}: {} of {} signatures valid", b.valid, b.signatures));
                    }
                }
            }
        }
        if digests.len() != 1 {
            return Err(format!("targets used different fixtures: {digests:?}"));
        }
        let md = self.markdown();
        for section in ["## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "## 6."] {
            if !md.contains(section) {
                return Err(format!("report lacks section {section}"));
            }
        }
        Ok(())
    }

    /// The Markdown report.
    pub fn markdown(&self) -> String {
        let mut out = String::from("# pqverify benchmark report\n\n");
        let _ = writeln!(out, "Targets: {}.\n", self.targets().join(", "));

        out.push_str("## 1. Valid signatures (native)\n\n");
        self.case_table(&mut out, "valid");
        out.push_str("## 2. Invalid signatures (native; one byte flipped in the middle)\n\n");
        self.case_table(&mut out, "invalid");
        out.push_str("dual-enforce stops at the primary's rejection, so an invalid signature should cost what the primary alone costs.\n\n");

        out.push_str("## 3. Verify Units (dual-enforce, native)\n\n");
        match self.dual_median("ML-DSA-44") {
            None => out.push_str("(needs native dual-enforce medians including ML-DSA-44)\n\n"),
            Some(base) => {
                out.push_str(
                    "| suite | dual-enforce µs | estimate | constant | covered |\n|---|---:|---:|---:|:---:|\n",
                );
                for suite in &self.suites {
                    let Some(m) = self.dual_median(suite) else { continue };
                    let estimate = (100.0 * m / base).ceil() as u64;
                    let constant = self.table.cost(suite);
                    let covered = match constant {
                        Some(c) if c >= estimate => "yes",
                        Some(_) => "**NO**",
                        None => "no constant",
                    };
                    let _ = writeln!(
                        out,
                        "| {suite} | {} | {estimate} | {} | {covered} |",
                        us(m),
                        constant.map_or("—".into(), |c| c.to_string())
                    );
                }
                out.push_str("\nestimate = ⌈100 × median / median of ML-DSA-44⌉; a constant below its estimate under-prices that suite.\n\n");
            }
        }

        out.push_str("## 4. Worst-case block\n\n");
        let _ = writeln!(out, "A block of one suite's signatures filling {BLOCK_BUDGET} Verify Units.\n");
        out.push_str("| suite | units | signatures | estimate, 1 core (ms) | measured, all cores (ms) | threads |\n|---|---:|---:|---:|---:|---:|\n");
        for suite in &self.suites {
            let Some(units) = self.table.cost(suite) else { continue };
            let count = BLOCK_BUDGET / units.max(1);
            let estimate = self.dual_median(suite).map(|m| m * count as f64 / 1e6);
            let block = self.native().and_then(|r| r.blocks.iter().find(|b| &b.suite == suite));
            let _ = writeln!(
                out,
                "| {suite} | {units} | {count} | {} | {} | {} |",
                estimate.map_or("—".into(), |e| format!("{e:.1}")),
                block.map_or("—".into(), |b| format!("{:.1}", b.wall_ns / 1e6)),
                block.map_or("—".into(), |b| b.threads.to_string()),
            );
        }
        out.push('\n');

        out.push_str("## 5. Native vs Node vs browser\n\n");
        let wasm_targets: Vec<&str> = ["node", "browser"].into_iter().filter(|t| self.runs.contains_key(*t)).collect();
        if self.native().is_none() || wasm_targets.is_empty() {
            out.push_str("(needs a native run and a Node or browser run)\n\n");
        } else {
            let mut header = vec!["suite".to_owned(), "way".to_owned(), "native µs".to_owned()];
            for t in &wasm_targets {
                header.push(format!("{t} µs"));
                header.push(format!("{t} / native"));
                header.push(format!("noble ({t}) µs"));
                header.push(format!("noble / pqverify ({t})"));
            }
            let _ = writeln!(out, "| {} |\n|---|---|{}", header.join(" | "), "---:|".repeat(header.len() - 2));
            for suite in &self.suites {
                for way in ["pqverify", "pqverify-portable", "pqverify-prepared"] {
                    let native = self.native().and_then(|r| r.get(way, suite, "valid")).map(|c| c.median_ns);
                    let mut cells = vec![suite.clone(), way.to_owned(), native.map_or("—".into(), us)];
                    for t in &wasm_targets {
                        let run = &self.runs[*t];
                        let w = run.get(way, suite, "valid").map(|c| c.median_ns);
                        let noble = run.get("noble", suite, "valid").map(|c| c.median_ns);
                        cells.push(w.map_or("—".into(), us));
                        cells.push(match (w, native) {
                            (Some(w), Some(n)) => format!("{:.2}×", w / n),
                            _ => "—".into(),
                        });
                        cells.push(noble.map_or("—".into(), us));
                        cells.push(match (noble, w) {
                            (Some(nb), Some(w)) => format!("{:.1}×", nb / w),
                            _ => "—".into(),
                        });
                    }
                    let _ = writeln!(out, "| {} |", cells.join(" | "));
                }
            }
            out.push('\n');
        }

        out.push_str("## 6. Environment and spread\n\n");
        for (target, run) in &self.runs {
            let e = &run.env;
            let liboqs = e.liboqs.as_ref().map_or("—".into(), |l| format!("{} (AVX2 {})", l.version, l.avx2));
            let _ = writeln!(
                out,
                "- **{target}** run `{}`: {} ({} cores), {}, {}; pqverify backend {}; liboqs {liboqs}; fixtures {}; ways: {}",
                e.run,
                e.cpu,
                e.cores,
                e.os,
                e.runtime,
                e.backend,
                e.fixtures,
                e.ways.join(", ")
            );
            let spreads: Vec<f64> = run.cells.values().map(|c| c.spread_bp).collect();
            let mut sorted = spreads.clone();
            sorted.sort_by(f64::total_cmp);
            let disagreements: u64 = run.cells.values().map(|c| c.disagreements).sum();
            let _ = writeln!(
                out,
                "  - spread between rounds: median {:.0} bp, max {:.0} bp over {} measurements; disagreements: {disagreements}",
                median(&sorted),
                sorted.last().copied().unwrap_or(0.0),
                spreads.len()
            );
        }
        out
    }

    /// A bar chart (log scale) of valid-signature medians per suite.
    pub fn svg(&self) -> String {
        let series: Vec<(&str, &str, &str)> = vec![
            ("native", "liboqs", "#6b7280"),
            ("native", "reference", "#a3a3a3"),
            ("native", "pqverify", "#2563eb"),
            ("native", "pqverify-portable", "#60a5fa"),
            ("native", "pqverify-prepared", "#1e3a8a"),
            ("native", "dual-enforce", "#7c3aed"),
            ("node", "pqverify", "#16a34a"),
            ("node", "pqverify-portable", "#86efac"),
            ("node", "noble", "#f59e0b"),
            ("browser", "pqverify", "#0d9488"),
            ("browser", "noble", "#dc2626"),
        ];
        let series: Vec<_> = series
            .into_iter()
            .filter(|(t, w, _)| {
                self.runs.get(*t).is_some_and(|r| self.suites.iter().any(|s| r.get(w, s, "valid").is_some()))
            })
            .collect();
        let (left, bar, gap, width) = (170.0, 9.0, 10.0, 900.0);
        let group = bar * series.len() as f64 + gap;
        let height = 60.0 + group * self.suites.len() as f64 + 20.0 * series.len() as f64;
        let (lo, hi) = (1.0f64, 1e6f64); // 1 µs … 1 s
        let x = |ns: f64| {
            left + (width - left - 20.0) * ((ns / 1000.0).max(lo).log10() - lo.log10()) / (hi.log10() - lo.log10())
        };
        let mut s = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0}" font-family="sans-serif" font-size="11">"#
        );
        let _ = write!(
            s,
            r#"<text x="10" y="18" font-size="14">pqverify: valid-signature verify time (µs, log scale)</text>"#
        );
        for p in 0..=6 {
            let v = 10f64.powi(p);
            let xx = x(v * 1000.0);
            let _ = write!(
                s,
                r##"<line x1="{xx:.1}" y1="30" x2="{xx:.1}" y2="{:.0}" stroke="#e5e7eb"/><text x="{xx:.1}" y="28" text-anchor="middle">{v}</text>"##,
                40.0 + group * self.suites.len() as f64
            );
        }
        for (i, suite) in self.suites.iter().enumerate() {
            let y0 = 40.0 + group * i as f64;
            let _ = write!(
                s,
                r#"<text x="{:.0}" y="{:.1}" text-anchor="end">{suite}</text>"#,
                left - 6.0,
                y0 + group / 2.0
            );
            for (j, (target, way, color)) in series.iter().enumerate() {
                if let Some(c) = self.runs.get(*target).and_then(|r| r.get(way, suite, "valid")) {
                    let _ = write!(
                        s,
                        r#"<rect x="{left}" y="{:.1}" width="{:.1}" height="{bar}" fill="{color}"><title>{target} {way}: {} µs</title></rect>"#,
                        y0 + bar * j as f64,
                        (x(c.median_ns) - left).max(1.0),
                        us(c.median_ns)
                    );
                }
            }
        }
        let ly = 50.0 + group * self.suites.len() as f64;
        for (j, (target, way, color)) in series.iter().enumerate() {
            let yy = ly + 18.0 * j as f64;
            let _ = write!(
                s,
                r#"<rect x="{left}" y="{:.0}" width="12" height="10" fill="{color}"/><text x="{:.0}" y="{:.0}">{target} {way}</text>"#,
                yy,
                left + 18.0,
                yy + 9.0
            );
        }
        s.push_str("</svg>\n");
        s
    }
}
