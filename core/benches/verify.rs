//! Verify per suite: pqverify one-shot and prepared, next to the RustCrypto
//! implementations (`ml-dsa`, `slh-dsa`) measured in the same run.
//!
//! `cargo bench -p pqverify-core --bench verify` (or `cargo xtask bench`).
#![allow(clippy::expect_used, reason = "fixtures are made in the bench itself")]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use pqverify_core::{Message, PreparedKey, PublicKey, Suite, verify};
use pqverify_testkit::{KeyPair, KeySeed};

const MSG: &[u8; 32] = b"pqverify benchmark message 32 B.";

/// A key and a signature on `MSG` (empty context) by the independent `fips204`/`fips205` signers.
fn fixture(suite: Suite) -> (Vec<u8>, Vec<u8>) {
    let pair = KeyPair::new(suite, &KeySeed::fill(7, [1, 2, 3]));
    (pair.public_key().to_vec(), pair.sign(MSG, b"", &[9u8; 32]))
}

/// RustCrypto verify from encoded bytes (key and signature decoded every time, as
/// pqverify's one-shot path does).
fn rustcrypto(suite: Suite, pk: &[u8], sig: &[u8]) -> bool {
    macro_rules! ml {
        ($p:ty) => {{
            let enc = ml_dsa::EncodedVerifyingKey::<$p>::try_from(pk).expect("pk");
            let vk = ml_dsa::VerifyingKey::<$p>::decode(&enc);
            ml_dsa::Signature::<$p>::try_from(sig).is_ok_and(|s| vk.verify_with_context(MSG, b"", &s))
        }};
    }
    macro_rules! slh {
        ($p:ty) => {{
            let vk = slh_dsa::VerifyingKey::<$p>::try_from(pk).expect("pk");
            slh_dsa::Signature::<$p>::try_from(sig).is_ok_and(|s| vk.try_verify_with_context(MSG, b"", &s).is_ok())
        }};
    }
    match suite {
        Suite::MlDsa44 => ml!(ml_dsa::MlDsa44),
        Suite::MlDsa65 => ml!(ml_dsa::MlDsa65),
        Suite::MlDsa87 => ml!(ml_dsa::MlDsa87),
        Suite::SlhDsaSha2_128s => slh!(slh_dsa::Sha2_128s),
        Suite::SlhDsaSha2_128f => slh!(slh_dsa::Sha2_128f),
        Suite::SlhDsaSha2_192s => slh!(slh_dsa::Sha2_192s),
        Suite::SlhDsaSha2_192f => slh!(slh_dsa::Sha2_192f),
        Suite::SlhDsaSha2_256s => slh!(slh_dsa::Sha2_256s),
        Suite::SlhDsaSha2_256f => slh!(slh_dsa::Sha2_256f),
        Suite::SlhDsaShake128s => slh!(slh_dsa::Shake128s),
        Suite::SlhDsaShake128f => slh!(slh_dsa::Shake128f),
        Suite::SlhDsaShake192s => slh!(slh_dsa::Shake192s),
        Suite::SlhDsaShake192f => slh!(slh_dsa::Shake192f),
        Suite::SlhDsaShake256s => slh!(slh_dsa::Shake256s),
        Suite::SlhDsaShake256f => slh!(slh_dsa::Shake256f),
    }
}

fn verify_per_suite(c: &mut Criterion) {
    let only = std::env::var("PQVERIFY_BENCH_SUITES").ok();
    for suite in Suite::ALL {
        if only.as_deref().is_some_and(|list| !list.split(',').any(|s| s.eq_ignore_ascii_case(suite.name()))) {
            continue;
        }
        let (pk, sig) = fixture(suite);
        let key = PublicKey::from_raw(suite, &pk).and_then(PreparedKey::new).expect("key");
        assert_eq!(
            PublicKey::from_raw(suite, &pk).and_then(|key| verify(key, Message::pure(MSG, b""), &sig)),
            Ok(()),
            "{suite}"
        );
        assert!(rustcrypto(suite, &pk, &sig), "{suite}: RustCrypto rejects the fixture");

        let mut group = c.benchmark_group(format!("{suite}/verify"));
        if suite.name().starts_with("SLH") {
            group.sample_size(20).measurement_time(Duration::from_secs(4));
        }
        group.bench_function("pqverify", |b| {
            b.iter(|| {
                PublicKey::from_raw(suite, black_box(&pk))
                    .and_then(|key| verify(key, Message::pure(black_box(MSG), b""), black_box(&sig)))
            })
        });
        group.bench_function("pqverify-prepared", |b| {
            b.iter(|| key.verify(Message::pure(black_box(MSG), b""), black_box(&sig)))
        });
        group.bench_function("rustcrypto", |b| b.iter(|| rustcrypto(suite, black_box(&pk), black_box(&sig))));
        group.finish();
    }
}

criterion_group!(benches, verify_per_suite);
criterion_main!(benches);
