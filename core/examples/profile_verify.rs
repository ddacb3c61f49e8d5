//! Verifies one signature in a loop, for profilers (perf, callgrind):
//! `cargo run --release -p pqverify-core --example profile_verify -- ML-DSA-65 20000 [prepared] [KERNELS]`,
//! KERNELS one of `pqverify_core::available_kernels()` (default: the fastest).
//!
//! The key, the 32-byte message and the pure signature (empty context) are made the way
//! the benchmark fixtures are, by the independent signers.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a profiling harness")]

use pqverify_core::{Message, PreparedKey, PublicKey, Suite, verify};
use pqverify_testkit::{KeyPair, KeySeed};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite: Suite = args.first().map_or("ML-DSA-44", String::as_str).parse().unwrap();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let prepared = args.iter().any(|a| a == "prepared");
    if let Some(set) = args.iter().skip(2).find(|a| *a != "prepared") {
        pqverify_core::force_kernels(Some(set)).expect("a kernel set this CPU has");
    }
    let pair = KeyPair::new(suite, &KeySeed::fill(0x44, [0x51, 0x52, 0x53]));
    let msg: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(29).wrapping_add(7)).collect();
    let sig = pair.sign(&msg, b"", &[1; 32]);
    let key = PublicKey::from_raw(suite, pair.public_key()).and_then(PreparedKey::new).unwrap();
    let start = std::time::Instant::now();
    for _ in 0..n {
        let r = if prepared {
            key.verify(Message::pure(&msg, b""), &sig)
        } else {
            PublicKey::from_raw(suite, pair.public_key()).and_then(|key| verify(key, Message::pure(&msg, b""), &sig))
        };
        assert!(r.is_ok());
    }
    let per = start.elapsed().as_nanos() as f64 / n.max(1) as f64;
    println!(
        "{suite} {} ({}): {:.1} µs per verify",
        if prepared { "prepared" } else { "one-shot" },
        pqverify_core::kernels(),
        per / 1000.0
    );
}
