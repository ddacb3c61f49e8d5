//! The quorum-certificate rule: a certificate is validators' signatures on one message,
//! and a quorum counts distinct validators of a known set, so every signer a certificate
//! names must be in the set and none may sign twice. Checked once per certificate,
//! before any signature is verified; the message is checked once too, as every verify
//! would ([`Message::check_for`]). Natively (pqverify-native's `certificate`) and in the
//! npm package's pool workers (the wasm export `checkCertificate`) alike.

use alloc::vec;

use crate::text::{Formatted, Sink};
use crate::{Error, Message, Suite};

/// Why a certificate cannot be checked as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// A signature names a validator the set does not have.
    NoSuchValidator {
        /// The signature's position in the certificate.
        signature: usize,
        /// The validator index it names.
        index: usize,
        /// The set's size.
        validators: usize,
    },
    /// A validator signs twice in one certificate.
    Duplicate {
        /// The validator's index.
        index: usize,
    },
    /// The message is unusable for the suite (a context over 255 bytes, a μ that is not
    /// 64 bytes, an interface the suite lacks).
    Message(Error),
}

impl CertificateError {
    /// Writes the error's text to `out` (the words of its `Display`, without `core::fmt`).
    pub fn write_text(&self, out: &mut impl Sink) {
        match self {
            Self::NoSuchValidator { signature, index, validators } => {
                out.text("certificate signature ");
                out.number(*signature);
                out.text(" names validator ");
                out.number(*index);
                out.text(", not in the set of ");
                out.number(*validators);
                if let Some(last) = validators.checked_sub(1) {
                    out.text(" (indices 0 to ");
                    out.number(last);
                    out.text(")");
                }
            }
            Self::Duplicate { index } => {
                out.text("validator ");
                out.number(*index);
                out.text(" signs twice; a certificate counts each validator once");
            }
            Self::Message(e) => e.write_text(out),
        }
    }
}

impl core::fmt::Display for CertificateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        Formatted::write(f, |out| self.write_text(out))
    }
}

/// Checks a certificate of `suite` on `message` before its signatures are verified:
/// the message usable with the suite, every signer (a validator's index) one of a set of
/// `validators`, none twice.
pub fn check_certificate(
    suite: Suite,
    message: Message<'_>,
    validators: usize,
    signers: impl IntoIterator<Item = usize>,
) -> Result<(), CertificateError> {
    message.check_for(suite).map_err(CertificateError::Message)?;
    let mut seen = vec![false; validators];
    for (signature, index) in signers.into_iter().enumerate() {
        let slot = seen.get_mut(index).ok_or(CertificateError::NoSuchValidator { signature, index, validators })?;
        if core::mem::replace(slot, true) {
            return Err(CertificateError::Duplicate { index });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signers_are_distinct_members_of_the_set_and_the_message_is_checked_once() {
        let ok = Message::pure(b"block", b"");
        assert_eq!(check_certificate(Suite::MlDsa44, ok, 3, [2, 0, 1]), Ok(()));
        assert_eq!(check_certificate(Suite::MlDsa44, ok, 3, []), Ok(()));
        assert_eq!(
            check_certificate(Suite::MlDsa44, ok, 3, [0, 3]),
            Err(CertificateError::NoSuchValidator { signature: 1, index: 3, validators: 3 })
        );
        assert_eq!(check_certificate(Suite::MlDsa44, ok, 3, [1, 2, 1]), Err(CertificateError::Duplicate { index: 1 }));
        let long = [0u8; 256];
        let err = check_certificate(Suite::MlDsa44, Message::pure(b"block", &long), 3, [0]).unwrap_err();
        assert!(matches!(err, CertificateError::Message(_)), "{err:?}");
        assert_eq!(err.to_string(), "context is 256 bytes; a context is at most 255 bytes");
        assert_eq!(
            CertificateError::NoSuchValidator { signature: 1, index: 3, validators: 3 }.to_string(),
            "certificate signature 1 names validator 3, not in the set of 3 (indices 0 to 2)"
        );
        assert_eq!(
            CertificateError::NoSuchValidator { signature: 0, index: 0, validators: 0 }.to_string(),
            "certificate signature 0 names validator 0, not in the set of 0"
        );
    }
}
