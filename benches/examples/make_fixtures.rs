//! Generates the benchmark fixtures: for each of the 15 suites a deterministic key,
//! a 32-byte and a 1024-byte message, and valid signatures over both, made by the
//! independent signers `fips204` and `fips205`. Run by `cargo xtask fixtures`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a generator run by hand")]

use pqverify_core::Suite;
use pqverify_testkit::{KeyPair, KeySeed};
use serde_json::json;

fn message(len: usize, salt: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(29).wrapping_add(salt)).collect()
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "benches/fixtures/fixtures.json".into());
    let (short, long) = (message(32, 7), message(1024, 11));
    let seed = KeySeed::fill(0x44, [0x51, 0x52, 0x53]);
    let suites: Vec<_> = Suite::ALL
        .into_iter()
        .map(|suite| {
            let pair = KeyPair::new(suite, &seed);
            let (sig, sig_long) = (pair.sign(&short, b"", &[1; 32]), pair.sign(&long, b"", &[2; 32]));
            json!({"suite": suite.name(), "pk": hex::encode(pair.public_key()), "msg": hex::encode(&short),
                "sig": hex::encode(sig), "msg_long": hex::encode(&long), "sig_long": hex::encode(sig_long)})
        })
        .collect();
    let doc = json!({
        "schema": "pqverify-fixtures/1",
        "generator": "cargo xtask fixtures (fips204 0.5 / fips205 0.5, deterministic)",
        "suites": suites,
    });
    let mut text = serde_json::to_string(&doc).unwrap();
    text.push('\n');
    std::fs::write(&out, text).unwrap();
    eprintln!("wrote {out}");
}
