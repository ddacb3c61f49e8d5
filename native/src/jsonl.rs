//! The JSON-lines protocol of `pqverify batch`: one request object per input line,
//! one answer object per output line, in order, never stopping at a bad line.
//!
//! Input fields: `id` (any JSON, echoed), `suite` (FIPS name), `pk`, `sig` (hex),
//! `msg` (hex; M, or M′ for `interface: internal`), `ctx` (hex, default empty),
//! `prehash` (ACVP hash name: the pre-hash variant), `interface` (`external`, the
//! default, or `internal`), `mu` (hex; ML-DSA internal with external μ).
//! Output: `{"id": …, "valid": true|false}`, plus `"error": "…"` when the line
//! could not be verified (then `valid` is false).

use serde_json::{Map, Value, json};

use crate::batch::{Item, OwnedMessage};
use crate::{Verify, VerifyError};

/// The fields a request line may have.
const FIELDS: [&str; 9] = ["id", "suite", "pk", "msg", "sig", "ctx", "prehash", "interface", "mu"];

/// A line that could not be turned into an item: its id (or null) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct LineError {
    /// The echoed id (`null` when the line was not a JSON object).
    pub id: Value,
    /// What was wrong.
    pub error: String,
}

fn text<'a>(obj: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match obj.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("field {name} must be a string")),
    }
}

fn hex_field(obj: &Map<String, Value>, name: &str) -> Result<Option<Vec<u8>>, String> {
    text(obj, name)?.map(|s| hex::decode(s).map_err(|e| format!("field {name} is not hex: {e}"))).transpose()
}

fn required(obj: &Map<String, Value>, name: &str) -> Result<Vec<u8>, String> {
    hex_field(obj, name)?.ok_or_else(|| format!("missing field {name}"))
}

/// Parses one request line into its id and item.
pub fn parse_line(line: &str) -> Result<(Value, Item), LineError> {
    let value: Value =
        serde_json::from_str(line).map_err(|e| LineError { id: Value::Null, error: format!("bad JSON: {e}") })?;
    let Value::Object(obj) = value else {
        return Err(LineError { id: Value::Null, error: "a line must be a JSON object".into() });
    };
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    item_of(&obj).map(|item| (id.clone(), item)).map_err(|error| LineError { id, error })
}

fn item_of(obj: &Map<String, Value>) -> Result<Item, String> {
    if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("unknown field {unknown}; fields are {}", FIELDS.join(", ")));
    }
    let suite = text(obj, "suite")?.ok_or("missing field suite")?;
    let suite: pqverify_core::Suite = suite.parse().map_err(|e| format!("{e}: {suite:?}"))?;
    let public_key = required(obj, "pk")?;
    let signature = required(obj, "sig")?;
    let ctx = hex_field(obj, "ctx")?;
    let mu = hex_field(obj, "mu")?;
    let msg = hex_field(obj, "msg")?;
    let prehash = text(obj, "prehash")?;
    let message = match text(obj, "interface")?.unwrap_or("external") {
        "external" => {
            if mu.is_some() {
                return Err("field mu needs interface internal".into());
            }
            let msg = msg.ok_or("missing field msg")?;
            let ctx = ctx.unwrap_or_default();
            match prehash {
                None => OwnedMessage::Pure { msg, ctx },
                Some(name) => {
                    let hash = name.parse().map_err(|e| format!("{e}: {name:?}"))?;
                    OwnedMessage::PreHash { msg, ctx, hash }
                }
            }
        }
        "internal" => {
            if ctx.is_some() || prehash.is_some() {
                return Err("fields ctx and prehash are for interface external".into());
            }
            match (msg, mu) {
                (Some(m), None) => OwnedMessage::Internal(m),
                (None, Some(mu)) => OwnedMessage::ExternalMu(mu),
                (Some(_), Some(_)) => return Err("give msg (M′) or mu, not both".into()),
                (None, None) => return Err("missing field msg (M′) or mu".into()),
            }
        }
        other => return Err(format!("unknown interface {other:?}; expected external or internal")),
    };
    Ok(Item { suite, public_key, message, signature })
}

/// The answer object for a verified item. An error carries its kind: `input`,
/// `unsupported` or `budget` (the request is unusable), `backend` or `sink` (a
/// fault on this side, not the caller's).
pub fn answer(id: Value, result: &Result<bool, VerifyError>) -> Value {
    match result {
        Ok(valid) => json!({ "id": id, "valid": valid }),
        Err(e) => json!({ "id": id, "valid": false, "error": e.to_string(), "kind": e.kind() }),
    }
}

/// Parses and verifies one line, returning its answer object.
pub fn answer_line(verifier: &dyn Verify, line: &str) -> Value {
    match parse_line(line) {
        Ok((id, item)) => answer(id, &verifier.verify(&item.request())),
        Err(LineError { id, error }) => json!({ "id": id, "valid": false, "error": error, "kind": "input" }),
    }
}
