//! Public keys as servers receive them: raw (FIPS 204/205 encoding), an X.509
//! SubjectPublicKeyInfo in DER, or that DER in PEM armour (`-----BEGIN PUBLIC KEY-----`,
//! what OpenSSL writes). The DER is decoded by pqverify-core's one strict decoder; PEM is
//! only its text wrapping, undone here.

use std::str::FromStr;

use base64::Engine;
use pqverify_core::{Error, PublicKey, Suite};

/// How a public key is encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyFormat {
    /// The raw encoding of FIPS 204 (`pkEncode`) / FIPS 205 (`PK.seed ‖ PK.root`).
    #[default]
    Raw,
    /// A SubjectPublicKeyInfo in DER (RFC 9881; NIST's SLH-DSA OIDs).
    Spki,
    /// The SubjectPublicKeyInfo in PEM (RFC 7468 `PUBLIC KEY`).
    Pem,
}

impl KeyFormat {
    /// Every format, by its name.
    pub const ALL: [KeyFormat; 3] = [KeyFormat::Raw, KeyFormat::Spki, KeyFormat::Pem];

    /// `raw`, `spki` or `pem`.
    pub const fn name(self) -> &'static str {
        match self {
            KeyFormat::Raw => "raw",
            KeyFormat::Spki => "spki",
            KeyFormat::Pem => "pem",
        }
    }

    /// Whether a key in this format is given as text (PEM) rather than as bytes in hex.
    pub const fn is_text(self) -> bool {
        matches!(self, KeyFormat::Pem)
    }
}

impl FromStr for KeyFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        KeyFormat::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown key format {s:?}; expected raw, spki or pem"))
    }
}

/// The key of a request (a command line, a JSON line) as the verifier takes it: raw
/// bytes as given (the verifier checks their length, as it checks the other inputs),
/// an encoded key decoded here, strictly ([`raw_public_key`]).
pub fn request_key(suite: Suite, format: KeyFormat, input: Vec<u8>) -> Result<Vec<u8>, Error> {
    match format {
        KeyFormat::Raw => Ok(input),
        KeyFormat::Spki | KeyFormat::Pem => raw_public_key(suite, format, &input),
    }
}

/// The raw public key of `suite` in `input`, encoded as `format`; an error says what
/// was wrong (a key of another suite, malformed DER or PEM, the wrong length).
pub fn raw_public_key(suite: Suite, format: KeyFormat, input: &[u8]) -> Result<Vec<u8>, Error> {
    let der;
    let key = match format {
        KeyFormat::Raw => PublicKey::from_raw(suite, input)?,
        KeyFormat::Spki => PublicKey::from_spki_der_for(suite, input)?,
        KeyFormat::Pem => {
            der = pem_body(input)?;
            PublicKey::from_spki_der_for(suite, &der)?
        }
    };
    Ok(key.as_bytes().to_vec())
}

const BEGIN: &str = "-----BEGIN PUBLIC KEY-----";
const END: &str = "-----END PUBLIC KEY-----";

/// The DER inside one PEM `PUBLIC KEY` block: text around the block is refused, as
/// are headers and anything but standard base64 and line breaks inside it.
fn pem_body(input: &[u8]) -> Result<Vec<u8>, Error> {
    let malformed = |what| Error::MalformedPublicKey { what };
    let text = std::str::from_utf8(input).map_err(|_| malformed("the PEM text is not UTF-8"))?.trim();
    let body = text
        .strip_prefix(BEGIN)
        .and_then(|rest| rest.strip_suffix(END))
        .ok_or(malformed("PEM expected: one -----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY----- block"))?;
    let base64: String = body.split(['\n', '\r']).map(str::trim_end).collect();
    if base64.contains(|c: char| c.is_whitespace() || c == ':') {
        return Err(malformed("the PEM block has headers or spaces; expected only base64 lines"));
    }
    base64::engine::general_purpose::STANDARD
        .decode(base64.as_bytes())
        .map_err(|_| malformed("the PEM block's body is not canonical base64"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pem(der: &[u8]) -> String {
        let b64 = base64::engine::general_purpose::STANDARD.encode(der);
        let lines: Vec<&str> = b64.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap()).collect();
        format!("{BEGIN}\n{}\n{END}\n", lines.join("\n"))
    }

    fn spki(arc: u8, key: &[u8]) -> Vec<u8> {
        let bits = [&[0x03, key.len() as u8 + 1, 0][..], key].concat();
        let alg = [0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc];
        [&[0x30, (alg.len() + bits.len()) as u8][..], &alg, &bits].concat()
    }

    #[test]
    fn every_format_gives_the_raw_key() {
        let key = [5u8; 32];
        let der = spki(26, &key);
        let suite = Suite::SlhDsaShake128s;
        assert_eq!(raw_public_key(suite, KeyFormat::Raw, &key).unwrap(), key);
        assert_eq!(raw_public_key(suite, KeyFormat::Spki, &der).unwrap(), key);
        assert_eq!(raw_public_key(suite, KeyFormat::Pem, pem(&der).as_bytes()).unwrap(), key);
        assert_eq!(raw_public_key(suite, KeyFormat::Pem, pem(&der).replace('\n', "\r\n").as_bytes()).unwrap(), key);
        assert_eq!("pem".parse(), Ok(KeyFormat::Pem));
        assert!("der".parse::<KeyFormat>().unwrap_err().contains("expected raw, spki or pem"));
    }

    #[test]
    fn malformed_pem_and_other_suites_are_errors() {
        let der = spki(26, &[5; 32]);
        let good = pem(&der);
        let cases = [
            good.replace("PUBLIC KEY", "PRIVATE KEY"),
            format!("junk\n{good}"),
            good.replace(BEGIN, &format!("{BEGIN}\nProc-Type: 4,ENCRYPTED\n")),
            good.replacen('A', "*", 1),
            good.replacen('\n', "\n ", 2),
            String::new(),
        ];
        for bad in cases {
            assert!(
                matches!(
                    raw_public_key(Suite::SlhDsaShake128s, KeyFormat::Pem, bad.as_bytes()),
                    Err(Error::MalformedPublicKey { .. })
                ),
                "{bad:?}"
            );
        }
        assert_eq!(
            raw_public_key(Suite::SlhDsaSha2_128s, KeyFormat::Pem, good.as_bytes()),
            Err(Error::KeyAlgorithm { expected: Suite::SlhDsaSha2_128s, found: Suite::SlhDsaShake128s })
        );
        assert!(raw_public_key(Suite::SlhDsaShake128s, KeyFormat::Raw, &der).is_err());
    }
}
