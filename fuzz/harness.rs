// The fuzz harnesses, shared by the cargo-fuzz targets (nightly) and the corpus
// replay tests (stable `cargo test`): whatever the input, nothing panics, and the
// one-shot and prepared-key paths give the same answer.

use pqverify_core::{Message, PreHash, PreparedKey, PublicKey, Suite, verify};

/// Input layout: suite, interface, pre-hash, a flags byte, a context length, then
/// the rest split into key, message and signature. With flag bit 0 clear the key
/// and signature get their suite's exact lengths (so the decoders and the
/// algorithms are reached); with it set the lengths come from the input.
pub(crate) fn verify_any(data: &[u8]) {
    let [suite, interface, hash, flags, ctx_len, rest @ ..] = data else { return };
    let suite = Suite::ALL[usize::from(*suite) % Suite::ALL.len()];
    let hash = PreHash::ALL[usize::from(*hash) % PreHash::ALL.len()];
    let take = |rest: &mut &[u8], n: usize| -> Vec<u8> {
        let n = n.min(rest.len());
        let (head, tail) = rest.split_at(n);
        *rest = tail;
        head.to_vec()
    };
    let mut rest: &[u8] = rest;
    let (pk_len, sig_len) = if flags & 1 == 0 {
        (suite.public_key_len(), suite.signature_len())
    } else {
        let [a, b, c, d, ..] = rest else { return };
        let lens = (usize::from(u16::from_le_bytes([*a, *b])), usize::from(u16::from_le_bytes([*c, *d])));
        rest = &rest[4..];
        lens
    };
    let pk = take(&mut rest, pk_len);
    let ctx = take(&mut rest, usize::from(*ctx_len) + usize::from(flags & 2) * 128);
    let sig = take(&mut rest, sig_len);
    let msg = rest.to_vec();
    let message = match interface % 4 {
        0 => Message::pure(&msg, &ctx),
        1 => Message::prehash(&msg, &ctx, hash),
        2 => Message::Internal(&msg),
        _ => Message::ExternalMu(&msg),
    };
    let one_shot = PublicKey::from_raw(suite, &pk).and_then(|key| verify(key, message, &sig));
    match PublicKey::from_raw(suite, &pk).and_then(PreparedKey::new) {
        Ok(key) => assert_eq!(key.verify(message, &sig), one_shot, "prepared and one-shot disagree"),
        Err(e) => assert_eq!(one_shot, Err(e), "key rejected by one path only"),
    }
    if let Err(e) = one_shot {
        // Every error renders a message.
        assert!(!e.to_string().is_empty());
    }
}
