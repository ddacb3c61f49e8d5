//! A campaign case (one verification, pure or pre-hash: suite, pre-hash function,
//! public key, message, context, signature, and the mutation that made it) and the case
//! file every verifier reads, natively and in Node (`js/answer.mjs` reads the same layout).
//!
//! The file: the magic line `PQVCASES 2\n`, then per case, little-endian,
//! `u8 len ‖ suite name ‖ u8 len ‖ mutation ‖ u8 len ‖ pre-hash name (empty: pure) ‖
//! (u32 len ‖ bytes)` for the public key, the message, the context and the signature.
//! Version 1 files (no pre-hash name; every case pure) still read.

use std::io::{self, Read, Write};

use pqverify_core::{Message, PreHash, Suite};

/// The file's first bytes.
pub const MAGIC: &[u8] = b"PQVCASES 2\n";

/// The first bytes of a version 1 file (pure cases only).
const MAGIC_1: &[u8] = b"PQVCASES 1\n";

/// One verification to ask every verifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The parameter set.
    pub suite: Suite,
    /// What was done to a valid signature (`valid` for none).
    pub mutation: String,
    /// The pre-hash function (HashML-DSA, HashSLH-DSA), or `None` for the pure interface.
    pub prehash: Option<PreHash>,
    /// The public key.
    pub pk: Vec<u8>,
    /// The message.
    pub msg: Vec<u8>,
    /// The context string (pure interface; may be longer than 255 bytes on purpose).
    pub ctx: Vec<u8>,
    /// The signature.
    pub sig: Vec<u8>,
}

impl Case {
    /// The message as pqverify's API takes it: pure, or pre-hash under the case's function.
    pub fn message(&self) -> Message<'_> {
        match self.prehash {
            None => Message::pure(&self.msg, &self.ctx),
            Some(hash) => Message::prehash(&self.msg, &self.ctx, hash),
        }
    }
}

/// Writes `cases` as a case file.
pub fn write(out: &mut impl Write, cases: &[Case]) -> io::Result<()> {
    out.write_all(MAGIC)?;
    for c in cases {
        let prehash = c.prehash.map_or("", PreHash::name);
        for short in [c.suite.name().as_bytes(), c.mutation.as_bytes(), prehash.as_bytes()] {
            out.write_all(&[u8::try_from(short.len()).map_err(|_| invalid("a name over 255 bytes"))?])?;
            out.write_all(short)?;
        }
        for part in [&c.pk, &c.msg, &c.ctx, &c.sig] {
            let len = u32::try_from(part.len()).map_err(|_| invalid("a part over 4 GiB"))?;
            out.write_all(&len.to_le_bytes())?;
            out.write_all(part)?;
        }
    }
    Ok(())
}

/// Reads a whole case file.
pub fn read(input: &mut impl Read) -> io::Result<Vec<Case>> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    let (mut rest, version) = match (bytes.strip_prefix(MAGIC), bytes.strip_prefix(MAGIC_1)) {
        (Some(rest), _) => (rest, 2),
        (None, Some(rest)) => (rest, 1),
        (None, None) => return Err(invalid("not a case file (no `PQVCASES 2` or `PQVCASES 1` line)")),
    };
    let mut cases = Vec::new();
    while !rest.is_empty() {
        let suite_name = short(&mut rest)?;
        let suite = std::str::from_utf8(&suite_name)
            .ok()
            .and_then(|s| s.parse::<Suite>().ok())
            .ok_or_else(|| invalid("an unknown suite name"))?;
        let mutation = String::from_utf8(short(&mut rest)?).map_err(|_| invalid("a mutation name not UTF-8"))?;
        let prehash = match if version == 1 { Vec::new() } else { short(&mut rest)? }.as_slice() {
            [] => None,
            name => Some(
                std::str::from_utf8(name)
                    .ok()
                    .and_then(|n| n.parse::<PreHash>().ok())
                    .ok_or_else(|| invalid("an unknown pre-hash name"))?,
            ),
        };
        let [pk, msg, ctx, sig] = [(); 4].map(|()| long(&mut rest));
        cases.push(Case { suite, mutation, prehash, pk: pk?, msg: msg?, ctx: ctx?, sig: sig? });
    }
    Ok(cases)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("case file: {what}"))
}

fn take(rest: &mut &[u8], n: usize) -> io::Result<Vec<u8>> {
    if rest.len() < n {
        return Err(invalid("truncated"));
    }
    let (head, tail) = rest.split_at(n);
    *rest = tail;
    Ok(head.to_vec())
}

fn short(rest: &mut &[u8]) -> io::Result<Vec<u8>> {
    let len = take(rest, 1)?[0];
    take(rest, usize::from(len))
}

fn long(rest: &mut &[u8]) -> io::Result<Vec<u8>> {
    let len = take(rest, 4)?;
    let len = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
    take(rest, len as usize)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]
    use super::*;

    #[test]
    fn a_case_file_reads_back_as_written_and_a_cut_one_is_an_error() {
        let cases = vec![
            Case {
                suite: Suite::MlDsa44,
                mutation: "valid".into(),
                prehash: None,
                pk: vec![1; 3],
                msg: vec![],
                ctx: vec![2; 256],
                sig: vec![3; 5],
            },
            Case {
                suite: Suite::SlhDsaShake256f,
                mutation: "flip-R".into(),
                prehash: Some(PreHash::Sha2_512_224),
                pk: vec![4],
                msg: vec![5; 70],
                ctx: vec![],
                sig: vec![],
            },
        ];
        let mut file = Vec::new();
        write(&mut file, &cases).unwrap();
        assert_eq!(read(&mut file.as_slice()).unwrap(), cases);
        for cut in [MAGIC.len() + 3, file.len() - 1] {
            assert!(read(&mut &file[..cut]).is_err(), "cut at {cut}");
        }
        assert!(read(&mut &b"PQVCASES 3\n"[..]).is_err());
        // An unknown pre-hash name.
        let mut bad = Vec::new();
        write(&mut bad, &[Case { prehash: Some(PreHash::Sha2_224), ..cases[0].clone() }]).unwrap();
        let at = bad.windows(8).position(|w| w == b"SHA2-224").unwrap();
        bad[at + 5] = b'9';
        assert!(read(&mut bad.as_slice()).is_err());
    }

    #[test]
    fn a_version_1_file_reads_as_pure_cases() {
        let mut file = MAGIC_1.to_vec();
        file.extend([9]);
        file.extend(b"ML-DSA-44");
        file.extend([5]);
        file.extend(b"valid");
        for part in [&[1u8, 2][..], b"", b"", &[3]] {
            file.extend(u32::try_from(part.len()).unwrap().to_le_bytes());
            file.extend(part);
        }
        let cases = read(&mut file.as_slice()).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!((cases[0].prehash, cases[0].pk.as_slice(), cases[0].sig.as_slice()), (None, &[1, 2][..], &[3][..]));
    }
}
