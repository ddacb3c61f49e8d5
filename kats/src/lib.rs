//! The NIST ACVP `sigVer` vectors for FIPS 204 and FIPS 205, embedded (gzip) and
//! turned into plain test cases that any target — native, Node, a browser — can run.
//!
//! The cases use plain strings and bytes so that this crate does not depend on the
//! verifier it tests. Loading fails loudly: a file that does not parse, a test
//! without an expected verdict, or a field a case needs that is missing is an
//! error, never a silently skipped case.

use std::collections::HashMap;
use std::io::Read;

use serde::Deserialize;

/// How a case is to be verified: pqverify-core's list of interfaces (the vectors
/// themselves are read without it).
pub use pqverify_core::Interface;

/// One sigVer test case with its expected verdict.
#[derive(Clone, Debug)]
pub struct Case {
    /// ACVP test-case id (unique in its file).
    pub tc_id: u32,
    /// ACVP test-group id.
    pub tg_id: u32,
    /// FIPS parameter-set name, e.g. `ML-DSA-44`, `SLH-DSA-SHAKE-128s`.
    pub suite: String,
    /// The interface to verify through.
    pub interface: Interface,
    /// The pre-hash function's ACVP name (`SHA2-256`, …): exactly for [`Interface::PreHash`].
    pub prehash: Option<String>,
    /// Encoded public key.
    pub public_key: Vec<u8>,
    /// The message M (pure, pre-hash), M′ (internal) or μ (external μ).
    pub message: Vec<u8>,
    /// The context string (empty for internal interfaces).
    pub context: Vec<u8>,
    /// The signature.
    pub signature: Vec<u8>,
    /// Whether the signature must verify.
    pub expected: bool,
}

/// What went wrong loading a vector file.
#[derive(Debug)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// The ML-DSA `sigVer` prompt, as NIST published it (gzip).
pub const ML_DSA_PROMPT_GZ: &[u8] = include_bytes!("../data/acvp/ML-DSA-sigVer-FIPS204/prompt.json.gz");
/// The ML-DSA `sigVer` expected results (gzip).
pub const ML_DSA_EXPECTED_GZ: &[u8] = include_bytes!("../data/acvp/ML-DSA-sigVer-FIPS204/expectedResults.json.gz");
/// The SLH-DSA `sigVer` prompt (gzip).
pub const SLH_DSA_PROMPT_GZ: &[u8] = include_bytes!("../data/acvp/SLH-DSA-sigVer-FIPS205/prompt.json.gz");
/// The SLH-DSA `sigVer` expected results (gzip).
pub const SLH_DSA_EXPECTED_GZ: &[u8] = include_bytes!("../data/acvp/SLH-DSA-sigVer-FIPS205/expectedResults.json.gz");

/// Every ML-DSA sigVer case (180), in file order.
pub fn ml_dsa_sigver() -> Result<Vec<Case>, LoadError> {
    load(ML_DSA_PROMPT_GZ, ML_DSA_EXPECTED_GZ)
}

/// Every SLH-DSA sigVer case (504), in file order.
pub fn slh_dsa_sigver() -> Result<Vec<Case>, LoadError> {
    load(SLH_DSA_PROMPT_GZ, SLH_DSA_EXPECTED_GZ)
}

