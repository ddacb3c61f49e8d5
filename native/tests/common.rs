//! Shared helpers: ACVP cases as batch items and JSON lines, signing fixtures.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test helpers")]

use pqverify_core::{PreHash, Suite};
use pqverify_kats::{Case, Interface};
use pqverify_native::batch::{Item, OwnedMessage};
use serde_json::{Value, json};

/// Every ACVP sigVer case, ML-DSA then SLH-DSA.
pub(crate) fn acvp_cases() -> Vec<Case> {
    let mut all = pqverify_kats::ml_dsa_sigver().unwrap();
    all.extend(pqverify_kats::slh_dsa_sigver().unwrap());
    assert_eq!(all.len(), 684);
    all
}

/// A KAT case as a batch item.
pub(crate) fn item_of(case: &Case) -> Item {
    let message = match &case.interface {
        Interface::Pure => OwnedMessage::Pure { msg: case.message.clone(), ctx: case.context.clone() },
        Interface::PreHash(h) => OwnedMessage::PreHash {
            msg: case.message.clone(),
            ctx: case.context.clone(),
            hash: h.parse::<PreHash>().unwrap(),
        },
        Interface::Internal => OwnedMessage::Internal(case.message.clone()),
        Interface::ExternalMu => OwnedMessage::ExternalMu(case.message.clone()),
    };
    Item {
        suite: case.suite.parse::<Suite>().unwrap(),
        public_key: case.public_key.clone(),
        message,
        signature: case.signature.clone(),
    }
}

/// A KAT case as a `pqverify batch` request line.
pub(crate) fn line_of(case: &Case) -> Value {
    let mut line = json!({
        "id": case.tc_id,
        "suite": case.suite,
        "pk": hex::encode(&case.public_key),
        "sig": hex::encode(&case.signature),
    });
    let obj = line.as_object_mut().unwrap();
    match &case.interface {
        Interface::Pure | Interface::PreHash(_) => {
            obj.insert("msg".into(), hex::encode(&case.message).into());
            obj.insert("ctx".into(), hex::encode(&case.context).into());
            if let Interface::PreHash(h) = &case.interface {
                obj.insert("prehash".into(), h.clone().into());
            }
        }
        Interface::Internal => {
            obj.insert("interface".into(), "internal".into());
            obj.insert("msg".into(), hex::encode(&case.message).into());
        }
        Interface::ExternalMu => {
            obj.insert("interface".into(), "internal".into());
            obj.insert("mu".into(), hex::encode(&case.message).into());
        }
    }
    line
}

/// A deterministic generator (SplitMix64).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Random bytes of a random length below `max`.
    pub(crate) fn bytes_below(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max);
        self.bytes(len)
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

/// Signs (message, context).
pub(crate) type SignFn = Box<dyn Fn(&[u8], &[u8]) -> Vec<u8>>;

/// An ML-DSA key pair from the independent `fips204` signer: (public key, sign(msg, ctx)).
pub(crate) fn ml_dsa_signer(suite: Suite, seed: u8) -> (Vec<u8>, SignFn) {
    use fips204::traits::{KeyGen, SerDes, Signer};
    macro_rules! make {
        ($m:ident) => {{
            let (pk, sk) = fips204::$m::KG::keygen_from_seed(&[seed; 32]);
            let sign = move |msg: &[u8], ctx: &[u8]| sk.try_sign_with_seed(&[seed; 32], msg, ctx).unwrap().to_vec();
            (pk.into_bytes().to_vec(), Box::new(sign) as SignFn)
        }};
    }
    match suite {
        Suite::MlDsa44 => make!(ml_dsa_44),
        Suite::MlDsa65 => make!(ml_dsa_65),
        Suite::MlDsa87 => make!(ml_dsa_87),
        other => panic!("{other} is not ML-DSA"),
    }
}
