// The wasm instance: one per realm, created synchronously (initSync) or by the async
// loader (load.js). Two builds ship, wasm/ (baseline) and wasm-simd/ (simd128
// kernels); both use the same glue.
import * as glue from './wasm/pqverify_wasm.js';

let ready = null;
// The module's own exports (its linear memory among them), once initialised.
let exports = null;

/** The initialised wasm exports, or null before initialisation. */
export function instance() {
  return ready;
}

/** The initialised wasm exports; throws if neither init() nor initSync() has run. */
export function bindings() {
  if (ready === null) {
    throw new Error('pqverify: not initialised; call init() or initSync() from "pqverify/manual", or import "pqverify", which initialises itself');
  }
  return ready;
}

// A module with one v128 instruction: it validates only where wasm SIMD is supported.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** Whether this engine runs the simd128 build. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

function isBufferSource(value) {
  const tag = Object.prototype.toString.call(value);
  return tag === '[object Uint8Array]' || tag === '[object ArrayBuffer]';
}

/**
 * Initialises pqverify synchronously from the .wasm bytes of either build (or a
 * compiled WebAssembly.Module).
 */
export function initSync(bytesOrModule) {
  if (ready !== null) return;
  if (!(isBufferSource(bytesOrModule) || bytesOrModule instanceof WebAssembly.Module)) {
    throw new TypeError('pqverify: initSync takes the .wasm bytes (Uint8Array or ArrayBuffer) or a WebAssembly.Module');
  }
  exports = glue.initSync({ module: bytesOrModule });
  ready = glue;
}

/** Initialises pqverify asynchronously from what the glue accepts (URL, Response, bytes, Module). */
export async function initFrom(input) {
  if (ready !== null) return;
  exports = await glue.default({ module_or_path: input });
  ready = glue;
}

/** Bytes of the module's linear memory (it only grows), or 0 before initialisation. */
export function linearMemoryBytes() {
  return exports?.memory?.buffer.byteLength ?? 0;
}
