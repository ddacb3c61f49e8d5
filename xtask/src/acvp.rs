//! The NIST ACVP cases (`pqverify-kats`) as one JSON file, for the JS tests of the build
//! that no Rust test harness runs: `pqverify/js`, the wasm2js build. The cases are
//! loaded by the same crate as every other target's, so JS reads no vector file itself.

use std::path::Path;

use crate::Result;

/// Writes every sigVer case (684) to `file`: `[{ tcId, tgId, suite, interface
/// ("pure", "prehash", "internal", "external-mu"), prehash, publicKey, message,
/// context, signature (hex), expected }]`.
pub(crate) fn write_cases(file: &Path) -> Result {
    let mut cases = pqverify_kats::ml_dsa_sigver().map_err(|e| format!("ML-DSA ACVP: {e}"))?;
    cases.extend(pqverify_kats::slh_dsa_sigver().map_err(|e| format!("SLH-DSA ACVP: {e}"))?);
    let json: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "tcId": c.tc_id,
                "tgId": c.tg_id,
                "suite": c.suite,
                "interface": c.interface.name(),
                "prehash": c.prehash.as_deref(),
                "publicKey": hex::encode(&c.public_key),
                "message": hex::encode(&c.message),
                "context": hex::encode(&c.context),
                "signature": hex::encode(&c.signature),
                "expected": c.expected,
            })
        })
        .collect();
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(file, serde_json::Value::Array(json).to_string()).map_err(|e| format!("{}: {e}", file.display()))
}
