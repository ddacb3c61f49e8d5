// The public-key harness, shared by the cargo-fuzz target `public_key` and the corpus
// replay test: whatever the bytes, the SubjectPublicKeyInfo decoder (pqverify-core) and
// the PEM / DER / raw key formats (pqverify-native) answer without panicking, and a
// key they accept is exactly the suite's length, taken from the input's last bytes.

use pqverify_core::{PublicKey, Suite};
use pqverify_native::key::{KeyFormat, raw_public_key};

/// Input layout: a byte choosing the suite asked for, then the encoded key.
pub(crate) fn public_key_any(data: &[u8]) {
    let [choice, der @ ..] = data else { return };
    let suite = Suite::ALL[usize::from(*choice) % Suite::ALL.len()];
    if let Ok(key) = PublicKey::from_spki_der(der) {
        assert_eq!(key.as_bytes().len(), key.suite().public_key_len());
        assert!(der.ends_with(key.as_bytes()), "the key is the BIT STRING's tail");
        assert_eq!(PublicKey::from_spki_der_for(key.suite(), der), Ok(key));
    }
    match PublicKey::from_spki_der_for(suite, der) {
        Ok(key) => assert_eq!(key.suite(), suite),
        Err(e) => assert!(!e.is_rejection(), "a key error is never a signature rejection"),
    }
    for format in KeyFormat::ALL {
        if let Ok(raw) = raw_public_key(suite, format, der) {
            assert_eq!(raw.len(), suite.public_key_len(), "{format:?}");
        }
    }
}
