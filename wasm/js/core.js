// One wasm instance per module (each entry's build has its own glue and state),
// created synchronously (initSync) or by the async loader (load.js). Nothing here runs
// at import: engines without WebAssembly fail at the first call, with a pqverify: Error.

/** Throws the environment error of an engine without WebAssembly. */
export function requireWasm() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('pqverify: this engine has no WebAssembly (jitless V8, Safari Lockdown Mode, React Native\'s Hermes, some hardened CSPs); pqverify needs it. Use a verifier written in JavaScript, such as @noble/post-quantum, there');
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

function isBufferSource(value) {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object Uint8Array]' || tag === '[object ArrayBuffer]';
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
        throw new Error('pqverify: not initialised; call init() or initSync() from "pqverify/manual", or import "pqverify", which initialises itself');
      }
      return ready;
    },
    initSync(bytesOrModule) {
      if (ready !== null) return;
      requireWasm();
      if (!(isBufferSource(bytesOrModule) || bytesOrModule instanceof WebAssembly.Module)) {
        throw new TypeError('pqverify: initSync takes the .wasm bytes (Uint8Array or ArrayBuffer) or a WebAssembly.Module');
      }
      exports = glue.initSync({ module: bytesOrModule });
      ready = glue;
    },
    async initFrom(input) {
      if (ready !== null) return;
      requireWasm();
      exports = await glue.default({ module_or_path: input });
      ready = glue;
    },
    linearMemoryBytes: () => exports?.memory?.buffer.byteLength ?? 0,
  };
}

/**
 * The .wasm bytes of an embedded build (xtask's `embedded_js`): printable ASCII, each
 * byte value coded as one character or as `~` or `|` and one character; `codes` lists
 * the code of every byte value in order. ASCII, so no bundler or page encoding can
 * alter it, and gzip still sees the module's byte patterns.
 */
function decode(codes, text) {
  // Code → byte: one table for single characters, one per prefix.
  const single = new Uint8Array(128);
  const tilde = new Uint8Array(128);
  const bar = new Uint8Array(128);
  for (let i = 0, value = 0; value < 256; value++) {
    const c = codes.charCodeAt(i++);
    if (c === 126) tilde[codes.charCodeAt(i++)] = value;
    else if (c === 124) bar[codes.charCodeAt(i++)] = value;
    else single[c] = value;
  }
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 126) out[n++] = tilde[text.charCodeAt(++i)];
    else if (c === 124) out[n++] = bar[text.charCodeAt(++i)];
    else out[n++] = single[c];
  }
  return out.subarray(0, n);
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
        throw new Error('pqverify: this engine runs WebAssembly without its SIMD extension (Safari before 16.4, Chrome before 91, Firefox before 89); import from "pqverify/baseline", the build without SIMD');
      }
      instance.initSync(decode(codes, text));
    }
    return instance.bindings();
  };
}
