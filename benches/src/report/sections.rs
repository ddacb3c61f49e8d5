//! The report's Markdown: one function per section.

use std::fmt::Write as _;

use super::{BLOCK_BUDGET, JS_TARGETS, NATIVE_WAYS, PLATFORM_WAYS, Report, ops, us};
use crate::stats::median;

/// `a / b` as "0.42×", or "—".
fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}×", a / b),
        _ => "—".into(),
    }
}

impl Report {
    /// The Markdown report: the eight sections in order.
    pub fn markdown(&self) -> String {
        let mut out = String::from("# pqverify benchmark report\n\n");
        let _ = writeln!(out, "Targets: {}.\n", self.targets().join(", "));
        self.valid_and_invalid(&mut out);
        self.verify_units(&mut out);
        self.worst_case_block(&mut out);
        self.cross_target(&mut out);
        self.environment(&mut out);
        self.capacity(&mut out);
        self.certificates_section(&mut out);
        out
    }

    /// Sections 1 and 2: native medians per way, valid and invalid signatures.
    fn valid_and_invalid(&self, out: &mut String) {
        out.push_str("## 1. Valid signatures (native)\n\n");
        self.case_table(out, "valid");
        out.push_str("## 2. Invalid signatures (native; one byte flipped in the middle)\n\n");
        self.case_table(out, "invalid");
        out.push_str("dual-enforce audits every primary rejection with the secondary (the default: a false rejection by the primary is logged, not hidden), so an invalid signature costs both verifiers; dual-enforce-unaudited (`--audit-rejections 0`) stops at the primary's rejection and costs what the primary alone costs.\n\n");
    }

    /// Section 3: Verify-Unit estimates against the consensus constants.
    fn verify_units(&self, out: &mut String) {
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
                    let constant = self.units.get(suite).copied();
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
    }

