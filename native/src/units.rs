//! Verify Units: the consensus cost of verifying one signature, per suite, plus a
//! charge for long messages; and the budget a batch (a block) must stay within. The
//! cost is charged before any work is done.

use std::collections::BTreeMap;

use pqverify_core::Suite;

/// Units per whole KiB of message hashed, beyond the per-signature cost (which covers
/// messages under 1 KiB, as the published constants do). Provisional: at least what
/// reading and hashing a KiB costs the slowest family (SLH-DSA-SHAKE), in units of
/// ML-DSA-44's 100, measured through `pqverify batch --backend dual --threads 1` with
/// 256 KiB messages (`make_batch`).
pub const UNITS_PER_KIB: u64 = 32;

/// The Verify-Unit cost of each suite, and of long messages.
#[derive(Clone, Debug)]
pub struct UnitTable {
    per_signature: BTreeMap<Suite, u64>,
    per_kib: u64,
}

impl Default for UnitTable {
    /// ML-DSA-44 100, ML-DSA-87 290, SLH-DSA-SHAKE-128s 1600 and SLH-DSA-SHAKE-256s 3600
    /// are the published constants; the others are provisional, set from pqverify's
    /// own dual-enforce medians (`cargo xtask bench` checks every constant covers its
    /// measured estimate).
    fn default() -> Self {
        let per_signature = Suite::ALL
            .into_iter()
            .map(|suite| {
                let units = match suite {
                    Suite::MlDsa44 => 100,
                    Suite::MlDsa65 => 170,
                    Suite::MlDsa87 => 290,
                    Suite::SlhDsaSha2_128s | Suite::SlhDsaShake128s => 1600,
                    Suite::SlhDsaSha2_128f | Suite::SlhDsaShake128f => 3600,
                    Suite::SlhDsaSha2_192s | Suite::SlhDsaShake192s => 2400,
                    Suite::SlhDsaSha2_192f | Suite::SlhDsaShake192f => 5400,
                    Suite::SlhDsaSha2_256s | Suite::SlhDsaShake256s => 3600,
                    Suite::SlhDsaSha2_256f | Suite::SlhDsaShake256f => 5600,
                };
                (suite, units)
            })
            .collect();
        UnitTable { per_signature, per_kib: UNITS_PER_KIB }
    }
}

impl UnitTable {
    /// The cost of one `suite` signature over a message of `hashed` bytes (the bytes the
    /// verifier hashes: message and context, or M′; none for an external μ).
    pub fn cost(&self, suite: Suite, hashed: usize) -> u64 {
        let kib = (hashed / 1024) as u64;
        self.per_signature[&suite].saturating_add(kib.saturating_mul(self.per_kib))
    }

    /// The per-signature cost of each suite, by FIPS name (what the report compares
    /// with the measured estimates).
    pub fn constants(&self) -> BTreeMap<String, u64> {
        self.per_signature.iter().map(|(s, &u)| (s.name().to_owned(), u)).collect()
    }

    /// Parses `SUITE=UNITS[,SUITE=UNITS…]` (FIPS names, any case) and `KiB=UNITS` (the
    /// charge per KiB of message) over the defaults.
    pub fn with_overrides(mut self, spec: &str) -> Result<Self, String> {
        for part in spec.split(',').filter(|p| !p.trim().is_empty()) {
            let (name, units) = part.split_once('=').ok_or_else(|| format!("expected SUITE=UNITS, got {part:?}"))?;
            let name = name.trim();
            let units: u64 = units.trim().parse().map_err(|_| format!("units for {name} must be a whole number"))?;
            if name.eq_ignore_ascii_case("KiB") {
                self.per_kib = units;
            } else {
                let suite: Suite = name.parse().map_err(|_| format!("unknown suite {name:?} (or KiB)"))?;
                self.per_signature.insert(suite, units);
            }
        }
        Ok(self)
    }

    /// Total units of the (suite, hashed bytes) pairs, or an error naming the first
    /// signature that takes the total over `budget`.
    pub fn charge(&self, items: impl IntoIterator<Item = (Suite, usize)>, budget: u64) -> Result<u64, String> {
        let mut total: u64 = 0;
        for (suite, hashed) in items {
            total = total.saturating_add(self.cost(suite, hashed));
            if total > budget {
                return Err(format!(
                    "batch exceeds its budget of {budget} Verify Units (reached {total} at a {suite} signature)"
                ));
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_cost_more_and_short_ones_nothing_extra() {
        let table = UnitTable::default();
        assert_eq!(table.cost(Suite::MlDsa44, 0), 100);
        assert_eq!(table.cost(Suite::MlDsa44, 1023), 100);
        assert_eq!(table.cost(Suite::MlDsa44, 1024), 100 + UNITS_PER_KIB);
        assert_eq!(table.cost(Suite::SlhDsaShake128s, 4 << 20), 1600 + 4096 * UNITS_PER_KIB);
    }

    #[test]
    fn overrides_name_suites_or_kib_and_reject_anything_else() {
        let table = UnitTable::default().with_overrides("ml-dsa-44=7, KiB=1").unwrap();
        assert_eq!(table.cost(Suite::MlDsa44, 2048), 9);
        assert!(UnitTable::default().with_overrides("ML-DSA-45=1").unwrap_err().contains("unknown suite"));
        assert!(UnitTable::default().with_overrides("ML-DSA-44").unwrap_err().contains("SUITE=UNITS"));
        assert!(UnitTable::default().with_overrides("ML-DSA-44=x").unwrap_err().contains("whole number"));
    }

    #[test]
    fn a_budget_is_refused_at_the_signature_that_exceeds_it() {
        let table = UnitTable::default();
        assert_eq!(table.charge([(Suite::MlDsa44, 0); 3], 300), Ok(300));
        let err = table.charge([(Suite::MlDsa44, 0), (Suite::MlDsa87, 0)], 300).unwrap_err();
        assert!(err.contains("reached 390 at a ML-DSA-87"), "{err}");
        assert!(table.charge([(Suite::MlDsa44, 2048)], 150).is_err(), "164 units");
    }
}
