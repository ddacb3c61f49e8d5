//! Writes a `pqverify batch` input of freshly signed ML-DSA items (signed by the
//! independent `fips204` crate), for trying the CLI and measuring batches.
//!
//! `cargo run --release -p pqverify-native --example make_batch -- ML-DSA-44 10000 100 > batch.jsonl`
//! (suite, number of items, number of distinct keys; every 10th signature has a flipped byte).
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a tool for humans")]

use std::io::Write;

use fips204::traits::{KeyGen, SerDes, Signer};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite = args.first().map_or("ML-DSA-44", String::as_str).to_owned();
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let keys: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100).max(1);
    macro_rules! signer {
        ($m:ident) => {{
            let pairs: Vec<_> = (0..keys)
                .map(|k| {
                    let mut seed = [0u8; 32];
                    seed[..8].copy_from_slice(&(k as u64).to_le_bytes());
                    fips204::$m::KG::keygen_from_seed(&seed)
                })
                .collect();
            Box::new(move |i: usize, msg: &[u8]| {
                let (pk, sk) = &pairs[i % keys];
                (pk.clone().into_bytes().to_vec(), sk.try_sign_with_seed(&[0; 32], msg, b"").unwrap().to_vec())
            }) as Box<dyn Fn(usize, &[u8]) -> (Vec<u8>, Vec<u8>)>
        }};
    }
    let sign = match suite.as_str() {
        "ML-DSA-44" => signer!(ml_dsa_44),
        "ML-DSA-65" => signer!(ml_dsa_65),
        "ML-DSA-87" => signer!(ml_dsa_87),
        other => {
            eprintln!("make_batch: {other}: only ML-DSA-44/65/87");
            std::process::exit(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..count {
        let msg = format!("transaction {i}").into_bytes();
        let (pk, mut sig) = sign(i, &msg);
        if i % 10 == 9 {
            sig[100] ^= 1;
        }
        let line =
            json!({"id": i, "suite": suite, "pk": hex::encode(pk), "msg": hex::encode(&msg), "sig": hex::encode(sig)});
        writeln!(out, "{line}").unwrap();
    }
}
