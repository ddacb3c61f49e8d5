//! Fixtures with one distinct key per signature: what a block built to be slow
//! carries (every signature from a fresh account), so that no verifier's key cache ever
//! hits. For each suite, `n` keys (made deterministically by the testkit's independent
//! signers, `benches/native/examples/make_distinct.rs`), each with a valid signature on
//! the benchmark fixtures' 32-byte message; the first few also sign the 1024-byte one.
//! Written once into `target/bench-fixtures/` by the benchmark pipeline (SLH-DSA signing
//! takes a while) and read by the native driver.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The file's schema name.
pub const DISTINCT_SCHEMA: &str = "pqverify-distinct/1";

/// Keys per suite that also sign the 1024-byte message (the `valid-1k` case).
pub const LONG_KEYS: usize = 8;

/// One suite's keys and signatures (hex), as written.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DistinctSet {
    /// FIPS name.
    pub suite: String,
    /// Key i's encoded public key.
    pub keys: Vec<String>,
    /// Key i's signature on the fixtures' 32-byte message, empty context.
    pub signatures: Vec<String>,
    /// Keys 0 to [`LONG_KEYS`] − 1: the signature on the 1024-byte message.
    pub signatures_long: Vec<String>,
}

/// The whole file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DistinctFile {
    /// [`DISTINCT_SCHEMA`].
    pub schema: String,
    /// The digest of the benchmark fixtures whose messages were signed.
    pub fixtures: String,
    /// One set per suite.
    pub suites: Vec<DistinctSet>,
}

/// A public key and a signature under it.
pub type Signed = (Vec<u8>, Vec<u8>);

/// One suite's set, decoded.
#[derive(Clone, Debug)]
pub struct DistinctKeys {
    /// FIPS name.
    pub suite: String,
    /// (public key, signature on the 32-byte message), one key each.
    pub signed: Vec<Signed>,
    /// (public key, signature on the 1024-byte message) for the first keys.
    pub signed_long: Vec<Signed>,
}

/// The decoded file and the digest of its bytes.
#[derive(Clone, Debug)]
pub struct DistinctFixtures {
    /// One per suite, in file order.
    pub suites: Vec<DistinctKeys>,
    /// `sha256:<hex>` of the file's bytes.
    pub digest: String,
}

impl DistinctFixtures {
    /// Parses and checks a file made for the fixtures of digest `fixtures`.
    pub fn parse(bytes: &[u8], fixtures: &str) -> Result<Self, String> {
        let file: DistinctFile = serde_json::from_slice(bytes).map_err(|e| format!("distinct-key fixtures: {e}"))?;
        if file.schema != DISTINCT_SCHEMA {
            return Err(format!("distinct-key fixtures: schema {:?}, expected {DISTINCT_SCHEMA:?}", file.schema));
        }
        if file.fixtures != fixtures {
            return Err(format!(
                "distinct-key fixtures: made for the fixtures {}, these are {fixtures}: make them again",
                file.fixtures
            ));
        }
        let hex = |what: &str, s: &str| hex::decode(s).map_err(|e| format!("distinct-key fixtures: {what}: {e}"));
        let suites = file
            .suites
            .iter()
            .map(|s| {
                if s.keys.len() != s.signatures.len() || s.signatures_long.len() > s.keys.len() {
                    return Err(format!("distinct-key fixtures: {}: keys and signatures do not pair up", s.suite));
                }
                let keys: Vec<Vec<u8>> = s.keys.iter().map(|k| hex("key", k)).collect::<Result<_, _>>()?;
                let pair = |sigs: &[String]| -> Result<Vec<Signed>, String> {
                    keys.iter().zip(sigs).map(|(k, sig)| Ok((k.clone(), hex("signature", sig)?))).collect()
                };
                Ok(DistinctKeys {
                    suite: s.suite.clone(),
                    signed: pair(&s.signatures)?,
                    signed_long: pair(&s.signatures_long)?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(DistinctFixtures { suites, digest: format!("sha256:{}", hex::encode(Sha256::digest(bytes))) })
    }

    /// The keys of `suite` (FIPS name, any case).
    pub fn suite(&self, suite: &str) -> Option<&DistinctKeys> {
        self.suites.iter().find(|s| s.suite.eq_ignore_ascii_case(suite))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_pairs_keys_with_signatures_and_names_its_fixtures() {
        let set = DistinctSet {
            suite: "ML-DSA-44".into(),
            keys: vec!["0102".into(), "0304".into()],
            signatures: vec!["aa".into(), "bb".into()],
            signatures_long: vec!["cc".into()],
        };
        let file = DistinctFile { schema: DISTINCT_SCHEMA.into(), fixtures: "sha256:f".into(), suites: vec![set] };
        let bytes = serde_json::to_vec(&file).unwrap();
        let parsed = DistinctFixtures::parse(&bytes, "sha256:f").unwrap();
        let s = parsed.suite("ml-dsa-44").unwrap();
        assert_eq!(s.signed, vec![(vec![1, 2], vec![0xaa]), (vec![3, 4], vec![0xbb])]);
        assert_eq!(s.signed_long, vec![(vec![1, 2], vec![0xcc])]);
        assert!(DistinctFixtures::parse(&bytes, "sha256:other").unwrap_err().contains("make them again"));
    }
}
