//! Public keys as the platforms exchange them: the raw encoding of FIPS 204/205
//! (`pkEncode`, `PK.seed ‖ PK.root`) and the X.509 SubjectPublicKeyInfo that wraps it
//! (RFC 9881 for ML-DSA; the LAMPS SLH-DSA document for SLH-DSA), decoded strictly:
//!
//! ```text
//! SubjectPublicKeyInfo ::= SEQUENCE {
//!     algorithm         SEQUENCE { algorithm OBJECT IDENTIFIER }   -- parameters absent
//!     subjectPublicKey  BIT STRING }                              -- 0 unused bits, then the raw key
//! ```
//!
//! DER only: definite lengths in their shortest form, no parameters, no trailing bytes,
//! the key exactly the suite's length. Nothing is allocated and no input panics.

use crate::{Error, Suite};

/// DER tags used here.
const SEQUENCE: u8 = 0x30;
const OBJECT_IDENTIFIER: u8 = 0x06;
const BIT_STRING: u8 = 0x03;

/// An encoded public key and the suite it is for, its length checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey<'a> {
    suite: Suite,
    bytes: &'a [u8],
}

impl<'a> PublicKey<'a> {
    /// The raw encoding (FIPS 204 Algorithm 22 `pkEncode`; FIPS 205 `PK.seed ‖ PK.root`),
    /// checked to be exactly `suite`'s public-key length.
    pub fn from_raw(suite: Suite, bytes: &'a [u8]) -> Result<Self, Error> {
        let expected = suite.public_key_len();
        if bytes.len() != expected {
            return Err(Error::PublicKeyLength { suite, expected, got: bytes.len() });
        }
        Ok(PublicKey { suite, bytes })
    }

    /// A SubjectPublicKeyInfo in DER; the suite is the one its algorithm OID names.
    pub fn from_spki_der(der: &'a [u8]) -> Result<Self, Error> {
        let (suite, key) = spki(der)?;
        PublicKey::from_raw(suite, key)
    }

    /// A SubjectPublicKeyInfo in DER that must be for `suite` (checked before the
    /// key's length, so that another suite's key is named as such).
    pub fn from_spki_der_for(suite: Suite, der: &'a [u8]) -> Result<Self, Error> {
        let (found, key) = spki(der)?;
        if found != suite {
            return Err(Error::KeyAlgorithm { expected: suite, found });
        }
        PublicKey::from_raw(suite, key)
    }

    /// The suite the key is for.
    pub const fn suite(&self) -> Suite {
        self.suite
    }

    /// The raw encoding, exactly the suite's public-key length.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
}

/// The suite an SPKI's OID names and the BIT STRING's key (its length not yet checked).
fn spki(der: &[u8]) -> Result<(Suite, &[u8]), Error> {
    let (outer, rest) = tlv(der, SEQUENCE, "expected a SEQUENCE (tag 0x30) at the start")?;
    if !rest.is_empty() {
        return Err(malformed("trailing bytes after the SubjectPublicKeyInfo"));
    }
    let (algorithm, rest) = tlv(outer, SEQUENCE, "expected the AlgorithmIdentifier SEQUENCE (tag 0x30)")?;
    let (bits, rest) = tlv(rest, BIT_STRING, "expected the subjectPublicKey BIT STRING (tag 0x03)")?;
    if !rest.is_empty() {
        return Err(malformed("trailing bytes after the subjectPublicKey BIT STRING"));
    }
    let (oid, params) = tlv(algorithm, OBJECT_IDENTIFIER, "expected the algorithm OBJECT IDENTIFIER (tag 0x06)")?;
    if !params.is_empty() {
        return Err(malformed("the AlgorithmIdentifier has parameters; they must be absent"));
    }
    let suite = suite_of(oid)?;
    let Some((&unused_bits, key)) = bits.split_first() else {
        return Err(malformed("the subjectPublicKey BIT STRING is empty; expected 0 unused bits, then the key"));
    };
    if unused_bits != 0 {
        return Err(malformed("the subjectPublicKey BIT STRING has unused bits; it must have 0"));
    }
    Ok((suite, key))
}

fn malformed(what: &'static str) -> Error {
    Error::MalformedPublicKey { what }
}

/// The suite named by an OID's content octets.
fn suite_of(oid: &[u8]) -> Result<Suite, Error> {
    // Every suite's OID (without its tag and length octets) is the same arcs and its own
    // last one: compare the common part once, then find the last arc (one loop, not 15
    // inlined comparisons of the whole OID).
    let common = &Suite::MlDsa44.oid_der()[2..10];
    match oid.split_last() {
        Some((last, arcs)) if arcs == common => {
            Suite::ALL.into_iter().find(|s| s.oid_arc() == *last).ok_or(Error::UnknownKeyAlgorithm)
        }
        _ => Err(Error::UnknownKeyAlgorithm),
    }
}

