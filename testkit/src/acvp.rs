//! ACVP sigVer cases as pqverify calls.

use pqverify_core::{Message, PreHash, Suite};
use pqverify_kats::{Case, LoadError};

/// Every ACVP sigVer case, ML-DSA then SLH-DSA (684).
pub fn all_cases() -> Result<Vec<Case>, LoadError> {
    let mut all = pqverify_kats::ml_dsa_sigver()?;
    all.extend(pqverify_kats::slh_dsa_sigver()?);
    Ok(all)
}

/// The suite a case names, or what is wrong with it.
pub fn suite_of(case: &Case) -> Result<Suite, String> {
    case.suite.parse().map_err(|e| format!("tcId {}: {e}", case.tc_id))
}

/// The pre-hash a case names, if it is a pre-hash case.
pub fn prehash_of(case: &Case) -> Result<Option<PreHash>, String> {
    case.prehash.as_deref().map(str::parse).transpose().map_err(|e| format!("tcId {}: {e}", case.tc_id))
}

/// The [`Message`] a case describes.
pub fn message_of(case: &Case) -> Result<Message<'_>, String> {
    Message::new(case.interface, &case.message, &case.context, prehash_of(case)?)
        .map_err(|e| format!("tcId {}: {e}", case.tc_id))
}
