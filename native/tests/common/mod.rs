//! Shared helpers: ACVP cases as batch items and JSON lines, signing fixtures.
#![allow(dead_code, unused_imports, clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test helpers")]

use pqverify_core::Suite;
use pqverify_kats::{Case, Interface};
use pqverify_native::batch::{Item, OwnedMessage};
pub(crate) use pqverify_testkit::Rng;
use pqverify_testkit::{KeyPair, KeySeed};
use serde_json::{Value, json};

/// Every ACVP sigVer case, ML-DSA then SLH-DSA.
pub(crate) fn acvp_cases() -> Vec<Case> {
    let all = pqverify_testkit::acvp::all_cases().unwrap();
    assert_eq!(all.len(), 684);
    all
}

/// A KAT case as a batch item.
pub(crate) fn item_of(case: &Case) -> Item {
    let message = OwnedMessage::new(
        case.interface,
        case.message.clone(),
        case.context.clone(),
        pqverify_testkit::acvp::prehash_of(case).unwrap(),
    )
    .unwrap();
    Item {
        suite: pqverify_testkit::acvp::suite_of(case).unwrap(),
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
        Interface::Pure | Interface::PreHash => {
            obj.insert("msg".into(), hex::encode(&case.message).into());
            obj.insert("ctx".into(), hex::encode(&case.context).into());
            if let Some(h) = &case.prehash {
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

/// Signs (message, context).
pub(crate) type SignFn = Box<dyn Fn(&[u8], &[u8]) -> Vec<u8>>;

/// A key pair of the independent signers, every seed byte `seed`: (public key, sign(msg, ctx)).
pub(crate) fn signer(suite: Suite, seed: u8) -> (Vec<u8>, SignFn) {
    let pair = KeyPair::new(suite, &KeySeed::fill(seed, [seed; 3]));
    let pk = pair.public_key().to_vec();
    (pk, Box::new(move |msg: &[u8], ctx: &[u8]| pair.sign(msg, ctx, &[seed; 32])))
}

/// The `pqverify` binary as a command, under the test runner when one is set.
pub(crate) fn pqverify_command() -> std::process::Command {
    pqverify_testkit::runner::command(env!("CARGO_BIN_EXE_pqverify"))
}

/// The `pqverify` binary as the start of a shell command line, under the test runner
/// when one is set.
pub(crate) fn pqverify_shell() -> String {
    pqverify_testkit::runner::shell(env!("CARGO_BIN_EXE_pqverify"))
}
