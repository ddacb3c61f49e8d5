//! The verifiers that answer in this process: pqverify (one-shot and prepared, on the
//! kernel set this process runs), the native crate's backends (liboqs linked, a liboqs
//! loaded at run time, the RustCrypto reference), `fips204`/`fips205`, libcrux-ml-dsa
//! and AWS-LC. Each answers a [`Case`] with one [`Answer`].

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use pqverify_core::{PreHash, PublicKey, Suite};
use pqverify_native::backend::{Backend, Request};

use crate::case::Case;

/// What a verifier said.
///
/// `false` and an error indication are both a rejection: FIPS 204 Algorithm 3 and
/// FIPS 205 Algorithm 24 return an error for a context over 255 bytes where other
/// libraries return false, and either way the signature is not accepted. A panic (or
/// an answer that is neither) is a fault, and disagrees with everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Accepted.
    Valid,
    /// Not accepted (false, or an error about the input).
    Rejected,
    /// Crashed or failed.
    Fault(String),
    /// This verifier has no such suite or input shape.
    Unsupported,
}

impl Answer {
    /// The one-letter form the verdict files use: `V`, `R`, `F`, `-`.
    pub fn letter(&self) -> char {
        match self {
            Answer::Valid => 'V',
            Answer::Rejected => 'R',
            Answer::Fault(_) => 'F',
            Answer::Unsupported => '-',
        }
    }

    fn of_bool(accepted: bool) -> Self {
        if accepted { Answer::Valid } else { Answer::Rejected }
    }
}

/// One implementation that verifies cases in this process.
pub trait Peer: Send + Sync {
    /// Its name in the tallies.
    fn name(&self) -> String;
    /// Its version, for the record.
    fn version(&self) -> String;
    /// Its answer to `case`; a panic is caught by [`answer`].
    fn verify(&self, case: &Case) -> Answer;
}

/// `peer`'s answer to `case`, with a panic turned into [`Answer::Fault`].
pub fn answer(peer: &dyn Peer, case: &Case) -> Answer {
    catch_unwind(AssertUnwindSafe(|| peer.verify(case))).unwrap_or_else(|p| {
        // A panic's payload is a &str (a literal message) or a String (a formatted one).
        let why = p.downcast_ref::<&str>().map(|s| (*s).to_owned()).or_else(|| p.downcast_ref::<String>().cloned());
        Answer::Fault(format!("panic: {}", why.unwrap_or_default()))
    })
}

/// pqverify's `verify` (one-shot) or `PreparedKey` (`prepared`).
pub struct Pqverify {
    /// Whether keys are prepared first.
    pub prepared: bool,
}

impl Peer for Pqverify {
    fn name(&self) -> String {
        if self.prepared { "pqverify-prepared".into() } else { "pqverify".into() }
    }
    fn version(&self) -> String {
        format!("{} ({} kernels)", env!("CARGO_PKG_VERSION"), pqverify_core::kernels())
    }
    fn verify(&self, c: &Case) -> Answer {
        let message = c.message();
        let result = if self.prepared {
            pqverify_core::PublicKey::from_raw(c.suite, &c.pk)
                .and_then(pqverify_core::PreparedKey::new)
                .and_then(|k| k.verify(message, &c.sig))
        } else {
            pqverify_core::PublicKey::from_raw(c.suite, &c.pk)
                .and_then(|key| pqverify_core::verify(key, message, &c.sig))
        };
        // Every error of a verify call is about its input: a rejection.
        Answer::of_bool(result.is_ok())
    }
}

/// A backend of `pqverify-native` (liboqs, the reference), under its own label.
pub struct NativeBackend {
    /// The name in the tallies.
    pub label: String,
    /// The backend.
    pub backend: Arc<dyn Backend>,
}

impl Peer for NativeBackend {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn version(&self) -> String {
        self.backend.version()
    }
    fn verify(&self, c: &Case) -> Answer {
        let message = c.message();
        if !self.backend.supports(c.suite, message.interface()) {
            return Answer::Unsupported;
        }
        // A request holds only a key of its suite's length (liboqs would read past the
        // end of a shorter one): that refusal is this project's code, not the peer's, so
        // it is made here.
        let Ok(public_key) = PublicKey::from_raw(c.suite, &c.pk) else {
            return Answer::Rejected;
        };
        let request = Request { public_key, message, signature: &c.sig };
        match self.backend.verdict(&request) {
            Ok(accepted) => Answer::of_bool(accepted),
            Err(fault) => Answer::Fault(fault.to_string()),
        }
    }
}

