//! The case generator: valid signatures from the testkit's independent signers
//! (`fips204`, `fips205`), then mutations aimed at every region of the signature and
//! the key and at every rule of FIPS 204/205 verification. Deterministic in the seed:
//! chunk `k` of a campaign is the same bytes on every machine.

use pqverify_core::{Family, PreHash, Suite};
use pqverify_testkit::{KeyPair, KeySeed, Rng};

use crate::case::Case;

/// A valid signature (pure, or pre-hash under `prehash`) and a second key of the same suite.
#[derive(Clone)]
pub struct Signed {
    prehash: Option<PreHash>,
    pk: Vec<u8>,
    other_pk: Vec<u8>,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    sig: Vec<u8>,
}

/// The campaign's share of each suite: `ml_dsa` parts per ML-DSA set (where the
/// encodings have most rules) to one per SLH-DSA set.
pub fn weight(suite: Suite, ml_dsa: u64) -> u64 {
    if suite.family() == Family::MlDsa { ml_dsa } else { 1 }
}

/// The default ML-DSA weight: a third of the cases are SLH-DSA's.
pub const ML_DSA_WEIGHT: u64 = 8;

/// Cases drawn from one valid signature before the next is made (SLH-DSA signing takes
/// up to seconds, so its signatures are made once per campaign and reused).
const ML_DSA_CASES_PER_SIGNATURE: usize = 16;

/// The SLH-DSA signatures a campaign reuses, per suite.
pub const SLH_DSA_SIGNATURES: usize = 2;

/// A context length as applications use them: empty half the time, the 255-byte
/// maximum one time in ten, else 1 to 64 bytes.
fn context(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        0..=4 => Vec::new(),
        5 => rng.bytes(255),
        _ => {
            let len = 1 + rng.below(64);
            rng.bytes(len)
        }
    }
}

/// One ML-DSA signature in this many is a pre-hash one (HashML-DSA, FIPS 204 Algorithm 4).
const ML_DSA_PREHASH_ONE_IN: usize = 4;

/// A fresh valid signature of `suite` drawn from `rng`: pure, or HashML-DSA /
/// HashSLH-DSA under `prehash`.
pub fn sign(suite: Suite, prehash: Option<PreHash>, rng: &mut Rng) -> Signed {
    let msg_len = rng.below(128);
    let msg = rng.bytes(msg_len);
    let ctx = context(rng);
    let pair = KeyPair::new(suite, &KeySeed::draw(suite, rng));
    let other = KeyPair::new(suite, &KeySeed::draw(suite, rng));
    let sig = match prehash {
        None => pair.sign(&msg, &ctx, &rng.array()),
        Some(hash) => pair.hash_sign(hash, &msg, &ctx, &rng.array()),
    };
    Signed { prehash, pk: pair.public_key().to_vec(), other_pk: other.public_key().to_vec(), msg, ctx, sig }
}

/// Any of the twelve approved pre-hash functions.
fn any_prehash(rng: &mut Rng) -> PreHash {
    PreHash::ALL[rng.below(PreHash::ALL.len())]
}

/// The reused signatures of an SLH-DSA suite for a campaign seed (none for ML-DSA): a
/// pure one and a HashSLH-DSA one (FIPS 205 Algorithm 23) under a drawn pre-hash.
pub fn pool(suite: Suite, seed: u64) -> Vec<Signed> {
    if suite.family() == Family::MlDsa {
        return Vec::new();
    }
    let mut rng = Rng(seed ^ 0x5151_0000 ^ suite_salt(suite));
    (0..SLH_DSA_SIGNATURES)
        .map(|i| {
            let prehash = (i % 2 == 1).then(|| any_prehash(&mut rng));
            sign(suite, prehash, &mut rng)
        })
        .collect()
}

fn suite_salt(suite: Suite) -> u64 {
    (suite as u64 + 1).wrapping_mul(0x1000_0001)
}

