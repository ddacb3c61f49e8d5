//! The completeness check of a run (`pqverify report --check`, `cargo xtask test`):
//! every expected record present and clean; never a duration.

use super::{NATIVE_WAYS, Report};
use crate::record::{Record, Sample};

impl Report {
    /// Checks that every target's last run is complete and clean: an environment
    /// record with a fixture digest shared by all targets, every expected way on
    /// every suite and case in every round, no disagreement, finite statistics, and
    /// (natively) a worst-case block per suite with every signature valid.
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
}
