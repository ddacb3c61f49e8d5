//! `verifyMany`: many signatures, any mix of suites and interfaces, verified on the
//! thread pool; one promise of verdicts in input order.
//!
//! Every item is checked on the calling thread, where a bad one rejects the call naming
//! it (as `verify` throws), and its bytes are copied once into one buffer the tasks
//! share: nothing the caller does to its arrays afterwards reaches the verification.

use std::ops::Range;

use napi::bindgen_prelude::{Object, Uint32Array};
use napi::{Env, Error};
use napi_derive::napi;
use pqverify_core::{Interface, Message, PreHash, PublicKey, Suite};
use rayon::prelude::*;

use crate::bytes::Bytes;
use crate::request::{self, invalid};
use crate::threads;

/// Numbers per item in `heads`: suite, interface, pre-hash, key format.
const HEAD: usize = 4;
/// Byte fields per item in `fields`: signature, message, public key, context.
const FIELDS: usize = 4;

/// One checked item; its bytes are ranges of the batch's buffer.
struct Item {
    suite: Suite,
    interface: Interface,
    prehash: Option<PreHash>,
    signature: Range<usize>,
    msg: Range<usize>,
    /// The raw key (an SPKI is decoded on the calling thread).
    key: Range<usize>,
    ctx: Range<usize>,
}

/// The checked items and the one buffer holding their bytes.
struct Batch {
    items: Vec<Item>,
    data: Vec<u8>,
}

impl Batch {
    /// Item `i`'s verdict: `Ok(valid)`, or core's error for a request the checks on the
    /// calling thread should have refused (never turned into `false`).
    fn verdict(&self, item: &Item) -> napi::Result<bool> {
        let bytes = |r: &Range<usize>| &self.data[r.clone()];
        let message = Message::new(item.interface, bytes(&item.msg), bytes(&item.ctx), item.prehash)
            .map_err(request::core_error)?;
        let key = PublicKey::from_raw(item.suite, bytes(&item.key)).map_err(request::core_error)?;
        request::verdict(pqverify_core::verify(key, message, bytes(&item.signature)))
    }
}

/// Appends `bytes` to `data`, returning where they are.
fn push(data: &mut Vec<u8>, bytes: &[u8]) -> Range<usize> {
    let start = data.len();
    data.extend_from_slice(bytes);
    start..data.len()
}

/// Checks item `i` (its numbers in `head`, its bytes in `fields`) and copies its bytes.
fn item(data: &mut Vec<u8>, head: &[u32], fields: &[Bytes<'_>]) -> napi::Result<Item> {
    let suite = request::suite(head[0])?;
    let (interface, prehash) = request::interface(head[1], head[2])?;
    let (signature, msg, key, ctx) = (&fields[0], &fields[1], &fields[2], &fields[3]);
    let message = Message::new(interface, msg, ctx, prehash).map_err(request::core_error)?;
    message.check_for(suite).map_err(request::core_error)?;
    let raw = request::public_key(suite, head[3], key)?;
    Ok(Item {
        suite,
        interface,
        prehash,
        signature: push(data, signature),
        msg: push(data, msg),
        key: push(data, raw.as_bytes()),
        ctx: push(data, ctx),
    })
}

/// Verifies many signatures on `threads` threads (0: the machine's parallelism): item
/// `i` is `heads[4i..4i+4]` (suite, interface, pre-hash and key-format numbers, as
/// [`crate::verify`] takes them) and `fields[4i..4i+4]` (signature, message, public
/// key, context). Resolves to the verdicts in order; throws, naming the item, for an
/// unusable one.
#[napi(js_name = "verifyMany", catch_unwind)]
pub fn verify_many<'env>(
    env: &'env Env,
    heads: Uint32Array,
    fields: Vec<Bytes<'_>>,
    threads: u32,
) -> napi::Result<Object<'env>> {
    let count = heads.len() / HEAD;
    if heads.len() != count * HEAD || fields.len() != count * FIELDS {
        return Err(invalid(format!(
            "verifyMany takes {HEAD} numbers and {FIELDS} byte arrays per item, got {} numbers and {} byte arrays",
            heads.len(),
            fields.len()
        )));
    }
    let total: usize = fields.iter().map(|f| f.len()).sum();
    let mut data = Vec::with_capacity(total);
    let items = heads
        .chunks_exact(HEAD)
        .zip(fields.chunks_exact(FIELDS))
        .enumerate()
        .map(|(i, (head, fields))| {
            item(&mut data, head, fields).map_err(|e| Error::new(e.status, format!("item {i}: {}", e.reason)))
        })
        .collect::<napi::Result<Vec<_>>>()?;
    let batch = Batch { items, data };
    threads::spawn(env, threads, move || {
        batch.items.par_iter().map(|item| batch.verdict(item)).collect::<napi::Result<Vec<bool>>>()
    })
}