/// `count` cases of `suite` for chunk `chunk` of the campaign with `seed`.
pub fn cases(suite: Suite, seed: u64, chunk: u64, count: usize, pool: &[Signed]) -> Vec<Case> {
    let mut rng = Rng(seed ^ suite_salt(suite) ^ chunk.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut out = Vec::with_capacity(count);
    let mut signed = None;
    for i in 0..count {
        let base = match suite.family() {
            Family::MlDsa => {
                if i % ML_DSA_CASES_PER_SIGNATURE == 0 {
                    let prehash = (rng.below(ML_DSA_PREHASH_ONE_IN) == 0).then(|| any_prehash(&mut rng));
                    signed = Some(sign(suite, prehash, &mut rng));
                }
                signed.as_ref()
            }
            Family::SlhDsa => pool.get(rng.below(pool.len())),
        };
        if let Some(base) = base {
            out.push(mutate(suite, base, &mut rng));
        }
    }
    out
}

/// The mutation name of the outside vectors (`outside_cases`).
pub const WYCHEPROOF_USE_HINT: &str = "wycheproof-use-hint-1-0";

/// Valid signatures from outside vectors that one verifier is known to get wrong: the
/// three Wycheproof ML-DSA cases whose verification calls UseHint(1, 0)
/// (`native/tests/data/wycheproof-use-hint/`), asked in every campaign's first chunk.
pub fn outside_cases() -> Result<Vec<Case>, String> {
    let text = include_str!("../../native/tests/data/wycheproof-use-hint/cases.jsonl");
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("wycheproof case: {e}"))?;
            let field =
                |k: &str| hex::decode(v[k].as_str().unwrap_or_default()).map_err(|e| format!("wycheproof {k}: {e}"));
            let suite = v["suite"].as_str().and_then(|s| s.parse().ok()).ok_or("wycheproof case: no suite")?;
            Ok(Case {
                suite,
                mutation: WYCHEPROOF_USE_HINT.into(),
                prehash: None,
                pk: field("pk")?,
                msg: field("msg")?,
                ctx: Vec::new(),
                sig: field("sig")?,
            })
        })
        .collect()
}

/// The ML-DSA signature layout: (λ/4, bytes per z polynomial, ℓ, ω, k, γ1, β).
fn ml_dsa_layout(suite: Suite) -> (usize, usize, usize, usize, usize, i64, i64) {
    match suite {
        Suite::MlDsa44 => (32, 576, 4, 80, 4, 1 << 17, 78),
        Suite::MlDsa65 => (48, 640, 5, 55, 6, 1 << 19, 196),
        _ => (64, 640, 7, 75, 8, 1 << 19, 120),
    }
}

/// (name, start, end) of the signature's parts, for region-aimed bit flips.
fn regions(suite: Suite) -> Vec<(&'static str, usize, usize)> {
    let len = suite.signature_len();
    match suite.family() {
        Family::MlDsa => {
            let (c, zpoly, l, omega, k, ..) = ml_dsa_layout(suite);
            vec![
                ("c-tilde", 0, c),
                ("z", c, c + l * zpoly),
                ("hint-indices", c + l * zpoly, c + l * zpoly + omega),
                ("hint-counts", len - k, len),
            ]
        }
        Family::SlhDsa => {
            let n = suite.public_key_len() / 2;
            // R, then SIG_FORS (k(1+a)n bytes), then the hypertree's d XMSS signatures.
            let (k, a) = match suite {
                Suite::SlhDsaSha2_128s | Suite::SlhDsaShake128s => (14, 12),
                Suite::SlhDsaSha2_128f | Suite::SlhDsaShake128f => (33, 6),
                Suite::SlhDsaSha2_192s | Suite::SlhDsaShake192s => (17, 14),
                Suite::SlhDsaSha2_192f | Suite::SlhDsaShake192f => (33, 8),
                Suite::SlhDsaSha2_256s | Suite::SlhDsaShake256s => (22, 14),
                _ => (35, 9),
            };
            let fors_end = n + k * (1 + a) * n;
            vec![("R", 0, n), ("FORS", n, fors_end), ("hypertree", fors_end, len), ("last-layer", len - len / 8, len)]
        }
    }
}

fn flip_bit(bytes: &mut [u8], start: usize, end: usize, rng: &mut Rng) {
    if end > start && end <= bytes.len() {
        let bit = start * 8 + rng.below((end - start) * 8);
        bytes[bit / 8] ^= 1 << (bit % 8);
    }
}

