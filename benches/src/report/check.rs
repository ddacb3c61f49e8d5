//! The completeness check of a run (`pqverify-bench report --check`, `cargo xtask test`):
//! every expected record present and clean; never a duration.

use std::fmt;

use pqverify_core::{Family, Suite};

use super::{BROWSERS, NATIVE_WAYS, PLATFORM_WAYS, Report};
use crate::names;

/// What measured a run, read once from its name: the native driver, a JS runtime, or a
/// browser page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Native,
    Node,
    Bun,
    Chromium,
    Firefox,
    Webkit,
}

impl Target {
    const ALL: [Target; 6] =
        [Target::Native, Target::Node, Target::Bun, Target::Chromium, Target::Firefox, Target::Webkit];

    /// Its name in the records.
    fn name(self) -> &'static str {
        match self {
            Target::Native => "native",
            Target::Node => "node",
            Target::Bun => "bun",
            Target::Chromium => BROWSERS[0],
            Target::Firefox => BROWSERS[1],
            Target::Webkit => BROWSERS[2],
        }
    }

    /// The target named `name`.
    fn parse(name: &str) -> Result<Target, String> {
        Target::ALL.into_iter().find(|t| t.name() == name).ok_or_else(|| format!("a run of an unknown target {name:?}"))
    }

    fn is_browser(self) -> bool {
        BROWSERS.contains(&self.name())
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The suite a record names.
fn suite_named(name: &str) -> Result<Suite, String> {
    Suite::ALL.into_iter().find(|s| s.name() == name).ok_or_else(|| format!("a record of an unknown suite {name:?}"))
}

/// Whether a record's suite is an SLH-DSA one.
fn is_slh_dsa(name: &str) -> bool {
    suite_named(name).is_ok_and(|s| s.family() == Family::SlhDsa)
}

/// The case of first-call samples.
const FIRST_CALL: &str = "first-call";

/// The worst-case blocks of a native run: one key per signature, and one key repeated.
const BLOCK_WAYS: [&str; 2] = [names::DUAL_ENFORCE_DISTINCT, "dual-enforce"];

/// The package's native build (its platform package is installed wherever the pipeline
/// runs): its ways in Node's and Bun's runs.
const NATIVE_BUILD_WAYS: [&str; 3] =
    [names::PQVERIFY_NATIVE, names::PQVERIFY_NATIVE_PREPARED, names::DUAL_ENFORCE_DISTINCT];

/// Node's ways: the package's WebAssembly build (with its portable one), liboqs-js, and
/// the native build's.
const NODE_WAYS: [&str; 7] = [
    names::PQVERIFY,
    names::PQVERIFY_PORTABLE,
    names::PQVERIFY_PREPARED,
    names::LIBOQS_JS,
    NATIVE_BUILD_WAYS[0],
    NATIVE_BUILD_WAYS[1],
    NATIVE_BUILD_WAYS[2],
];

/// Bun's ways: the package's, both builds.
const BUN_WAYS: [&str; 5] =
    [names::PQVERIFY, names::PQVERIFY_PREPARED, NATIVE_BUILD_WAYS[0], NATIVE_BUILD_WAYS[1], NATIVE_BUILD_WAYS[2]];

/// Node's cold starts beside [`names::COLD_START_ENTRIES`] (which there answer with the
/// native build): the same entries on WebAssembly.
const NODE_WASM_COLD_STARTS: [&str; 2] = ["pqverify (PQVERIFY_ENGINE=wasm)", "pqverify/ml-dsa (PQVERIFY_ENGINE=wasm)"];
use crate::record::{Record, Sample};

impl Report {
    /// Checks that every target's last run is complete and clean: an environment
    /// record with a fixture digest shared by all targets, every expected way on
    /// every suite and case in every round, no disagreement, finite statistics, and
    /// (natively) a worst-case block per suite with every signature valid; the
    /// capacity records (first call, memory per key, scaling) of section 7; and the
    /// certificate records of section 8, every certificate valid.
    pub fn check_complete(&self, lines: &[&str]) -> Result<(), String> {
        let mut digests = std::collections::BTreeSet::new();
        for (name, run) in &self.runs {
            let target = Target::parse(name)?;
            digests.insert(run.env.fixtures.clone());
            let expected_ways: &[&str] = match target {
                // Every native column; liboqs only where it has the suite (below).
                Target::Native => &NATIVE_WAYS[1..],
                Target::Node => &NODE_WAYS,
                Target::Bun => &BUN_WAYS,
                // The page loads one build of the package: no portable way there.
                _ => &[names::PQVERIFY, names::PQVERIFY_PREPARED],
            };
            let samples: Vec<Sample> = lines
                .iter()
                .filter_map(|l| match Record::parse(l) {
                    Ok(Record::Sample(s)) if s.run == run.env.run => Some(s),
                    _ => None,
                })
                .collect();
            let rounds: std::collections::BTreeSet<u32> = samples.iter().map(|s| s.round).collect();
            let cases: std::collections::BTreeSet<&str> =
                samples.iter().map(|s| s.case.as_str()).filter(|c| *c != FIRST_CALL).collect();
            if rounds.is_empty() || !cases.contains("valid") || !cases.contains("invalid") {
                return Err(format!("{target}: no rounds, or the valid/invalid cases are missing"));
            }
            // Natively also the linked liboqs and one loaded at run time (`liboqs-<version>`),
            // on the suites a liboqs of that release has: ML-DSA for both, and SLH-DSA
            // for the loaded one where it has any.
            let loaded = if target == Target::Native { self.loaded_liboqs_ways() } else { Vec::new() };
            if target == Target::Native && loaded.is_empty() {
                return Err("native: no liboqs loaded at run time (a `liboqs-<version>` way)".into());
            }
            // Each loaded liboqs also alone on the distinct keys (`liboqs-<version>-distinct`).
            let loaded_distinct: Vec<String> = loaded.iter().map(|w| names::distinct(w)).collect();
            let loaded_has_slh = loaded.iter().any(|w| samples.iter().any(|s| &s.way == w && is_slh_dsa(&s.suite)));
            for suite in &self.suites {
                let ml_dsa = suite_named(suite)?.family() == Family::MlDsa;
                let mut liboqs_ways: Vec<&str> = Vec::new();
                if target == Target::Native && ml_dsa {
                    liboqs_ways.push("liboqs");
                }
                if ml_dsa || loaded_has_slh {
                    liboqs_ways.extend(loaded.iter().chain(&loaded_distinct).map(String::as_str));
                }
                // ox's MlDsa44 on both its engines, in every JS engine but Bun's run (the package's ways only).
                if !matches!(target, Target::Native | Target::Bun) && suite_named(suite)? == Suite::MlDsa44 {
                    liboqs_ways.extend([names::OX, names::OX_WASM]);
                }
                for way in expected_ways.iter().chain(&liboqs_ways) {
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
            self.check_platform(target, run, &samples, &rounds)?;
            self.check_capacity(target, &samples)?;
            self.check_certificates(name)?;
            if target == Target::Native {
                for suite in &self.suites {
                    for way in BLOCK_WAYS {
                        let b = run
                            .blocks
                            .iter()
                            .find(|b| &b.suite == suite && b.way == way)
                            .ok_or_else(|| format!("native: no {way} block for {suite}"))?;
                        if b.valid != b.signatures || b.signatures == 0 {
                            return Err(format!(
                                "native: {way} block {suite}: {} of {} signatures valid",
                                b.valid, b.signatures
                            ));
                        }
                    }
                }
            }
        }
        if digests.len() != 1 {
            return Err(format!("targets used different fixtures: {digests:?}"));
        }
        let md = self.markdown();
        for section in ["## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "## 6.", "## 7."] {
            if !md.contains(section) {
                return Err(format!("report lacks section {section}"));
            }
        }
        Ok(())
    }

    /// The platforms' own verifiers: a record in every round for every suite the
    /// runner found them to have (the env record's `webcrypto-suites`,
    /// `node-crypto-suites`); Node 24 (the pinned Node runner) must have found
    /// node:crypto and WebCrypto ML-DSA, and Chromium its WebCrypto ML-DSA.
    fn check_platform(
        &self,
        target: Target,
        run: &super::Run,
        samples: &[Sample],
        rounds: &std::collections::BTreeSet<u32>,
    ) -> Result<(), String> {
        let listed = |key: &str| -> Vec<String> {
            run.env
                .extra
                .get(key)
                .and_then(|v| v.as_array())
                .map_or_else(Vec::new, |a| a.iter().filter_map(|s| s.as_str().map(str::to_owned)).collect())
        };
        let webcrypto = listed("webcrypto-suites");
        let node_crypto = listed("node-crypto-suites");
        let ml_dsa_everywhere =
            Suite::ALL.iter().filter(|s| s.family() == Family::MlDsa).all(|s| webcrypto.iter().any(|w| w == s.name()));
        if matches!(target, Target::Node | Target::Chromium) && !ml_dsa_everywhere {
            return Err(format!("{target}: WebCrypto ML-DSA not found (webcrypto-suites {webcrypto:?})"));
        }
        if target == Target::Node && node_crypto.len() < Suite::ALL.len() {
            return Err(format!("node: node:crypto lacks suites (node-crypto-suites {node_crypto:?})"));
        }
        if let Some(bad) = samples.iter().find(|s| PLATFORM_WAYS.contains(&s.way.as_str()) && s.disagreements != 0) {
            return Err(format!(
                "{target}: {} {} {}: {} disagreements",
                bad.way, bad.suite, bad.case, bad.disagreements
            ));
        }
        // Records for the suites this run measured.
        let measured = |s: &&String| self.suites.contains(s);
        let wanted = webcrypto
            .iter()
            .filter(measured)
            .flat_map(|s| [("webcrypto", s), ("webcrypto-inflight", s), ("webcrypto-import", s)])
            .chain(node_crypto.iter().filter(measured).flat_map(|s| [("node-crypto", s), ("node-crypto-import", s)]));
        for (way, suite) in wanted {
            for round in rounds {
                let found = samples
                    .iter()
                    .filter(|s| s.case != FIRST_CALL)
                    .find(|s| s.way == way && &s.suite == suite && s.round == *round && s.case == "valid")
                    .ok_or_else(|| format!("{target}: no record for {way} {suite} valid round {round}"))?;
                if !(found.median_ns.is_finite() && found.median_ns > 0.0) {
                    return Err(format!("{target}: {way} {suite}: malformed statistics"));
                }
            }
        }
        Ok(())
    }

    /// Section 7's records of one target: first call of `pqverify` and
    /// `pqverify-prepared` and memory per key on every suite (every target); scaling for
    /// every suite and way from one thread to the machine's cores (native and Node); cold
    /// starts (every JS target) and sizes (Node).
    fn check_capacity(&self, target: Target, samples: &[Sample]) -> Result<(), String> {
        let run = &self.runs[target.name()];
        if matches!(target, Target::Node | Target::Bun) {
            self.check_native_batch(target)?;
        }
        // Bun's run measures the package's ways and the native build's batch only.
        if target == Target::Bun {
            return Ok(());
        }
        let (first_calls, memories): (&[&str], &[&str]) = if target == Target::Node {
            (
                &[names::PQVERIFY, names::PQVERIFY_PREPARED, names::PQVERIFY_NATIVE, names::PQVERIFY_NATIVE_PREPARED],
                &[names::PQVERIFY_PREPARED, names::PQVERIFY_NATIVE_PREPARED],
            )
        } else {
            (&[names::PQVERIFY, names::PQVERIFY_PREPARED], &[names::PQVERIFY_PREPARED])
        };
        for suite in &self.suites {
            for way in first_calls {
                let first = samples
                    .iter()
                    .find(|s| s.way == *way && &s.suite == suite && s.case == FIRST_CALL)
                    .ok_or_else(|| format!("{target}: no first-call record for {way} {suite}"))?;
                if !(first.median_ns.is_finite() && first.median_ns > 0.0 && first.samples > 0) {
                    return Err(format!("{target}: first call {way} {suite}: malformed statistics"));
                }
                if first.disagreements != 0 {
                    return Err(format!("{target}: first call {way} {suite}: a wrong verdict"));
                }
            }
            for way in memories {
                let m = run
                    .memory
                    .iter()
                    .find(|m| &m.suite == suite && m.way == *way)
                    .ok_or_else(|| format!("{target}: no memory record for {way} {suite}"))?;
                if m.keys == 0 || !(m.bytes_per_key.is_finite() && m.bytes_per_key >= 0.0) {
                    return Err(format!("{target}: memory {way} {suite}: malformed"));
                }
            }
            if target.is_browser() {
                continue;
            }
            let ways: &[&str] = if target == Target::Native {
                &["pqverify", "pqverify-prepared", "dual-enforce"]
            } else {
                &["pqverify", "pqverify-prepared"]
            };
            for way in ways {
                for threads in [1, run.env.cores.max(1)] {
                    let r = run
                        .scaling
                        .iter()
                        .find(|r| &r.way == way && &r.suite == suite && r.threads == threads)
                        .ok_or_else(|| format!("{target}: no scaling record for {way} {suite} on {threads} threads"))?;
                    if !(r.ops_per_s.is_finite() && r.ops_per_s > 0.0) {
                        return Err(format!("{target}: scaling {way} {suite} {threads}: malformed"));
                    }
                }
            }
        }
        // Node measures its cold starts on every run, a browser page where it measures the suite.
        if target == Target::Node
            || (target != Target::Native && self.suites.iter().any(|s| s == names::COLD_START_SUITE))
        {
            Self::check_cold_starts(target, run)?;
        }
        if target == Target::Node {
            Self::check_cold_starts_of(target, run, &NODE_WASM_COLD_STARTS)?;
            Self::check_sizes(run)?;
        }
        Ok(())
    }

    /// The native build's `verifyMany` across cores (Node, Bun): ML-DSA-44 on one thread
    /// and on the machine's cores, with the event loop's delay beside it.
    fn check_native_batch(&self, target: Target) -> Result<(), String> {
        let run = &self.runs[target.name()];
        let suite = Suite::MlDsa44.name();
        if !self.suites.iter().any(|s| s == suite) {
            return Ok(());
        }
        for threads in [1, run.env.cores.max(1)] {
            let r = run
                .scaling
                .iter()
                .find(|r| r.way == names::PQVERIFY_NATIVE_BATCH && r.suite == suite && r.threads == threads)
                .ok_or_else(|| {
                    format!("{target}: no scaling record for {} on {threads} threads", names::PQVERIFY_NATIVE_BATCH)
                })?;
            let delays = [r.event_loop_p99_ns, r.event_loop_max_ns, r.event_loop_idle_p99_ns, r.call_ns];
            if !(r.ops_per_s.is_finite() && r.ops_per_s > 0.0) || delays.iter().any(|d| !d.is_some_and(f64::is_finite))
            {
                return Err(format!("{target}: {} on {threads} threads: malformed", names::PQVERIFY_NATIVE_BATCH));
            }
        }
        Ok(())
    }

    /// A JS target's cold start (fresh Node processes, fresh browser workers) through
    /// each of [`names::COLD_START_ENTRIES`].
    fn check_cold_starts(target: Target, run: &super::Run) -> Result<(), String> {
        Self::check_cold_starts_of(target, run, &names::COLD_START_ENTRIES)
    }

    /// A JS target's cold start through each of `ways`.
    fn check_cold_starts_of(target: Target, run: &super::Run, ways: &[&str]) -> Result<(), String> {
        for &way in ways {
            let c = run
                .cold_starts
                .iter()
                .find(|c| c.way == way && c.suite == names::COLD_START_SUITE)
                .ok_or_else(|| format!("{target}: no cold-start record for {way}"))?;
            if c.processes == 0
                || !(c.first_verify_ns.is_finite() && c.first_verify_ns >= c.import_ns && c.import_ns > 0.0)
            {
                return Err(format!("{target}: cold start of {way}: malformed"));
            }
        }
        Ok(())
    }

    /// The size of every build, and what a bundler ships for each entry (Node's run).
    fn check_sizes(run: &super::Run) -> Result<(), String> {
        for build in WASM_BUILDS {
            let s = run
                .wasm_sizes
                .iter()
                .find(|s| s.build == build)
                .ok_or_else(|| format!("node: no wasm-size record for the {build} build"))?;
            if s.bytes == 0 || s.gzip_bytes == 0 || s.gzip_bytes > s.bytes {
                return Err(format!("node: wasm size of {build}: malformed"));
            }
        }
        for entry in BUNDLED_ENTRIES {
            let from = format!("from '{entry}'");
            let b = run
                .bundle_sizes
                .iter()
                .find(|b| b.import.contains(&from))
                .ok_or_else(|| format!("node: no bundle-size record for an import {from}"))?;
            if b.bytes == 0 || b.gzip_bytes == 0 || b.gzip_bytes > b.bytes {
                return Err(format!("node: bundle size of {:?}: malformed", b.import));
            }
        }
        Ok(())
    }
}

/// The package's builds (their folders), each with a `wasm-size` record.
const WASM_BUILDS: [&str; 4] = ["wasm", "wasm-simd", "wasm-ml-dsa", "wasm-slh-dsa"];
/// The entries with a `bundle-size` record, and noble's for comparison.
const BUNDLED_ENTRIES: [&str; 5] =
    ["pqverify", "pqverify/ml-dsa", "pqverify/slh-dsa", "pqverify/baseline", "@noble/post-quantum/ml-dsa.js"];

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::certificates::CERTIFICATE_SUITES;
    use crate::record::{Block, BundleSize, Certificate, ColdStart, Env, Memory, Scaling, WasmSize};
    use crate::{SCHEMA, Sample};

    const SUITE: &str = "ML-DSA-44";

    fn env(target: &str) -> Env {
        Env {
            schema: SCHEMA.into(),
            target: target.into(),
            run: format!("r-{target}"),
            cpu: "cpu".into(),
            cores: 2,
            os: "os".into(),
            runtime: "rt".into(),
            liboqs: None,
            backend: "portable".into(),
            fixtures: "sha256:00".into(),
            ways: Vec::new(),
            extra: serde_json::Map::new(),
        }
    }

    fn sample(target: &str, way: &str, case: &str) -> Sample {
        Sample {
            schema: SCHEMA.into(),
            target: target.into(),
            run: format!("r-{target}"),
            way: way.into(),
            suite: SUITE.into(),
            case: case.into(),
            round: 1,
            iterations: 10,
            samples: 5,
            median_ns: 1000.0,
            p95_ns: 1100.0,
            p99_ns: 1200.0,
            min_ns: 900.0,
            checks: 10,
            disagreements: 0,
        }
    }

    /// A complete native and Node run on one suite, as record lines.
    fn complete() -> Vec<String> {
        let mut node = env("node");
        let names = |suites: &[pqverify_core::Suite]| {
            suites.iter().map(|s| s.name().into()).collect::<Vec<serde_json::Value>>()
        };
        node.extra.insert("webcrypto-suites".into(), names(&pqverify_core::Suite::ALL[..3]).into());
        node.extra.insert("node-crypto-suites".into(), names(&pqverify_core::Suite::ALL).into());
        let mut records = vec![Record::Env(env("native")), Record::Env(node)];
        let native_ways: Vec<&str> =
            NATIVE_WAYS.iter().copied().chain(["liboqs-0.16.0", "liboqs-0.16.0-distinct"]).collect();
        for (target, ways) in [
            ("native", &native_ways[..]),
            (
                "node",
                &[
                    "pqverify",
                    "pqverify-portable",
                    "pqverify-prepared",
                    "liboqs-js",
                    "ox",
                    "ox-wasm",
                    "webcrypto",
                    "webcrypto-inflight",
                    "node-crypto",
                    "webcrypto-import",
                    "node-crypto-import",
                    names::PQVERIFY_NATIVE,
                    names::PQVERIFY_NATIVE_PREPARED,
                    names::DUAL_ENFORCE_DISTINCT,
                ][..],
            ),
        ] {
            for way in ways {
                for case in ["valid", "invalid"] {
                    records.push(Record::Sample(sample(target, way, case)));
                }
            }
            let prepared: &[&str] = if target == "node" {
                &["pqverify-prepared", names::PQVERIFY_NATIVE_PREPARED]
            } else {
                &["pqverify-prepared"]
            };
            for way in ["pqverify", "pqverify-prepared"].iter().chain(if target == "node" {
                &[names::PQVERIFY_NATIVE, names::PQVERIFY_NATIVE_PREPARED][..]
            } else {
                &[][..]
            }) {
                records.push(Record::Sample(sample(target, way, FIRST_CALL)));
            }
            for way in prepared {
                records.push(Record::Memory(Memory {
                    schema: SCHEMA.into(),
                    target: target.into(),
                    run: format!("r-{target}"),
                    suite: SUITE.into(),
                    way: (*way).into(),
                    keys: 200,
                    bytes_per_key: 20_000.0,
                    rss_bytes_per_key: None,
                    js_heap_bytes_per_key: None,
                }));
            }
            let scaled: &[&str] = if target == "native" {
                &["pqverify", "pqverify-prepared", "dual-enforce"]
            } else {
                &["pqverify", "pqverify-prepared", names::PQVERIFY_NATIVE_BATCH]
            };
            for way in scaled {
                for threads in [1, 2] {
                    let batch = *way == names::PQVERIFY_NATIVE_BATCH;
                    records.push(Record::Scaling(Scaling {
                        schema: SCHEMA.into(),
                        target: target.into(),
                        run: format!("r-{target}"),
                        suite: SUITE.into(),
                        way: (*way).into(),
                        threads,
                        ops_per_s: 1000.0 * f64::from(threads),
                        event_loop_p99_ns: batch.then_some(1.1e6),
                        event_loop_max_ns: batch.then_some(2.1e6),
                        call_ns: batch.then_some(0.9e6),
                        event_loop_idle_p99_ns: batch.then_some(1.05e6),
                    }));
                }
            }
        }
        for (target, ways) in [
            ("native", &["pqverify-prepared", "pqverify", "liboqs"][..]),
            ("node", &["pool-prepared", "pool", names::PQVERIFY_NATIVE_PREPARED][..]),
        ] {
            for suite in CERTIFICATE_SUITES {
                for way in ways {
                    for threads in [1, 2] {
                        records.push(Record::Certificate(Certificate {
                            schema: SCHEMA.into(),
                            target: target.into(),
                            run: format!("r-{target}"),
                            way: (*way).into(),
                            suite: suite.into(),
                            validators: 100,
                            threads,
                            certificates: 20,
                            median_ns: 2e6 / f64::from(threads),
                            p95_ns: 2.5e6 / f64::from(threads),
                            per_signature_ns: 2e4 / f64::from(threads),
                            wrong: 0,
                            blocked_ns: (target == "node").then_some(1e5),
                        }));
                    }
                }
            }
        }
        for way in names::COLD_START_ENTRIES.iter().chain(&NODE_WASM_COLD_STARTS) {
            records.push(Record::ColdStart(ColdStart {
                schema: SCHEMA.into(),
                target: "node".into(),
                run: "r-node".into(),
                way: (*way).into(),
                suite: names::COLD_START_SUITE.into(),
                processes: 9,
                import_ns: 9e6,
                first_verify_ns: 12e6,
            }));
        }
        for build in WASM_BUILDS {
            records.push(Record::WasmSize(WasmSize {
                schema: SCHEMA.into(),
                target: "node".into(),
                run: "r-node".into(),
                build: build.into(),
                bytes: 120_000,
                gzip_bytes: 48_000,
            }));
        }
        for entry in BUNDLED_ENTRIES {
            records.push(Record::BundleSize(BundleSize {
                schema: SCHEMA.into(),
                target: "node".into(),
                run: "r-node".into(),
                import: format!("import {{ ml_dsa44 }} from '{entry}'"),
                bytes: 100_000,
                gzip_bytes: 30_000,
            }));
        }
        for way in BLOCK_WAYS {
            records.push(Record::Block(Block {
                schema: SCHEMA.into(),
                target: "native".into(),
                run: "r-native".into(),
                way: way.into(),
                suite: SUITE.into(),
                signatures: 2000,
                units: 100,
                budget_units: 200_000,
                threads: 2,
                wall_ns: 1e6,
                valid: 2000,
            }));
        }
        records.iter().map(Record::to_line).collect()
    }

    fn check(lines: &[String]) -> Result<(), String> {
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let units = BTreeMap::from([(SUITE.to_owned(), 100)]);
        Report::from_lines(refs.iter().copied(), units)?.check_complete(&refs)
    }

    #[test]
    fn a_complete_run_passes_and_its_report_has_the_capacity_section() {
        let lines = complete();
        assert_eq!(check(&lines), Ok(()));
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let md = Report::from_lines(refs, BTreeMap::from([(SUITE.to_owned(), 100)])).unwrap().markdown();
        assert!(md.contains("## 7. Capacity planning"));
        assert!(md.contains("| native | pqverify | ML-DSA-44 | 1.00 | 1.00 | 1.00× |"), "{md}");
        assert!(md.contains("| node | pqverify-prepared | ML-DSA-44 | 200 | 19.5 KiB | — | — |"), "{md}");
        // The package's native build has rows of its own in section 7.
        assert!(md.contains("| node | pqverify-native-prepared | ML-DSA-44 | 200 |"), "{md}");
        assert!(md.contains("| node | pqverify-native | ML-DSA-44 |"), "{md}");
        assert!(md.contains("| native | dual-enforce | ML-DSA-44 | 1.00k/s | 2.00k/s | 2.00× on 2 |"), "{md}");
        assert!(md.contains("1.00 (100%) 1.00M/s"), "ops/s beside the medians: {md}");
        assert!(md.contains("| node | pqverify | ML-DSA-44 | 9 | 9.0 | 12.0 |"), "{md}");
        assert!(md.contains("| wasm-ml-dsa | 120000 | 48000 |"), "{md}");
        assert!(
            md.contains("| node | ML-DSA-44 | one-shot (a key seen for the first time) | node-crypto-import | 1.00 | pqverify | 1.00 | 1.00× | 1.00× |"),
            "{md}"
        );
        assert!(
            md.contains("| node | ML-DSA-44 | known key (imported or prepared once) | webcrypto | 1.00 | pqverify-prepared | 1.00 | 1.00× | 1.00× |"),
            "{md}"
        );
        assert!(md.contains("| `import { ml_dsa44 } from 'pqverify/ml-dsa'` | 100000 | 30000 |"), "{md}");
        // The primary alone on distinct keys: its own column, and the dual check's base on those keys.
        assert!(md.contains("| pqverify-cached-distinct | liboqs-0.16.0-distinct | dual-enforce |"), "{md}");
        assert!(md.contains("| dual-enforce-distinct / liboqs-0.16.0-distinct |"), "{md}");
        assert!(md.contains("(100 % of liboqs-0.16.0 alone on the same distinct keys)"), "{md}");
    }

    #[test]
    fn the_avx2_pair_has_its_own_table_and_is_never_the_baseline() {
        let mut lines = complete();
        let md = |lines: &[String]| {
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            Report::from_lines(refs, BTreeMap::from([(SUITE.to_owned(), 100)])).unwrap().markdown()
        };
        assert!(!md(&lines).contains("### AVX2 against AVX2"), "no table without the pair");
        // liboqs held to AVX2 at twice pqverify-avx2's median (and than the loaded liboqs's).
        let mut held = sample("native", "liboqs-0.16.0-avx2", "valid");
        held.median_ns = 2000.0;
        for record in [held, sample("native", names::PQVERIFY_AVX2, "valid")] {
            lines.push(Record::Sample(record).to_line());
        }
        assert_eq!(check(&lines), Ok(()));
        let md = md(&lines);
        assert!(
            md.contains("| ML-DSA-44 | 2.00 | 1.00 | 0.50× |"),
            "AVX2 pair: liboqs-0.16.0-avx2, pqverify-avx2, their ratio: {md}"
        );
        assert!(md.contains("### Against liboqs-0.16.0 and the reference"), "{md}");
        assert!(!md.contains("% of liboqs-0.16.0-avx2"), "{md}");
    }

    #[test]
    fn certificates_are_checked_and_reported() {
        let lines = complete();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let report = Report::from_lines(refs, BTreeMap::from([(SUITE.to_owned(), 100)])).unwrap();
        let md = report.markdown();
        assert!(md.contains("## 8. Quorum certificates"), "{md}");
        assert!(
            md.contains("| ML-DSA-65 | native | pqverify-prepared | 2.00 (2.50) | 1.00 (1.25) | 10.0 | 2.00× over 2 (2.00× in all) | — |"),
            "{md}"
        );
        assert!(md.contains("| SLH-DSA-SHAKE-128s | node | pool | 2.00 (2.50) | 1.00 (1.25) | 10.0 | 2.00× over 2 (2.00× in all) | 0.10 |"), "{md}");
        assert!(report.certificates_svg().contains("<title>node pool-prepared, 2 threads: 1.00 ms</title>"));
        let missing: Vec<String> = lines
            .iter()
            .filter(|l| !(l.contains(r#""way":"pool","suite":"ML-DSA-87""#) && l.contains(r#""threads":2"#)))
            .cloned()
            .collect();
        assert_eq!(check(&missing).unwrap_err(), "node: no certificate record for pool ML-DSA-87 on 2 threads");
        let wrong: Vec<String> = lines.iter().map(|l| l.replacen(r#""wrong":0"#, r#""wrong":1"#, 1)).collect();
        let err = check(&wrong).unwrap_err();
        assert!(err.contains("certificates not all valid"), "{err}");
    }

    #[test]
    fn each_missing_capacity_record_is_named() {
        let lines = complete();
        let without =
            |pattern: &str| -> Vec<String> { lines.iter().filter(|l| !l.contains(pattern)).cloned().collect() };
        let err = check(&without(r#""way":"pqverify-prepared","suite":"ML-DSA-44","case":"first-call""#)).unwrap_err();
        assert!(err.contains("no first-call record for pqverify-prepared ML-DSA-44"), "{err}");
        let err = check(&without(r#""type":"memory""#)).unwrap_err();
        assert!(err.contains("no memory record"), "{err}");
        let err = check(&without(r#""threads":2"#)).unwrap_err();
        assert!(err.contains("on 2 threads"), "{err}");
        let err = check(&without(r#""type":"cold-start""#)).unwrap_err();
        assert!(err.contains("no cold-start record for pqverify"), "{err}");
        let err = check(&without(r#""build":"wasm-ml-dsa""#)).unwrap_err();
        assert!(err.contains("no wasm-size record for the wasm-ml-dsa build"), "{err}");
        let err = check(&without(r#""type":"bundle-size""#)).unwrap_err();
        assert!(err.contains("no bundle-size record for an import from 'pqverify'"), "{err}");
        let err = check(&without(r#""way":"liboqs-0.16.0""#)).unwrap_err();
        assert!(err.contains("no liboqs loaded at run time"), "{err}");
        let err = check(&without(r#""way":"dual-enforce-distinct","suite":"ML-DSA-44","case":"valid""#)).unwrap_err();
        assert!(err.contains("native: no record for dual-enforce-distinct ML-DSA-44 valid round 1"), "{err}");
        let err = check(&without(r#""way":"liboqs-0.16.0-distinct""#)).unwrap_err();
        assert!(err.contains("native: no record for liboqs-0.16.0-distinct ML-DSA-44 "), "{err}");
        let err = check(&without(r#""type":"block","schema":"pqverify-bench/1","target":"native","run":"r-native","way":"dual-enforce-distinct""#)).unwrap_err();
        assert!(err.contains("no dual-enforce-distinct block for ML-DSA-44"), "{err}");
        let err = check(&without(r#""way":"webcrypto-import""#)).unwrap_err();
        assert!(err.contains("node: no record for webcrypto-import ML-DSA-44 valid round 1"), "{err}");
        let err = check(&without(r#""way":"node-crypto""#)).unwrap_err();
        assert!(err.contains("node: no record for node-crypto ML-DSA-44 valid round 1"), "{err}");
        let no_webcrypto: Vec<String> = lines
            .iter()
            .map(|l| if l.contains(r#""type":"env""#) { l.replace("\"ML-DSA-65\",", "") } else { l.clone() })
            .collect();
        let err = check(&no_webcrypto).unwrap_err();
        assert!(err.contains("node: WebCrypto ML-DSA not found"), "{err}");
    }

    #[test]
    fn targets_and_suites_are_read_once_by_name() {
        for target in Target::ALL {
            assert_eq!(Target::parse(target.name()), Ok(target));
        }
        assert!(Target::parse("toaster").unwrap_err().contains("\"toaster\""));
        assert!(Target::Webkit.is_browser() && !Target::Node.is_browser());
        assert_eq!(suite_named("ML-DSA-65"), Ok(pqverify_core::Suite::MlDsa65));
        assert!(is_slh_dsa("SLH-DSA-SHAKE-128s") && !is_slh_dsa("ML-DSA-44") && !is_slh_dsa("RSA"));
    }
}