/// Copies `bytes` into an array of the exact length, or says "not this length".
fn exact<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
    bytes.try_into().ok()
}

/// `fips204` (ML-DSA) and `fips205` (SLH-DSA), the crates the test signers also use.
/// Pre-hash cases go to their `hash_verify` with the digest from the testkit's hash
/// crates and the OID from the crate's own table.
pub struct Fips20x;

/// Verifies with `fips204::$m` or `fips205::$m` (the two crates share their trait shapes).
macro_rules! fips_verify {
    ($krate:ident :: $m:ident, $c:expr) => {{
        use $krate::traits::{SerDes as _, Verifier as _};
        let (Some(pk), Some(sig)) = (exact($c.pk.as_slice()), exact($c.sig.as_slice())) else {
            return Answer::Rejected;
        };
        match ($krate::$m::PublicKey::try_from_bytes(pk), $c.prehash) {
            (Ok(pk), None) => Answer::of_bool(pk.verify(&$c.msg, &sig, &$c.ctx)),
            (Ok(pk), Some(hash)) => {
                use $krate::pre_hash as oid;
                let oid = match hash {
                    PreHash::Sha2_224 => oid::SHA2_224,
                    PreHash::Sha2_256 => oid::SHA2_256,
                    PreHash::Sha2_384 => oid::SHA2_384,
                    PreHash::Sha2_512 => oid::SHA2_512,
                    PreHash::Sha2_512_224 => oid::SHA2_512_224,
                    PreHash::Sha2_512_256 => oid::SHA2_512_256,
                    PreHash::Sha3_224 => oid::SHA3_224,
                    PreHash::Sha3_256 => oid::SHA3_256,
                    PreHash::Sha3_384 => oid::SHA3_384,
                    PreHash::Sha3_512 => oid::SHA3_512,
                    PreHash::Shake128 => oid::SHAKE_128,
                    PreHash::Shake256 => oid::SHAKE_256,
                };
                let digest = pqverify_testkit::oracle::prehash(hash, &$c.msg);
                Answer::of_bool(pk.hash_verify(&digest, &sig, &$c.ctx, &oid))
            }
            (Err(_), _) => Answer::Rejected,
        }
    }};
}

impl Peer for Fips20x {
    fn name(&self) -> String {
        "fips204-fips205".into()
    }
    fn version(&self) -> String {
        "fips204 0.5.0, fips205 0.5.0 (crates.io)".into()
    }
    fn verify(&self, c: &Case) -> Answer {
        match c.suite {
            Suite::MlDsa44 => fips_verify!(fips204::ml_dsa_44, c),
            Suite::MlDsa65 => fips_verify!(fips204::ml_dsa_65, c),
            Suite::MlDsa87 => fips_verify!(fips204::ml_dsa_87, c),
            Suite::SlhDsaSha2_128s => fips_verify!(fips205::slh_dsa_sha2_128s, c),
            Suite::SlhDsaSha2_128f => fips_verify!(fips205::slh_dsa_sha2_128f, c),
            Suite::SlhDsaSha2_192s => fips_verify!(fips205::slh_dsa_sha2_192s, c),
            Suite::SlhDsaSha2_192f => fips_verify!(fips205::slh_dsa_sha2_192f, c),
            Suite::SlhDsaSha2_256s => fips_verify!(fips205::slh_dsa_sha2_256s, c),
            Suite::SlhDsaSha2_256f => fips_verify!(fips205::slh_dsa_sha2_256f, c),
            Suite::SlhDsaShake128s => fips_verify!(fips205::slh_dsa_shake_128s, c),
            Suite::SlhDsaShake128f => fips_verify!(fips205::slh_dsa_shake_128f, c),
            Suite::SlhDsaShake192s => fips_verify!(fips205::slh_dsa_shake_192s, c),
            Suite::SlhDsaShake192f => fips_verify!(fips205::slh_dsa_shake_192f, c),
            Suite::SlhDsaShake256s => fips_verify!(fips205::slh_dsa_shake_256s, c),
            Suite::SlhDsaShake256f => fips_verify!(fips205::slh_dsa_shake_256f, c),
        }
    }
}

/// libcrux-ml-dsa (Cryspen's, verified with hax), on the kernels it picks at run time:
/// pure ML-DSA, and HashML-DSA with SHAKE128 (the one pre-hash it offers).
pub struct Libcrux;

