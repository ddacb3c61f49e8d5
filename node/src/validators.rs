//! Quorum certificates: a validator set's keys prepared once on the thread pool, and
//! each certificate's signatures verified there (pqverify-native's `ValidatorSet`: eight
//! at a time through `PreparedKey::verify_each`, the chunks spread over the threads).
//! The certificate rule is checked on the calling thread, where breaking it throws.

use std::sync::Arc;

use napi::bindgen_prelude::{Object, Uint32Array};
use napi::{Env, Error};
use napi_derive::napi;
use pqverify_core::Message;
use pqverify_native::certificate::{self, CertificateError};

use crate::bytes::Bytes;
use crate::request::{self, invalid};
use crate::threads;

/// A validator set: every key decoded and expanded once, shared by the pool's threads.
#[napi]
pub struct ValidatorSet {
    /// `None` once released; a verification in flight keeps its own reference.
    set: Option<Arc<certificate::ValidatorSet>>,
    suite: &'static str,
    size: u32,
}

/// Prepares the keys of a validator set of the suite numbered `suite` (validator i is
/// `keys[i]`, encoded as format number `key_format`) on `threads` threads (0: the
/// machine's parallelism). Throws naming the first unusable key.
#[napi(js_name = "prepareValidators", catch_unwind)]
pub fn prepare_validators<'env>(
    env: &'env Env,
    suite: u32,
    key_format: u32,
    keys: Vec<Bytes<'_>>,
    threads: u32,
) -> napi::Result<Object<'env>> {
    let suite = request::suite(suite)?;
    let size = u32::try_from(keys.len()).map_err(|_| invalid("a validator set has at most 2^32 - 1 validators"))?;
    let raw = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let key = request::public_key(suite, key_format, key)
                .map_err(|e| Error::new(e.status, format!("validator {i}: {}", e.reason)))?;
            Ok(key.as_bytes().to_vec())
        })
        .collect::<napi::Result<Vec<_>>>()?;
    threads::spawn(env, threads, move || {
        // Inside the pool: its threads prepare the keys.
        let set = certificate::ValidatorSet::prepare(suite, &raw, None).map_err(certificate_error)?;
        Ok(ValidatorSet { set: Some(Arc::new(set)), suite: suite.name(), size })
    })
}

/// A certificate error as an error about the call, with pqverify-native's text.
fn certificate_error(e: CertificateError) -> Error {
    invalid(e.to_string())
}

#[napi]
impl ValidatorSet {
    /// The FIPS name of every key.
    #[napi(getter, catch_unwind)]
    pub fn suite(&self) -> &'static str {
        self.suite
    }

    /// Validators in the set.
    #[napi(getter, catch_unwind)]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Verifies a certificate on `threads` threads (0: the machine's parallelism):
    /// signature k is `signatures[k]`, by validator `signers[k]`, on `message` with
    /// `context` (pure ML-DSA.Verify / slh_verify). Resolves to the verdicts in order;
    /// throws when the certificate breaks the rule (a signer outside the set or twice,
    /// a context over 255 bytes).
    #[napi(catch_unwind)]
    pub fn verify<'env>(
        &self,
        env: &'env Env,
        message: Bytes<'_>,
        context: Bytes<'_>,
        signers: Uint32Array,
        signatures: Vec<Bytes<'_>>,
        threads: u32,
    ) -> napi::Result<Object<'env>> {
        let set = self
            .set
            .clone()
            .ok_or_else(|| Error::from_reason(format!("this {} validator set was released", self.suite)))?;
        if signers.len() != signatures.len() {
            return Err(invalid(format!(
                "a certificate needs one signer per signature, got {} signers and {} signatures",
                signers.len(),
                signatures.len()
            )));
        }
        request::certificate_rule(set.suite(), set.len(), signers.iter().map(|&i| i as usize), &context)?;
        let (message, context) = (message.to_vec(), context.to_vec());
        let signed: Vec<(usize, Vec<u8>)> =
            signers.iter().zip(&signatures).map(|(&i, signature)| (i as usize, signature.to_vec())).collect();
        threads::spawn(env, threads, move || {
            let signed: Vec<(usize, &[u8])> = signed.iter().map(|(i, s)| (*i, s.as_slice())).collect();
            let verdicts =
                set.verify_certificate(Message::pure(&message, &context), &signed, None).map_err(certificate_error)?;
            Ok(verdicts.0)
        })
    }

    /// Frees the prepared keys now (verifications in flight finish first).
    #[napi(catch_unwind)]
    pub fn release(&mut self) {
        self.set = None;
    }
}