/// One mutation of a valid signature (or none: `valid`). A pre-hash signature's cases
/// are named `hash-` and the mutation; the pre-hash mutations move a signature between
/// the interfaces or the hash functions (M′ differs: FIPS 204 Algorithms 3 and 5,
/// FIPS 205 Algorithms 24 and 25), which must reject.
fn mutate(suite: Suite, s: &Signed, rng: &mut Rng) -> Case {
    let mut c = Case {
        suite,
        mutation: String::new(),
        prehash: s.prehash,
        pk: s.pk.clone(),
        msg: s.msg.clone(),
        ctx: s.ctx.clone(),
        sig: s.sig.clone(),
    };
    let pick = rng.below(26);
    c.mutation = match pick {
        24 | 25 => {
            return match (s.prehash, pick) {
                (Some(signed), 24) => {
                    // The same signature claimed under another pre-hash (its OID and digest).
                    let others: Vec<PreHash> = PreHash::ALL.into_iter().filter(|&h| h != signed).collect();
                    c.prehash = Some(others[rng.below(others.len())]);
                    c.mutation = "prehash-other-hash".into();
                    c
                }
                (Some(_), _) => {
                    c.prehash = None;
                    c.mutation = "prehash-dropped".into();
                    c
                }
                (None, _) => {
                    c.prehash = Some(any_prehash(rng));
                    c.mutation = "prehash-added".into();
                    c
                }
            };
        }
        0..=2 => "valid".into(),
        3..=8 => {
            let regions = regions(suite);
            let (name, a, b) = regions[rng.below(regions.len())];
            flip_bit(&mut c.sig, a, b, rng);
            format!("flip-{name}")
        }
        9 => {
            let cut = 1 + rng.below(8);
            c.sig.truncate(c.sig.len().saturating_sub(cut));
            "truncate".into()
        }
        10 => {
            let more = 1 + rng.below(8);
            c.sig.extend(rng.bytes(more));
            "extend".into()
        }
        11 => {
            let n = if suite.family() == Family::MlDsa { 32 } else { suite.public_key_len() / 2 };
            // ρ (ML-DSA) or PK.seed (SLH-DSA): the first n bytes of the key.
            flip_bit(&mut c.pk, 0, n, rng);
            if suite.family() == Family::MlDsa { "pk-rho" } else { "pk-seed" }.into()
        }
        12 => {
            let n = if suite.family() == Family::MlDsa { 32 } else { suite.public_key_len() / 2 };
            let len = c.pk.len();
            flip_bit(&mut c.pk, n, len, rng);
            if suite.family() == Family::MlDsa { "pk-t1" } else { "pk-root" }.into()
        }
        13 => {
            if rng.below(2) == 0 {
                c.pk.pop();
            } else {
                c.pk.push(0);
            }
            "pk-length".into()
        }
        14 => {
            c.msg.push(rng.next_u64() as u8);
            "message-extended".into()
        }
        15 => {
            let len = 1 + rng.below(20);
            c.ctx = rng.bytes(len);
            "wrong-context".into()
        }
        16 => {
            // One byte past FIPS 204/205's 255-byte limit: an error, never a verdict of valid.
            let mut ctx = c.ctx.clone();
            ctx.resize(256, 0x5a);
            c.ctx = ctx;
            "context-256".into()
        }
        17 => {
            c.pk = s.other_pk.clone();
            "other-key".into()
        }
        _ => match suite.family() {
            Family::MlDsa => ml_dsa_encoding(suite, &mut c, pick, rng),
            Family::SlhDsa => {
                let n = suite.public_key_len() / 2;
                let at = rng.below(c.sig.len() / n) * n;
                let node = rng.bytes(n);
                c.sig[at..at + n].copy_from_slice(&node);
                "node-replaced".into()
            }
        },
    };
    if c.prehash.is_some() {
        c.mutation = format!("hash-{}", c.mutation);
    }
    c
}

