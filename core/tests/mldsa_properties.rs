//! ML-DSA against an independent signer (the `fips204` crate): valid signatures
//! through every interface are accepted, any single flipped bit is rejected, strict
//! decoding rejects every non-canonical form, and no input panics.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

mod common;

use common::{Rng, Signed, assert_rejected, oracle};
use pqverify_core::{Error, Message, PreHash, PreparedKey, PublicKey, Suite, verify};

/// Verifies one-shot and through a prepared key; both must give the same answer.
fn check(suite: Suite, pk: &[u8], message: Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let one_shot = PublicKey::from_raw(suite, pk).and_then(|key| verify(key, message, sig));
    let prepared = PublicKey::from_raw(suite, pk).and_then(PreparedKey::new).and_then(|k| k.verify(message, sig));
    assert_eq!(one_shot, prepared, "prepared and one-shot disagree");
    one_shot
}

fn m_prime(s: &Signed) -> Vec<u8> {
    [&[0u8, s.ctx.len() as u8][..], &s.ctx, &s.msg].concat()
}

const ML_DSA: [Suite; 3] = [Suite::MlDsa44, Suite::MlDsa65, Suite::MlDsa87];

#[test]
fn valid_signatures_verify_through_every_interface() {
    let mut rng = Rng(1);
    for suite in ML_DSA {
        for _ in 0..6 {
            let s = common::sign(suite, &mut rng, 300);
            check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), &s.pure).expect("pure");
            check(suite, &s.pk, Message::prehash(&s.msg, &s.ctx, s.hash), &s.prehashed).expect("prehash");
            let mp = m_prime(&s);
            check(suite, &s.pk, Message::Internal(&mp), &s.pure).expect("internal");
            let tr = oracle::shake256(&[&s.pk], 64);
            let mu = oracle::shake256(&[&tr, &mp], 64);
            check(suite, &s.pk, Message::ExternalMu(&mu), &s.pure).expect("external mu");

            // Pure and pre-hash signatures are not interchangeable.
            assert_rejected(check(suite, &s.pk, Message::prehash(&s.msg, &s.ctx, s.hash), &s.pure), "pure as prehash");
            assert_rejected(check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), &s.prehashed), "prehash as pure");
            // Another pre-hash function is another M′.
            let other = PreHash::ALL[(PreHash::ALL.iter().position(|&h| h == s.hash).unwrap() + 1) % 12];
            assert_rejected(check(suite, &s.pk, Message::prehash(&s.msg, &s.ctx, other), &s.prehashed), "other hash");
        }
    }
}

#[test]
fn every_flipped_bit_is_rejected() {
    let mut rng = Rng(2);
    for suite in ML_DSA {
        let s = common::sign(suite, &mut rng, 300);
        let key = PublicKey::from_raw(suite, &s.pk).and_then(PreparedKey::new).unwrap();
        // Every bit of the signature (prepared key: fast enough for all of them).
        for bit in 0..s.pure.len() * 8 {
            let mut sig = s.pure.clone();
            sig[bit / 8] ^= 1 << (bit % 8);
            assert_rejected(key.verify(Message::pure(&s.msg, &s.ctx), &sig), "flipped signature bit");
        }
        // Sampled bits of the message, context and key, one-shot and prepared.
        for _ in 0..64 {
            let mut msg = s.msg.clone();
            if msg.is_empty() {
                msg.push(0);
            } else {
                let bit = rng.below(msg.len() * 8);
                msg[bit / 8] ^= 1 << (bit % 8);
            }
            assert_rejected(check(suite, &s.pk, Message::pure(&msg, &s.ctx), &s.pure), "flipped message bit");

            let mut ctx = s.ctx.clone();
            if ctx.is_empty() {
                ctx.push(0);
            } else {
                let bit = rng.below(ctx.len() * 8);
                ctx[bit / 8] ^= 1 << (bit % 8);
            }
            assert_rejected(check(suite, &s.pk, Message::pure(&s.msg, &ctx), &s.pure), "flipped context bit");

            let mut pk = s.pk.clone();
            let bit = rng.below(pk.len() * 8);
            pk[bit / 8] ^= 1 << (bit % 8);
            assert_rejected(check(suite, &pk, Message::pure(&s.msg, &s.ctx), &s.pure), "flipped key bit");
        }
    }
}

