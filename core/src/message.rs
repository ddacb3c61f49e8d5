//! What is signed: the message and the interface it is verified through, and the
//! message representative M′ that FIPS 204 and FIPS 205 build from it.

use crate::prehash::{MAX_DIGEST, OID_LEN, PreHash};
use crate::{Error, Family, Interface, Suite};

/// What an SLH-DSA suite lacks: the one interface a suite can lack.
pub(crate) const EXTERNAL_MU_ML_DSA_ONLY: &str = "external mu (ML-DSA only)";

/// The longest context string FIPS 204 and FIPS 205 allow.
pub const MAX_CONTEXT_LEN: usize = 255;

/// A message and the interface to verify it through.
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// ML-DSA.Verify (FIPS 204 Algorithm 3) / slh_verify (FIPS 205 Algorithm 24):
    /// M′ = 0 ‖ |ctx| ‖ ctx ‖ M.
    Pure {
        /// The message M.
        msg: &'a [u8],
        /// The context string, at most 255 bytes (often empty).
        ctx: &'a [u8],
    },
    /// HashML-DSA.Verify (FIPS 204 Algorithm 5) / hash_slh_verify (FIPS 205 Algorithm 25):
    /// M′ = 1 ‖ |ctx| ‖ ctx ‖ OID(PH) ‖ PH(M). The verifier computes PH(M) itself.
    PreHash {
        /// The message M (not its digest).
        msg: &'a [u8],
        /// The context string, at most 255 bytes.
        ctx: &'a [u8],
        /// The pre-hash function PH.
        hash: PreHash,
    },
    /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) / slh_verify_internal (FIPS 205
    /// Algorithm 20) on M′ exactly as given.
    Internal(&'a [u8]),
    /// ML-DSA.Verify_internal with μ supplied by the caller (64 bytes), skipping
    /// μ = H(tr ‖ M′). Only meaningful for ML-DSA; compute μ yourself from the key you
    /// verify with when the message comes from an untrusted party.
    ExternalMu(&'a [u8]),
}

impl<'a> Message<'a> {
    /// The one way to build a message from its parts, as requests carry them: `bytes` is
    /// M (pure, pre-hash), M′ (internal) or μ (external μ); `context` is the pure and
    /// pre-hash interfaces' and must be empty for the others; `prehash` is given exactly
    /// for [`Interface::PreHash`]. Lengths are checked where verification checks them
    /// ([`Message::check_for`]); this checks only that the parts fit the interface.
    pub fn new(
        interface: Interface,
        bytes: &'a [u8],
        context: &'a [u8],
        prehash: Option<PreHash>,
    ) -> Result<Self, Error> {
        let form = |what| Err(Error::MessageForm { interface, what });
        match (interface, prehash) {
            (Interface::Pure, None) => Ok(Message::Pure { msg: bytes, ctx: context }),
            (Interface::PreHash, Some(hash)) => Ok(Message::PreHash { msg: bytes, ctx: context, hash }),
            (Interface::PreHash, None) => form("needs a pre-hash function"),
            (_, Some(_)) => form("takes no pre-hash function (that is the prehash interface)"),
            (_, None) if !context.is_empty() => form("takes no context (M′ or μ already holds it)"),
            (Interface::Internal, None) => Ok(Message::Internal(bytes)),
            (Interface::ExternalMu, None) => Ok(Message::ExternalMu(bytes)),
        }
    }

    /// The interface this message is verified through.
    pub const fn interface(&self) -> Interface {
        match self {
            Message::Pure { .. } => Interface::Pure,
            Message::PreHash { .. } => Interface::PreHash,
            Message::Internal(_) => Interface::Internal,
            Message::ExternalMu(_) => Interface::ExternalMu,
        }
    }

    /// The parts [`Message::new`] takes back: (interface, bytes, context, pre-hash).
    pub const fn parts(&self) -> (Interface, &'a [u8], &'a [u8], Option<PreHash>) {
        match *self {
            Message::Pure { msg, ctx } => (Interface::Pure, msg, ctx, None),
            Message::PreHash { msg, ctx, hash } => (Interface::PreHash, msg, ctx, Some(hash)),
            Message::Internal(m) => (Interface::Internal, m, &[], None),
            Message::ExternalMu(mu) => (Interface::ExternalMu, mu, &[], None),
        }
    }

    /// The same interface (and pre-hash function) over `bytes` and `context`, as
    /// [`Message::new`] builds it from them; the context is dropped where the interface
    /// has none. For a caller that holds a message's bytes apart from its form (an owned
    /// request), so that the form is checked once.
    pub const fn with_bytes<'b>(&self, bytes: &'b [u8], context: &'b [u8]) -> Message<'b> {
        match *self {
            Message::Pure { .. } => Message::Pure { msg: bytes, ctx: context },
            Message::PreHash { hash, .. } => Message::PreHash { msg: bytes, ctx: context, hash },
            Message::Internal(_) => Message::Internal(bytes),
            Message::ExternalMu(_) => Message::ExternalMu(bytes),
        }
    }

    /// The pure interface with a context string.
    pub const fn pure(msg: &'a [u8], ctx: &'a [u8]) -> Self {
        Message::Pure { msg, ctx }
    }

    /// The pre-hash interface with a context string.
    pub const fn prehash(msg: &'a [u8], ctx: &'a [u8], hash: PreHash) -> Self {
        Message::PreHash { msg, ctx, hash }
    }

    /// Whether pqverify-core takes this message for `suite` at all: the context is at most
    /// 255 bytes, μ is 64 bytes, and the interface exists for the suite (external μ is
    /// ML-DSA's). Every verify makes these checks; this makes them alone, for a caller
    /// that checks a request once (a certificate of many signatures on one message, a
    /// backend other than pqverify-core).
    pub fn check_for(&self, suite: Suite) -> Result<(), Error> {
        self.check()?;
        match (self, suite.family()) {
            (Message::ExternalMu(_), Family::SlhDsa) => {
                Err(Error::Unsupported { suite, what: EXTERNAL_MU_ML_DSA_ONLY })
            }
            _ => Ok(()),
        }
    }

    /// Checks the lengths a caller controls (context, μ) before any work is done.
    pub(crate) fn check(&self) -> Result<(), Error> {
        match *self {
            Message::Pure { ctx, .. } | Message::PreHash { ctx, .. } if ctx.len() > MAX_CONTEXT_LEN => {
                Err(Error::ContextLength { got: ctx.len() })
            }
            Message::ExternalMu(mu) if mu.len() != 64 => Err(Error::MuLength { got: mu.len() }),
            _ => Ok(()),
        }
    }
}

/// M′ as byte strings to be hashed one after the other, none of them a copy of the
/// caller's: the domain byte and the context's length, the context, the pre-hash's OID
/// and digest, and the message. Small, so that a verification holds it by value.
pub(crate) struct MessagePrime<'a> {
    /// The domain byte (0 pure, 1 pre-hash) and |ctx|: the first `head_len` (none for
    /// the internal interface).
    head: [u8; 2],
    head_len: u8,
    /// The pre-hash interface's OID and PH(M), `digest_len` bytes (none: another
    /// interface).
    digest_len: u8,
    oid: [u8; OID_LEN],
    digest: [u8; MAX_DIGEST],
    ctx: &'a [u8],
    /// M (the pure and internal interfaces).
    msg: &'a [u8],
}

impl<'a> MessagePrime<'a> {
    /// Builds M′ for the pure, pre-hash and internal interfaces; for external μ, which
    /// has no M′, the μ given. The message must have passed [`Message::check`].
    pub(crate) fn new(message: &Message<'a>) -> Result<Self, &'a [u8]> {
        let mut out = MessagePrime {
            head: [0; 2],
            head_len: 0,
            digest_len: 0,
            oid: [0; OID_LEN],
            digest: [0; MAX_DIGEST],
            ctx: &[],
            msg: &[],
        };
        match *message {
            // |ctx| ≤ 255 (checked by `Message::check`).
            Message::Pure { msg, ctx } => {
                (out.head, out.head_len, out.ctx, out.msg) = ([0, ctx.len() as u8], 2, ctx, msg)
            }
            Message::PreHash { msg, ctx, hash } => {
                (out.head, out.head_len, out.ctx) = ([1, ctx.len() as u8], 2, ctx);
                (out.oid, out.digest_len) = (hash.oid_der(), hash.digest_len() as u8);
                hash.digest_into(msg, &mut out.digest);
            }
            Message::Internal(m) => out.msg = m,
            Message::ExternalMu(mu) => return Err(mu),
        }
        Ok(out)
    }

    /// The parts of M′, in order (some empty).
    pub(crate) fn parts(&self) -> [&[u8]; 5] {
        let oid = if self.digest_len > 0 { &self.oid[..] } else { &[] };
        let digest = self.digest.get(..usize::from(self.digest_len)).unwrap_or_default();
        [self.head.get(..usize::from(self.head_len)).unwrap_or_default(), self.ctx, oid, digest, self.msg]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m_prime_is_the_standards_concatenation_for_each_interface() {
        let hash = PreHash::Sha2_256;
        let mut digest = [0u8; MAX_DIGEST];
        hash.digest_into(b"msg", &mut digest);
        let cases: [(Message<'_>, std::vec::Vec<u8>); 3] = [
            // FIPS 204 Algorithm 3, FIPS 205 Algorithm 24: 0 ‖ |ctx| ‖ ctx ‖ M.
            (Message::pure(b"msg", b"ctx"), [&[0, 3][..], b"ctx", b"msg"].concat()),
            // FIPS 204 Algorithm 5, FIPS 205 Algorithm 25: 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M).
            (
                Message::prehash(b"msg", b"ctx", hash),
                [&[1, 3][..], b"ctx", &hash.oid_der(), &digest[..hash.digest_len()]].concat(),
            ),
            (Message::Internal(b"msg"), b"msg".to_vec()),
        ];
        for (message, want) in cases {
            let m_prime = MessagePrime::new(&message).unwrap_or_else(|_| panic!("{message:?} has M′"));
            assert_eq!(m_prime.parts().concat(), want, "{message:?}");
        }
        assert!(MessagePrime::new(&Message::ExternalMu(&[7; 64])).is_err());
    }

    #[test]
    fn new_builds_every_interface_and_refuses_parts_that_do_not_fit() {
        let hash = PreHash::Sha2_256;
        for m in [
            Message::pure(b"m", b"c"),
            Message::prehash(b"m", b"c", hash),
            Message::Internal(b"m"),
            Message::ExternalMu(b"u"),
        ] {
            let (interface, bytes, context, prehash) = m.parts();
            assert_eq!(interface, m.interface());
            let built = Message::new(interface, bytes, context, prehash).unwrap();
            assert_eq!(built.parts(), m.parts());
        }
        let form = |i, ctx: &'static [u8], h| match Message::new(i, b"m", ctx, h) {
            Err(Error::MessageForm { interface, .. }) => interface == i,
            _ => false,
        };
        assert!(form(Interface::Pure, b"", Some(hash)));
        assert!(form(Interface::PreHash, b"c", None));
        assert!(form(Interface::Internal, b"c", None));
        assert!(form(Interface::Internal, b"", Some(hash)));
        assert!(form(Interface::ExternalMu, b"c", None));
        // Lengths are verification's to check, not the builder's.
        assert!(Message::new(Interface::ExternalMu, &[0; 3], b"", None).is_ok());
        assert!(Message::new(Interface::Pure, b"m", &[0; 300], None).is_ok());
    }
}
