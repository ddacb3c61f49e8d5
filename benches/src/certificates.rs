//! The certificate scenario's fixtures and statistics: for each suite, n validators'
//! keys and their valid signatures on one 32-byte block hash (made by the testkit's
//! independent signers, `benches/examples/make_certificates.rs`), read from a file the
//! benchmark pipeline writes once, so every target verifies the same bytes; and the
//! timing of whole certificates, the same on every target.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::record::{Certificate, Env, SCHEMA};
use crate::stats::{median, quantile};

/// The suites of the scenario.
pub const CERTIFICATE_SUITES: [&str; 4] = ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87", "SLH-DSA-SHAKE-128s"];

/// The file's schema name.
pub const CERTIFICATE_SCHEMA: &str = "pqverify-certificates/1";

/// One suite's validator set and certificate.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CertificateSet {
    /// FIPS name.
    pub suite: String,
    /// The block hash every validator signs (hex).
    pub message: String,
    /// Validator i's public key (hex).
    pub keys: Vec<String>,
    /// Validator i's signature on `message`, empty context (hex).
    pub signatures: Vec<String>,
}

/// The whole file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CertificateFile {
    /// [`CERTIFICATE_SCHEMA`].
    pub schema: String,
    /// Validators per set.
    pub validators: usize,
    /// One per suite of [`CERTIFICATE_SUITES`].
    pub sets: Vec<CertificateSet>,
}

/// One set, decoded.
#[derive(Clone, Debug)]
pub struct DecodedSet {
    /// FIPS name.
    pub suite: String,
    /// The block hash.
    pub message: Vec<u8>,
    /// Public keys, by validator.
    pub keys: Vec<Vec<u8>>,
    /// Signatures, by validator.
    pub signatures: Vec<Vec<u8>>,
}

/// The decoded file and the digest of its bytes.
#[derive(Clone, Debug)]
pub struct CertificateFixtures {
    /// Validators per set.
    pub validators: usize,
    /// The sets, in file order.
    pub sets: Vec<DecodedSet>,
    /// `sha256:<hex>` of the file.
    pub digest: String,
}

impl CertificateFixtures {
    /// Parses and checks the file: its schema, every set with `validators` keys and signatures.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let file: CertificateFile =
            serde_json::from_slice(bytes).map_err(|e| format!("certificate fixtures: not JSON of the schema: {e}"))?;
        if file.schema != CERTIFICATE_SCHEMA {
            return Err(format!("certificate fixtures: schema is {:?}, not {CERTIFICATE_SCHEMA}", file.schema));
        }
        let hex = |what: &str, h: &str| hex::decode(h).map_err(|e| format!("certificate fixtures: {what}: {e}"));
        let sets = file
            .sets
            .iter()
            .map(|s| {
                if s.keys.len() != file.validators || s.signatures.len() != file.validators {
                    return Err(format!(
                        "certificate fixtures: {} has not {} keys and signatures",
                        s.suite, file.validators
                    ));
                }
                Ok(DecodedSet {
                    suite: s.suite.clone(),
                    message: hex("message", &s.message)?,
                    keys: s.keys.iter().map(|k| hex("key", k)).collect::<Result<_, _>>()?,
                    signatures: s.signatures.iter().map(|k| hex("signature", k)).collect::<Result<_, _>>()?,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(CertificateFixtures {
            validators: file.validators,
            sets,
            digest: format!("sha256:{}", hex::encode(Sha256::digest(bytes))),
        })
    }
}

/// How long to time one (way, suite, threads): a budget, and bounds on the count.
#[derive(Clone, Copy, Debug)]
pub struct CertificateBudget {
    /// Nanoseconds of certificates to time.
    pub budget_ns: f64,
    /// Certificates at least.
    pub min: u32,
    /// Certificates at most.
    pub max: u32,
}

impl CertificateBudget {
    /// The full run's.
    pub const FULL: CertificateBudget = CertificateBudget { budget_ns: 400e6, min: 21, max: 2000 };
    /// The quick run's.
    pub const QUICK: CertificateBudget = CertificateBudget { budget_ns: 30e6, min: 5, max: 200 };

    /// Whether to time another certificate after `times` (ns each).
    pub fn more(&self, times: &[f64]) -> bool {
        let spent: f64 = times.iter().sum();
        times.len() < self.min as usize || (spent < self.budget_ns && times.len() < self.max as usize)
    }
}

/// What one (way, suite, threads) measured, before it becomes a record.
#[derive(Clone, Debug, Default)]
pub struct CertificateTimes {
    /// Wall time of each certificate, ns.
    pub times: Vec<f64>,
    /// Certificates whose verdicts were not all `true`.
    pub wrong: u64,
    /// Longest lateness of a timer on the calling thread while it ran (JS pools), ns.
    pub blocked_ns: Option<f64>,
}

/// The record of one measurement.
pub fn certificate_record(
    env: &Env,
    way: &str,
    suite: &str,
    validators: usize,
    threads: u32,
    measured: CertificateTimes,
) -> Certificate {
    let mut t = measured.times;
    t.sort_by(f64::total_cmp);
    let median_ns = median(&t);
    Certificate {
        schema: SCHEMA.into(),
        target: env.target.clone(),
        run: env.run.clone(),
        way: way.into(),
        suite: suite.into(),
        validators: validators as u64,
        threads,
        certificates: t.len() as u64,
        median_ns,
        p95_ns: quantile(&t, 0.95),
        per_signature_ns: median_ns / validators.max(1) as f64,
        wrong: measured.wrong,
        blocked_ns: measured.blocked_ns,
    }
}