/// Writes `bits`-bit value `v` at coefficient `index` of a little-endian bit packing.
fn put_bits(bytes: &mut [u8], bits: usize, index: usize, v: u32) {
    for b in 0..bits {
        let pos = index * bits + b;
        let bit = ((v >> b) & 1) as u8;
        bytes[pos / 8] = (bytes[pos / 8] & !(1 << (pos % 8))) | (bit << (pos % 8));
    }
}

#[test]
fn z_norm_bound_is_strict() {
    // (suite, γ1 exponent, β, c̃ bytes)
    for (suite, g1_log2, beta, c_len) in
        [(Suite::MlDsa44, 17, 78, 32), (Suite::MlDsa65, 19, 196, 48), (Suite::MlDsa87, 19, 120, 64)]
    {
        let s = common::sign(suite, &mut Rng(3), 300);
        let gamma1: i64 = 1 << g1_log2;
        let bits = g1_log2 + 1;
        for (z, over_bound) in [
            (gamma1 - beta, true),
            (-(gamma1 - beta), true),
            (gamma1, true),
            (-(gamma1 - 1), true),
            (gamma1 - beta - 1, false),
            (-(gamma1 - beta - 1), false),
        ] {
            let mut sig = s.pure.clone();
            put_bits(&mut sig[c_len..], bits, 0, (gamma1 - z) as u32);
            let got = check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), &sig);
            if over_bound {
                assert!(matches!(got, Err(Error::MalformedSignature { .. })), "{suite} z={z}: {got:?}");
            } else {
                // Inside the bound it decodes, then fails the challenge comparison.
                assert!(matches!(got, Err(Error::InvalidSignature { .. })), "{suite} z={z}: {got:?}");
            }
        }
    }
}

#[test]
fn non_canonical_hints_are_rejected() {
    for (suite, omega, k) in [(Suite::MlDsa44, 80, 4), (Suite::MlDsa65, 55, 6), (Suite::MlDsa87, 75, 8)] {
        let mut rng = Rng(4);
        let s = common::sign(suite, &mut rng, 300);
        let n = s.pure.len();
        let hint = n - omega - k;
        let counts: Vec<usize> = s.pure[n - k..].iter().map(|&c| c as usize).collect();
        let total = counts[k - 1];
        let malformed = |sig: &[u8], what: &str| {
            let got = check(suite, &s.pk, Message::pure(&s.msg, &s.ctx), sig);
            assert!(matches!(got, Err(Error::MalformedSignature { .. })), "{suite} {what}: {got:?}");
        };
        // A count over ω.
        let mut sig = s.pure.clone();
        sig[n - 1] = omega as u8 + 1;
        malformed(&sig, "count over omega");
        // Counts decreasing.
        let mut sig = s.pure.clone();
        sig[n - k] = sig[n - k + 1].wrapping_add(1);
        if sig[n - k] as usize <= omega && sig[n - k] > sig[n - k + 1] {
            malformed(&sig, "counts decreasing");
        }
        // Padding after the last index not zero.
        if total < omega {
            let mut sig = s.pure.clone();
            sig[hint + omega - 1] = 1;
            malformed(&sig, "non-zero padding");
        }
        // Two indices of one polynomial swapped or repeated.
        let mut start = 0;
        for &end in &counts {
            if end - start >= 2 {
                let mut sig = s.pure.clone();
                sig.swap(hint + start, hint + start + 1);
                malformed(&sig, "indices swapped");
                let mut sig = s.pure.clone();
                sig[hint + start + 1] = sig[hint + start];
                malformed(&sig, "index repeated");
                break;
            }
            start = end;
        }
    }
}

