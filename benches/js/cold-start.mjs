// Cold start in fresh Node processes, for the benchmark's `cold-start` records
// (report section 7): each process imports one way, verifies one ML-DSA-44 signature
// and reports the time from just before the import to the end of that verify
// (performance.now()); this module takes the median over the processes. The ways are
// the package's entries and the peers, all verifying the same bytes.
// `node cold-start.mjs [N]` prints them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync, constants } from 'node:zlib';
import { createRequire } from 'node:module';
import { COLD_START_SUITE, SCHEMA } from './names.mjs';
import { coldStartRecord } from './records.mjs';

const here = new URL('.', import.meta.url).pathname;

// Each way: the module kind, the code that loads it into `verify(msg, sig, pk)`, and
// the variables its process gets. `t1` is taken when the way is ready for its first call.
// Node's entries answer with the native build where its platform package is installed
// (as here), and with WebAssembly under PQVERIFY_ENGINE=wasm (or without the package).
const WASM = { PQVERIFY_ENGINE: 'wasm' };
const WAYS = [
  ['pqverify', 'mjs', `const m = await import('pqverify'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['pqverify (require)', 'cjs', `const m = require('pqverify'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['pqverify/ml-dsa', 'mjs', `const m = await import('pqverify/ml-dsa'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['pqverify/ml-dsa (require)', 'cjs', `const m = require('pqverify/ml-dsa'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['pqverify (PQVERIFY_ENGINE=wasm)', 'mjs', `const m = await import('pqverify'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`, WASM],
  ['pqverify/ml-dsa (PQVERIFY_ENGINE=wasm)', 'mjs', `const m = await import('pqverify/ml-dsa'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`, WASM],
  ['pqverify/baseline', 'mjs', `const m = await import('pqverify/baseline'); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['pqverify/manual + init()', 'mjs', `const m = await import('pqverify/manual'); await m.init(); const verify = (msg, sig, pk) => m.ml_dsa44.verify(sig, msg, pk);`],
  ['liboqs-js', 'mjs', `const { createMLDSA44 } = await import('@oqs/liboqs-js/sig'); const s = await createMLDSA44(); const verify = (msg, sig, pk) => s.verify(msg, sig, pk);`],
  ['noble', 'mjs', `const { ml_dsa44 } = await import('@noble/post-quantum/ml-dsa.js'); const verify = (msg, sig, pk) => ml_dsa44.verify(sig, msg, pk);`],
];

/**
 * One `cold-start` record per way: `processes` fresh processes each, verifying the
 * valid ML-DSA-44 fixture of `fixtures` (the benchmark's fixtures.json). A wrong
 * verdict or a failed process is an error.
 */
export function coldStarts({ fixtures, processes, run }) {
  const f = fixtures.suites.find((s) => s.suite === COLD_START_SUITE);
  const bytes = `const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const msg = unhex('${f.msg}'), sig = unhex('${f.sig}'), pk = unhex('${f.pk}');`;
  return WAYS.map(([way, kind, load, env = {}]) => {
    const reports = [];
    for (let i = 0; i < processes; i++) {
      const script = `${bytes}
const t0 = performance.now();
${load}
const t1 = performance.now();
const ok = verify(msg, sig, pk);
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, totalMs: t2 - t0, valid: ok }));`;
      const args = kind === 'mjs' ? ['--input-type=module', '-e', script] : ['-e', script];
      const out = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: here, env: { ...process.env, PQVERIFY_ENGINE: '', ...env } });
      if (out.status !== 0) throw new Error(`cold start of ${way}: ${out.stderr || `exit ${out.status}`}`);
      reports.push(JSON.parse(out.stdout.trim().split('\n').pop()));
    }
    return coldStartRecord('node', run, way, COLD_START_SUITE, reports);
  });
}

/** One `wasm-size` record per build of the installed package (named by its folder). */
export function wasmSizes({ run }) {
  const require = createRequire(import.meta.url);
  const dir = require.resolve('pqverify/package.json').replace(/package\.json$/, '');
  return ['wasm', 'wasm-simd', 'wasm-ml-dsa', 'wasm-slh-dsa'].map((build) => {
    const bytes = readFileSync(`${dir}${build}/pqverify_wasm_bg.wasm`);
    const gzip = gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });
    return { type: 'wasm-size', schema: SCHEMA, target: 'node', run, build, bytes: bytes.length, gzip_bytes: gzip.length };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fixtures = JSON.parse(readFileSync(new URL('../fixtures/fixtures.json', import.meta.url)));
  const processes = Number(process.argv[2] ?? 15);
  console.log(`Node ${process.version}, median of ${processes} fresh processes`);
  for (const r of coldStarts({ fixtures, processes, run: 'cli' })) {
    console.log(`${r.way}: import ${(r.import_ns / 1e6).toFixed(1)} ms, import + first verify ${(r.first_verify_ns / 1e6).toFixed(1)} ms`);
  }
  for (const s of wasmSizes({ run: 'cli' })) console.log(`${s.build}: ${s.bytes} B, gzip ${s.gzip_bytes} B`);
}