/// One DER element with tag `tag` at the start of `input`: (its content, what follows).
/// `wrong_tag` is the error when the tag differs (or `input` is empty).
fn tlv<'a>(input: &'a [u8], tag: u8, wrong_tag: &'static str) -> Result<(&'a [u8], &'a [u8]), Error> {
    let Some((&found, rest)) = input.split_first() else {
        return Err(malformed(wrong_tag));
    };
    if found != tag {
        return Err(malformed(wrong_tag));
    }
    let (len, rest) = length(rest)?;
    if len > rest.len() {
        return Err(malformed("an element's length runs past the end of the input (truncated?)"));
    }
    Ok(rest.split_at(len))
}

/// A DER length: definite and in its shortest form (the longest key, ML-DSA-87's 2,592
/// bytes, needs two length octets, so more are never minimal here).
fn length(input: &[u8]) -> Result<(usize, &[u8]), Error> {
    match input {
        [] => Err(malformed("the input ends where a length was expected (truncated?)")),
        [short @ 0..=0x7f, rest @ ..] => Ok((usize::from(*short), rest)),
        [0x80, ..] => Err(malformed("an indefinite length (0x80); DER lengths are definite")),
        [0x81, value, rest @ ..] if *value >= 0x80 => Ok((usize::from(*value), rest)),
        [0x82, high, low, rest @ ..] if *high != 0 => Ok((usize::from(*high) << 8 | usize::from(*low), rest)),
        [0x81 | 0x82, ..] => Err(malformed("a length not in its shortest form, or truncated; DER lengths are minimal")),
        _ => Err(malformed("a length of more than two octets; no key here is that long")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An independent DER encoder for the tests: the RFC 9881 layout written out.
    fn spki(suite: Suite, key: &[u8]) -> std::vec::Vec<u8> {
        fn len(n: usize) -> std::vec::Vec<u8> {
            match n {
                0..=0x7f => std::vec![n as u8],
                0x80..=0xff => std::vec![0x81, n as u8],
                _ => std::vec![0x82, (n >> 8) as u8, n as u8],
            }
        }
        let alg = [&[0x30, 0x0b][..], &suite.oid_der()].concat();
        let bits = [&[0x03][..], &len(key.len() + 1), &[0], key].concat();
        [&[0x30][..], &len(alg.len() + bits.len()), &alg, &bits].concat()
    }

    #[test]
    fn every_suite_round_trips_and_ml_dsa_44_has_rfc_9881_header() {
        for suite in Suite::ALL {
            let key: std::vec::Vec<u8> = (0..suite.public_key_len()).map(|i| i as u8).collect();
            let der = spki(suite, &key);
            let decoded = PublicKey::from_spki_der(&der).unwrap();
            assert_eq!((decoded.suite(), decoded.as_bytes()), (suite, &key[..]));
            assert_eq!(PublicKey::from_spki_der_for(suite, &der), Ok(decoded));
        }
        // RFC 9881's ML-DSA-44 SubjectPublicKeyInfo starts with these 22 bytes.
        let der = spki(Suite::MlDsa44, &[0; 1312]);
        assert_eq!(
            der[..22],
            [
                0x30, 0x82, 0x05, 0x32, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11,
                0x03, 0x82, 0x05, 0x21, 0x00
            ]
        );
    }

    #[test]
    fn every_truncation_and_extension_is_an_error() {
        for suite in [Suite::MlDsa44, Suite::SlhDsaShake128s] {
            let der = spki(suite, &std::vec![7; suite.public_key_len()]);
            for cut in 0..der.len() {
                assert!(
                    matches!(PublicKey::from_spki_der(&der[..cut]), Err(Error::MalformedPublicKey { .. })),
                    "{cut}"
                );
            }
            let mut longer = der.clone();
            longer.push(0);
            assert_eq!(
                PublicKey::from_spki_der(&longer),
                Err(malformed("trailing bytes after the SubjectPublicKeyInfo"))
            );
        }
    }

    #[test]
    fn an_oid_names_a_suite_only_when_every_arc_is_the_suites() {
        for suite in Suite::ALL {
            let oid = &suite.oid_der()[2..];
            assert_eq!(suite_of(oid), Ok(suite));
            for i in 0..oid.len() {
                for value in 0..=255u8 {
                    let mut other = oid.to_vec();
                    other[i] = value;
                    let named = Suite::ALL.into_iter().find(|s| s.oid_der()[2..] == other[..]);
                    assert_eq!(suite_of(&other).ok(), named, "{suite}: octet {i} = {value:#04x}");
                }
            }
            assert_eq!(suite_of(&oid[..oid.len() - 1]), Err(Error::UnknownKeyAlgorithm));
            assert_eq!(suite_of(&[oid, &[1]].concat()), Err(Error::UnknownKeyAlgorithm));
        }
        assert_eq!(suite_of(&[]), Err(Error::UnknownKeyAlgorithm));
    }

    #[test]
    fn every_header_byte_change_is_refused_or_names_another_suite() {
        // Any change outside the key bytes is refused, except that the OID's last arc
        // may name another suite with the same key length (then `_for` refuses it).
        for suite in [Suite::MlDsa65, Suite::SlhDsaSha2_192f] {
            let der = spki(suite, &std::vec![1; suite.public_key_len()]);
            let header = der.len() - suite.public_key_len();
            let oid = suite.oid_der();
            let arc_at = der.windows(oid.len()).position(|w| w == oid).unwrap() + oid.len() - 1;
            for i in 0..header {
                for delta in [1u8, 0x80, 0xff] {
                    let mut bad = der.clone();
                    bad[i] = bad[i].wrapping_add(delta);
                    match PublicKey::from_spki_der(&bad) {
                        Err(_) => {}
                        Ok(k) if i == arc_at && k.suite() != suite => {
                            assert!(PublicKey::from_spki_der_for(suite, &bad).is_err());
                        }
                        Ok(k) => panic!("byte {i} + {delta} accepted as {}", k.suite()),
                    }
                }
            }
        }
    }

    #[test]
    fn non_der_forms_are_refused_with_what_was_wrong() {
        let key = [9u8; 32];
        let good = spki(Suite::SlhDsaSha2_128s, &key);
        // Parameters present (an explicit NULL).
        let with_null = {
            let alg = [&[0x30, 0x0d][..], &Suite::SlhDsaSha2_128s.oid_der(), &[0x05, 0x00]].concat();
            let bits = [&[0x03, 33, 0][..], &key].concat();
            [&[0x30, (alg.len() + bits.len()) as u8][..], &alg, &bits].concat()
        };
        assert_eq!(
            PublicKey::from_spki_der(&with_null),
            Err(malformed("the AlgorithmIdentifier has parameters; they must be absent"))
        );
        // A long-form length where the short form fits.
        let long_form = [&[0x30, 0x81, good[1]][..], &good[2..]].concat();
        assert!(matches!(PublicKey::from_spki_der(&long_form), Err(Error::MalformedPublicKey { .. })));
        // Indefinite length.
        let indefinite = [&[0x30, 0x80][..], &good[2..], &[0, 0]].concat();
        assert!(matches!(PublicKey::from_spki_der(&indefinite), Err(Error::MalformedPublicKey { .. })));
        // Unused bits in the BIT STRING.
        let mut unused = good.clone();
        unused[good.len() - key.len() - 1] = 1;
        assert_eq!(
            PublicKey::from_spki_der(&unused),
            Err(malformed("the subjectPublicKey BIT STRING has unused bits; it must have 0"))
        );
        // Another NIST arc (16 is not a suite; 3.4.2.1 is SHA-256).
        const ARC: usize = 14; // tag, length, 0x30 0x0b, 0x06 0x09, eight arcs
        let mut other = good.clone();
        other[ARC] = 16;
        assert_eq!(PublicKey::from_spki_der(&other), Err(Error::UnknownKeyAlgorithm));
        let mut sha256 = good.clone();
        sha256[ARC - 1] = 0x02;
        sha256[ARC] = 0x01;
        assert_eq!(PublicKey::from_spki_der(&sha256), Err(Error::UnknownKeyAlgorithm));
        // The right layout for another suite.
        assert_eq!(
            PublicKey::from_spki_der_for(Suite::SlhDsaShake128s, &good),
            Err(Error::KeyAlgorithm { expected: Suite::SlhDsaShake128s, found: Suite::SlhDsaSha2_128s })
        );
        // The OID of a suite whose key is longer, around a short key.
        let mut wrong_len = good.clone();
        wrong_len[ARC] = 22;
        assert_eq!(
            PublicKey::from_spki_der(&wrong_len),
            Err(Error::PublicKeyLength { suite: Suite::SlhDsaSha2_192s, expected: 48, got: 32 })
        );
        assert_eq!(
            PublicKey::from_raw(Suite::MlDsa44, &key),
            Err(Error::PublicKeyLength { suite: Suite::MlDsa44, expected: 1312, got: 32 })
        );
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let base = spki(Suite::MlDsa44, &[3; 1312]);
        for _ in 0..20_000 {
            let mut bytes = base.clone();
            let flips = (next() % 4 + 1) as usize;
            for _ in 0..flips {
                let i = (next() as usize) % 24;
                bytes[i] = next() as u8;
            }
            bytes.truncate((next() as usize) % (base.len() + 1));
            let _ = PublicKey::from_spki_der(&bytes);
        }
    }
}
