//! Verifies one fixture signature in a loop, for profilers:
//! `cargo run --release -p pqverify-core --example profile_verify -- ML-DSA-44 20000 [prepared] [portable]`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a profiling harness")]

use pqverify_core::{Message, PreparedKey, Suite, verify};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite: Suite = args.first().map_or("ML-DSA-44", String::as_str).parse().unwrap();
    let n: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let prepared = args.iter().any(|a| a == "prepared");
    pqverify_core::force_portable(args.iter().any(|a| a == "portable"));
    let cases = if suite.name().starts_with("ML") {
        pqverify_kats::ml_dsa_sigver().unwrap()
    } else {
        pqverify_kats::slh_dsa_sigver().unwrap()
    };
    // The valid internal-interface case with the shortest M′ (hashing a long message is not the point).
    let case = cases
        .iter()
        .filter(|c| c.expected && c.suite == suite.name() && c.interface == pqverify_kats::Interface::Internal)
        .min_by_key(|c| c.message.len())
        .unwrap();
    let key = PreparedKey::new(suite, &case.public_key).unwrap();
    let start = std::time::Instant::now();
    for _ in 0..n {
        let r = if prepared {
            key.verify(Message::Internal(&case.message), &case.signature)
        } else {
            verify(suite, &case.public_key, Message::Internal(&case.message), &case.signature)
        };
        assert!(r.is_ok());
    }
    let per = start.elapsed().as_nanos() as f64 / n as f64;
    println!(
        "{suite} {} ({}): {:.1} µs per verify",
        if prepared { "prepared" } else { "one-shot" },
        pqverify_core::kernels(),
        per / 1000.0
    );
}
