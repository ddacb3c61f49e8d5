//! Section 8: quorum certificates — per certificate and per signature by threads or
//! workers, the speed-up per added core, beside liboqs and the platform's WebCrypto —
//! its chart, and its completeness check.

use crate::names;
use std::fmt::Write as _;

use super::{BROWSERS, Report, us};
use crate::certificates::CERTIFICATE_SUITES;
use crate::record::Certificate;

/// Milliseconds with two decimals.
fn ms(ns: f64) -> String {
    if ns.is_finite() { format!("{:.2}", ns / 1e6) } else { "—".into() }
}

/// The (target, way) series of the certificate records, in record order.
fn series(report: &Report) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (target, run) in &report.runs {
        for c in &run.certificates {
            let key = (target.clone(), c.way.clone());
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

impl Report {
    fn certificate(&self, target: &str, way: &str, suite: &str, threads: u32) -> Option<&Certificate> {
        self.runs.get(target)?.certificates.iter().find(|c| c.way == way && c.suite == suite && c.threads == threads)
    }

    /// Thread counts of one (target, way, suite), ascending.
    fn certificate_threads(&self, target: &str, way: &str, suite: &str) -> Vec<u32> {
        let mut t: Vec<u32> = self.runs.get(target).map_or_else(Vec::new, |r| {
            r.certificates.iter().filter(|c| c.way == way && c.suite == suite).map(|c| c.threads).collect()
        });
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Section 8.
    pub(super) fn certificates_section(&self, out: &mut String) {
        out.push_str("## 8. Quorum certificates\n\n");
        let series = series(self);
        if series.is_empty() {
            out.push_str("(no certificate records)\n\n");
            return;
        }
        let columns: Vec<u32> = {
            let mut t: Vec<u32> =
                self.runs.values().flat_map(|r| r.certificates.iter().map(|c| c.threads)).filter(|t| *t > 0).collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        let n = self.runs.values().flat_map(|r| r.certificates.iter().map(|c| c.validators)).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "One certificate: {n} validators' signatures on one 32-byte block hash, each validator with its own key (the same fixtures on every target). Median wall time per certificate in ms, its p95 in brackets.\n"
        );
        let head: Vec<String> =
            columns.iter().map(|t| format!("{t} thread{}", if *t == 1 { "" } else { "s" })).collect();
        let _ = writeln!(
            out,
            "| suite | target | way | {} | µs per signature (most threads) | speed-up per added core | calling thread late (max, ms) |\n|---|---|---|{}---:|---:|---:|",
            head.join(" | "),
            "---:|".repeat(columns.len())
        );
        for suite in CERTIFICATE_SUITES {
            for (target, way) in &series {
                let threads = self.certificate_threads(target, way, suite);
                if threads.is_empty() {
                    continue;
                }
                let cells: Vec<String> = if threads == [0] {
                    // The platform schedules its own: one cell, spanning the columns' place.
                    let c = self.certificate(target, way, suite, 0);
                    let mut v = vec![String::from("—"); columns.len()];
                    if let (Some(c), Some(first)) = (c, v.first_mut()) {
                        *first = format!("{} ({}), all in flight", ms(c.median_ns), ms(c.p95_ns));
                    }
                    v
                } else {
                    columns
                        .iter()
                        .map(|t| {
                            self.certificate(target, way, suite, *t)
                                .map_or("—".into(), |c| format!("{} ({})", ms(c.median_ns), ms(c.p95_ns)))
                        })
                        .collect()
                };
                let most = threads.iter().copied().max().and_then(|t| self.certificate(target, way, suite, t));
                let one = self.certificate(target, way, suite, 1);
                let speedup = match (one, most) {
                    (Some(a), Some(b)) if b.threads > 1 && b.median_ns > 0.0 => {
                        let gain = a.median_ns / b.median_ns;
                        format!(
                            "{:.2}× over {} ({:.2}× in all)",
                            (gain - 1.0) / f64::from(b.threads - 1) + 1.0,
                            b.threads,
                            gain
                        )
                    }
                    _ => "—".into(),
                };
                let late = self
                    .runs
                    .get(target)
                    .map(|r| {
                        r.certificates
                            .iter()
                            .filter(|c| &c.way == way && c.suite == suite)
                            .filter_map(|c| c.blocked_ns)
                            .fold(f64::NAN, f64::max)
                    })
                    .map_or("—".into(), ms);
                let _ = writeln!(
                    out,
                    "| {suite} | {target} | {way} | {} | {} | {speedup} | {late} |",
                    cells.join(" | "),
                    most.map_or("—".into(), |c| us(c.per_signature_ns))
                );
            }
        }
        out.push_str("\nWays: natively `pqverify-prepared` (the validator set prepared once, `ValidatorSet::verify_certificate`: eight signatures at a time through `PreparedKey::verify_each`, their hashes sharing the Keccak kernel's lanes), `pqverify` (each key decoded per signature, `verify_one_shot`) and `liboqs` (one-shot, on the same rayon pool); in JS engines `pool-prepared` (`pqverify/pool`: the set installed in every worker) and `pool` (`verifyMany`, one-shot) with that many workers, in Node `pqverify-native-prepared` (the package's native build: `prepareValidators` once, then `verify` on its pool of that many threads, as `pqverify-prepared` natively), and `webcrypto-inflight` (the platform's WebCrypto, keys imported once, all n verifies in flight). Speed-up per added core: (time on one ÷ time on the most − 1) ÷ (added cores) + 1; 2.00× means each added core did a whole core's work. Calling thread late: the longest a 1 ms timer on the page's (or Node's) main thread fired late while the certificates verified. The chart `certificates.svg` shows the medians on the most threads.\n\n");
    }

    /// A bar chart (log scale) of the median certificate time on the most threads, per suite and (target, way).
    pub fn certificates_svg(&self) -> String {
        let series = series(self);
        let colours =
            ["#1e3a8a", "#2563eb", "#6b7280", "#16a34a", "#86efac", "#a16207", "#0d9488", "#5eead4", "#be185d"];
        let (left, bar, gap, width) = (170.0, 9.0, 10.0, 800.0);
        let group = bar * series.len().max(1) as f64 + gap;
        let height = 60.0 + group * CERTIFICATE_SUITES.len() as f64 + 20.0 * series.len() as f64;
        let (lo, hi) = (0.1f64, 1000.0f64); // ms
        let x = |ns: f64| {
            left + (width - left - 20.0) * ((ns / 1e6).clamp(lo, hi).log10() - lo.log10()) / (hi.log10() - lo.log10())
        };
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0}" font-family="sans-serif" font-size="11"><text x="10" y="20" font-size="14">One quorum certificate on the most threads (ms, log scale)</text>"#
        );
        for p in -1..=3 {
            let v = 10f64.powi(p);
            super::svg::grid_line(&mut svg, x(v * 1e6), height - 20.0 * series.len() as f64, &v.to_string());
        }
        for (i, suite) in CERTIFICATE_SUITES.iter().enumerate() {
            let y0 = 50.0 + group * i as f64;
            super::svg::group_label(&mut svg, left, y0, group, suite);
            for (j, (target, way)) in series.iter().enumerate() {
                let most = self.certificate_threads(target, way, suite).into_iter().max();
                if let Some(c) = most.and_then(|t| self.certificate(target, way, suite, t)) {
                    let _ = write!(
                        svg,
                        r#"<rect x="{left}" y="{:.1}" width="{:.1}" height="{bar}" fill="{}"><title>{target} {way}, {} threads: {} ms</title></rect>"#,
                        y0 + bar * j as f64,
                        (x(c.median_ns) - left).max(1.0),
                        colours[j % colours.len()],
                        c.threads,
                        ms(c.median_ns)
                    );
                }
            }
        }
        super::svg::close_with_legend(&mut svg, &series, &colours, left, height);
        svg
    }

    /// Section 8's records of one target: every suite of the scenario, each expected way
    /// on one thread and on the machine's cores, every certificate's verdicts all valid.
    pub(super) fn check_certificates(&self, target: &str) -> Result<(), String> {
        let run = &self.runs[target];
        let cores = run.env.cores.max(1);
        let ways: &[(&str, bool)] = match target {
            "native" => &[("pqverify-prepared", true), ("pqverify", true), ("liboqs", true)],
            "node" => &[(names::POOL_PREPARED, true), (names::POOL, true), (names::PQVERIFY_NATIVE_PREPARED, true)],
            t if BROWSERS.contains(&t) => &[(names::POOL_PREPARED, true)],
            _ => &[],
        };
        for suite in CERTIFICATE_SUITES {
            for (way, _) in ways {
                // liboqs 0.13 (linked) has no SLH-DSA.
                if *way == "liboqs" && !suite.starts_with("ML-DSA") {
                    continue;
                }
                for threads in [1, cores] {
                    let c = self.certificate(target, way, suite, threads).ok_or_else(|| {
                        format!("{target}: no certificate record for {way} {suite} on {threads} threads")
                    })?;
                    if c.wrong != 0 {
                        return Err(format!(
                            "{target}: certificate {way} {suite} {threads}: {} certificates not all valid",
                            c.wrong
                        ));
                    }
                    if !(c.certificates > 0 && c.validators > 0 && c.median_ns.is_finite() && c.median_ns > 0.0) {
                        return Err(format!("{target}: certificate {way} {suite} {threads}: malformed"));
                    }
                }
            }
        }
        for c in &run.certificates {
            if c.wrong != 0 {
                return Err(format!(
                    "{target}: certificate {} {} {}: {} certificates not all valid",
                    c.way, c.suite, c.threads, c.wrong
                ));
            }
        }
        Ok(())
    }
}
