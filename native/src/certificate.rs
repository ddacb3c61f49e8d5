//! Quorum certificates: n validators' signatures on one message (a block hash), the
//! validators' keys known in advance. A [`ValidatorSet`] prepares every key once (per
//! epoch); [`ValidatorSet::verify_certificate`] checks a certificate's signatures on a rayon pool,
//! verdicts in input order; [`verify_one_shot`] does the same with keys decoded per
//! signature (a set seen once). pqverify-core verifies; a signature that is not valid is
//! `false`, never an error. Errors are reserved for a certificate that cannot be
//! checked as given: a validator index outside the set, a validator named twice (a
//! quorum counts distinct validators), a key of the wrong length, a context or μ of
//! the wrong length.

pub use pqverify_core::certificate::CertificateError as Rule;
use pqverify_core::certificate::check_certificate;
use pqverify_core::{Error, Message, PreparedKey, PublicKey, Suite};
use rayon::prelude::*;

/// Signatures one rayon task verifies with [`PreparedKey::verify_each`].
const SIDE_BY_SIDE: usize = 8;

/// Why a certificate could not be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// The key of validator `index` is unusable for the suite.
    Key {
        /// The validator's index in the set.
        index: usize,
        /// What pqverify-core says of the key.
        error: Error,
    },
    /// The certificate breaks pqverify-core's rule: a signer outside the set, a signer
    /// twice, or a message unusable for the suite.
    Rule(Rule),
}

impl std::fmt::Display for CertificateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CertificateError::Key { index, error } => write!(f, "validator {index}: {error}"),
            CertificateError::Rule(rule) => write!(f, "{rule}"),
        }
    }
}

impl std::error::Error for CertificateError {}

/// The verdicts of one certificate, in the order of its signatures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdicts(pub Vec<bool>);

impl Verdicts {
    /// How many signatures verify (distinct validators: duplicates are refused).
    pub fn valid(&self) -> usize {
        self.0.iter().filter(|v| **v).count()
    }

    /// Whether at least `threshold` signatures verify.
    pub fn reaches(&self, threshold: usize) -> bool {
        self.valid() >= threshold
    }
}

/// A validator set's keys, each decoded and expanded once (FIPS 204 ExpandA and
/// t1·2^d in the NTT domain; for SLH-DSA the key bytes), shared by every thread.
pub struct ValidatorSet {
    suite: Suite,
    keys: Vec<PreparedKey>,
}

