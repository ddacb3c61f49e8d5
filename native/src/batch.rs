//! Batches: many (suite, key, message, signature) items verified in parallel across
//! cores, verdicts in input order, with an optional Verify-Unit budget charged
//! before any verification starts.

use pqverify_core::{Interface, Message, PreHash, Suite};
use rayon::prelude::*;

use crate::backend::Request;
use crate::units::UnitTable;
use crate::{Verifier, VerifyError};

/// The interface a request names: one of core's ([`Interface::name`]), or one of the
/// first two names, `external` (pure, or pre-hash when a pre-hash is given) and
/// `internal` (M′ in `msg`, or external μ in `mu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// `external`.
    External,
    /// `internal`.
    Internal,
    /// Core's name.
    Core(Interface),
}

impl Named {
    /// Every name a request may give, `external` (the default) first.
    pub const NAMES: [&'static str; 5] = ["external", "internal", "pure", "prehash", "external-mu"];
}

impl core::str::FromStr for Named {
    type Err = String;

    /// `external`, `internal`, or one of core's names ([`Interface::name`]).
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "external" => Ok(Named::External),
            "internal" => Ok(Named::Internal),
            other => Interface::ALL
                .into_iter()
                .find(|i| i.name() == other)
                .map(Named::Core)
                .ok_or_else(|| format!("unknown interface {other:?}; expected one of {}", Named::NAMES.join(", "))),
        }
    }
}

/// A message that owns its bytes.
#[derive(Clone, Debug)]
pub enum OwnedMessage {
    /// Pure interface.
    Pure {
        /// M.
        msg: Vec<u8>,
        /// Context.
        ctx: Vec<u8>,
    },
    /// Pre-hash interface.
    PreHash {
        /// M.
        msg: Vec<u8>,
        /// Context.
        ctx: Vec<u8>,
        /// PH.
        hash: PreHash,
    },
    /// Internal interface on M′.
    Internal(Vec<u8>),
    /// External μ.
    ExternalMu(Vec<u8>),
}

impl OwnedMessage {
    /// A message from a request's parts, by core's one rule ([`Message::new`]): an
    /// error names the part that does not fit the interface.
    pub fn new(
        interface: Interface,
        bytes: Vec<u8>,
        context: Vec<u8>,
        prehash: Option<PreHash>,
    ) -> Result<Self, pqverify_core::Error> {
        Message::new(interface, &bytes, &context, prehash)?;
        Ok(match prehash {
            Some(hash) => OwnedMessage::PreHash { msg: bytes, ctx: context, hash },
            None => match interface {
                Interface::Internal => OwnedMessage::Internal(bytes),
                Interface::ExternalMu => OwnedMessage::ExternalMu(bytes),
                _ => OwnedMessage::Pure { msg: bytes, ctx: context },
            },
        })
    }

    /// A message from the fields a request line or the command line carries, through
    /// the interface it names ([`Named`]). `name` writes a field's name as the caller
    /// shows it (`field msg`, `--msg`). Which parts each interface takes is core's rule
    /// ([`Message::new`]).
    pub fn from_fields(
        named: Named,
        msg: Option<Vec<u8>>,
        mu: Option<Vec<u8>>,
        ctx: Option<Vec<u8>>,
        prehash: Option<PreHash>,
        name: impl Fn(&str) -> String,
    ) -> Result<Self, String> {
        let (interface, bytes) = match (named, msg, mu) {
            (Named::External, Some(msg), None) => {
                (if prehash.is_some() { Interface::PreHash } else { Interface::Pure }, msg)
            }
            (Named::External, _, Some(_)) => return Err(format!("{} needs the internal interface", name("mu"))),
            (Named::External, None, None) => return Err(format!("missing {}", name("msg"))),
            (Named::Internal, Some(m), None) => (Interface::Internal, m),
            (Named::Internal, None, Some(mu)) => (Interface::ExternalMu, mu),
            (Named::Internal, Some(_), Some(_)) => {
                return Err(format!("give {} (M′) or {}, not both", name("msg"), name("mu")));
            }
            (Named::Internal, None, None) => return Err(format!("missing {} (M′) or {}", name("msg"), name("mu"))),
            (Named::Core(Interface::ExternalMu), None, Some(mu)) => (Interface::ExternalMu, mu),
            (Named::Core(Interface::ExternalMu), Some(_), _) => {
                return Err(format!("the external-mu interface takes {}, not {}", name("mu"), name("msg")));
            }
            (Named::Core(Interface::ExternalMu), None, None) => return Err(format!("missing {}", name("mu"))),
            (Named::Core(interface), Some(msg), None) => (interface, msg),
            (Named::Core(_), _, Some(_)) => return Err(format!("{} needs the external-mu interface", name("mu"))),
            (Named::Core(_), None, None) => return Err(format!("missing {}", name("msg"))),
        };
        OwnedMessage::new(interface, bytes, ctx.unwrap_or_default(), prehash).map_err(|e| e.to_string())
    }

    /// Borrowed as a core [`Message`].
    pub fn as_message(&self) -> Message<'_> {
        match self {
            OwnedMessage::Pure { msg, ctx } => Message::pure(msg, ctx),
            OwnedMessage::PreHash { msg, ctx, hash } => Message::prehash(msg, ctx, *hash),
            OwnedMessage::Internal(m) => Message::Internal(m),
            OwnedMessage::ExternalMu(mu) => Message::ExternalMu(mu),
        }
    }

    /// The bytes a verifier hashes beyond its fixed work (what long messages are
    /// charged for): message and context, or M′; none for an external μ.
    pub fn hashed_len(&self) -> usize {
        match self {
            OwnedMessage::Pure { msg, ctx } | OwnedMessage::PreHash { msg, ctx, .. } => msg.len() + ctx.len(),
            OwnedMessage::Internal(m) => m.len(),
            OwnedMessage::ExternalMu(_) => 0,
        }
    }
}

/// One batch item.
#[derive(Clone, Debug)]
pub struct Item {
    /// The suite.
    pub suite: Suite,
    /// Encoded public key.
    pub public_key: Vec<u8>,
    /// Message and interface.
    pub message: OwnedMessage,
    /// Signature.
    pub signature: Vec<u8>,
}

impl Item {
    /// The bytes the item holds (key, signature, message and context).
    pub fn held_bytes(&self) -> usize {
        let message = match &self.message {
            OwnedMessage::Pure { msg, ctx } | OwnedMessage::PreHash { msg, ctx, .. } => msg.len() + ctx.len(),
            OwnedMessage::Internal(m) | OwnedMessage::ExternalMu(m) => m.len(),
        };
        self.public_key.len() + self.signature.len() + message
    }

    /// The item as a request.
    pub fn request(&self) -> Request<'_> {
        Request {
            suite: self.suite,
            public_key: &self.public_key,
            message: self.message.as_message(),
            signature: &self.signature,
        }
    }
}

/// Verifies every item on the current rayon pool; results are in input order.
/// With a budget, the whole batch is refused before any work if it costs more.
pub fn verify_batch(
    verifier: &dyn Verifier,
    items: &[Item],
    budget: Option<(&UnitTable, u64)>,
) -> Result<Vec<Result<bool, VerifyError>>, VerifyError> {
    if let Some((table, limit)) = budget {
        table.charge(items.iter().map(|i| (i.suite, i.message.hashed_len())), limit).map_err(VerifyError::Budget)?;
    }
    Ok(items.par_iter().map(|item| verifier.decide(&item.request())).collect())
}
