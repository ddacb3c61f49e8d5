// Loading the wasm module: automatically (index.js) or when the caller says (manual.js).
// Two builds ship: wasm/ (baseline) and wasm-simd/ (simd128 kernels); both use the same
// glue. The simd128 build is chosen where the engine validates SIMD instructions.
import * as glue from './wasm/pqverify_wasm.js';

let ready = null;

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

// Written out in full so that bundlers see (and emit) both files.
const wasmUrl = (simd) => (simd
  ? new URL('./wasm-simd/pqverify_wasm_bg.wasm', import.meta.url)
  : new URL('./wasm/pqverify_wasm_bg.wasm', import.meta.url));

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';
}

/**
 * Initialises pqverify asynchronously. `source` may be a URL, a Response, bytes or a
 * WebAssembly.Module of either build; by default the build this engine runs best
 * (simd128 where supported) is loaded from next to this file (read from disk in
 * Node, fetched in browsers and workers).
 */
export async function init(source) {
  if (ready !== null) return;
  let input = source;
  if (input === undefined) {
    const url = wasmUrl(simdSupported());
    if (isNode()) {
      // Hidden from bundlers: only Node takes this branch.
      const fsName = 'node:fs/promises';
      const fs = await import(/* @vite-ignore */ fsName);
      input = await fs.readFile(url);
    } else {
      input = url;
    }
  }
  await glue.default({ module_or_path: input });
  ready = glue;
}

/**
 * Initialises pqverify synchronously from the .wasm bytes of either build (or a
 * compiled WebAssembly.Module): for wallet extensions and workers that cannot await.
 */
export function initSync(bytesOrModule) {
  if (ready !== null) return;
  if (!(bytesOrModule instanceof Uint8Array || bytesOrModule instanceof ArrayBuffer || bytesOrModule instanceof WebAssembly.Module)) {
    throw new TypeError('pqverify: initSync takes the .wasm bytes (Uint8Array or ArrayBuffer) or a WebAssembly.Module');
  }
  glue.initSync({ module: bytesOrModule });
  ready = glue;
}
