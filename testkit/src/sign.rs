//! Keys and signatures from the independent signers (`fips204`, `fips205`).

use fips204::traits::{KeyGen as _, SerDes as _, Signer as _};
use pqverify_core::{PreHash, Suite};

use std::sync::OnceLock;

use crate::{NoRng, Rng, cache, oracle};

/// What a key pair is derived from: ξ for ML-DSA (FIPS 204 ML-DSA.KeyGen_internal),
/// SK.seed, SK.prf and PK.seed for SLH-DSA (the first n bytes of each).
#[derive(Clone, Debug)]
pub struct KeySeed {
    /// ξ (ML-DSA).
    pub xi: [u8; 32],
    /// SK.seed, SK.prf, PK.seed (SLH-DSA; n = 16, 24 or 32 bytes of each are used).
    pub slh: [[u8; 32]; 3],
}

impl KeySeed {
    /// Every byte of ξ set to `xi`, and of the three SLH-DSA seeds to `slh`.
    pub fn fill(xi: u8, slh: [u8; 3]) -> Self {
        KeySeed { xi: [xi; 32], slh: slh.map(|b| [b; 32]) }
    }

    /// Drawn from `rng`: 32 bytes for ML-DSA, three times n for SLH-DSA.
    pub fn draw(suite: Suite, rng: &mut Rng) -> Self {
        let mut seed = KeySeed::fill(0, [0; 3]);
        match slh_n(suite) {
            None => seed.xi = rng.array(),
            Some(n) => {
                for part in &mut seed.slh {
                    part[..n].copy_from_slice(&rng.bytes(n));
                }
            }
        }
        seed
    }
}

/// n for an SLH-DSA suite (its public key is PK.seed ‖ PK.root, 2n bytes), `None` for ML-DSA.
fn slh_n(suite: Suite) -> Option<usize> {
    (suite.family() == pqverify_core::Family::SlhDsa).then(|| suite.public_key_len() / 2)
}

/// What to sign: M with a context (pure), or PH(M) with a context and the hash's OID.
pub(crate) enum Request<'a> {
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    PreHash { digest: &'a [u8], ctx: &'a [u8], oid: &'a [u8] },
}