/// Decompresses one embedded file.
pub fn gunzip(gz: &[u8]) -> Result<Vec<u8>, LoadError> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut out).map_err(|e| LoadError(format!("gzip: {e}")))?;
    Ok(out)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Prompt {
    test_groups: Vec<PromptGroup>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptGroup {
    tg_id: u32,
    parameter_set: String,
    signature_interface: String,
    pre_hash: Option<String>,
    external_mu: Option<bool>,
    tests: Vec<PromptTest>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PromptTest {
    tc_id: u32,
    pk: String,
    message: Option<String>,
    mu: Option<String>,
    context: Option<String>,
    hash_alg: Option<String>,
    signature: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Expected {
    test_groups: Vec<ExpectedGroup>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExpectedGroup {
    tg_id: u32,
    tests: Vec<ExpectedTest>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExpectedTest {
    tc_id: u32,
    test_passed: bool,
}

fn unhex(field: &str, tc_id: u32, value: &str) -> Result<Vec<u8>, LoadError> {
    hex::decode(value).map_err(|e| LoadError(format!("tcId {tc_id}: field {field}: {e}")))
}

/// Joins a prompt with its expected results on (tgId, tcId).
pub fn load(prompt_gz: &[u8], expected_gz: &[u8]) -> Result<Vec<Case>, LoadError> {
    let prompt: Prompt =
        serde_json::from_slice(&gunzip(prompt_gz)?).map_err(|e| LoadError(format!("prompt.json: {e}")))?;
    let expected: Expected =
        serde_json::from_slice(&gunzip(expected_gz)?).map_err(|e| LoadError(format!("expectedResults.json: {e}")))?;
    let verdicts: HashMap<(u32, u32), bool> = expected
        .test_groups
        .iter()
        .flat_map(|g| g.tests.iter().map(move |t| ((g.tg_id, t.tc_id), t.test_passed)))
        .collect();

    let mut cases = Vec::new();
    for group in prompt.test_groups {
        for test in group.tests {
            let tc_id = test.tc_id;
            let missing = |field: &str| LoadError(format!("tcId {tc_id}: missing field {field}"));
            let interface = match (group.signature_interface.as_str(), group.pre_hash.as_deref()) {
                ("external", Some("pure")) => Interface::Pure,
                ("external", Some("preHash")) => Interface::PreHash,
                ("internal", _) if group.external_mu == Some(true) => Interface::ExternalMu,
                ("internal", _) => Interface::Internal,
                (iface, ph) => {
                    return Err(LoadError(format!("tcId {tc_id}: unknown interface {iface}/{ph:?}")));
                }
            };
            let message = match interface {
                Interface::ExternalMu => test.mu.as_deref().ok_or_else(|| missing("mu"))?,
                _ => test.message.as_deref().ok_or_else(|| missing("message"))?,
            };
            let expected = *verdicts
                .get(&(group.tg_id, tc_id))
                .ok_or_else(|| LoadError(format!("tcId {tc_id}: no expected result")))?;
            cases.push(Case {
                tc_id,
                tg_id: group.tg_id,
                suite: group.parameter_set.clone(),
                interface,
                prehash: match interface {
                    Interface::PreHash => Some(test.hash_alg.clone().ok_or_else(|| missing("hashAlg"))?),
                    _ => None,
                },
                public_key: unhex("pk", tc_id, &test.pk)?,
                message: unhex("message", tc_id, message)?,
                context: unhex("context", tc_id, test.context.as_deref().unwrap_or(""))?,
                signature: unhex("signature", tc_id, &test.signature)?,
                expected,
            });
        }
    }
    if cases.len() != verdicts.len() {
        return Err(LoadError(format!("prompt has {} cases but expectedResults has {}", cases.len(), verdicts.len())));
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// The embedded files are byte for byte the NIST files listed in kats/README.md.
    #[test]
    fn embedded_files_match_recorded_digests() {
        let recorded = [
            (ML_DSA_PROMPT_GZ, "e2cba4589389756fa0bea1a7e6837138bf0a81f9d14234c9ee8f6d33caa1654e"),
            (ML_DSA_EXPECTED_GZ, "e1d84ef1b2f35196278ab0b0ed6a46ec62cc03d2dfa92c564199e1999bfb8ea6"),
            (SLH_DSA_PROMPT_GZ, "4e7beb1233e47baa0acdd36417c66c45811aa40a4e32ffdb1a35d93b13b289fb"),
            (SLH_DSA_EXPECTED_GZ, "259f5e2a0665de0adc0fefa45b5db3a2a6ed13c3c44d14bdaf64a80aee12c687"),
        ];
        for (gz, digest) in recorded {
            assert_eq!(hex::encode(Sha256::digest(gunzip(gz).unwrap())), digest);
        }
    }

    #[test]
    fn counts_match_the_files() {
        let ml = ml_dsa_sigver().unwrap();
        assert_eq!(ml.len(), 180);
        assert_eq!(ml.iter().filter(|c| c.expected).count(), 36);
        for label in ["pure", "prehash", "internal", "external-mu"] {
            assert_eq!(ml.iter().filter(|c| c.interface.name() == label).count(), 45, "{label}");
        }
        let slh = slh_dsa_sigver().unwrap();
        assert_eq!(slh.len(), 504);
        assert_eq!(slh.iter().filter(|c| c.expected).count(), 72);
    }
}
