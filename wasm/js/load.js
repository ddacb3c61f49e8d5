// Loading the wasm module: automatically (index.js) or when the caller says (manual.js).
import * as glue from './wasm/pqverify_wasm.js';

let ready = null;

/** The initialised wasm exports; throws if neither init() nor initSync() has run. */
export function bindings() {
  if (ready === null) {
    throw new Error('pqverify: not initialised; call init() or initSync() from "pqverify/manual", or import "pqverify", which initialises itself');
  }
  return ready;
}

const wasmUrl = () => new URL('./wasm/pqverify_wasm_bg.wasm', import.meta.url);

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';
}

/**
 * Initialises pqverify asynchronously. `source` may be a URL, a Response, bytes or a
 * WebAssembly.Module; by default the .wasm shipped next to this file is loaded
 * (read from disk in Node, fetched in browsers and workers).
 */
export async function init(source) {
  if (ready !== null) return;
  let input = source;
  if (input === undefined) {
    if (isNode()) {
      // Hidden from bundlers: only Node takes this branch.
      const fsName = 'node:fs/promises';
      const fs = await import(/* @vite-ignore */ fsName);
      input = await fs.readFile(wasmUrl());
    } else {
      input = wasmUrl();
    }
  }
  await glue.default({ module_or_path: input });
  ready = glue;
}

/**
 * Initialises pqverify synchronously from the .wasm bytes (or a compiled
 * WebAssembly.Module): for wallet extensions and workers that cannot await.
 */
export function initSync(bytesOrModule) {
  if (ready !== null) return;
  if (!(bytesOrModule instanceof Uint8Array || bytesOrModule instanceof ArrayBuffer || bytesOrModule instanceof WebAssembly.Module)) {
    throw new TypeError('pqverify: initSync takes the .wasm bytes (Uint8Array or ArrayBuffer) or a WebAssembly.Module');
  }
  glue.initSync({ module: bytesOrModule });
  ready = glue;
}
