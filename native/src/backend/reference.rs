//! The independent pure-Rust reference: RustCrypto `ml-dsa` and `slh-dsa`.
//!
//! It stands in as the primary verifier wherever the linked liboqs lacks a suite or
//! an interface. For pre-hash it forms M′ = 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M) itself, with
//! PH from the `sha2`/`sha3`/`shake` crates, and calls the internal interface.

use super::Fault;
use ml_dsa::{EncodedVerifyingKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams};
use pqverify_core::{Message, PreHash, Suite};
use slh_dsa::ParameterSet;

use super::{Backend, Interface, Request};

/// RustCrypto as a backend.
#[derive(Default)]
pub struct Reference;

/// PH(M), computed without pqverify's own hashing code.
///
/// Deliberately written here and not shared with `pqverify-testkit`'s oracle (which
/// looks the same): this backend is the second verifier of a dual check, so it must
/// not depend on code that the project's tests also rely on.
fn prehash(hash: PreHash, msg: &[u8]) -> Vec<u8> {
    use sha2::Digest;
    use shake::{ExtendableOutput, Update, XofReader};
    fn xof<const R: usize>(mut h: shake::Shake<R>, msg: &[u8], len: usize) -> Vec<u8> {
        h.update(msg);
        let mut out = vec![0u8; len];
        h.finalize_xof().read(&mut out);
        out
    }
    match hash {
        PreHash::Sha2_224 => sha2::Sha224::digest(msg).to_vec(),
        PreHash::Sha2_256 => sha2::Sha256::digest(msg).to_vec(),
        PreHash::Sha2_384 => sha2::Sha384::digest(msg).to_vec(),
        PreHash::Sha2_512 => sha2::Sha512::digest(msg).to_vec(),
        PreHash::Sha2_512_224 => sha2::Sha512_224::digest(msg).to_vec(),
        PreHash::Sha2_512_256 => sha2::Sha512_256::digest(msg).to_vec(),
        PreHash::Sha3_224 => sha3::Sha3_224::digest(msg).to_vec(),
        PreHash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        PreHash::Sha3_384 => sha3::Sha3_384::digest(msg).to_vec(),
        PreHash::Sha3_512 => sha3::Sha3_512::digest(msg).to_vec(),
        PreHash::Shake128 => xof(shake::Shake128::default(), msg, 32),
        PreHash::Shake256 => xof(shake::Shake256::default(), msg, 64),
    }
}

/// M′ for the pre-hash interface (FIPS 204 Algorithm 5, FIPS 205 Algorithm 25).
fn prehash_m_prime(msg: &[u8], ctx: &[u8], hash: PreHash) -> Vec<u8> {
    let mut m = vec![1u8, ctx.len() as u8];
    m.extend_from_slice(ctx);
    m.extend_from_slice(&hash.oid_der());
    m.extend_from_slice(&prehash(hash, msg));
    m
}

fn ml_dsa<P: MlDsaParams>(r: &Request<'_>) -> Result<bool, Fault> {
    let enc =
        EncodedVerifyingKey::<P>::try_from(r.public_key.as_bytes()).map_err(|_| "public key length".to_owned())?;
    let vk = ml_dsa::VerifyingKey::<P>::decode(&enc);
    let Ok(sig) = ml_dsa::Signature::<P>::try_from(r.signature) else { return Ok(false) };
    Ok(match r.message {
        Message::Pure { msg, ctx } => vk.verify_with_context(msg, ctx, &sig),
        Message::PreHash { msg, ctx, hash } => vk.verify_internal(&prehash_m_prime(msg, ctx, hash), &sig),
        Message::Internal(m) => vk.verify_internal(m, &sig),
        Message::ExternalMu(mu) => {
            let mu = hybrid_array::Array::<u8, hybrid_array::typenum::U64>::try_from(mu)
                .map_err(|_| "mu length".to_owned())?;
            vk.verify_mu(&mu, &sig)
        }
    })
}

fn slh_dsa<P: ParameterSet + slh_dsa::VerifyingKeyLen>(r: &Request<'_>) -> Result<bool, Fault> {
    let vk =
        slh_dsa::VerifyingKey::<P>::try_from(r.public_key.as_bytes()).map_err(|_| "public key length".to_owned())?;
    let Ok(sig) = slh_dsa::Signature::<P>::try_from(r.signature) else { return Ok(false) };
    Ok(match r.message {
        Message::Pure { msg, ctx } => vk.try_verify_with_context(msg, ctx, &sig).is_ok(),
        Message::PreHash { msg, ctx, hash } => {
            vk.slh_verify_internal(&[&prehash_m_prime(msg, ctx, hash)], &sig).is_ok()
        }
        Message::Internal(m) => vk.slh_verify_internal(&[m], &sig).is_ok(),
        Message::ExternalMu(_) => return Err("SLH-DSA has no external-mu interface".to_owned().into()),
    })
}

impl Backend for Reference {
    fn name(&self) -> &'static str {
        "rustcrypto"
    }

    fn version(&self) -> String {
        "ml-dsa 0.1.2, slh-dsa 0.2.0-rc.5".to_owned()
    }

    fn supports(&self, suite: Suite, interface: Interface) -> bool {
        interface.exists_for(suite)
    }

    fn verdict(&self, r: &Request<'_>) -> Result<bool, Fault> {
        match r.suite() {
            Suite::MlDsa44 => ml_dsa::<MlDsa44>(r),
            Suite::MlDsa65 => ml_dsa::<MlDsa65>(r),
            Suite::MlDsa87 => ml_dsa::<MlDsa87>(r),
            Suite::SlhDsaSha2_128s => slh_dsa::<slh_dsa::Sha2_128s>(r),
            Suite::SlhDsaSha2_128f => slh_dsa::<slh_dsa::Sha2_128f>(r),
            Suite::SlhDsaSha2_192s => slh_dsa::<slh_dsa::Sha2_192s>(r),
            Suite::SlhDsaSha2_192f => slh_dsa::<slh_dsa::Sha2_192f>(r),
            Suite::SlhDsaSha2_256s => slh_dsa::<slh_dsa::Sha2_256s>(r),
            Suite::SlhDsaSha2_256f => slh_dsa::<slh_dsa::Sha2_256f>(r),
            Suite::SlhDsaShake128s => slh_dsa::<slh_dsa::Shake128s>(r),
            Suite::SlhDsaShake128f => slh_dsa::<slh_dsa::Shake128f>(r),
            Suite::SlhDsaShake192s => slh_dsa::<slh_dsa::Shake192s>(r),
            Suite::SlhDsaShake192f => slh_dsa::<slh_dsa::Shake192f>(r),
            Suite::SlhDsaShake256s => slh_dsa::<slh_dsa::Shake256s>(r),
            Suite::SlhDsaShake256f => slh_dsa::<slh_dsa::Shake256f>(r),
        }
    }
}
