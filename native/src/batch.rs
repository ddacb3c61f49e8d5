//! Batches: many (suite, key, message, signature) items verified in parallel across
//! cores, verdicts in input order, with an optional Verify-Unit budget charged
//! before any verification starts.

use pqverify_core::{Interface, Message, PreHash, PublicKey, Suite};
use rayon::prelude::*;

use crate::backend::Request;
use crate::units::UnitTable;
use crate::{Verifier, VerifyError};

/// Every interface name a request may give, `external` (the default) first: core's
/// ([`Interface::name`]), where `internal` also takes μ, and `external`, FIPS's word for
/// the pure and pre-hash interfaces.
pub const INTERFACE_NAMES: [&str; 5] = ["external", "internal", "pure", "prehash", "external-mu"];

/// A message that owns its bytes: its form (interface and pre-hash function) checked by
/// core's [`Message::new`] once, when it is made, and its bytes held apart.
#[derive(Clone, Debug)]
pub struct OwnedMessage {
    /// The checked message's form, over no bytes.
    form: Message<'static>,
    /// M, M′ or μ.
    bytes: Vec<u8>,
    /// The context (pure and pre-hash interfaces; empty for the others).
    context: Vec<u8>,
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
        let form = Message::new(interface, &bytes, &context, prehash)?.with_bytes(&[], &[]);
        Ok(OwnedMessage { form, bytes, context })
    }

    /// `msg` through the pure interface with an empty context.
    pub fn pure(msg: Vec<u8>) -> Self {
        OwnedMessage { form: Message::pure(&[], &[]), bytes: msg, context: Vec::new() }
    }

    /// A message from the fields a request line or the command line carries, through
    /// the interface it names (one of [`INTERFACE_NAMES`]): `external` is pure, or
    /// pre-hash when `prehash` is given; `internal` is M′ in `msg`, or μ in `mu`. `name`
    /// writes a field's name as the caller shows it (`field msg`, `--msg`). Which parts
    /// each interface takes is core's rule ([`Message::new`]).
    pub fn from_fields(
        interface: &str,
        msg: Option<Vec<u8>>,
        mu: Option<Vec<u8>>,
        ctx: Option<Vec<u8>>,
        prehash: Option<PreHash>,
        name: impl Fn(&str) -> String,
    ) -> Result<Self, String> {
        let interface = match (interface, &msg, &mu) {
            ("external", _, Some(_)) => return Err(format!("{} needs the internal interface", name("mu"))),
            ("external", _, None) if prehash.is_some() => Interface::PreHash,
            ("external", _, None) => Interface::Pure,
            ("internal", Some(_), Some(_)) => {
                return Err(format!("give {} (M′) or {}, not both", name("msg"), name("mu")));
            }
            ("internal", None, None) => return Err(format!("missing {} (M′) or {}", name("msg"), name("mu"))),
            ("internal", Some(_), None) => Interface::Internal,
            ("internal", None, Some(_)) => Interface::ExternalMu,
            (other, _, _) => Interface::ALL.into_iter().find(|i| i.name() == other).ok_or_else(|| {
                format!("unknown interface {other:?}; expected one of {}", INTERFACE_NAMES.join(", "))
            })?,
        };
        let bytes = match (interface, msg, mu) {
            (Interface::ExternalMu, None, Some(mu)) => mu,
            (Interface::ExternalMu, Some(_), _) => {
                return Err(format!("the external-mu interface takes {}, not {}", name("mu"), name("msg")));
            }
            (Interface::ExternalMu, None, None) => return Err(format!("missing {}", name("mu"))),
            (_, Some(msg), None) => msg,
            (_, _, Some(_)) => return Err(format!("{} needs the external-mu interface", name("mu"))),
            (_, None, None) => return Err(format!("missing {}", name("msg"))),
        };
        OwnedMessage::new(interface, bytes, ctx.unwrap_or_default(), prehash).map_err(|e| e.to_string())
    }

    /// Borrowed as a core [`Message`].
    pub fn as_message(&self) -> Message<'_> {
        self.form.with_bytes(&self.bytes, &self.context)
    }

    /// The bytes a verifier hashes beyond its fixed work (what long messages are
    /// charged for): message and context, or M′; none for an external μ.
    pub fn hashed_len(&self) -> usize {
        match self.form {
            Message::ExternalMu(_) => 0,
            _ => self.bytes.len() + self.context.len(),
        }
    }

    /// The bytes it holds (message and context).
    pub fn held_bytes(&self) -> usize {
        self.bytes.len() + self.context.len()
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
        self.public_key.len() + self.signature.len() + self.message.held_bytes()
    }

    /// The item as a request: an input error when its key is not of its suite's length.
    pub fn request(&self) -> Result<Request<'_>, VerifyError> {
        let public_key = PublicKey::from_raw(self.suite, &self.public_key).map_err(VerifyError::Input)?;
        Ok(Request { public_key, message: self.message.as_message(), signature: &self.signature })
    }

    /// Checks the item ([`request`](Self::request)) and decides it.
    pub fn decide(&self, verifier: &dyn Verifier) -> Result<bool, VerifyError> {
        verifier.decide(&self.request()?)
    }
}

/// The budget rule (`pqverify batch --budget`): `items` cost what `table` charges for
/// each one's suite and hashed bytes, and a batch over `limit` Verify Units is refused
/// whole, before any work. The total on success.
pub fn charge<'a>(table: &UnitTable, items: impl IntoIterator<Item = &'a Item>, limit: u64) -> Result<u64, String> {
    table.charge(items.into_iter().map(|i| (i.suite, i.message.hashed_len())), limit)
}

/// Verifies every item on the current rayon pool; results are in input order.
/// With a budget, the whole batch is refused before any work if it costs more
/// ([`charge`]).
pub fn verify_batch(
    verifier: &dyn Verifier,
    items: &[Item],
    budget: Option<(&UnitTable, u64)>,
) -> Result<Vec<Result<bool, VerifyError>>, VerifyError> {
    if let Some((table, limit)) = budget {
        charge(table, items, limit).map_err(VerifyError::Budget)?;
    }
    Ok(items.par_iter().map(|item| item.decide(verifier)).collect())
}