#[test]
fn lengths_and_input_errors() {
    let s = common::sign(Suite::MlDsa44, &mut Rng(5), 300);
    let msg = Message::pure(&s.msg, &s.ctx);
    // Signature one byte short or long (trailing zero byte).
    let mut long = s.pure.clone();
    long.push(0);
    assert_eq!(
        check(Suite::MlDsa44, &s.pk, msg, &long),
        Err(Error::SignatureLength { suite: Suite::MlDsa44, expected: 2420, got: 2421 })
    );
    assert!(matches!(check(Suite::MlDsa44, &s.pk, msg, &s.pure[..2419]), Err(Error::SignatureLength { .. })));
    // Key one byte short or long.
    let mut pk = s.pk.clone();
    pk.push(0);
    let err = PublicKey::from_raw(Suite::MlDsa44, &pk).and_then(|key| verify(key, msg, &s.pure)).unwrap_err();
    assert_eq!(err, Error::PublicKeyLength { suite: Suite::MlDsa44, expected: 1312, got: 1313 });
    assert_eq!(err.to_string(), "public key is 1313 bytes; ML-DSA-44 public keys are 1312 bytes");
    assert!(!err.is_rejection());
    // A key of another suite.
    assert!(matches!(
        PublicKey::from_raw(Suite::MlDsa65, &s.pk).and_then(|key| verify(key, msg, &s.pure)),
        Err(Error::PublicKeyLength { .. })
    ));
    // Context of 255 bytes is allowed; 256 is an input error.
    let ctx = vec![7u8; 256];
    assert_rejected(
        PublicKey::from_raw(Suite::MlDsa44, &s.pk)
            .and_then(|key| verify(key, Message::pure(&s.msg, &ctx[..255]), &s.pure)),
        "255-byte ctx",
    );
    assert_eq!(
        PublicKey::from_raw(Suite::MlDsa44, &s.pk).and_then(|key| verify(key, Message::pure(&s.msg, &ctx), &s.pure)),
        Err(Error::ContextLength { got: 256 })
    );
    assert_eq!(
        PublicKey::from_raw(Suite::MlDsa44, &s.pk).and_then(|key| verify(
            key,
            Message::prehash(&s.msg, &ctx, PreHash::Sha2_256),
            &s.pure
        )),
        Err(Error::ContextLength { got: 256 })
    );
    // μ must be exactly 64 bytes.
    for len in [0, 32, 63, 65] {
        assert_eq!(
            PublicKey::from_raw(Suite::MlDsa44, &s.pk).and_then(|key| verify(
                key,
                Message::ExternalMu(&vec![0; len]),
                &s.pure
            )),
            Err(Error::MuLength { got: len })
        );
    }
}

#[test]
fn random_input_never_panics() {
    let mut rng = Rng(6);
    for suite in ML_DSA {
        let (pk_len, sig_len) = (suite.public_key_len(), suite.signature_len());
        // Signatures of every length up to one past the real one, random content.
        let pk = rng.bytes(pk_len);
        let key = PublicKey::from_raw(suite, &pk).and_then(PreparedKey::new).unwrap();
        for len in 0..=sig_len + 1 {
            let sig = rng.bytes(len);
            assert_rejected(key.verify(Message::pure(b"m", b""), &sig), "random signature");
        }
        // Keys of many lengths.
        for len in (0..pk_len + 64).step_by(7) {
            let pk = rng.bytes(len);
            let r = PublicKey::from_raw(suite, &pk)
                .and_then(|key| verify(key, Message::pure(b"m", b""), &rng.bytes(sig_len)));
            assert!(r.is_err());
        }
        // Right-length random keys and signatures through every interface, with
        // signatures made to pass the cheap checks (zero hints, small z) now and then.
        for i in 0..200 {
            let pk = rng.bytes(pk_len);
            let mut sig = rng.bytes(sig_len);
            if i % 2 == 0 {
                let tail = sig.len() - 90;
                sig[tail..].fill(0);
            }
            let msg_len = rng.below(100);
            let msg = rng.bytes(msg_len);
            let mu = rng.bytes(64);
            for m in [
                Message::pure(&msg, b"ctx"),
                Message::prehash(&msg, b"", PreHash::ALL[i % 12]),
                Message::Internal(&msg),
                Message::ExternalMu(&mu),
            ] {
                assert_rejected(check(suite, &pk, m, &sig), "random");
            }
        }
        // An all-zero key (t1 = 0) is still a valid input.
        let zero = vec![0u8; pk_len];
        assert_rejected(check(suite, &zero, Message::pure(b"m", b""), &vec![0u8; sig_len]), "zero key");
    }
}