type SignFn = dyn Fn(Request<'_>, &[u8; 32]) -> Vec<u8> + Send + Sync;

/// A key pair of one suite from the independent signers.
pub struct KeyPair {
    suite: Suite,
    seed: KeySeed,
    public_key: Vec<u8>,
    /// The signer, derived when a signature is not in the cache (see [`cache`]).
    signer: OnceLock<Box<SignFn>>,
}

impl KeyPair {
    /// Derives the key pair of `suite` from `seed`.
    ///
    /// # Panics
    /// If the signer refuses its own seed (it does not for any suite).
    pub fn new(suite: Suite, seed: &KeySeed) -> Self {
        let signer = OnceLock::new();
        let key = cache::Key::new(suite, [&seed.xi, &seed.slh.concat()], &[b"public key"]);
        let public_key = key.read().unwrap_or_else(|| {
            let (public_key, sign) = Self::derive(suite, seed);
            let _ = signer.set(sign);
            key.write(&public_key);
            public_key
        });
        KeyPair { suite, seed: seed.clone(), public_key, signer }
    }

    /// The independent signer's key pair: the public key and the signing function.
    fn derive(suite: Suite, seed: &KeySeed) -> (Vec<u8>, Box<SignFn>) {
        macro_rules! ml {
            ($m:ident) => {{
                let (pk, sk) = fips204::$m::KG::keygen_from_seed(&seed.xi);
                let sign = move |r: Request<'_>, rnd: &[u8; 32]| {
                    let signed = match r {
                        Request::Pure { msg, ctx } => sk.try_sign_with_seed(rnd, msg, ctx),
                        Request::PreHash { digest, ctx, oid } => sk.try_hash_sign_with_seed(rnd, digest, ctx, oid),
                    };
                    #[allow(clippy::expect_used, reason = "the signer accepts every input the tests give")]
                    signed.expect("fips204 signs").to_vec()
                };
                (pk.into_bytes().to_vec(), Box::new(sign) as Box<SignFn>)
            }};
        }
        macro_rules! slh {
            ($m:ident, $n:literal) => {{
                use fips205::traits::{KeyGen as _, SerDes as _, Signer as _};
                let part = |i: usize| -> [u8; $n] { core::array::from_fn(|j| seed.slh[i][j]) };
                let (pk, sk) = fips205::$m::KG::keygen_from_seed::<$n>(&part(0), &part(1), &part(2));
                // Deterministic signing: `rnd` is not used.
                let sign = move |r: Request<'_>, _: &[u8; 32]| {
                    let signed = match r {
                        Request::Pure { msg, ctx } => sk.try_sign_with_rng(&mut NoRng, msg, ctx, false),
                        Request::PreHash { digest, ctx, oid } => {
                            sk.try_hash_sign_with_rng(&mut NoRng, digest, ctx, oid, false)
                        }
                    };
                    #[allow(clippy::expect_used, reason = "the signer accepts every input the tests give")]
                    signed.expect("fips205 signs").to_vec()
                };
                (pk.into_bytes().to_vec(), Box::new(sign) as Box<SignFn>)
            }};
        }
        match suite {
            Suite::MlDsa44 => ml!(ml_dsa_44),
            Suite::MlDsa65 => ml!(ml_dsa_65),
            Suite::MlDsa87 => ml!(ml_dsa_87),
            Suite::SlhDsaSha2_128s => slh!(slh_dsa_sha2_128s, 16),
            Suite::SlhDsaSha2_128f => slh!(slh_dsa_sha2_128f, 16),
            Suite::SlhDsaSha2_192s => slh!(slh_dsa_sha2_192s, 24),
            Suite::SlhDsaSha2_192f => slh!(slh_dsa_sha2_192f, 24),
            Suite::SlhDsaSha2_256s => slh!(slh_dsa_sha2_256s, 32),
            Suite::SlhDsaSha2_256f => slh!(slh_dsa_sha2_256f, 32),
            Suite::SlhDsaShake128s => slh!(slh_dsa_shake_128s, 16),
            Suite::SlhDsaShake128f => slh!(slh_dsa_shake_128f, 16),
            Suite::SlhDsaShake192s => slh!(slh_dsa_shake_192s, 24),
            Suite::SlhDsaShake192f => slh!(slh_dsa_shake_192f, 24),
            Suite::SlhDsaShake256s => slh!(slh_dsa_shake_256s, 32),
            Suite::SlhDsaShake256f => slh!(slh_dsa_shake_256f, 32),
        }
    }

    /// `request` signed, from the cache where it holds it.
    fn sign_request(&self, request: Request<'_>, rnd: &[u8; 32]) -> Vec<u8> {
        let seed = [&self.seed.xi[..], &self.seed.slh.concat()];
        let key = match request {
            Request::Pure { msg, ctx } => cache::Key::new(self.suite, seed, &[b"pure", msg, ctx, rnd]),
            Request::PreHash { digest, ctx, oid } => {
                cache::Key::new(self.suite, seed, &[b"pre-hash", digest, ctx, oid, rnd])
            }
        };
        key.read().unwrap_or_else(|| {
            let sign = self.signer.get_or_init(|| Self::derive(self.suite, &self.seed).1);
            let signature = sign(request, rnd);
            key.write(&signature);
            signature
        })
    }

    /// The suite.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// The encoded public key.
    pub fn public_key(&self) -> &[u8] {
        &self.public_key
    }

    /// A pure signature on `msg` with context `ctx` (|ctx| ≤ 255). ML-DSA signs hedged
    /// with `rnd`; SLH-DSA deterministically (`rnd` unused).
    pub fn sign(&self, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
        self.sign_request(Request::Pure { msg, ctx }, rnd)
    }

    /// A pre-hash signature (HashML-DSA / HashSLH-DSA) on `msg` under `hash`, the
    /// digest computed by the independent [`oracle::prehash`].
    pub fn hash_sign(&self, hash: PreHash, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
        let digest = oracle::prehash(hash, msg);
        self.sign_request(Request::PreHash { digest: &digest, ctx, oid: &hash.oid_der() }, rnd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_signs_and_pqverify_accepts() {
        let mut rng = Rng(5);
        for suite in Suite::ALL {
            let pair = KeyPair::new(suite, &KeySeed::draw(suite, &mut rng));
            assert_eq!(pair.public_key().len(), suite.public_key_len());
            let sig = pair.sign(b"message", b"ctx", &[3; 32]);
            let ok = pqverify_core::PublicKey::from_raw(suite, pair.public_key())
                .and_then(|key| pqverify_core::verify(key, pqverify_core::Message::pure(b"message", b"ctx"), &sig));
            assert!(ok.is_ok(), "{suite}: {ok:?}");
            if ![Suite::MlDsa44, Suite::SlhDsaShake128f].contains(&suite) {
                continue;
            }
            let sig = pair.hash_sign(PreHash::Sha2_256, b"m", b"", &[4; 32]);
            let ok = pqverify_core::PublicKey::from_raw(suite, pair.public_key()).and_then(|key| {
                pqverify_core::verify(key, pqverify_core::Message::prehash(b"m", b"", PreHash::Sha2_256), &sig)
            });
            assert!(ok.is_ok(), "{suite}: {ok:?}");
        }
    }
}
