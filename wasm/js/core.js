// One wasm instance per module (each entry's build has its own glue and state),
// created synchronously (initSync) or by the async loader (load.js). Nothing here runs
// at import: engines without WebAssembly fail at the first call, with a pqverify: Error.

/** Throws the environment error of an engine without WebAssembly. */
export function requireWasm() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('pqverify: this engine has no WebAssembly (jitless, Lockdown Mode, Hermes); import from "pqverify/js" (compiled to JavaScript)');
  }
}

// A module with one v128 instruction: it validates only where wasm SIMD is supported.
const SIMD_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];

/** Whether this engine runs the simd128 builds. */
export function simdSupported() {
  try {
    return WebAssembly.validate(new Uint8Array(SIMD_PROBE));
  } catch {
    return false;
  }
}

/** The .wasm bytes or a compiled module: what initSync takes, and init() without fetching. */
function isBytesOrModule(value) {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object Uint8Array]' || tag === '[object ArrayBuffer]' || value instanceof WebAssembly.Module;
}

/**
 * The instance of one build, over its wasm-bindgen glue: `bindings()` (throws before
 * initialisation), `initSync(bytesOrModule)`, `initFrom(input)` (async), and the bytes
 * of its linear memory.
 */
export function makeInstance(glue) {
  let ready = null;
  // The module's own exports (its linear memory among them), once initialised.
  let exports = null;
  return {
    initialised: () => ready !== null,
    bindings() {
      if (ready === null) {
        throw new Error('pqverify: not initialised; call init() or initSync() first ("pqverify" needs neither)');
      }
      return ready;
    },
    initSync(bytesOrModule) {
      if (ready !== null) return;
      requireWasm();
      if (!isBytesOrModule(bytesOrModule)) {
        throw new TypeError('pqverify: initSync takes the .wasm bytes (Uint8Array or ArrayBuffer) or a WebAssembly.Module');
      }
      exports = glue.initSync({ module: bytesOrModule });
      ready = glue;
    },
    async initFrom(input) {
      if (ready !== null) return;
      requireWasm();
      if (isBytesOrModule(input)) {
        // Compiled (off the thread) and instantiated here, not by the glue's loader: it
        // first asks whether Request and Response exist, and in Node that question loads
        // the fetch implementation (17–25 ms in Node 24) for bytes that need no fetch.
        const module = input instanceof WebAssembly.Module ? input : await WebAssembly.compile(input);
        if (ready !== null) return;
        exports = glue.initSync({ module });
      } else {
        exports = await glue.default({ module_or_path: input });
      }
      ready = glue;
    },
    linearMemoryBytes: () => exports?.memory?.buffer.byteLength ?? 0,
  };
}

