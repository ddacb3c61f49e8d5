// What a wallet ships: each import bundled by esbuild with --minify (ESM, browser
// platform), raw and gzip -9, for pqverify's entries beside noble, liboqs-js and ox. The
// benchmark's `bundle-size` records (report section 7) and the package README's size
// table both come from here. `node bundle-sizes.mjs RESOLVE_DIR` prints them (the
// directory whose node_modules holds the packages).
import { build } from 'esbuild';
import { gzipSync, constants } from 'node:zlib';

/** [label, import code]; `use(x)` keeps x alive so nothing imported is shaken away. */
export const IMPORTS = [
  ["import { ml_dsa44 } from 'pqverify'", "import { ml_dsa44 } from 'pqverify'; use(ml_dsa44);"],
  ["import { ml_dsa44 } from 'pqverify/ml-dsa'", "import { ml_dsa44 } from 'pqverify/ml-dsa'; use(ml_dsa44);"],
  ["import * from 'pqverify/ml-dsa'", "import * as m from 'pqverify/ml-dsa'; use(m);"],
  ["import { slh_dsa_shake_128s } from 'pqverify/slh-dsa'", "import { slh_dsa_shake_128s } from 'pqverify/slh-dsa'; use(slh_dsa_shake_128s);"],
  ["import * from 'pqverify' (all 15 suites)", "import * as m from 'pqverify'; use(m);"],
  ["import * from 'pqverify/baseline' (all 15, no SIMD)", "import * as m from 'pqverify/baseline'; use(m);"],
  ["import * from 'pqverify/js' (all 15, compiled to JavaScript, for engines without WebAssembly)", "import * as m from 'pqverify/js'; use(m);"],
  ["import * from 'pqverify/manual' (JS only; .wasm fetched)", "import * as m from 'pqverify/manual'; use(m);"],
  ["import { MlDsa44 } from 'pqverify/ox' (the engine of ox's MlDsa44 slot)", "import { MlDsa44 } from 'pqverify/ox'; use(MlDsa44);"],
  ["noble: import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'", "import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js'; use(ml_dsa44);"],
  ["noble: ml-dsa.js and slh-dsa.js (all suites)", "import * as a from '@noble/post-quantum/ml-dsa.js'; import * as b from '@noble/post-quantum/slh-dsa.js'; use(a, b);"],
  ["liboqs-js: import { createMLDSA44 } from '@oqs/liboqs-js/sig'", "import { createMLDSA44 } from '@oqs/liboqs-js/sig'; use(createMLDSA44);"],
  ["ox: import { MlDsa44 } from 'ox' (noble inside)", "import { MlDsa44 } from 'ox'; use(MlDsa44);"],
  ["ox: import { MlDsa44 } from 'ox/wasm' (mldsa-native in wasm)", "import { MlDsa44 } from 'ox/wasm'; use(MlDsa44);"],
];

/** `{ label, bytes, gzip_bytes }` for each import, resolved from `resolveDir`. */
export async function bundleSizes(resolveDir) {
  const rows = [];
  for (const [label, code] of IMPORTS) {
    const result = await build({
      stdin: { contents: `const use = (...x) => { globalThis.__kept = x; };\n${code}`, resolveDir, loader: 'js' },
      bundle: true, minify: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'error',
      // liboqs-js's Emscripten modules name Node's modules for the paths they never take in a browser.
      external: ['node:*', 'fs', 'path', 'url', 'module', 'crypto', 'worker_threads'],
    });
    const bytes = Buffer.concat(result.outputFiles.map((f) => Buffer.from(f.contents)));
    rows.push({ label, bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node bundle-sizes.mjs RESOLVE_DIR (the folder whose node_modules holds pqverify and the peers)');
  console.log(JSON.stringify(await bundleSizes(dir)));
}
