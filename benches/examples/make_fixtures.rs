//! Generates the benchmark fixtures: for each of the 15 suites a deterministic key,
//! a 32-byte and a 1024-byte message, and valid signatures over both, made by the
//! independent signers `fips204` and `fips205`. Run by `cargo xtask fixtures`.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a generator run by hand")]

use fips204::traits::{KeyGen as _, SerDes as _, Signer as _};
use serde_json::json;

/// The deterministic SLH-DSA signer draws no randomness.
struct NoRng;

impl rand_core06::RngCore for NoRng {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core06::Error> {
        dest.fill(0);
        Ok(())
    }
}

impl rand_core06::CryptoRng for NoRng {}

fn message(len: usize, salt: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(29).wrapping_add(salt)).collect()
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| "benches/fixtures/fixtures.json".into());
    let (short, long) = (message(32, 7), message(1024, 11));
    let mut suites = Vec::new();
    macro_rules! ml {
        ($name:literal, $m:ident) => {{
            let (pk, sk) = fips204::$m::KG::keygen_from_seed(&[0x44; 32]);
            let sig = sk.try_sign_with_seed(&[1; 32], &short, b"").unwrap();
            let sig_long = sk.try_sign_with_seed(&[2; 32], &long, b"").unwrap();
            suites.push(json!({"suite": $name, "pk": hex::encode(pk.into_bytes()), "msg": hex::encode(&short),
                "sig": hex::encode(sig), "msg_long": hex::encode(&long), "sig_long": hex::encode(sig_long)}));
        }};
    }
    macro_rules! slh {
        ($name:literal, $m:ident, $n:literal) => {{
            use fips205::traits::{KeyGen as _, SerDes as _, Signer as _};
            let (pk, sk) = fips205::$m::KG::keygen_from_seed::<$n>(&[0x51; $n], &[0x52; $n], &[0x53; $n]);
            let sig = sk.try_sign_with_rng(&mut NoRng, &short, b"", false).unwrap();
            let sig_long = sk.try_sign_with_rng(&mut NoRng, &long, b"", false).unwrap();
            suites.push(json!({"suite": $name, "pk": hex::encode(pk.into_bytes()), "msg": hex::encode(&short),
                "sig": hex::encode(sig), "msg_long": hex::encode(&long), "sig_long": hex::encode(sig_long)}));
        }};
    }
    ml!("ML-DSA-44", ml_dsa_44);
    ml!("ML-DSA-65", ml_dsa_65);
    ml!("ML-DSA-87", ml_dsa_87);
    slh!("SLH-DSA-SHA2-128s", slh_dsa_sha2_128s, 16);
    slh!("SLH-DSA-SHA2-128f", slh_dsa_sha2_128f, 16);
    slh!("SLH-DSA-SHA2-192s", slh_dsa_sha2_192s, 24);
    slh!("SLH-DSA-SHA2-192f", slh_dsa_sha2_192f, 24);
    slh!("SLH-DSA-SHA2-256s", slh_dsa_sha2_256s, 32);
    slh!("SLH-DSA-SHA2-256f", slh_dsa_sha2_256f, 32);
    slh!("SLH-DSA-SHAKE-128s", slh_dsa_shake_128s, 16);
    slh!("SLH-DSA-SHAKE-128f", slh_dsa_shake_128f, 16);
    slh!("SLH-DSA-SHAKE-192s", slh_dsa_shake_192s, 24);
    slh!("SLH-DSA-SHAKE-192f", slh_dsa_shake_192f, 24);
    slh!("SLH-DSA-SHAKE-256s", slh_dsa_shake_256s, 32);
    slh!("SLH-DSA-SHAKE-256f", slh_dsa_shake_256f, 32);
    let doc = json!({
        "schema": "pqverify-fixtures/1",
        "generator": "cargo xtask fixtures (fips204 0.5 / fips205 0.5, deterministic)",
        "suites": suites,
    });
    let mut text = serde_json::to_string(&doc).unwrap();
    text.push('\n');
    std::fs::write(&out, text).unwrap();
    eprintln!("wrote {out}");
}
