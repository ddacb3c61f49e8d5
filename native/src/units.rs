//! Verify Units: the consensus cost of one signature per suite, and the budget a
//! batch (a block) must stay within. The cost is charged before any work is done.

use std::collections::BTreeMap;

use pqverify_core::Suite;

/// The Verify-Unit cost of each suite.
#[derive(Clone, Debug)]
pub struct UnitTable(BTreeMap<Suite, u64>);

impl Default for UnitTable {
    /// ML-DSA-44 100, ML-DSA-87 290, SLH-DSA-SHAKE-128s 1600 and SLH-DSA-SHAKE-256s 3600
    /// are the published constants; the others are provisional, set from pqverify's
    /// own dual-enforce medians (`cargo xtask bench` checks every constant covers its
    /// measured estimate).
    fn default() -> Self {
        UnitTable(
            [
                (Suite::MlDsa44, 100),
                (Suite::MlDsa65, 170),
                (Suite::MlDsa87, 290),
                (Suite::SlhDsaSha2_128s, 1600),
                (Suite::SlhDsaSha2_128f, 3600),
                (Suite::SlhDsaSha2_192s, 2400),
                (Suite::SlhDsaSha2_192f, 5400),
                (Suite::SlhDsaSha2_256s, 3600),
                (Suite::SlhDsaSha2_256f, 5600),
                (Suite::SlhDsaShake128s, 1600),
                (Suite::SlhDsaShake128f, 3600),
                (Suite::SlhDsaShake192s, 2400),
                (Suite::SlhDsaShake192f, 5400),
                (Suite::SlhDsaShake256s, 3600),
                (Suite::SlhDsaShake256f, 5600),
            ]
            .into_iter()
            .collect(),
        )
    }
}

impl UnitTable {
    /// The cost of one signature of `suite`.
    pub fn cost(&self, suite: Suite) -> Option<u64> {
        self.0.get(&suite).copied()
    }

    /// Sets the cost of `suite`.
    pub fn set(&mut self, suite: Suite, units: u64) {
        self.0.insert(suite, units);
    }

    /// Every (suite, cost).
    pub fn iter(&self) -> impl Iterator<Item = (Suite, u64)> + '_ {
        self.0.iter().map(|(&s, &u)| (s, u))
    }

    /// Parses `SUITE=UNITS[,SUITE=UNITS…]` over the defaults.
    pub fn with_overrides(mut self, spec: &str) -> Result<Self, String> {
        for part in spec.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, units) = part.split_once('=').ok_or_else(|| format!("expected SUITE=UNITS, got {part:?}"))?;
            let suite: Suite = name.trim().parse().map_err(|e| format!("{e}"))?;
            let units: u64 = units.trim().parse().map_err(|_| format!("units for {suite} must be a whole number"))?;
            self.set(suite, units);
        }
        Ok(self)
    }

    /// Total units of `suites`, or an error naming the first suite over `budget`.
    pub fn charge(&self, suites: impl IntoIterator<Item = Suite>, budget: u64) -> Result<u64, String> {
        let mut total: u64 = 0;
        for suite in suites {
            let cost = self.cost(suite).ok_or_else(|| format!("no Verify-Unit cost for {suite}"))?;
            total = total.saturating_add(cost);
            if total > budget {
                return Err(format!(
                    "batch exceeds its budget of {budget} Verify Units (reached {total} at a {suite} signature)"
                ));
            }
        }
        Ok(total)
    }
}