#[test]
fn suite_names_round_trip() {
    for suite in ML_DSA {
        assert_eq!(suite.name().parse::<Suite>(), Ok(suite));
        assert_eq!(suite.to_string(), suite.name());
    }
    assert_eq!("ml-dsa-44".parse::<Suite>(), Ok(Suite::MlDsa44));
    assert_eq!("Dilithium2".parse::<Suite>(), Err(Error::UnknownSuite));
    for h in PreHash::ALL {
        assert_eq!(h.name().parse::<PreHash>(), Ok(h));
        assert_eq!(PreHash::from_oid_der(&h.oid_der()), Some(h));
        assert_eq!(oracle::prehash(h, b"abc").len(), h.digest_len());
    }
    assert_eq!("MD5".parse::<PreHash>(), Err(Error::UnknownPreHash));
}

#[test]
fn a_batch_gives_each_signature_its_own_verdict() {
    let mut rng = Rng(7);
    let signed: Vec<(Suite, Signed)> = ML_DSA
        .iter()
        .flat_map(|&suite| (0..3).map(move |_| suite))
        .map(|suite| (suite, common::sign(suite, &mut rng, 300)))
        .collect();
    let keys: Vec<PreparedKey> = signed
        .iter()
        .map(|(suite, s)| PublicKey::from_raw(*suite, &s.pk).and_then(PreparedKey::new).unwrap())
        .collect();
    let (m_primes, mus): (Vec<Vec<u8>>, Vec<Vec<u8>>) = signed
        .iter()
        .map(|(_, s)| {
            let mp = m_prime(s);
            let mu = oracle::shake256(&[&oracle::shake256(&[&s.pk], 64), &mp], 64);
            (mp, mu)
        })
        .unzip();
    let long_context = [0u8; 256];
    // Per key: valid through every interface, then each way a request can fail (a
    // flipped bit in c̃, z and the hints; a signature one byte short; a context over
    // 255 bytes; a μ of 63 bytes; another key's signature).
    let mut flipped = Vec::new();
    for (_, s) in &signed {
        let sig = &s.pure;
        let hint_start = sig.len() - 1;
        flipped.push([0, sig.len() / 2, hint_start].map(|at| {
            let mut sig = sig.clone();
            sig[at] ^= 0x10;
            sig
        }));
    }
    let mut requests = Vec::new();
    let mut valid = Vec::new();
    for (i, ((_, s), key)) in signed.iter().zip(&keys).enumerate() {
        let other = &signed[(i + 1) % signed.len()].1;
        for (message, sig, ok) in [
            (Message::pure(&s.msg, &s.ctx), &s.pure[..], true),
            (Message::prehash(&s.msg, &s.ctx, s.hash), &s.prehashed[..], true),
            (Message::Internal(&m_primes[i]), &s.pure[..], true),
            (Message::ExternalMu(&mus[i]), &s.pure[..], true),
            (Message::pure(&s.msg, &s.ctx), &flipped[i][0][..], false),
            (Message::pure(&s.msg, &s.ctx), &flipped[i][1][..], false),
            (Message::pure(&s.msg, &s.ctx), &flipped[i][2][..], false),
            (Message::pure(&s.msg, &s.ctx), &s.pure[..s.pure.len() - 1], false),
            (Message::pure(&s.msg, &long_context), &s.pure[..], false),
            (Message::ExternalMu(&mus[i][..63]), &s.pure[..], false),
            (Message::pure(&other.msg, &other.ctx), &other.pure[..], false),
        ] {
            requests.push((key, message, sig));
            valid.push(ok);
        }
    }
    // Shuffled, so that every group mixes suites, interfaces and failures.
    let mut order: Vec<usize> = (0..requests.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let requests: Vec<_> = order.iter().map(|&i| requests[i]).collect();
    let valid: Vec<bool> = order.iter().map(|&i| valid[i]).collect();
    for n in [requests.len(), 1, 3, 4, 5, 8, 9] {
        let each = PreparedKey::verify_each(&requests[..n]);
        assert_eq!(each.len(), n);
        for (((key, message, sig), got), &ok) in requests.iter().zip(&each).zip(&valid) {
            assert_eq!(*got, key.verify(*message, sig), "verify_each and verify disagree");
            assert_eq!(got.is_ok(), ok, "{got:?}");
        }
    }
}
