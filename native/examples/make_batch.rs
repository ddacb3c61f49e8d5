//! Writes a `pqverify batch` input of freshly signed items (signed by the independent
//! `fips204`/`fips205` crates), for trying the CLI and measuring batches.
//!
//! `cargo run --release -p pqverify-native --example make_batch -- ML-DSA-44 10000 100 > batch.jsonl`
//! (suite, number of items, number of distinct keys, and optionally the message size in
//! bytes; every 10th signature has a flipped byte).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a tool for humans")]

use std::io::Write;

use pqverify_testkit::{KeyPair, KeySeed};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite = args.first().map_or("ML-DSA-44", String::as_str).to_owned();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let keys: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100).max(1);
    let size: Option<usize> = args.get(3).and_then(|a| a.parse().ok());
    let Ok(suite_id) = suite.parse::<pqverify_core::Suite>() else {
        eprintln!("make_batch: {suite}: not a suite name (ML-DSA-44, …)");
        std::process::exit(2);
    };
    let pairs: Vec<KeyPair> = (0..keys)
        .map(|k| {
            let mut seed = KeySeed::fill(0, [0; 3]);
            seed.xi[..8].copy_from_slice(&(k as u64).to_le_bytes());
            seed.slh[0][..8].copy_from_slice(&(k as u64).to_le_bytes());
            KeyPair::new(suite_id, &seed)
        })
        .collect();
    let sign = |i: usize, msg: &[u8]| {
        let pair = &pairs[i % keys];
        (pair.public_key().to_vec(), pair.sign(msg, b"", &[0; 32]))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..count {
        let mut msg = format!("transaction {i}").into_bytes();
        if let Some(size) = size {
            msg.resize(size, b'.');
        }
        let (pk, mut sig) = sign(i, &msg);
        if i % 10 == 9 {
            sig[100] ^= 1;
        }
        let line =
            json!({"id": i, "suite": suite, "pk": hex::encode(pk), "msg": hex::encode(&msg), "sig": hex::encode(sig)});
        writeln!(out, "{line}").unwrap();
    }
}
