//! The wasm build against the NIST ACVP vectors, the C2SP CCTV accumulated ML-DSA
//! tests and bad input, in Node and in headless Chromium (`cargo xtask test` runs both;
//! the browser run sets `WASM_BINDGEN_USE_BROWSER=1`, since these tests do not pin a runner).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

use pqverify_core::{Interface, PreHash, Suite};
use pqverify_kats::Case;
use pqverify_wasm::{KeyFormat, PreparedKey, kernels, verify};
use wasm_bindgen_test::wasm_bindgen_test;

/// Raw public keys (the ACVP vectors' encoding).
const RAW: u32 = KeyFormat::Raw as u32;

/// SubjectPublicKeyInfo DER keys.
const SPKI: u32 = KeyFormat::Spki as u32;

/// `key` wrapped as RFC 9881 (and the LAMPS SLH-DSA document) lay it out, written out
/// here independently of the decoder: SEQUENCE { SEQUENCE { OID }, BIT STRING }.
fn spki(suite: &str, key: &[u8]) -> Vec<u8> {
    let arc = 17 + Suite::ALL.iter().position(|s| s.name() == suite).unwrap() as u8;
    let len = |n: usize| match n {
        0..=0x7f => vec![n as u8],
        0x80..=0xff => vec![0x81, n as u8],
        _ => vec![0x82, (n >> 8) as u8, n as u8],
    };
    let alg = [0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc];
    let bits = [&[0x03][..], &len(key.len() + 1), &[0], key].concat();
    [&[0x30][..], &len(alg.len() + bits.len()), &alg, &bits].concat()
}

/// The number of a suite at the boundary (its index in `Suite::ALL`).
fn suite_id(name: &str) -> u32 {
    Suite::ALL.iter().position(|s| s.name() == name).unwrap() as u32
}

/// The interface and hash arguments of the wasm exports for a case: their indices in
/// core's lists, as the package's tables give them.
fn args(case: &Case) -> (u32, u32) {
    let interface = interface_id(case.interface);
    let hash = case.prehash.as_deref().map_or(0, |h| PreHash::ALL.iter().position(|p| p.name() == h).unwrap() as u32);
    (interface, hash)
}

/// An interface's number at the boundary: its index in `Interface::ALL`.
fn interface_id(interface: Interface) -> u32 {
    Interface::ALL.iter().position(|&i| i == interface).unwrap() as u32
}

fn run_all(cases: &[Case]) -> usize {
    let mut passed = 0;
    for case in cases {
        let (iface, hash) = args(case);
        let suite = suite_id(&case.suite);
        let one_shot = verify(suite, RAW, iface, hash, &case.signature, &case.message, &case.context, &case.public_key)
            .unwrap_or_else(|_| panic!("tcId {}: unexpected error", case.tc_id));
        let key = PreparedKey::new(suite, RAW, &case.public_key).unwrap_or_else(|_| panic!("tcId {}", case.tc_id));
        let prepared = key.verify(iface, hash, &case.signature, &case.message, &case.context).unwrap();
        assert_eq!(one_shot, prepared, "tcId {}", case.tc_id);
        // The same key as a SubjectPublicKeyInfo: the same verdict, one-shot and prepared.
        let der = spki(&case.suite, &case.public_key);
        let via_spki = verify(suite, SPKI, iface, hash, &case.signature, &case.message, &case.context, &der).unwrap();
        let key_spki = PreparedKey::new(suite, SPKI, &der).unwrap();
        assert_eq!(via_spki, one_shot, "tcId {} through SPKI", case.tc_id);
        assert_eq!(key_spki.verify(iface, hash, &case.signature, &case.message, &case.context).unwrap(), one_shot);
        assert_eq!(key.suite(), case.suite);
        if one_shot == case.expected {
            passed += 1;
        }
    }
    passed
}

#[wasm_bindgen_test]
fn ml_dsa_acvp_in_wasm() {
    let cases = pqverify_kats::ml_dsa_sigver().unwrap();
    assert_eq!(cases.len(), 180);
    assert_eq!(run_all(&cases), 180, "ML-DSA ACVP sigVer in wasm");
}

#[wasm_bindgen_test]
fn slh_dsa_acvp_in_wasm() {
    let cases = pqverify_kats::slh_dsa_sigver().unwrap();
    assert_eq!(cases.len(), 504);
    assert_eq!(run_all(&cases), 504, "SLH-DSA ACVP sigVer in wasm");
}

