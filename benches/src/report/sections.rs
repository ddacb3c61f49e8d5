//! The report's Markdown: one function per section.

use std::fmt::Write as _;

use super::{BLOCK_BUDGET, JS_TARGETS, PLATFORM_PAIRS, Report, SEED_DUAL_PERCENT, ops, us};
use crate::names;
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
        self.ratios(out);
        self.avx2_pair(out);
        out.push_str("## 2. Invalid signatures (native; one byte flipped in the middle)\n\n");
        self.case_table(out, "invalid");
        out.push_str("dual-enforce audits every primary rejection with the secondary (the default: a false rejection by the primary is logged, not hidden), so an invalid signature costs both verifiers; dual-enforce-unaudited (`--audit-rejections 0`) stops at the primary's rejection and costs what the primary alone costs.\n\n");
    }

    /// Section 3: Verify-Unit estimates against the consensus constants.
    fn verify_units(&self, out: &mut String) {
        out.push_str("## 3. Verify Units (dual-enforce on distinct keys, native)\n\n");
        match self.dual_median("ML-DSA-44") {
            None => out.push_str("(needs native dual-enforce medians including ML-DSA-44)\n\n"),
            Some(base) => {
                out.push_str(
                    "| suite | dual-enforce-distinct µs | estimate | constant | covered |\n|---|---:|---:|---:|:---:|\n",
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

    /// Section 4: a block filling the Verify-Unit budget, estimated and measured: one
    /// key per signature (what a block built to be slow holds) and one key repeated.
    fn worst_case_block(&self, out: &mut String) {
        out.push_str("## 4. Worst-case block\n\n");
        let _ = writeln!(
            out,
            "A block of one suite's signatures filling {BLOCK_BUDGET} Verify Units, through dual-enforce: every signature under a key of its own (`dual-enforce-distinct`: what an attacker's block holds, so that no key cache helps) and, for comparison, one key and signature repeated (`dual-enforce`, the prepared-key cache hitting from the second signature on).\n"
        );
        out.push_str("| suite | units | keys | signatures | estimate, 1 core (ms) | measured, all cores (ms) | threads |\n|---|---:|---|---:|---:|---:|---:|\n");
        let native = self.native();
        for suite in &self.suites {
            let Some(&units) = self.units.get(suite) else { continue };
            for (way, keys) in [("dual-enforce-distinct", "one per signature"), ("dual-enforce", "one, repeated")] {
                let block = native.and_then(|r| r.blocks.iter().find(|b| &b.suite == suite && b.way == way));
                // A quick run's block may be shorter than the budget allows.
                let count = block.map_or(BLOCK_BUDGET / units.max(1), |b| b.signatures);
                let median = native.and_then(|r| r.get(way, suite, "valid")).map(|c| c.median_ns);
                let _ = writeln!(
                    out,
                    "| {suite} | {units} | {keys} | {count} | {} | {} | {} |",
                    median.map_or("—".into(), |m| format!("{:.1}", m * count as f64 / 1e6)),
                    block.map_or("—".into(), |b| format!("{:.1}", b.wall_ns / 1e6)),
                    block.map_or("—".into(), |b| b.threads.to_string()),
                );
            }
        }
        out.push_str("\nestimate = signatures × the way's median on one core (section 1); measured = the whole block through the parallel batch.\n\n");
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

    /// One JS target beside native: the package's ways, and the JS peers it ran (ox:
    /// ML-DSA-44 only).
    fn target_table(&self, out: &mut String, t: &str) {
        // The pure-JS peers, many times slower: shown as their time over pqverify's.
        let slow = |p: &str| p == names::NOBLE || p == names::OX;
        let run = &self.runs[t];
        let peers: Vec<&str> = [names::NOBLE, names::LIBOQS_JS, names::OX, names::OX_WASM]
            .into_iter()
            .filter(|p| self.suites.iter().any(|s| run.get(p, s, "valid").is_some()))
            .collect();
        let _ = writeln!(out, "### {t} ({})\n", run.env.runtime);
        // The package's native build in this runtime, where its platform package was installed.
        let has_native = self.suites.iter().any(|s| run.get(names::PQVERIFY_NATIVE, s, "valid").is_some());
        let mut header = vec![
            "suite".to_owned(),
            "way".to_owned(),
            "native µs".to_owned(),
            format!("{t} µs"),
            format!("{t} / native"),
        ];
        if has_native {
            header.extend([format!("{t} native µs"), format!("{t} native / native"), format!("{t} / {t} native")]);
        }
        for p in &peers {
            header.push(format!("{p} µs"));
            // noble and ox (noble inside): how many times faster pqverify is; the wasm
            // peers: time over their time.
            header.push(if slow(p) { format!("{p} / pqverify") } else { format!("pqverify / {p}") });
        }
        let _ = writeln!(out, "| {} |\n|---|---|{}", header.join(" | "), "---:|".repeat(header.len() - 2));
        // Each row: the way natively, its WebAssembly way and its native-build way here.
        let rows = [
            (names::PQVERIFY, Some(names::PQVERIFY), Some(names::PQVERIFY_NATIVE)),
            (names::PQVERIFY_PORTABLE, Some(names::PQVERIFY_PORTABLE), None),
            (names::PQVERIFY_PREPARED, Some(names::PQVERIFY_PREPARED), Some(names::PQVERIFY_NATIVE_PREPARED)),
            (names::DUAL_ENFORCE_DISTINCT, None, Some(names::DUAL_ENFORCE_DISTINCT)),
        ];
        for suite in &self.suites {
            for (way, wasm_way, native_way) in rows {
                let w = wasm_way.and_then(|x| run.get(x, suite, "valid")).map(|c| c.median_ns);
                let here = native_way.and_then(|x| run.get(x, suite, "valid")).map(|c| c.median_ns);
                if w.is_none() && here.is_none() {
                    continue;
                }
                let native = self.native().and_then(|r| r.get(way, suite, "valid")).map(|c| c.median_ns);
                let mut cells =
                    vec![suite.clone(), way.to_owned(), native.map_or("—".into(), |n| format!("{} {}", us(n), ops(n)))];
                cells.push(w.map_or("—".into(), |w| format!("{} {}", us(w), ops(w))));
                cells.push(ratio(w, native));
                if has_native {
                    cells.push(here.map_or("—".into(), |h| format!("{} {}", us(h), ops(h))));
                    cells.push(ratio(here, native));
                    cells.push(ratio(w, here));
                }
                for p in &peers {
                    let peer = run.get(p, suite, "valid").map(|c| c.median_ns);
                    cells.push(peer.map_or("—".into(), us));
                    cells.push(match (slow(p), peer, w) {
                        (true, Some(nb), Some(w)) => format!("{:.1}×", nb / w),
                        (true, _, _) => "—".into(),
                        (false, _, _) => ratio(w, peer),
                    });
                }
                let _ = writeln!(out, "| {} |", cells.join(" | "));
            }
        }
        out.push('\n');
        if has_native {
            let _ = writeln!(
                out,
                "`{t}` µs: the package's WebAssembly build (its `index.js`, as bundlers and browsers get it); `{t} native` µs: the package as `import 'pqverify'` answers here, with its native build (the platform package's Node-API addon: `pqverify-native`, `pqverify-native-prepared`, and `createDualVerifier` with liboqs 0.16 on the distinct-key fixtures beside the native `dual-enforce-distinct`). `{t} / {t} native`: how many times faster the native build is.\n"
            );
        }
    }

    /// The platforms' own verifiers (WebCrypto, node:crypto) beside the package, per
    /// target and suite the platform has, as two questions asked fairly: one-shot (the
    /// package decodes the raw key per call, the platform imports it per call) and known
    /// key (the package's prepared key, the platform's key object made once); and
    /// WebCrypto with many verifications in flight, beside the prepared key.
    fn platform_table(&self, out: &mut String, targets: &[&str]) {
        out.push_str("### The platforms' own verifiers\n\n");
        let mut rows = Vec::new();
        let inflight =
            ("many in flight (the engine's thread pool)", names::PQVERIFY_PREPARED, [names::WEBCRYPTO_INFLIGHT, ""]);
        for t in targets {
            let run = &self.runs[*t];
            for suite in &self.suites {
                for (question, package, platform) in PLATFORM_PAIRS.iter().chain([&inflight]) {
                    for way in platform.iter().filter(|w| !w.is_empty()) {
                        let Some(p) = run.get(way, suite, "valid").map(|c| c.median_ns) else { continue };
                        let ours = run.get(package, suite, "valid").map(|c| c.median_ns);
                        let native = self.native().and_then(|r| r.get(package, suite, "valid")).map(|c| c.median_ns);
                        let here =
                            native_build_way(package).and_then(|w| run.get(w, suite, "valid")).map(|c| c.median_ns);
                        rows.push(format!(
                            "| {t} | {suite} | {question} | {way} | {} | {package} | {} | {} | {} | {} |",
                            us(p),
                            ours.map_or("—".into(), us),
                            ratio(ours, Some(p)),
                            ratio(here, Some(p)),
                            ratio(native, Some(p)),
                        ));
                    }
                }
            }
        }
        if rows.is_empty() {
            out.push_str("(no platform verifier ran)\n\n");
            return;
        }
        out.push_str("| target | suite | question | platform way | platform µs | package way | package µs | package / platform | package's native build here / platform | native package way / platform |\n|---|---|---|---|---:|---|---:|---:|---:|---:|\n");
        for r in rows {
            let _ = writeln!(out, "{r}");
        }
        out.push_str("\nOne-shot: `webcrypto-import` awaits `subtle.importKey` of the raw public key and then `subtle.verify`, and `node-crypto-import` calls `crypto.createPublicKey` of the raw key and then `crypto.verify`, on every call, beside `pqverify`, which decodes the raw key and hashes it (tr) on every call. Known key: `webcrypto` (`subtle.verify` awaited one by one) and `node-crypto` (synchronous `crypto.verify`, OpenSSL) on a key object made once before the timing, beside `pqverify-prepared`. `webcrypto-inflight`: many verifications in flight at once, per signature. Same message and signature bytes in every way; below 1 the package is faster.\n\n");
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
            if let (Some(id), Some(flags)) = (e.extra.get("cpu_id"), e.extra.get("cpu_flags")) {
                let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
                let _ = writeln!(out, "  - CPU: {}; flags: {}", text(id), text(flags));
            }
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

    /// One table of native medians for `case`, with % of the baseline (the dual
    /// verifier's primary: the loaded liboqs, else the linked one, else the reference).
    fn case_table(&self, out: &mut String, case: &str) {
        let Some(run) = self.native() else {
            out.push_str("(no native run)\n\n");
            return;
        };
        let ways: Vec<String> = self
            .native_ways()
            .into_iter()
            .filter(|w| self.suites.iter().any(|s| run.get(w, s, case).is_some()))
            .collect();
        let _ = writeln!(out, "| suite | {} |", ways.join(" | "));
        let _ = writeln!(out, "|---|{}", "---:|".repeat(ways.len()));
        for suite in &self.suites {
            let baseline = self.baseline(suite, case);
            let cells: Vec<String> = ways
                .iter()
                .map(|w| match (run.get(w, suite, case), &baseline) {
                    (None, _) => "—".into(),
                    (Some(c), Some((base, b))) if w != base => {
                        let mark = if base == "reference" { "ʳ" } else { "" };
                        format!("{} ({:.0}%{mark}) {}", us(c.median_ns), 100.0 * c.median_ns / b, ops(c.median_ns))
                    }
                    (Some(c), _) => format!("{} {}", us(c.median_ns), ops(c.median_ns)),
                })
                .collect();
            let _ = writeln!(out, "| {suite} | {} |", cells.join(" | "));
        }
        let loaded = self.loaded_liboqs_ways();
        let base = match loaded.first() {
            Some(w) => format!(
                "of {w} (the liboqs loaded at run time, the dual verifier's primary) where it has the suite, else of the linked liboqs,"
            ),
            None => "of liboqs".into(),
        };
        let _ = writeln!(
            out,
            "\nMedians in µs (median of the round medians); in brackets, % {base} in the same run, or of the pure-Rust reference (ʳ) where no liboqs has the suite; then verifications per second on one core (10⁹ / median ns). `*-distinct` ways verify each signature under a key of its own, first seen at that call (each pass over the keys starts from an empty key cache); `pqverify-distinct` is pqverify one-shot on those keys, `liboqs-<version>-distinct` the dual verifier's primary alone on them; `pqverify-cached` is pqverify behind the dual verifier's key cache, which prepares a key from its second sight on.\n"
        );
    }

    /// The questions in one table: pqverify's ways against the dual verifier's
    /// primary liboqs and against the reference, and the dual check's cost beside the
    /// seed's 418 %.
    fn ratios(&self, out: &mut String) {
        let Some(run) = self.native() else { return };
        let Some(primary) = self.loaded_liboqs_ways().into_iter().next() else { return };
        let _ = writeln!(out, "### Against {primary} and the reference (valid signatures, same run)\n");
        let ways = ["pqverify", "pqverify-prepared", "pqverify-portable", "dual-enforce-distinct", "dual-enforce"];
        // The dual check on distinct keys also against the primary alone on those keys.
        let primary_distinct = self.primary_distinct_way();
        let same_keys =
            primary_distinct.as_ref().map(|w| format!(" dual-enforce-distinct / {w} |")).unwrap_or_default();
        let _ = writeln!(
            out,
            "| suite | {} |{same_keys} pqverify / reference | pqverify-cached-distinct / pqverify-distinct |",
            ways.map(|w| format!("{w} / {primary}")).join(" | ")
        );
        let columns = ways.len() + usize::from(primary_distinct.is_some());
        let _ = writeln!(out, "|---|{}---:|---:|", "---:|".repeat(columns));
        let median = |w: &str, s: &str| run.get(w, s, "valid").map(|c| c.median_ns);
        for suite in &self.suites {
            let base = median(&primary, suite);
            let mut cells: Vec<String> = ways.iter().map(|w| ratio(median(w, suite), base)).collect();
            if let Some(w) = &primary_distinct {
                cells.push(ratio(median("dual-enforce-distinct", suite), median(w, suite)));
            }
            let _ = writeln!(
                out,
                "| {suite} | {} | {} | {} |",
                cells.join(" | "),
                ratio(median("pqverify", suite), median("reference", suite)),
                ratio(median("pqverify-cached-distinct", suite), median("pqverify-distinct", suite))
            );
        }
        if let Some(w) = &primary_distinct {
            let _ = writeln!(
                out,
                "\n`dual-enforce-distinct / {w}`: the dual check on distinct keys against {primary} alone on the same keys (both read each key and signature fresh from memory, where a repeated key stays in the CPU's cache)."
            );
        }
        let _ = writeln!(
            out,
            "\nThe last column is the key cache's cost on keys seen once (an attacker's block): pqverify behind the cache against pqverify one-shot, both on the same distinct keys.\n"
        );
        if let (Some(dual), Some(base)) = (median("dual-enforce-distinct", "ML-DSA-44"), median(&primary, "ML-DSA-44"))
        {
            let same = primary_distinct
                .as_ref()
                .and_then(|w| median(w, "ML-DSA-44"))
                .map(|b| format!(" ({:.0} % of {primary} alone on the same distinct keys)", 100.0 * dual / b))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "The dual check on distinct keys (each signature under a key first seen there) costs {:.0} % of {primary} alone on ML-DSA-44{same}; the dual-verification benchmark this project answers measured {SEED_DUAL_PERCENT:.0} %.\n",
                100.0 * dual / base
            );
        }
    }

    /// On a CPU with AVX-512, both verifiers held to their AVX2 code (pqverify forced to
    /// its AVX2 kernels, a liboqs built without its AVX-512 SHA-3): the comparison a CPU
    /// without AVX-512 makes, where the servers this project answers run.
    fn avx2_pair(&self, out: &mut String) {
        let Some(run) = self.native() else { return };
        let median = |w: &str, s: &str| run.get(w, s, "valid").map(|c| c.median_ns);
        let liboqs: std::collections::BTreeSet<&String> =
            run.cells.keys().map(|k| &k.0).filter(|w| w.ends_with(names::AVX2_SUFFIX)).collect();
        let Some(liboqs) = liboqs.into_iter().next() else { return };
        let rows: Vec<String> = self
            .suites
            .iter()
            .filter_map(|suite| {
                let (ours, theirs) = (median(names::PQVERIFY_AVX2, suite)?, median(liboqs, suite)?);
                Some(format!("| {suite} | {} | {} | {} |", us(theirs), us(ours), ratio(Some(ours), Some(theirs))))
            })
            .collect();
        if rows.is_empty() {
            return;
        }
        let _ = writeln!(out, "### AVX2 against AVX2 (valid signatures, same run)\n");
        let _ = writeln!(
            out,
            "| suite | {liboqs} µs | {0} µs | {0} / {liboqs} |\n|---|---:|---:|---:|",
            names::PQVERIFY_AVX2
        );
        let _ = writeln!(out, "{}", rows.join("\n"));
        let _ = writeln!(
            out,
            "\nThis CPU has AVX-512, which liboqs uses for SHA-3 and pqverify for Keccak and more. Here both are held to the code a CPU without AVX-512 runs: {liboqs} is the same liboqs built without its AVX-512 SHA-3, and {} is pqverify one-shot on its AVX2 kernels. Still this CPU's timings, not another CPU's.\n",
            names::PQVERIFY_AVX2
        );
    }

    /// The native dual-enforce median of `suite` on distinct keys (what a block built to
    /// be slow costs), valid signatures; runs without that way give the repeated-key one.
    pub(super) fn dual_median(&self, suite: &str) -> Option<f64> {
        let run = self.native()?;
        run.get("dual-enforce-distinct", suite, "valid")
            .or_else(|| run.get("dual-enforce", suite, "valid"))
            .map(|c| c.median_ns)
    }
}

/// The way of the package's native build (Node, Bun) that answers as `package` (its
/// WebAssembly way) does.
fn native_build_way(package: &str) -> Option<&'static str> {
    match package {
        names::PQVERIFY => Some(names::PQVERIFY_NATIVE),
        names::PQVERIFY_PREPARED => Some(names::PQVERIFY_NATIVE_PREPARED),
        _ => None,
    }
}