// The decoder of the embedded builds, itself a 171-byte wasm module (a JS loop over
// 80,000 characters takes 2–3 ms in a fresh V8, before the loop is optimised; this takes
// about 0.1 ms). Memory: three 128-byte code tables at 0 (single characters, then the
// characters after '~', then after '|'), the text from 384; d(len) decodes it in place
// (each byte is written at or before where its code was read) and returns the length.
// Assembled from this text format:
//   (module (memory (export "m") 1)
//     (func (export "d") (param $len i32) (result i32) (local $i i32) (local $n i32) (local $c i32)
//       (local.set $i (i32.const 384)) (local.set $n (i32.const 384))
//       (local.set $len (i32.add (local.get $len) (i32.const 384)))
//       (block $done (loop $next
//         (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
//         (local.set $c (i32.load8_u (local.get $i)))
//         (if (i32.eq (local.get $c) (i32.const 126))
//           (then (local.set $i (i32.add (local.get $i) (i32.const 1)))
//                 (local.set $c (i32.add (i32.const 128) (i32.load8_u (local.get $i)))))
//           (else (if (i32.eq (local.get $c) (i32.const 124))
//             (then (local.set $i (i32.add (local.get $i) (i32.const 1)))
//                   (local.set $c (i32.add (i32.const 256) (i32.load8_u (local.get $i))))))))
//         (i32.store8 (local.get $n) (i32.load8_u (local.get $c)))
//         (local.set $n (i32.add (local.get $n) (i32.const 1)))
//         (local.set $i (i32.add (local.get $i) (i32.const 1)))
//         (br $next)))
//       (i32.sub (local.get $n) (i32.const 384))))
const DECODER = [0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 5, 3, 1, 0, 1, 7, 9, 2, 1, 109, 2, 0, 1,
  100, 0, 0, 10, 132, 1, 1, 129, 1, 1, 3, 127, 65, 128, 3, 33, 1, 65, 128, 3, 33, 2, 32, 0, 65, 128, 3, 106, 33, 0, 2, 64, 3, 64,
  32, 1, 32, 0, 79, 13, 1, 32, 1, 45, 0, 0, 33, 3, 32, 3, 65, 254, 0, 70, 4, 64, 32, 1, 65, 1, 106, 33, 1, 65, 128, 1, 32, 1, 45,
  0, 0, 106, 33, 3, 5, 32, 3, 65, 252, 0, 70, 4, 64, 32, 1, 65, 1, 106, 33, 1, 65, 128, 2, 32, 1, 45, 0, 0, 106, 33, 3, 11, 11,
  32, 2, 32, 3, 45, 0, 0, 58, 0, 0, 32, 2, 65, 1, 106, 33, 2, 32, 1, 65, 1, 106, 33, 1, 12, 0, 11, 11, 32, 2, 65, 128, 3, 107, 11];

/**
 * The .wasm bytes of an embedded build (xtask's `embedded_js`): printable ASCII, each
 * byte value coded as one character or as `~` or `|` and one character; `codes` lists
 * the code of every byte value in order. ASCII, so no bundler or page encoding can
 * alter it, and gzip still sees the module's byte patterns.
 */
function decode(codes, text) {
  const { exports: { m: memory, d } } = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(DECODER)));
  const pages = Math.ceil((384 + text.length) / 65536);
  if (pages > 1) memory.grow(pages - 1);
  const heap = new Uint8Array(memory.buffer);
  for (let i = 0, value = 0; value < 256; value++) {
    const c = codes.charCodeAt(i++);
    if (c === 126) heap[128 + codes.charCodeAt(i++)] = value;
    else if (c === 124) heap[256 + codes.charCodeAt(i++)] = value;
    else heap[c] = value;
  }
  // ASCII: one byte per character. encode() and a copy, not encodeInto(): in a fresh
  // Chromium worker encodeInto took 0.4–7.5 ms on the ML-DSA build's text, encode 0.8–2.7.
  if (typeof TextEncoder === 'function') {
    heap.set(new TextEncoder().encode(text), 384);
  } else {
    for (let i = 0; i < text.length; i++) heap[384 + i] = text.charCodeAt(i);
  }
  return heap.slice(384, 384 + d(text.length));
}

/**
 * `bindings()` of an entry that embeds its build: compiled synchronously on the first
 * call. `simd` builds need wasm SIMD (every engine since Chrome 91, Firefox 89,
 * Safari 16.4, Node 16.4); elsewhere the call says which entry to use.
 */
export function embedded(instance, codes, text, simd) {
  return () => {
    if (!instance.initialised()) {
      requireWasm();
      if (simd && !simdSupported()) {
        throw new Error('pqverify: this engine runs WebAssembly without its SIMD extension (Safari before 16.4, Chrome before 91, Firefox before 89); import from "pqverify/baseline"');
      }
      try {
        instance.initSync(decode(codes, text));
      } catch (e) {
        // The embedded module is the package's own: a failure to compile it is the engine's refusal.
        throw new Error(`pqverify: this engine did not compile the embedded WebAssembly (${e?.message ?? e}); Workers: wrangler or "pqverify/worker"; pages: allow 'wasm-unsafe-eval' or import "pqverify/js"`, { cause: e });
      }
    }
    return instance.bindings();
  };
}