#[wasm_bindgen_test]
fn bad_input_is_an_error_or_false_never_a_trap() {
    let pk = vec![0u8; 1312];
    let (ml44, slh_shake_128f, slh_sha2_256f) =
        (suite_id("ML-DSA-44"), suite_id("SLH-DSA-SHAKE-128f"), suite_id("SLH-DSA-SHA2-256f"));
    let (pure, prehash, mu) =
        (interface_id(Interface::Pure), interface_id(Interface::PreHash), interface_id(Interface::ExternalMu));
    // Wrong key length: an error with the expected length.
    assert!(verify(ml44, RAW, pure, 0, &[0; 2420], b"m", b"", &pk[..1311]).is_err());
    assert!(PreparedKey::new(ml44, RAW, &pk[..100]).is_err());
    // Unknown suite, interface or hash numbers (one past the last, and far out): errors.
    for id in [Suite::ALL.len() as u32, 256, u32::MAX] {
        assert!(verify(id, RAW, pure, 0, &[], b"", b"", &pk).is_err());
        assert!(PreparedKey::new(id, RAW, &pk).is_err());
    }
    for id in [4, 256, u32::MAX] {
        assert!(verify(ml44, RAW, id, 0, &[], b"", b"", &pk).is_err());
    }
    for id in [PreHash::ALL.len() as u32, u32::MAX] {
        assert!(verify(ml44, RAW, prehash, id, &[], b"", b"", &pk).is_err());
    }
    // Context over 255 bytes and μ of the wrong length: errors.
    assert!(verify(ml44, RAW, pure, 0, &[0; 2420], b"m", &[0; 256], &pk).is_err());
    assert!(verify(ml44, RAW, mu, 0, &[0; 2420], &[0; 63], b"", &pk).is_err());
    assert!(verify(slh_shake_128f, RAW, mu, 0, &[0; 17088], &[0; 64], b"", &[0; 32]).is_err());
    // Signatures of any length and content: false.
    for len in [0, 1, 2419, 2420, 2421, 100_000] {
        assert_eq!(verify(ml44, RAW, pure, 0, &vec![0x5a; len], b"m", b"", &pk).ok(), Some(false));
    }
    assert_eq!(verify(slh_sha2_256f, RAW, pure, 0, &vec![1; 49856], b"m", b"", &[0; 64]).ok(), Some(false));
    assert_eq!(kernels(), if cfg!(target_feature = "simd128") { "simd128" } else { "portable" });
    // Key formats: an unknown one, a SubjectPublicKeyInfo of another suite or with
    // trailing bytes: errors, never false.
    assert!(verify(ml44, 2, pure, 0, &[0; 2420], b"m", b"", &pk).is_err());
    let der = spki("ML-DSA-65", &[0; 1952]);
    assert!(verify(ml44, SPKI, pure, 0, &[0; 2420], b"m", b"", &der).is_err());
    assert!(PreparedKey::new(ml44, SPKI, &der).is_err());
    let mut der = spki("ML-DSA-44", &pk);
    assert_eq!(verify(ml44, SPKI, pure, 0, &[0; 2420], b"m", b"", &der).ok(), Some(false));
    der.push(0);
    assert!(verify(ml44, SPKI, pure, 0, &[0; 2420], b"m", b"", &der).is_err());
    assert!(verify(ml44, SPKI, pure, 0, &[0; 2420], b"m", b"", &pk).is_err());
}

#[wasm_bindgen_test]
fn every_simd_kernel_is_bit_identical_to_its_portable_twin() {
    // In the simd128 build this compares the simd128 kernels; in the baseline build the
    // kernels are the portable ones and the check holds trivially.
    assert_eq!(pqverify_core::kernel_checks::run(7, 2000), Ok(()));
}

#[wasm_bindgen_test]
fn use_hint_is_bit_identical_for_every_residue() {
    assert_eq!(pqverify_core::kernel_checks::use_hint_every_r(), Ok(()));
}

/// A turn of the event loop (`setTimeout(0)`, in Node and in the page): a test that runs
/// for seconds yields, or the browser runner's WebDriver polls time out on a busy page.
async fn yield_to_event_loop() {
    use wasm_bindgen::{JsCast, JsValue};
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let set_timeout = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("setTimeout")).unwrap();
        set_timeout.unchecked_into::<js_sys::Function>().call2(&JsValue::NULL, &resolve, &JsValue::from(0)).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

#[wasm_bindgen_test]
async fn cctv_field_operations_give_the_published_digest() {
    // HighBits and UseHint over every r in Z_q from this build's kernel (simd128 or
    // portable), yielding every 2,048 blocks (about half a million r).
    let mut transcript = pqverify_core::cctv::FieldTranscript::default();
    while transcript.remaining() > 0 {
        transcript.absorb_blocks(2048);
        yield_to_event_loop().await;
    }
    assert_eq!(transcript.digest(), pqverify_core::cctv::FIELD_DIGEST);
}

/// Iterations of the C2SP CCTV accumulated test per set: its whole published length,
/// in every engine and on both builds, as natively.
const ACCUMULATED: usize = 10_000;

#[wasm_bindgen_test]
async fn cctv_accumulated_signatures_give_the_published_digests_and_all_verify() {
    use pqverify_testkit::cctv;
    for (suite, at_100, at_10k) in cctv::DIGESTS {
        let id = suite_id(suite.name());
        let pure = interface_id(Interface::Pure);
        let mut transcript = cctv::Transcript::new(suite);
        let mut rejected = Vec::new();
        while transcript.iterations() < ACCUMULATED {
            // The signer runs in wasm too; yield so the engine's event loop (and the
            // browser runner's watchdog) keep running.
            if transcript.iterations().is_multiple_of(250) {
                yield_to_event_loop().await;
            }
            let (key, signature) = transcript.next_signature();
            let public_key = key.public_key();
            let one_shot = verify(id, RAW, pure, 0, &signature, b"", b"", public_key).unwrap();
            let prepared =
                PreparedKey::new(id, RAW, public_key).unwrap().verify(pure, 0, &signature, b"", b"").unwrap();
            if !(one_shot && prepared) {
                rejected.push(transcript.iterations() - 1);
            }
        }
        assert_eq!(transcript.at_100(), Some(at_100), "{suite}: the signer is not FIPS 204's (N = 100)");
        assert_eq!(transcript.digest(), at_10k, "{suite}: the signer is not FIPS 204's (N = 10 000)");
        assert_eq!(rejected, Vec::<usize>::new(), "{suite}: valid signatures rejected in wasm (iterations)");
    }
}
