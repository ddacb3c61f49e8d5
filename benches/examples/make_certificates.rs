//! Generates the certificate scenario's fixtures: for each suite of the scenario, n
//! validators (deterministic keys), each signing one 32-byte block hash, by the
//! independent signers `fips204` and `fips205` (the testkit's). Written by the benchmark
//! pipeline into `target/` once per n (SLH-DSA signing takes a while):
//!   cargo run --release -p pqverify-bench --example make_certificates -- OUT N
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a generator run by the pipeline")]

use pqverify_bench::certificates::{CERTIFICATE_SCHEMA, CERTIFICATE_SUITES, CertificateFile, CertificateSet};
use pqverify_core::Suite;
use pqverify_testkit::{KeyPair, KeySeed};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: make_certificates OUT N");
    let n: usize = args.next().and_then(|a| a.parse().ok()).filter(|n| *n >= 1).expect("N: validators, at least 1");
    let message: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(71).wrapping_add(3)).collect();
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let sets = CERTIFICATE_SUITES
        .iter()
        .map(|name| {
            let suite: Suite = name.parse().unwrap();
            // Validator i's seed and signing randomness from i alone.
            let sign = |i: usize| {
                let b = i.to_le_bytes();
                let pair = KeyPair::new(suite, &KeySeed::fill(b[0] ^ 0x5a, [b[0], b[1], b[2] ^ 0xc3]));
                (hex::encode(pair.public_key()), hex::encode(pair.sign(&message, b"", &[b[0] ^ b[1]; 32])))
            };
            let chunks: Vec<Vec<(String, String)>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| s.spawn(move || (t..n).step_by(threads).map(|i| (i, sign(i))).collect::<Vec<_>>()))
                    .collect();
                let mut all: Vec<(usize, (String, String))> =
                    handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
                all.sort_by_key(|(i, _)| *i);
                vec![all.into_iter().map(|(_, kv)| kv).collect()]
            });
            let (keys, signatures) = chunks.into_iter().flatten().unzip();
            eprintln!("make_certificates: {name}, {n} validators");
            CertificateSet { suite: (*name).into(), message: hex::encode(&message), keys, signatures }
        })
        .collect();
    let file = CertificateFile { schema: CERTIFICATE_SCHEMA.into(), validators: n, sets };
    std::fs::write(&out, serde_json::to_string(&file).unwrap() + "\n").unwrap();
    eprintln!("wrote {out}");
}