macro_rules! libcrux_verify {
    ($m:ident, $key:ident, $sig:ident, $c:expr) => {{
        use libcrux_ml_dsa::$m::{$key, $sig};
        let (Some(pk), Some(sig)) = (exact($c.pk.as_slice()), exact($c.sig.as_slice())) else {
            return Answer::Rejected;
        };
        let (pk, sig) = (&$key::new(pk), &$sig::new(sig));
        Answer::of_bool(match $c.prehash {
            None => libcrux_ml_dsa::$m::verify(pk, &$c.msg, &$c.ctx, sig).is_ok(),
            Some(PreHash::Shake128) => {
                libcrux_ml_dsa::$m::verify_pre_hashed_shake128(pk, &$c.msg, &$c.ctx, sig).is_ok()
            }
            Some(_) => return Answer::Unsupported,
        })
    }};
}

impl Peer for Libcrux {
    fn name(&self) -> String {
        "libcrux-ml-dsa".into()
    }
    fn version(&self) -> String {
        "0.0.11 (crates.io)".into()
    }
    fn verify(&self, c: &Case) -> Answer {
        match c.suite {
            Suite::MlDsa44 => libcrux_verify!(ml_dsa_44, MLDSA44VerificationKey, MLDSA44Signature, c),
            Suite::MlDsa65 => libcrux_verify!(ml_dsa_65, MLDSA65VerificationKey, MLDSA65Signature, c),
            Suite::MlDsa87 => libcrux_verify!(ml_dsa_87, MLDSA87VerificationKey, MLDSA87Signature, c),
            _ => Answer::Unsupported,
        }
    }
}

/// AWS-LC through `aws-lc-rs`: pure ML-DSA with the empty context (its API has no other).
pub struct AwsLc;

impl Peer for AwsLc {
    fn name(&self) -> String {
        "aws-lc".into()
    }
    fn version(&self) -> String {
        "aws-lc-rs 1.19.0, aws-lc-sys 0.47.0 (crates.io)".into()
    }
    fn verify(&self, c: &Case) -> Answer {
        use aws_lc_rs::signature::{ML_DSA_44, ML_DSA_65, ML_DSA_87, UnparsedPublicKey};
        let algorithm = match c.suite {
            Suite::MlDsa44 => &ML_DSA_44,
            Suite::MlDsa65 => &ML_DSA_65,
            Suite::MlDsa87 => &ML_DSA_87,
            _ => return Answer::Unsupported,
        };
        if !c.ctx.is_empty() || c.prehash.is_some() {
            return Answer::Unsupported;
        }
        // A raw key whose length is not the suite's could parse as a DER key: refuse it first.
        if c.pk.len() != c.suite.public_key_len() {
            return Answer::Rejected;
        }
        Answer::of_bool(UnparsedPublicKey::new(algorithm, &c.pk).verify(&c.msg, &c.sig).is_ok())
    }
}

/// Every in-process verifier: pqverify twice, then the peers (`liboqs_path`: a liboqs
/// shared library to load as `liboqs-loaded`, beside the linked one).
pub fn all(liboqs_path: Option<&std::path::Path>) -> Result<Vec<Box<dyn Peer>>, String> {
    use pqverify_native::backend::{Liboqs, Reference};
    let mut peers: Vec<Box<dyn Peer>> = vec![
        Box::new(Pqverify { prepared: false }),
        Box::new(Pqverify { prepared: true }),
        Box::new(NativeBackend { label: "liboqs-linked".into(), backend: Arc::new(Liboqs::new()) }),
        Box::new(NativeBackend { label: "rustcrypto".into(), backend: Arc::new(Reference) }),
        Box::new(Fips20x),
        Box::new(Libcrux),
        Box::new(AwsLc),
    ];
    if let Some(path) = liboqs_path {
        let loaded = Liboqs::load(path).map_err(|e| format!("liboqs at {}: {e}", path.display()))?;
        peers.push(Box::new(NativeBackend { label: "liboqs-loaded".into(), backend: Arc::new(loaded) }));
    }
    Ok(peers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A verifier that panics with a formatted message.
    struct Panicking;

    impl Peer for Panicking {
        fn name(&self) -> String {
            "panicking".into()
        }
        fn version(&self) -> String {
            "0".into()
        }
        fn verify(&self, c: &Case) -> Answer {
            #[allow(clippy::panic, reason = "the panic under test")]
            {
                panic!("index {} out of range", c.sig.len())
            }
        }
    }

    #[test]
    fn a_panic_is_a_fault_that_keeps_its_message() {
        let case = Case {
            suite: Suite::MlDsa44,
            mutation: "valid".into(),
            prehash: None,
            pk: vec![],
            msg: vec![],
            ctx: vec![],
            sig: vec![0; 3],
        };
        assert_eq!(answer(&Panicking, &case), Answer::Fault("panic: index 3 out of range".into()));
    }
}