/// The ML-DSA mutations aimed at one rule of FIPS 204's decoding and bounds: z at and
/// past ‖z‖∞ < γ1 − β, and the hint encoding (Algorithm 21 HintBitUnpack) at its limits.
fn ml_dsa_encoding(suite: Suite, c: &mut Case, pick: usize, rng: &mut Rng) -> String {
    let (c_len, zpoly, _, omega, k, gamma1, beta) = ml_dsa_layout(suite);
    let bits = if gamma1 == 1 << 17 { 18 } else { 20 };
    let len = c.sig.len();
    let hints = len - omega - k;
    let counts: Vec<usize> = c.sig[len - k..].iter().map(|&b| usize::from(b)).collect();
    match pick {
        18 | 19 => {
            // A z coefficient (any of the first polynomial's) set to ±(γ1 − β) (the
            // first value that fails the bound) or past it.
            let past = pick == 19;
            let magnitude = gamma1 - beta + if past { 1 + rng.below(beta as usize) as i64 } else { 0 };
            let z = if rng.below(2) == 0 { magnitude } else { -magnitude };
            let v = (gamma1 - z) as u32;
            let coefficient = rng.below(zpoly * 8 / bits);
            for b in 0..bits {
                let pos = c_len * 8 + coefficient * bits + b;
                let bit = ((v >> b) & 1) as u8;
                c.sig[pos / 8] = (c.sig[pos / 8] & !(1 << (pos % 8))) | (bit << (pos % 8));
            }
            if past { "z-past-bound" } else { "z-at-bound" }.into()
        }
        20 => {
            // A count made to decrease, or the last one past ω.
            if rng.below(2) == 0 {
                let i = rng.below(k - 1);
                c.sig[len - k + i] = c.sig[len - k + i + 1].wrapping_add(1);
                "hint-counts-decreasing".into()
            } else {
                c.sig[len - 1] = (omega + 1 + rng.below(256 - omega - 1)) as u8;
                "hint-count-past-omega".into()
            }
        }
        21 => {
            // Two indices of one polynomial swapped or made equal: the same set of
            // positions, in a form FIPS 204 does not accept (indices strictly increase).
            let mut start = 0;
            let poly = counts.iter().position(|&end| {
                let many = end >= start + 2;
                if !many {
                    start = end;
                }
                many
            });
            match poly {
                Some(p) => {
                    let span = counts[p] - start;
                    let j = hints + start + rng.below(span - 1);
                    if rng.below(2) == 0 {
                        c.sig.swap(j, j + 1);
                        "hint-indices-swapped".into()
                    } else {
                        c.sig[j + 1] = c.sig[j];
                        "hint-index-repeated".into()
                    }
                }
                None => {
                    flip_bit(&mut c.sig, hints, hints + omega, rng);
                    "flip-hint-indices".into()
                }
            }
        }
        _ => {
            // A non-zero byte in the padding after the last hint index: the same hints,
            // and FIPS 204 requires the padding to be zero.
            let used = counts[k - 1].min(omega);
            if used < omega {
                let at = hints + used + rng.below(omega - used);
                c.sig[at] = 1 + rng.below(255) as u8;
                "hint-padding".into()
            } else {
                flip_bit(&mut c.sig, hints, hints + omega, rng);
                "flip-hint-indices".into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    #[test]
    fn the_outside_cases_are_the_three_valid_wycheproof_signatures() {
        let cases = outside_cases().unwrap();
        assert_eq!(cases.len(), 3);
        for c in cases {
            pqverify_core::PublicKey::from_raw(c.suite, &c.pk)
                .and_then(|key| pqverify_core::verify(key, pqverify_core::Message::pure(&c.msg, b""), &c.sig))
                .unwrap();
        }
    }

    #[test]
    fn the_slh_dsa_pool_holds_a_pure_and_a_prehash_signature_that_verify() {
        let suite = Suite::SlhDsaShake128f;
        let pool = pool(suite, 3);
        assert_eq!(pool.iter().map(|s| s.prehash.is_some()).collect::<Vec<_>>(), [false, true]);
        for s in &pool {
            let message = match s.prehash {
                None => pqverify_core::Message::pure(&s.msg, &s.ctx),
                Some(hash) => pqverify_core::Message::prehash(&s.msg, &s.ctx, hash),
            };
            pqverify_core::PublicKey::from_raw(suite, &s.pk)
                .and_then(|key| pqverify_core::verify(key, message, &s.sig))
                .unwrap();
        }
    }

    #[test]
    fn a_chunk_is_the_same_bytes_every_time_and_differs_from_the_next() {
        let a = cases(Suite::MlDsa44, 7, 3, 40, &[]);
        assert_eq!(a, cases(Suite::MlDsa44, 7, 3, 40, &[]));
        assert_ne!(a, cases(Suite::MlDsa44, 7, 4, 40, &[]));
        assert_eq!(a.len(), 40);
    }

    #[test]
    fn every_ml_dsa_mutation_is_drawn_and_valid_cases_verify() {
        let mut seen = std::collections::BTreeSet::new();
        for suite in [Suite::MlDsa44, Suite::MlDsa65, Suite::MlDsa87] {
            for case in cases(suite, 1, 0, 600, &[]) {
                if case.mutation == "valid" || case.mutation == "hash-valid" {
                    pqverify_core::PublicKey::from_raw(suite, &case.pk)
                        .and_then(|key| pqverify_core::verify(key, case.message(), &case.sig))
                        .unwrap();
                }
                assert_eq!(
                    case.prehash.is_some(),
                    case.mutation.starts_with("hash-")
                        || case.mutation.starts_with("prehash-other")
                        || case.mutation == "prehash-added",
                    "{}",
                    case.mutation
                );
                if case.mutation.trim_start_matches("hash-").starts_with("hint-")
                    || case.mutation.trim_start_matches("hash-").starts_with("z-")
                {
                    assert_eq!(case.sig.len(), suite.signature_len(), "{}", case.mutation);
                }
                seen.insert(case.mutation);
            }
        }
        for m in [
            "valid",
            "z-at-bound",
            "z-past-bound",
            "hint-padding",
            "hint-indices-swapped",
            "hint-index-repeated",
            "hint-count-past-omega",
            "hint-counts-decreasing",
            "context-256",
            "pk-t1",
            "pk-rho",
            "hash-valid",
            "hash-z-past-bound",
            "prehash-other-hash",
            "prehash-dropped",
            "prehash-added",
        ] {
            assert!(seen.contains(m), "{m} never drawn: {seen:?}");
        }
    }
}
