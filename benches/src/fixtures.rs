//! The committed benchmark fixtures: the same bytes on every target; their SHA-256
//! goes into every run's environment record.

use serde::Deserialize;
use sha2::{Digest, Sha256};

/// One suite's key, messages and valid signatures.
#[derive(Clone, Debug)]
pub struct SuiteFixture {
    /// FIPS name.
    pub suite: String,
    /// Encoded public key.
    pub public_key: Vec<u8>,
    /// The 32-byte message.
    pub msg: Vec<u8>,
    /// A valid signature on `msg` (empty context).
    pub sig: Vec<u8>,
    /// The 1024-byte message.
    pub msg_long: Vec<u8>,
    /// A valid signature on `msg_long`.
    pub sig_long: Vec<u8>,
}

/// All fixtures and their digest.
#[derive(Clone, Debug)]
pub struct Fixtures {
    /// Per suite, in file order.
    pub suites: Vec<SuiteFixture>,
    /// `sha256:<hex>` of the fixture file's bytes.
    pub digest: String,
}

#[derive(Deserialize)]
struct File {
    schema: String,
    suites: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    suite: String,
    pk: String,
    msg: String,
    sig: String,
    msg_long: String,
    sig_long: String,
}

/// The benchmark cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// A valid signature on the 32-byte message.
    Valid,
    /// The same signature with one byte flipped in its middle.
    Invalid,
    /// A valid signature on the 1024-byte message.
    ValidLong,
}

impl Case {
    /// Record name: `valid`, `invalid`, `valid-1k`.
    pub fn name(self) -> &'static str {
        match self {
            Case::Valid => "valid",
            Case::Invalid => "invalid",
            Case::ValidLong => "valid-1k",
        }
    }

    /// Whether verification must succeed.
    pub fn expected(self) -> bool {
        self != Case::Invalid
    }

    /// The invalid case's signature: `sig` with one bit of its middle byte flipped.
    pub fn flip(sig: &[u8]) -> Vec<u8> {
        let mut sig = sig.to_vec();
        let middle = sig.len() / 2;
        if let Some(b) = sig.get_mut(middle) {
            *b ^= 0x01;
        }
        sig
    }
}

impl SuiteFixture {
    /// The case whose (message, signature) these are: the long message's, the valid
    /// signature's, or else the invalid one's.
    pub fn case_of(&self, msg: &[u8], sig: &[u8]) -> Case {
        if msg == self.msg_long {
            Case::ValidLong
        } else if sig == self.sig {
            Case::Valid
        } else {
            Case::Invalid
        }
    }

    /// (message, signature) for a case.
    pub fn case(&self, case: Case) -> (Vec<u8>, Vec<u8>) {
        match case {
            Case::Valid => (self.msg.clone(), self.sig.clone()),
            Case::Invalid => (self.msg.clone(), Case::flip(&self.sig)),
            Case::ValidLong => (self.msg_long.clone(), self.sig_long.clone()),
        }
    }
}

impl Fixtures {
    /// Parses the fixture file.
    pub fn parse(bytes: &[u8]) -> Result<Fixtures, String> {
        let file: File = serde_json::from_slice(bytes).map_err(|e| format!("fixtures: {e}"))?;
        if file.schema != "pqverify-fixtures/1" {
            return Err(format!("fixtures: unknown schema {}", file.schema));
        }
        let unhex =
            |what: &str, suite: &str, v: &str| hex::decode(v).map_err(|e| format!("fixtures: {suite} {what}: {e}"));
        let suites = file
            .suites
            .into_iter()
            .map(|e| {
                Ok(SuiteFixture {
                    public_key: unhex("pk", &e.suite, &e.pk)?,
                    msg: unhex("msg", &e.suite, &e.msg)?,
                    sig: unhex("sig", &e.suite, &e.sig)?,
                    msg_long: unhex("msg_long", &e.suite, &e.msg_long)?,
                    sig_long: unhex("sig_long", &e.suite, &e.sig_long)?,
                    suite: e.suite,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if suites.is_empty() {
            return Err("fixtures: no suites".into());
        }
        Ok(Fixtures { suites, digest: format!("sha256:{}", hex::encode(Sha256::digest(bytes))) })
    }
}

/// The fixture file committed with the suite.
pub const FIXTURES_JSON: &[u8] = include_bytes!("../fixtures/fixtures.json");
