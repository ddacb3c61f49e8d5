//! The names the benchmark's records carry for the JS runners' ways (and two native
//! ones the report reads by name): one list for Rust (the report and its check) and JS (`cargo xtask tables` writes
//! `benches/js/names.mjs` from it, with the record schemas).

/// pqverify one-shot: the key decoded per call.
pub const PQVERIFY: &str = "pqverify";
/// pqverify with the key prepared once.
pub const PQVERIFY_PREPARED: &str = "pqverify-prepared";
/// pqverify one-shot on the portable build (no SIMD).
pub const PQVERIFY_PORTABLE: &str = "pqverify-portable";
/// @noble/post-quantum.
pub const NOBLE: &str = "noble";
/// liboqs compiled by Emscripten (@oqs/liboqs-js).
pub const LIBOQS_JS: &str = "liboqs-js";
/// The platform's WebCrypto, one verify awaited at a time.
pub const WEBCRYPTO: &str = "webcrypto";
/// The platform's WebCrypto, many verifies in flight.
pub const WEBCRYPTO_INFLIGHT: &str = "webcrypto-inflight";
/// Node's `node:crypto` (OpenSSL).
pub const NODE_CRYPTO: &str = "node-crypto";
/// The platform's WebCrypto on a key seen for the first time: the raw key imported
/// (`importKey`) and the signature verified, both awaited, per call.
pub const WEBCRYPTO_IMPORT: &str = "webcrypto-import";
/// `node:crypto` on a key seen for the first time: `createPublicKey` of the raw key and
/// `verify`, per call.
pub const NODE_CRYPTO_IMPORT: &str = "node-crypto-import";
/// ox's `MlDsa44.verify` on its default engine (@noble/post-quantum inside).
pub const OX: &str = "ox";
/// ox's `MlDsa44.verify` on its wasm engine (`ox/wasm`: mldsa-native compiled to wasm).
pub const OX_WASM: &str = "ox-wasm";
/// `pqverify/pool` with the validator set installed in every worker.
pub const POOL_PREPARED: &str = "pool-prepared";
/// `pqverify/pool`'s `verifyMany`, one-shot.
pub const POOL: &str = "pool";
/// The package's native build (its platform package) in Node or Bun, one-shot.
pub const PQVERIFY_NATIVE: &str = "pqverify-native";
/// The package's native build in Node or Bun, the key prepared once.
pub const PQVERIFY_NATIVE_PREPARED: &str = "pqverify-native-prepared";
/// The package's `verifyMany` on the native build's thread pool (scaling records: its
/// rate by threads, on distinct keys).
pub const PQVERIFY_NATIVE_BATCH: &str = "pqverify-native-batch";
/// The dual check (enforce) on the distinct-key fixtures: natively pqverify-native's
/// `DualVerifier`, from JS the package's `createDualVerifier` over the same verifier.
pub const DUAL_ENFORCE_DISTINCT: &str = "dual-enforce-distinct";

/// Natively, on a CPU with AVX-512: pqverify one-shot held to its AVX2 kernels, beside
/// a liboqs held to its AVX2 code (the comparison a CPU without AVX-512 makes).
pub const PQVERIFY_AVX2: &str = "pqverify-avx2";
/// The end of the name of that liboqs's way (`liboqs-<version>-avx2`).
pub const AVX2_SUFFIX: &str = "-avx2";
/// The end of the name of a way over the distinct-key fixtures; natively also the dual
/// verifier's primary liboqs alone on those keys (`liboqs-<version>-distinct`), the
/// base of the dual check on distinct keys measured on the same keys.
pub const DISTINCT_SUFFIX: &str = "-distinct";

/// The name of `way` on the distinct-key fixtures: `way` and [`DISTINCT_SUFFIX`].
pub fn distinct(way: &str) -> String {
    format!("{way}{DISTINCT_SUFFIX}")
}

/// The suite of the cold-start records.
pub const COLD_START_SUITE: &str = "ML-DSA-44";
/// The package's entries every JS target measures cold, each a way of the cold-start
/// records: a fresh Node process or a fresh browser worker imports the entry, then
/// verifies once. The default entry, and the ML-DSA one a single-scheme wallet imports.
pub const COLD_START_ENTRIES: [&str; 2] = [PQVERIFY, "pqverify/ml-dsa"];

/// Every way a JS runner records, in the order `names.mjs` lists them.
pub const JS_WAYS: [&str; 18] = [
    PQVERIFY,
    PQVERIFY_PREPARED,
    PQVERIFY_PORTABLE,
    PQVERIFY_NATIVE,
    PQVERIFY_NATIVE_PREPARED,
    PQVERIFY_NATIVE_BATCH,
    DUAL_ENFORCE_DISTINCT,
    NOBLE,
    LIBOQS_JS,
    OX,
    OX_WASM,
    WEBCRYPTO,
    WEBCRYPTO_INFLIGHT,
    NODE_CRYPTO,
    WEBCRYPTO_IMPORT,
    NODE_CRYPTO_IMPORT,
    POOL_PREPARED,
    POOL,
];
