//! Verify per suite: pqverify one-shot and prepared, next to RustCrypto `ml-dsa`
//! measured in the same run (with and without decoding the key each time).
//!
//! `cargo bench -p pqverify-core --bench verify` (or `cargo xtask bench`).

#![allow(clippy::expect_used, reason = "fixtures are made in the bench itself")]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fips204::traits::{KeyGen, SerDes, Signer};
use ml_dsa::{EncodedVerifyingKey, MlDsaParams, Signature, VerifyingKey};
use pqverify_core::{Message, PreparedKey, Suite, verify};

const MSG: &[u8; 32] = b"pqverify benchmark message 32 B.";

macro_rules! fixture {
    ($module:ident) => {{
        use fips204::$module as m;
        let (pk, sk) = m::KG::keygen_from_seed(&[7u8; 32]);
        let sig = sk.try_sign_with_seed(&[9u8; 32], MSG, b"").expect("sign");
        (pk.into_bytes().to_vec(), sig.to_vec())
    }};
}

fn rustcrypto<P: MlDsaParams>(c: &mut Criterion, suite: Suite, pk: &[u8], sig: &[u8]) {
    let mut group = c.benchmark_group(format!("{suite}/verify"));
    let key = PreparedKey::new(suite, pk).expect("key");
    assert!(verify(suite, pk, Message::pure(MSG, b""), sig).is_ok());
    group.bench_function("pqverify", |b| {
        b.iter(|| verify(suite, black_box(pk), Message::pure(black_box(MSG), b""), black_box(sig)))
    });
    group.bench_function("pqverify-prepared", |b| {
        b.iter(|| key.verify(Message::pure(black_box(MSG), b""), black_box(sig)))
    });
    let enc = EncodedVerifyingKey::<P>::try_from(pk).expect("pk");
    let vk = VerifyingKey::<P>::decode(&enc);
    let parsed = Signature::<P>::try_from(sig).expect("sig");
    assert!(vk.verify_with_context(MSG, b"", &parsed));
    group.bench_function("rustcrypto-ml-dsa", |b| {
        b.iter(|| {
            let vk = VerifyingKey::<P>::decode(black_box(&enc));
            let sig = Signature::<P>::try_from(black_box(sig)).expect("sig");
            vk.verify_with_context(black_box(MSG), b"", &sig)
        })
    });
    group.bench_function("rustcrypto-ml-dsa-decoded-key", |b| {
        b.iter(|| {
            let sig = Signature::<P>::try_from(black_box(sig)).expect("sig");
            vk.verify_with_context(black_box(MSG), b"", &sig)
        })
    });
    group.finish();
}

fn ml_dsa(c: &mut Criterion) {
    let (pk, sig) = fixture!(ml_dsa_44);
    rustcrypto::<ml_dsa::MlDsa44>(c, Suite::MlDsa44, &pk, &sig);
    let (pk, sig) = fixture!(ml_dsa_65);
    rustcrypto::<ml_dsa::MlDsa65>(c, Suite::MlDsa65, &pk, &sig);
    let (pk, sig) = fixture!(ml_dsa_87);
    rustcrypto::<ml_dsa::MlDsa87>(c, Suite::MlDsa87, &pk, &sig);
}

criterion_group!(benches, ml_dsa);
criterion_main!(benches);
