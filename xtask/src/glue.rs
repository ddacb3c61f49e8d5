//! Patches to the JS glue wasm-bindgen writes, for engines that lack what it assumes.

use crate::Result;

/// What wasm-bindgen 0.2.130's glue runs at module scope: a `TextDecoder`, which
/// engines such as React Native's Hermes lack, so that the import itself throws.
const EAGER_DECODER: &str =
    "let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });\ncachedTextDecoder.decode();\n";
/// Its first use, where the decoder is made instead.
const FIRST_DECODE: &str = "function decodeText(bytes) {\n";

/// The glue with its decoder made at the first decode (strings from Rust: error
/// messages), and a UTF-8 decoder of its own where the engine has no `TextDecoder`:
/// nothing at module scope needs anything an engine may lack. Fails if the glue is not
/// the shape this expects (wasm-bindgen is pinned; a new version is checked here).
pub(crate) fn lazy_text_decoder(glue: &str) -> Result<String> {
    if glue.matches(EAGER_DECODER).count() != 1 || glue.matches(FIRST_DECODE).count() != 1 {
        return Err(
            "the wasm-bindgen glue does not make its TextDecoder as 0.2.130 does: update lazy_text_decoder".into()
        );
    }
    let lazy = "// pqverify: made at the first decode, not at import (Hermes has no TextDecoder).\n\
                let cachedTextDecoder = null;\n";
    let first = "function decodeText(bytes) {\n\
                 \x20   if (cachedTextDecoder === null) cachedTextDecoder = typeof TextDecoder === 'function'\n\
                 \x20       ? new TextDecoder('utf-8', { ignoreBOM: true }) : { decode: utf8 };\n";
    let utf8 = "// UTF-8 (valid, from Rust) where the engine has no TextDecoder.\n\
                function utf8(bytes) {\n\
                \x20   let s = '';\n\
                \x20   for (let i = 0; i < bytes.length; ) {\n\
                \x20       const b = bytes[i++];\n\
                \x20       const n = b < 0x80 ? 0 : b < 0xe0 ? 1 : b < 0xf0 ? 2 : 3;\n\
                \x20       let c = n === 0 ? b : b & (0x3f >> n);\n\
                \x20       for (let k = 0; k < n; k++) c = (c << 6) | (bytes[i++] & 0x3f);\n\
                \x20       s += String.fromCodePoint(c);\n\
                \x20   }\n\
                \x20   return s;\n\
                }\n";
    Ok(glue.replace(EAGER_DECODER, &format!("{lazy}{utf8}")).replace(FIRST_DECODE, first))
}

/// wasm-bindgen 0.2.130's test for a stale `Uint8Array` over memory: a grown
/// `WebAssembly.Memory` detaches its old buffer, whose length becomes 0.
const U8_STALE: &str = "cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0";
/// Its test for a stale `DataView`: detached, or (where `detached` is unknown) another buffer.
const DATA_VIEW_STALE: &str = "cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || \
     (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)";

/// The glue with its memory views renewed whenever the memory's buffer is another one.
/// wasm2js grows memory by copying it into a new `ArrayBuffer` and leaves the old one
/// attached: the glue's tests above never fire, and after the first growth it writes
/// the arguments into the old buffer (which the module no longer reads) or past its end
/// (a `RangeError`). Comparing the buffers is right for both kinds of memory. Fails if
/// the glue is not the shape this expects.
pub(crate) fn views_follow_the_buffer(glue: &str) -> Result<String> {
    if glue.matches(U8_STALE).count() != 1 || glue.matches(DATA_VIEW_STALE).count() != 1 {
        return Err(
            "the wasm-bindgen glue does not test its memory views as 0.2.130 does: update views_follow_the_buffer"
                .into(),
        );
    }
    Ok(glue
        .replace(U8_STALE, "cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.buffer !== wasm.memory.buffer")
        .replace(
            DATA_VIEW_STALE,
            "cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer !== wasm.memory.buffer",
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glue_renews_its_views_when_the_buffer_is_another() {
        let glue = format!("if ({U8_STALE}) {{}}\nif ({DATA_VIEW_STALE}) {{}}\n");
        let out = views_follow_the_buffer(&glue).unwrap();
        assert!(!out.contains("byteLength === 0") && !out.contains("detached"), "{out}");
        assert_eq!(out.matches("buffer !== wasm.memory.buffer").count(), 2, "{out}");
        assert!(views_follow_the_buffer("a glue of another shape").is_err());
    }

    #[test]
    fn the_glue_makes_its_decoder_at_the_first_decode() {
        let glue = format!("a\n{EAGER_DECODER}b\n{FIRST_DECODE}    return cachedTextDecoder.decode(bytes);\n}}\n");
        let out = lazy_text_decoder(&glue).unwrap();
        assert!(!out.contains(EAGER_DECODER), "{out}");
        assert!(
            out.contains("let cachedTextDecoder = null;") && out.contains("typeof TextDecoder === 'function'"),
            "{out}"
        );
        assert!(lazy_text_decoder("a glue of another shape").is_err());
    }
}
