//! The completeness check of a run (`pqverify report --check`, `cargo xtask test`):
//! every expected record present and clean; never a duration.

use super::{NATIVE_WAYS, Report};

/// The case of first-call samples.
const FIRST_CALL: &str = "first-call";
use crate::record::{Record, Sample};

impl Report {
    /// Checks that every target's last run is complete and clean: an environment
    /// record with a fixture digest shared by all targets, every expected way on
    /// every suite and case in every round, no disagreement, finite statistics, and
    /// (natively) a worst-case block per suite with every signature valid; and the
    /// capacity records (first call, memory per key, scaling) of section 7.
    pub fn check_complete(&self, lines: &[&str]) -> Result<(), String> {
        let mut digests = std::collections::BTreeSet::new();
        for (target, run) in &self.runs {
            digests.insert(run.env.fixtures.clone());
            let expected_ways: &[&str] = match target.as_str() {
                // Every native column; liboqs only where it has the suite (below).
                "native" => &NATIVE_WAYS[1..],
                "node" => &["pqverify", "pqverify-portable", "pqverify-prepared", "liboqs-js"],
                // The page loads one build of the package: no portable way there.
                _ => &["pqverify", "pqverify-prepared"],
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
            self.check_capacity(target, &samples)?;
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
        for section in ["## 1.", "## 2.", "## 3.", "## 4.", "## 5.", "## 6.", "## 7."] {
            if !md.contains(section) {
                return Err(format!("report lacks section {section}"));
            }
        }
        Ok(())
    }

    /// Section 7's records of one target: first call of `pqverify` and
    /// `pqverify-prepared` and memory per key on every suite (every target); scaling for
    /// every suite and way from one thread to the machine's cores (native and Node).
    fn check_capacity(&self, target: &str, samples: &[Sample]) -> Result<(), String> {
        let run = &self.runs[target];
        for suite in &self.suites {
            for way in ["pqverify", "pqverify-prepared"] {
                let first = samples
                    .iter()
                    .find(|s| s.way == way && &s.suite == suite && s.case == FIRST_CALL)
                    .ok_or_else(|| format!("{target}: no first-call record for {way} {suite}"))?;
                if !(first.median_ns.is_finite() && first.median_ns > 0.0 && first.samples > 0) {
                    return Err(format!("{target}: first call {way} {suite}: malformed statistics"));
                }
                if first.disagreements != 0 {
                    return Err(format!("{target}: first call {way} {suite}: a wrong verdict"));
                }
            }
            let m = run
                .memory
                .iter()
                .find(|m| &m.suite == suite && m.way == "pqverify-prepared")
                .ok_or_else(|| format!("{target}: no memory record for {suite}"))?;
            if m.keys == 0 || !(m.bytes_per_key.is_finite() && m.bytes_per_key >= 0.0) {
                return Err(format!("{target}: memory {suite}: malformed"));
            }
            if target == "browser" {
                continue;
            }
            let ways: &[&str] = if target == "native" {
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
        Ok(())
    }
}
