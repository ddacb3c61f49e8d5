//! SLH-DSA against an independent signer (the `fips205` crate) for all twelve sets:
//! valid signatures through every interface are accepted, flipped bits in every part
//! of the signature and in the message, context and key are rejected, lengths are
//! exact, and no input panics.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

mod common;

use common::{Rng, Signed, assert_rejected};
use pqverify_core::{Error, Message, PreHash, PreparedKey, PublicKey, Suite, verify};

fn slh_suites() -> impl Iterator<Item = Suite> {
    Suite::ALL.into_iter().filter(|s| s.name().starts_with("SLH-DSA"))
}

fn check(suite: Suite, pk: &[u8], message: Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let one_shot = PublicKey::from_raw(suite, pk).and_then(|key| verify(key, message, sig));
    let prepared = PublicKey::from_raw(suite, pk).and_then(PreparedKey::new).and_then(|k| k.verify(message, sig));
    assert_eq!(one_shot, prepared, "{suite}: prepared and one-shot disagree");
    one_shot
}

/// One signed fixture per suite, shared by the tests (signing the `s` sets is slow).
fn fixtures() -> &'static Vec<(Suite, Signed)> {
    static FIXTURES: std::sync::OnceLock<Vec<(Suite, Signed)>> = std::sync::OnceLock::new();
    FIXTURES.get_or_init(|| {
        let mut rng = Rng(11);
        slh_suites().map(|suite| (suite, common::sign(suite, &mut rng, 200))).collect()
    })
}

#[test]
fn valid_signatures_verify_through_every_interface() {
    for (suite, s) in fixtures() {
        let suite = *suite;
        assert_eq!(s.pk.len(), suite.public_key_len());
        assert_eq!(s.pure.len(), suite.signature_len());
        check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), &s.pure).unwrap_or_else(|e| panic!("{suite} pure: {e}"));
        check(suite, &s.pk, Message::prehash(&s.msg, &s.ctx, s.hash), &s.prehashed)
            .unwrap_or_else(|e| panic!("{suite} prehash: {e}"));
        let m_prime = [&[0u8, s.ctx.len() as u8][..], &s.ctx, &s.msg].concat();
        check(suite, &s.pk, Message::Internal(&m_prime), &s.pure).unwrap_or_else(|e| panic!("{suite} internal: {e}"));
        // Pure and pre-hash signatures are not interchangeable.
        assert_rejected(check(suite, &s.pk, Message::prehash(&s.msg, &s.ctx, s.hash), &s.pure), "pure as prehash");
        assert_rejected(check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), &s.prehashed), "prehash as pure");
        // External μ is an ML-DSA interface: an input error, not a verdict.
        let err = PublicKey::from_raw(suite, &s.pk)
            .and_then(|key| verify(key, Message::ExternalMu(&[0; 64]), &s.pure))
            .unwrap_err();
        assert!(matches!(err, Error::Unsupported { .. }) && !err.is_rejection(), "{err}");
    }
}

#[test]
fn flipped_bits_in_every_part_are_rejected() {
    let mut rng = Rng(12);
    for (suite, s) in fixtures() {
        let suite = *suite;
        let key = PublicKey::from_raw(suite, &s.pk).and_then(PreparedKey::new).unwrap();
        let msg = Message::pure(&s.msg, &s.ctx);
        let len = s.pure.len();
        // First and last bit, then 48 random bits spread over R, SIG_FORS and SIG_HT.
        let mut bits = vec![0, len * 8 - 1];
        bits.extend((0..48).map(|i| (i * len / 48) * 8 + rng.below(8 * (len / 48).max(1))));
        for bit in bits {
            let mut sig = s.pure.clone();
            sig[bit / 8] ^= 1 << (bit % 8);
            assert_rejected(key.verify(msg, &sig), &format!("{suite} signature bit {bit}"));
        }
        for _ in 0..8 {
            let mut m = s.msg.clone();
            if m.is_empty() {
                m.push(1);
            } else {
                let bit = rng.below(m.len() * 8);
                m[bit / 8] ^= 1 << (bit % 8);
            }
            assert_rejected(check(suite, &s.pk, Message::pure(&m, &s.ctx), &s.pure), "message bit");
            let mut c = s.ctx.clone();
            if c.is_empty() {
                c.push(1);
            } else {
                let bit = rng.below(c.len() * 8);
                c[bit / 8] ^= 1 << (bit % 8);
            }
            assert_rejected(check(suite, &s.pk, Message::pure(&s.msg, &c), &s.pure), "context bit");
            let mut pk = s.pk.clone();
            let bit = rng.below(pk.len() * 8);
            pk[bit / 8] ^= 1 << (bit % 8);
            assert_rejected(check(suite, &pk, msg, &s.pure), "key bit");
        }
    }
}

#[test]
fn lengths_are_exact_and_input_errors_are_clear() {
    for (suite, s) in fixtures() {
        let suite = *suite;
        let msg = Message::pure(&s.msg, &s.ctx);
        let mut long = s.pure.clone();
        long.push(0xaa);
        assert_eq!(
            check(suite, &s.pk, msg, &long),
            Err(Error::SignatureLength { suite, expected: s.pure.len(), got: s.pure.len() + 1 })
        );
        assert!(matches!(check(suite, &s.pk, msg, &s.pure[..s.pure.len() - 1]), Err(Error::SignatureLength { .. })));
        let mut pk = s.pk.clone();
        pk.push(0);
        let err = PublicKey::from_raw(suite, &pk).and_then(|key| verify(key, msg, &s.pure)).unwrap_err();
        assert_eq!(err, Error::PublicKeyLength { suite, expected: s.pk.len(), got: s.pk.len() + 1 });
        assert!(!err.is_rejection());
        assert_eq!(
            PublicKey::from_raw(suite, &s.pk).and_then(|key| verify(key, Message::pure(&s.msg, &[0; 256]), &s.pure)),
            Err(Error::ContextLength { got: 256 })
        );
    }
}

#[test]
fn random_input_never_panics() {
    let mut rng = Rng(13);
    for suite in slh_suites() {
        let pk = rng.bytes(suite.public_key_len());
        let key = PublicKey::from_raw(suite, &pk).and_then(PreparedKey::new).unwrap();
        // Every length up to one past the real one; only the exact length does any work.
        for len in 0..=suite.signature_len() + 1 {
            let sig = if len == suite.signature_len() { rng.bytes(len) } else { vec![0x5a; len] };
            assert_rejected(key.verify(Message::pure(b"m", b""), &sig), "random signature");
        }
        for len in 0..100 {
            let r = PublicKey::from_raw(suite, &rng.bytes(len))
                .and_then(|key| verify(key, Message::pure(b"m", b""), &vec![0; suite.signature_len()]));
            assert!(r.is_err());
        }
        for hash in PreHash::ALL {
            let sig = rng.bytes(suite.signature_len());
            assert_rejected(check(suite, &pk, Message::prehash(b"m", b"c", hash), &sig), "random prehash");
        }
        assert_rejected(check(suite, &pk, Message::Internal(b""), &rng.bytes(suite.signature_len())), "internal");
    }
}