    /// Section 4: a block filling the Verify-Unit budget, estimated and measured.
    fn worst_case_block(&self, out: &mut String) {
        out.push_str("## 4. Worst-case block\n\n");
        let _ = writeln!(out, "A block of one suite's signatures filling {BLOCK_BUDGET} Verify Units.\n");
        out.push_str("| suite | units | signatures | estimate, 1 core (ms) | measured, all cores (ms) | threads |\n|---|---:|---:|---:|---:|---:|\n");
        for suite in &self.suites {
            let Some(&units) = self.units.get(suite) else { continue };
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
    }

    /// Section 5: native against each JS target (Node, then each browser engine), with
    /// the JS peers; then the platforms' own verifiers beside the package.
    fn cross_target(&self, out: &mut String) {
        out.push_str("## 5. Native vs Node vs browsers\n\n");
        let targets: Vec<&str> = JS_TARGETS.into_iter().filter(|t| self.runs.contains_key(*t)).collect();
        if self.native().is_none() || targets.is_empty() {
            out.push_str("(needs a native run and a Node or browser run)\n\n");
            return;
        }
        for t in &targets {
            self.target_table(out, t);
        }
        self.platform_table(out, &targets);
    }

    /// One JS target beside native: the package's ways, and the JS peers it ran.
    fn target_table(&self, out: &mut String, t: &str) {
        let run = &self.runs[t];
        let peers: Vec<&str> = ["noble", "liboqs-js"]
            .into_iter()
            .filter(|p| self.suites.iter().any(|s| run.get(p, s, "valid").is_some()))
            .collect();
        let _ = writeln!(out, "### {t} ({})\n", run.env.runtime);
        let mut header = vec![
            "suite".to_owned(),
            "way".to_owned(),
            "native µs".to_owned(),
            format!("{t} µs"),
            format!("{t} / native"),
        ];
        for p in &peers {
            header.push(format!("{p} µs"));
            // noble: how many times faster pqverify is; liboqs-js: time over its time.
            header.push(if *p == "noble" { "noble / pqverify".to_owned() } else { format!("pqverify / {p}") });
        }
        let _ = writeln!(out, "| {} |\n|---|---|{}", header.join(" | "), "---:|".repeat(header.len() - 2));
        for suite in &self.suites {
            for way in ["pqverify", "pqverify-portable", "pqverify-prepared"] {
                let w = run.get(way, suite, "valid").map(|c| c.median_ns);
                if w.is_none() {
                    continue;
                }
                let native = self.native().and_then(|r| r.get(way, suite, "valid")).map(|c| c.median_ns);
                let mut cells =
                    vec![suite.clone(), way.to_owned(), native.map_or("—".into(), |n| format!("{} {}", us(n), ops(n)))];
                cells.push(w.map_or("—".into(), |w| format!("{} {}", us(w), ops(w))));
                cells.push(ratio(w, native));
                for p in &peers {
                    let peer = run.get(p, suite, "valid").map(|c| c.median_ns);
                    cells.push(peer.map_or("—".into(), us));
                    cells.push(match (*p, peer, w) {
                        ("noble", Some(nb), Some(w)) => format!("{:.1}×", nb / w),
                        ("noble", _, _) => "—".into(),
                        _ => ratio(w, peer),
                    });
                }
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
        }
        out.push('\n');
    }

    /// The platforms' own verifiers (WebCrypto, node:crypto) beside the package, per
    /// target and suite the platform has: pqverify's time over the platform's.
    fn platform_table(&self, out: &mut String, targets: &[&str]) {
        out.push_str("### The platforms' own verifiers\n\n");
        let mut rows = Vec::new();
        for t in targets {
            let run = &self.runs[*t];
            for suite in &self.suites {
                for way in PLATFORM_WAYS {
                    let Some(p) = run.get(way, suite, "valid").map(|c| c.median_ns) else { continue };
                    let one = run.get("pqverify", suite, "valid").map(|c| c.median_ns);
                    let prepared = run.get("pqverify-prepared", suite, "valid").map(|c| c.median_ns);
                    let native = self.native().and_then(|r| r.get("pqverify", suite, "valid")).map(|c| c.median_ns);
                    rows.push(format!(
                        "| {t} | {suite} | {way} | {} | {} | {} | {} | {} | {} |",
                        us(p),
                        one.map_or("—".into(), us),
                        ratio(one, Some(p)),
                        prepared.map_or("—".into(), us),
                        ratio(prepared, Some(p)),
                        ratio(native, Some(p)),
                    ));
                }
            }
        }
        if rows.is_empty() {
            out.push_str("(no platform verifier ran)\n\n");
            return;
        }
        out.push_str("| target | suite | platform way | platform µs | pqverify µs | pqverify / platform | pqverify-prepared µs | prepared / platform | native pqverify / platform |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for r in rows {
            let _ = writeln!(out, "{r}");
        }
        out.push_str("\nwebcrypto: `subtle.verify` awaited one by one; webcrypto-inflight: ");
        out.push_str("that many verifications in flight at once, per signature (the engine's thread pool); ");
        out.push_str("node-crypto: synchronous `crypto.verify` (OpenSSL). Their keys are made once, before the timing. Below 1 the package is faster.\n\n");
    }

    /// Section 6: each target's environment and round-to-round spread.
    fn environment(&self, out: &mut String) {
        out.push_str("## 6. Environment and spread\n\n");
        for (target, run) in &self.runs {
            let e = &run.env;
            let liboqs = e.liboqs.as_ref().map_or("—".into(), |l| {
                let library = l.library.as_ref().map_or(String::new(), |p| format!(", {p}"));
                format!("{} (AVX2 {}{library})", l.version, l.avx2)
            });
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
    }

    /// One table of native medians for `case`, with % of liboqs (or of the reference).
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
                        format!("{} ({:.0}%{mark}) {}", us(c.median_ns), 100.0 * c.median_ns / b, ops(c.median_ns))
                    }
                    (Some(c), _) => format!("{} {}", us(c.median_ns), ops(c.median_ns)),
                })
                .collect();
            let _ = writeln!(out, "| {suite} | {} |", cells.join(" | "));
        }
        out.push_str("\nMedians in µs (median of the round medians); in brackets, % of liboqs in the same run, or of the pure-Rust reference (ʳ) where liboqs lacks the suite; then verifications per second on one core (10⁹ / median ns).\n\n");
    }

    /// The native dual-enforce median of `suite`, valid signatures.
    pub(super) fn dual_median(&self, suite: &str) -> Option<f64> {
        self.native()?.get("dual-enforce", suite, "valid").map(|c| c.median_ns)
    }
}
