//! ACVP sigVer cases as pqverify calls.

use pqverify_core::{Message, PreHash, Suite};
use pqverify_kats::{Case, Interface, LoadError};

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
    match &case.interface {
        Interface::PreHash(name) => name.parse().map(Some).map_err(|e| format!("tcId {}: {e}", case.tc_id)),
        _ => Ok(None),
    }
}

/// The [`Message`] a case describes.
pub fn message_of(case: &Case) -> Result<Message<'_>, String> {
    Ok(match &case.interface {
        Interface::Pure => Message::pure(&case.message, &case.context),
        Interface::PreHash(_) => match prehash_of(case)? {
            Some(hash) => Message::prehash(&case.message, &case.context, hash),
            None => return Err(format!("tcId {}: no pre-hash", case.tc_id)),
        },
        Interface::Internal => Message::Internal(&case.message),
        Interface::ExternalMu => Message::ExternalMu(&case.message),
    })
}
