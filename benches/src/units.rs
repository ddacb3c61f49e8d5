//! Verify Units: the consensus cost of one signature per suite, and the budget a
//! batch (a block) must stay within. The cost is charged before any work is done.

use std::collections::BTreeMap;

/// The Verify-Unit cost of each suite, by FIPS name.
#[derive(Clone, Debug)]
pub struct UnitTable(BTreeMap<String, u64>);

impl Default for UnitTable {
    /// ML-DSA-44 100, ML-DSA-87 290, SLH-DSA-SHAKE-128s 1600 and SLH-DSA-SHAKE-256s 3600
    /// are the published constants; the others are provisional, set from pqverify's
    /// own dual-enforce medians (`cargo xtask bench` checks every constant covers its
    /// measured estimate).
    fn default() -> Self {
        UnitTable(
            [
                ("ML-DSA-44", 100),
                ("ML-DSA-65", 170),
                ("ML-DSA-87", 290),
                ("SLH-DSA-SHA2-128s", 1600),
                ("SLH-DSA-SHA2-128f", 3600),
                ("SLH-DSA-SHA2-192s", 2400),
                ("SLH-DSA-SHA2-192f", 5400),
                ("SLH-DSA-SHA2-256s", 3600),
                ("SLH-DSA-SHA2-256f", 5600),
                ("SLH-DSA-SHAKE-128s", 1600),
                ("SLH-DSA-SHAKE-128f", 3600),
                ("SLH-DSA-SHAKE-192s", 2400),
                ("SLH-DSA-SHAKE-192f", 5400),
                ("SLH-DSA-SHAKE-256s", 3600),
                ("SLH-DSA-SHAKE-256f", 5600),
            ]
            .into_iter()
            .map(|(s, u)| (s.to_owned(), u))
            .collect(),
        )
    }
}

impl UnitTable {
    /// The cost of one signature of `suite` (FIPS name, any case).
    pub fn cost(&self, suite: &str) -> Option<u64> {
        self.0.iter().find(|(name, _)| name.eq_ignore_ascii_case(suite)).map(|(_, &u)| u)
    }

    /// Sets the cost of `suite` (a FIPS name already in the table).
    pub fn set(&mut self, suite: &str, units: u64) -> Result<(), String> {
        let name = self
            .0
            .keys()
            .find(|name| name.eq_ignore_ascii_case(suite))
            .cloned()
            .ok_or_else(|| format!("unknown suite {suite:?}"))?;
        self.0.insert(name, units);
        Ok(())
    }

    /// Every (suite, cost).
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.0.iter().map(|(s, &u)| (s.as_str(), u))
    }

    /// Parses `SUITE=UNITS[,SUITE=UNITS…]` over the defaults.
    pub fn with_overrides(mut self, spec: &str) -> Result<Self, String> {
        for part in spec.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, units) = part.split_once('=').ok_or_else(|| format!("expected SUITE=UNITS, got {part:?}"))?;
            let suite = name.trim();
            let units: u64 = units.trim().parse().map_err(|_| format!("units for {suite} must be a whole number"))?;
            self.set(suite, units)?;
        }
        Ok(self)
    }

    /// Total units of `suites`, or an error naming the first suite over `budget`.
    pub fn charge<'a>(&self, suites: impl IntoIterator<Item = &'a str>, budget: u64) -> Result<u64, String> {
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
