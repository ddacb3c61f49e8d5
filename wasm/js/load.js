// The async loader of "pqverify/manual": fetches (or, in Node, reads) the .wasm file
// next to this one, so pages can compile it while it streams in.
import { simdSupported } from './core.js';

// Written out in full so that bundlers see (and emit) both files.
const wasmUrl = (simd) => (simd
  ? new URL('./wasm-simd/pqverify_wasm_bg.wasm', import.meta.url)
  : new URL('./wasm/pqverify_wasm_bg.wasm', import.meta.url));

function isNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string' && typeof window === 'undefined';
}

/**
 * `init(source)` for `instance`: initialises it asynchronously. `source` may be a URL,
 * a Response, bytes or a WebAssembly.Module of either build (wasm/ or wasm-simd/); by
 * default the build this engine runs best (simd128 where supported) is loaded from next
 * to this file (read from disk in Node, fetched with streaming compilation elsewhere).
 */
export function makeInit(instance) {
  return async function init(source) {
    if (instance.initialised()) return;
    let input = source;
    if (input === undefined) {
      const url = wasmUrl(simdSupported());
      if (isNode()) {
        // Hidden from bundlers: only Node takes this branch.
        const fsName = 'node:fs/promises';
        const fs = await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName);
        input = await fs.readFile(url);
      } else {
        input = url;
      }
    }
    await instance.initFrom(input);
  };
}
