//! The JSON-lines protocol of `pqverify batch`: one request object per input line,
//! one answer object per output line, in order, never stopping at a bad line.
//!
//! Input fields: `id` (any JSON, echoed), `suite` (FIPS name), `pk`, `sig` (hex),
//! `msg` (hex; M, or M′ for `interface: internal`), `ctx` (hex, default empty),
//! `prehash` (ACVP hash name: the pre-hash variant), `interface` (core's names `pure`,
//! `prehash`, `internal`, `external-mu`; or `external`, the default: pure, or pre-hash
//! when `prehash` is given; `internal` with `mu` is external μ), `mu` (hex; ML-DSA's
//! μ), `key_format` (`raw`, the default; `spki`: `pk` is the SubjectPublicKeyInfo DER in
//! hex; `pem`: `pk` is the PEM text).
//! Output ([`Answer`]): `{"id": …, "valid": true|false}`, plus `"error": "…"` and its
//! `"kind"` when the line could not be verified (then `valid` is false).

use serde_json::{Map, Value};

use crate::batch::{Item, OwnedMessage};
use crate::key::{KeyFormat, request_key};
use crate::{ErrorKind, Verifier, VerifyError};

/// The fields a request line may have.
const FIELDS: [&str; 10] = ["id", "suite", "pk", "msg", "sig", "ctx", "prehash", "interface", "mu", "key_format"];

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