impl ValidatorSet {
    /// Prepares the keys of a set (validator i is `public_keys[i]`), on `pool`'s
    /// threads (or rayon's global pool); the first unusable key is an error naming it.
    pub fn prepare<K: AsRef<[u8]> + Sync>(
        suite: Suite,
        public_keys: &[K],
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<Self, CertificateError> {
        let prepare = || {
            public_keys
                .par_iter()
                .enumerate()
                .map(|(index, key)| {
                    PublicKey::from_raw(suite, key.as_ref())
                        .and_then(PreparedKey::new)
                        .map_err(|error| CertificateError::Key { index, error })
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let keys = on(pool, prepare)?;
        Ok(ValidatorSet { suite, keys })
    }

    /// The suite of every key.
    pub fn suite(&self) -> Suite {
        self.suite
    }

    /// Validators in the set.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the set has no validator.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Verifies a certificate: `signatures` as (validator index, signature) on
    /// `message`, on `pool`'s threads (or rayon's global pool).
    pub fn verify_certificate(
        &self,
        message: Message<'_>,
        signatures: &[(usize, &[u8])],
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<Verdicts, CertificateError> {
        check_certificate(self.suite, message, self.keys.len(), signatures.iter().map(|&(index, _)| index))
            .map_err(CertificateError::Rule)?;
        // In chunks that `PreparedKey::verify_each` verifies side by side (eight fill
        // the AVX-512 Keccak kernel's lanes, two groups of four fill the others).
        let run = || {
            signatures
                .par_chunks(SIDE_BY_SIDE)
                .flat_map_iter(|chunk| {
                    let requests: Vec<_> =
                        chunk.iter().map(|&(index, signature)| (&self.keys[index], message, signature)).collect();
                    PreparedKey::verify_each(&requests).into_iter().map(|verdict| verdict.is_ok())
                })
                .collect()
        };
        Ok(Verdicts(on(pool, run)))
    }
}

/// Verifies a certificate whose keys are decoded per signature: `pairs` as (public
/// key, signature) of distinct validators on `message` (the caller checked the signers
/// with [`check_certificate`]).
pub fn verify_one_shot(
    suite: Suite,
    message: Message<'_>,
    pairs: &[(&[u8], &[u8])],
    pool: Option<&rayon::ThreadPool>,
) -> Result<Verdicts, CertificateError> {
    message.check_for(suite).map_err(|e| CertificateError::Rule(Rule::Message(e)))?;
    for (index, (key, _)) in pairs.iter().enumerate() {
        PublicKey::from_raw(suite, key).map_err(|error| CertificateError::Key { index, error })?;
    }
    let run = || {
        pairs
            .par_iter()
            .map(|&(key, signature)| {
                pqverify_core::PublicKey::from_raw(suite, key)
                    .and_then(|key| pqverify_core::verify(key, message, signature))
                    .is_ok()
            })
            .collect()
    };
    Ok(Verdicts(on(pool, run)))
}

/// Runs `work` on `pool`'s threads, or on rayon's global pool.
fn on<T: Send>(pool: Option<&rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

#[cfg(test)]
mod tests {
    use pqverify_testkit::{KeyPair, KeySeed};

    use super::*;

    /// n validators of `suite`, each signing `block`.
    fn certificate(suite: Suite, n: u8, block: &[u8]) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        (0..n)
            .map(|i| {
                let key = KeyPair::new(suite, &KeySeed::fill(i, [i, i ^ 1, i ^ 2]));
                (key.public_key().to_vec(), key.sign(block, b"", &[i; 32]))
            })
            .unzip()
    }

    #[test]
    fn a_certificate_verifies_in_order_prepared_and_one_shot_on_any_pool() {
        let block = [7u8; 32];
        for suite in [Suite::MlDsa44, Suite::SlhDsaShake128f] {
            let (keys, mut sigs) = certificate(suite, 6, &block);
            sigs[3][5] ^= 1;
            let message = Message::pure(&block, b"");
            let signed: Vec<(usize, &[u8])> = sigs.iter().enumerate().map(|(i, s)| (i, s.as_slice())).collect();
            let pairs: Vec<(&[u8], &[u8])> =
                keys.iter().zip(&sigs).map(|(k, s)| (k.as_slice(), s.as_slice())).collect();
            let expected = Verdicts(vec![true, true, true, false, true, true]);
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let set = ValidatorSet::prepare(suite, &keys, Some(&pool)).unwrap();
                assert_eq!(set.len(), 6);
                assert_eq!(
                    set.verify_certificate(message, &signed, Some(&pool)).unwrap(),
                    expected,
                    "{suite} prepared, {threads}"
                );
                assert_eq!(verify_one_shot(suite, message, &pairs, Some(&pool)).unwrap(), expected, "{suite} one-shot");
            }
            let verdicts = expected;
            assert_eq!(verdicts.valid(), 5);
            assert!(verdicts.reaches(5) && !verdicts.reaches(6));
            // A subset in another order: verdicts follow the certificate's order.
            let set = ValidatorSet::prepare(suite, &keys, None).unwrap();
            let subset = [(5, sigs[5].as_slice()), (3, sigs[3].as_slice()), (0, sigs[0].as_slice())];
            assert_eq!(set.verify_certificate(message, &subset, None).unwrap(), Verdicts(vec![true, false, true]));
            // Another message: nothing verifies.
            assert_eq!(set.verify_certificate(Message::pure(&[8; 32], b""), &signed, None).unwrap().valid(), 0);
        }
    }

    #[test]
    fn a_certificate_that_cannot_be_checked_says_why() {
        let block = [1u8; 32];
        let (keys, sigs) = certificate(Suite::MlDsa44, 3, &block);
        let message = Message::pure(&block, b"");
        let set = ValidatorSet::prepare(Suite::MlDsa44, &keys, None).unwrap();
        let err = set.verify_certificate(message, &[(0, &sigs[0]), (3, &sigs[1])], None).unwrap_err();
        assert_eq!(err, CertificateError::Rule(Rule::NoSuchValidator { signature: 1, index: 3, validators: 3 }));
        assert_eq!(err.to_string(), "certificate signature 1 names validator 3, not in the set of 3 (indices 0 to 2)");
        let err = set.verify_certificate(message, &[(1, &sigs[1]), (1, &sigs[1])], None).unwrap_err();
        assert_eq!(err, CertificateError::Rule(Rule::Duplicate { index: 1 }));
        let long = [0u8; 256];
        let err = set.verify_certificate(Message::pure(&block, &long), &[(0, &sigs[0])], None).unwrap_err();
        assert!(matches!(err, CertificateError::Rule(Rule::Message(Error::ContextLength { got: 256 }))), "{err}");
        let mut short = keys.clone();
        short[2].pop();
        let err = ValidatorSet::prepare(Suite::MlDsa44, &short, None).err().unwrap();
        assert!(matches!(err, CertificateError::Key { index: 2, .. }), "{err}");
        assert!(err.to_string().starts_with("validator 2: public key is 1311 bytes"), "{err}");
        let pairs = [(short[0].as_slice(), sigs[0].as_slice()), (short[2].as_slice(), sigs[2].as_slice())];
        let err = verify_one_shot(Suite::MlDsa44, message, &pairs, None).unwrap_err();
        assert!(matches!(err, CertificateError::Key { index: 1, .. }), "{err}");
        // An empty certificate is checkable: nothing verifies.
        assert_eq!(set.verify_certificate(message, &[], None).unwrap().valid(), 0);
    }
}