/// Reads one line of at most `max` bytes (its `\n` or `\r\n` not counted) from
/// `input`: `Ok(None)` at the end of input, `Some(Ok(text))` (invalid UTF-8 replaced,
/// which the JSON parser then refuses), or `Some(Err(length))` for a longer line, which
/// is skipped without being held. A last line without a newline counts the same.
pub fn read_line(input: &mut impl std::io::BufRead, max: usize) -> std::io::Result<Option<Result<String, usize>>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    let mut seen_any = false;
    // The last two bytes read, for the terminator's length when the line is not held.
    let mut tail = [0u8; 2];
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        seen_any = true;
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        for &b in &buf[..take] {
            tail = [tail[1], b];
        }
        total += take;
        // Room for the content and a two-byte terminator; beyond that nothing is held.
        if total <= max + 2 {
            line.extend_from_slice(&buf[..take]);
        } else {
            line = Vec::new();
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if !seen_any {
        return Ok(None);
    }
    if total > max + 2 {
        let terminator = match tail {
            [b'\r', b'\n'] => 2,
            [_, b'\n'] => 1,
            _ => 0,
        };
        return Ok(Some(Err(total - terminator)));
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    }
    if line.len() > max {
        return Ok(Some(Err(line.len())));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
}

/// Parses one request line into its id and item, in one pass over its text.
pub fn parse_line(line: &str) -> Result<(Value, Item), LineError> {
    let top: Top =
        serde_json::from_str(line).map_err(|e| LineError { id: Value::Null, error: format!("bad JSON: {e}") })?;
    let Top::Object { map: obj, repeated } = top else {
        return Err(LineError { id: Value::Null, error: "a line must be a JSON object".into() });
    };
    let id = obj.get("id").cloned().unwrap_or(Value::Null);
    let fail = |error: String| LineError { id: id.clone(), error };
    // A JSON object keeps only the last of repeated keys: refuse them rather than guess.
    if let Some(key) = repeated {
        return Err(fail(format!("field {key} appears more than once")));
    }
    // An integer beyond 64 bits parses as a float and would come back changed.
    if let Value::Number(n) = &id
        && n.is_f64()
    {
        return Err(LineError {
            id: Value::Null,
            error: format!("id {n} is not an integer of at most 64 bits; use a string for other ids"),
        });
    }
    item_of(&obj).map(|item| (id.clone(), item)).map_err(fail)
}

/// A line's top-level JSON value: an object, with the first of its keys that appears
/// more than once (the map keeps the last value, as a JSON object does), or any other
/// value.
enum Top {
    Object { map: Map<String, Value>, repeated: Option<String> },
    Other,
}

impl<'de> serde::Deserialize<'de> for Top {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess};

        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Top;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Top, A::Error> {
                let mut map = Map::new();
                let mut repeated = None;
                while let Some(key) = access.next_key::<String>()? {
                    let value: Value = access.next_value()?;
                    if repeated.is_none() && map.contains_key(&key) {
                        repeated = Some(key.clone());
                    }
                    map.insert(key, value);
                }
                Ok(Top::Object { map, repeated })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Top::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Top, E> {
                Ok(Top::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Top, E> {
                Ok(Top::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Top, E> {
                Ok(Top::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Top, E> {
                Ok(Top::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<Top, E> {
                Ok(Top::Other)
            }
            fn visit_unit<E>(self) -> Result<Top, E> {
                Ok(Top::Other)
            }
        }
        d.deserialize_any(Visitor)
    }
}

fn item_of(obj: &Map<String, Value>) -> Result<Item, String> {
    if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("unknown field {unknown}; fields are {}", FIELDS.join(", ")));
    }
    let suite = text(obj, "suite")?.ok_or("missing field suite")?;
    let suite: pqverify_core::Suite = suite.parse().map_err(|e| format!("{e}: {suite:?}"))?;
    let key_format: KeyFormat = text(obj, "key_format")?.map(str::parse).transpose()?.unwrap_or_default();
    let pk = if key_format.is_text() {
        text(obj, "pk")?.ok_or("missing field pk")?.as_bytes().to_vec()
    } else {
        required(obj, "pk")?
    };
    let public_key = request_key(suite, key_format, pk).map_err(|e| format!("field pk: {e}"))?;
    let signature = required(obj, "sig")?;
    let ctx = hex_field(obj, "ctx")?;
    let mu = hex_field(obj, "mu")?;
    let msg = hex_field(obj, "msg")?;
    let prehash = text(obj, "prehash")?;
    let prehash = prehash.map(|name| name.parse().map_err(|e| format!("{e}: {name:?}"))).transpose()?;
    let interface = text(obj, "interface")?.unwrap_or("external");
    let message = OwnedMessage::from_fields(interface, msg, mu, ctx, prehash, |f| format!("field {f}"))?;
    Ok(Item { suite, public_key, message, signature })
}

/// One output line: the echoed id, the verdict, and why there is none when there is
/// not (then `valid` is false). Every line `pqverify batch` writes is one of these.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Answer {
    /// The request's `id`, echoed (`null` when the line was not a JSON object).
    pub id: Value,
    /// The verdict; false whenever there is an error.
    pub valid: bool,
    /// Why there is no verdict.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
}

/// Why an answer has no verdict: the text, and its kind.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Failure {
    /// What was wrong, and what was expected.
    pub error: String,
    /// Whose fault it is.
    pub kind: ErrorKind,
}

impl Answer {
    /// The answer of a request that got no verdict.
    pub fn failed(id: Value, kind: ErrorKind, error: impl Into<String>) -> Answer {
        Answer { id, valid: false, failure: Some(Failure { error: error.into(), kind }) }
    }

    /// The answer of a verified (or refused) request.
    pub fn of(id: Value, result: &Result<bool, VerifyError>) -> Answer {
        match result {
            Ok(valid) => Answer { id, valid: *valid, failure: None },
            Err(e) => Answer::failed(id, e.kind(), e.to_string()),
        }
    }

    /// What it said, for a stream's totals.
    pub fn tally(&self) -> Tally {
        Tally {
            valid: self.valid,
            error: self.failure.is_some(),
            fault: self.failure.as_ref().is_some_and(|f| f.kind.is_fault()),
        }
    }
}

impl std::fmt::Display for Answer {
    /// The answer as its JSON line (without the newline).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}

/// What one answer said, for a stream's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The signature verified.
    pub valid: bool,
    /// The line got an error instead of a verdict.
    pub error: bool,
    /// That error is a fault on this side ([`ErrorKind::is_fault`]).
    pub fault: bool,
}

/// Parses and verifies one line.
pub fn answer_line(verifier: &dyn Verifier, line: &str) -> Answer {
    answer_parsed(verifier, &parse_line(line))
}

/// The answer to a line already parsed ([`parse_line`]).
pub fn answer_parsed(verifier: &dyn Verifier, parsed: &Result<(Value, Item), LineError>) -> Answer {
    match parsed {
        Ok((id, item)) => Answer::of(id.clone(), &item.decide(verifier)),
        Err(LineError { id, error }) => Answer::failed(id.clone(), ErrorKind::Input, error.clone()),
    }
}

#[cfg(test)]
mod tests {
    use pqverify_core::Interface;
    use serde_json::json;

    use super::*;

    #[test]
    fn the_line_limit_counts_content_only() {
        let max = 8;
        let read_all = |input: &[u8]| {
            let mut r = std::io::BufReader::with_capacity(3, input);
            let mut out = Vec::new();
            while let Some(line) = read_line(&mut r, max).unwrap() {
                out.push(line);
            }
            out
        };
        let ok = |s: &str| Ok(s.to_owned());
        assert_eq!(read_all(b"12345678\n12345678\r\n12345678"), [ok("12345678"), ok("12345678"), ok("12345678")]);
        assert_eq!(read_all(b"123456789\n123456789\r\n123456789"), [Err(9), Err(9), Err(9)]);
        assert_eq!(read_all(b"a\r\n\nb"), [ok("a"), ok(""), ok("b")]);
        assert_eq!(read_all(b"1234567890123\nx\n"), [Err(13), ok("x")]);
        assert!(read_all(b"").is_empty());
    }

    const PK: &str = "00";

    fn error_of(line: &str) -> LineError {
        parse_line(line).err().unwrap_or_else(|| LineError { id: Value::Null, error: "parsed".into() })
    }

    #[test]
    fn repeated_keys_are_refused() {
        let e =
            error_of(&format!(r#"{{"id":1,"suite":"ML-DSA-44","suite":"ML-DSA-87","pk":"{PK}","msg":"","sig":""}}"#));
        assert_eq!(e.id, json!(1));
        assert!(e.error.contains("field suite appears more than once"), "{}", e.error);
        // Nested objects are values: their repeated keys are theirs (the id is echoed as parsed).
        let e = error_of(r#"{"id":{"a":1,"a":2},"suite":"ML-DSA-44"}"#);
        assert_eq!(e.id, json!({"a": 2}));
    }

    #[test]
    fn a_line_is_one_json_object() {
        for line in ["[1,{\"a\":2}]", "3", "-1", "1.5", "\"x\"", "null", "true"] {
            assert_eq!(
                error_of(line),
                LineError { id: Value::Null, error: "a line must be a JSON object".into() },
                "{line}"
            );
        }
        for line in ["{", "{\"a\":1}}", "", "{\"a\":}"] {
            assert!(error_of(line).error.starts_with("bad JSON: "), "{line}: {:?}", error_of(line));
        }
    }

    #[test]
    fn ids_beyond_64_bits_are_refused_not_rounded() {
        let e =
            error_of(&format!(r#"{{"id":36893488147419103232,"suite":"ML-DSA-44","pk":"{PK}","msg":"","sig":""}}"#));
        assert!(e.error.contains("at most 64 bits"), "{}", e.error);
        // 64-bit integers, strings and negative numbers are echoed exactly.
        for id in ["18446744073709551615", "-9223372036854775808", r#""36893488147419103232""#] {
            let line = format!(r#"{{"id":{id},"suite":"ML-DSA-44","pk":"{PK}","msg":"","sig":""}}"#);
            let (got, _) = parse_line(&line).unwrap();
            assert_eq!(got.to_string(), id);
        }
    }

    #[test]
    fn the_interface_takes_core_names_and_the_first_ones() {
        let mu = "00".repeat(64);
        let interface_of = |fields: &str| {
            let line = format!(r#"{{"id":1,"suite":"ML-DSA-44","pk":"{PK}","sig":"",{fields}}}"#);
            parse_line(&line).map(|(_, item)| item.message.as_message().interface()).map_err(|e| e.error)
        };
        let cases = [
            (r#""msg":"61""#.to_owned(), Ok(Interface::Pure)),
            (r#""msg":"61","interface":"pure""#.into(), Ok(Interface::Pure)),
            (r#""msg":"61","prehash":"SHA2-256""#.into(), Ok(Interface::PreHash)),
            (r#""msg":"61","prehash":"SHA2-256","interface":"prehash""#.into(), Ok(Interface::PreHash)),
            (r#""msg":"61","interface":"internal""#.into(), Ok(Interface::Internal)),
            (format!(r#""mu":"{mu}","interface":"internal""#), Ok(Interface::ExternalMu)),
            (format!(r#""mu":"{mu}","interface":"external-mu""#), Ok(Interface::ExternalMu)),
        ];
        for (fields, expected) in cases {
            assert_eq!(interface_of(&fields), expected, "{fields}");
        }
        let refused = [
            (r#""msg":"61","interface":"prehash""#.to_owned(), "pre-hash"),
            (format!(r#""mu":"{mu}","interface":"pure""#), "field mu needs the external-mu interface"),
            (r#""msg":"61","interface":"external-mu""#.into(), "takes field mu, not field msg"),
            (
                r#""msg":"61","interface":"mu""#.into(),
                "unknown interface \"mu\"; expected one of external, internal, pure, prehash, external-mu",
            ),
        ];
        for (fields, says) in refused {
            let error = interface_of(&fields).unwrap_err();
            assert!(error.contains(says), "{fields}: {error}");
        }
    }
}
