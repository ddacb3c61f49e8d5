// The benchmark suite in Node: the same engine and fixtures as natively (compiled to
// wasm), measuring the pqverify package (its WebAssembly build, and its native build
// where the platform package is installed), @noble/post-quantum, @oqs/liboqs-js and
// Node's own verifiers (node:crypto and WebCrypto, OpenSSL) side by side. With
// `--target bun` (run by Bun) only the package's ways and the native batch.
//   node bench-node.mjs --out FILE [--quick] [--rounds N] [--suites A,B] [--run ID] [--certificates FILE]
//     [--distinct FILE] [--liboqs PATH --dual-log FILE] [--target node|bun]
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import * as nodeCrypto from 'node:crypto';
import { createRequire } from 'node:module';
import * as pq from 'pqverify';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import * as liboqsJs from '@oqs/liboqs-js/sig';
import { Engine, MlDsa44 } from 'ox';
import * as OxWasm from 'ox/wasm';
import init, { BenchSuite } from '../../target/wasm-build/bench/pqverify_bench.js';
import { createPool } from 'pqverify/pool';
import { certificateScenario } from './certificates.mjs';
import { makeWays } from './ways.mjs';
import { capacity } from './capacity.mjs';
import { coldStarts, wasmSizes } from './cold-start.mjs';
import { bundleSizes } from '../../testkit/js/bundle-sizes.mjs';
import { liboqsInstances } from './liboqs.mjs';
import { platformKeys, platformWays } from './platform.mjs';
import { SCHEMA, WAY } from './names.mjs';
import { distinctKeys, nativeBatch, nativeWays } from './native.mjs';

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = opt('--out');
const options = { quick: args.includes('--quick') };
if (opt('--rounds')) options.rounds = Number(opt('--rounds'));
if (opt('--suites')) options.suites = opt('--suites').split(',');

await init({ module_or_path: readFileSync(new URL('../../target/wasm-build/bench/pqverify_bench_bg.wasm', import.meta.url)) });
const fixtureBytes = readFileSync(new URL('../fixtures/fixtures.json', import.meta.url));
const suite = new BenchSuite(fixtureBytes);
const fixtures = JSON.parse(fixtureBytes);
const require = createRequire(import.meta.url);
// Some packages do not export package.json; read it next to their entry instead.
const version = (entry) => {
  let dir = require.resolve(entry).replace(/[^/]+$/, '');
  return JSON.parse(readFileSync(`${dir}package.json`, 'utf8')).version;
};
const target = opt('--target') ?? 'node';
if (!['node', 'bun'].includes(target)) throw new Error(`--target ${target}: expected node or bun`);
const bun = target === 'bun';
// The WebAssembly build, as bundlers and browsers get it (the `pqverify` ways, measured
// alike in every engine), beside the Node entry, which answers with the native build
// where its platform package loads (the `pqverify-native` ways).
const pqDir = new URL('.', import.meta.resolve('pqverify/package.json'));
const wasm = await import(new URL('index.js', pqDir).href);
const native = pq.kernels().startsWith('native-') ? pq : null;
const distinct = opt('--distinct') ? distinctKeys(JSON.parse(readFileSync(opt('--distinct'), 'utf8'))) : null;
const dual = opt('--liboqs') ? { liboqs: opt('--liboqs'), log: opt('--dual-log') } : null;
if (dual && !dual.log) throw new Error('--liboqs needs --dual-log FILE: the dual verifier logs every disagreement');
const run = opt('--run') ?? `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}-${target}`;
// The platform's verifiers, for the suites this Node's OpenSSL has (Bun: not measured).
const platform = bun
  ? { webcrypto: new Map(), nodeCrypto: new Map(), webcryptoFormat: null }
  : await platformKeys(fixtures, { subtle: globalThis.crypto?.subtle, nodeCrypto });
const env = {
  type: 'env', schema: SCHEMA, target, run,
  cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism?.() ?? os.cpus().length,
  os: `${os.type()} ${os.release()}`, runtime: bun ? `bun ${process.versions.bun}` : `node ${process.version}`, liboqs: null,
  backend: wasm.kernels(), fixtures: '', ways: [],
  extra: {
    pqverify: version('pqverify'), noble: version('@noble/post-quantum/ml-dsa.js'),
    'native-kernels': native?.kernels() ?? null,
    // ESM-only (no `require` entry): its package.json is found from the import path.
    'liboqs-js': JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@oqs/liboqs-js/sig')), 'utf8')).version,
    // dist/ beside its package.json, which it does not export.
    ox: JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('ox')), 'utf8')).version,
    openssl: process.versions.openssl,
    'webcrypto-suites': [...platform.webcrypto.keys()],
    'webcrypto-import-format': platform.webcryptoFormat,
    'node-crypto-suites': [...platform.nodeCrypto.keys()],
    time: new Date().toISOString(),
  },
};
// The package's baseline (non-SIMD) build, its own entry and instance.
const baseline = bun ? null : await import('pqverify/baseline');
const liboqs = bun ? null : await liboqsInstances(liboqsJs, pq.suites().map((s) => s.name));
const ox = bun ? null : { Engine, MlDsa44, wasmSlot: await OxWasm.MlDsa44.engine() };
const nativeCalls = native ? nativeWays(native, fixtures, distinct, dual) : [];
const ways = bun
  ? [...makeWays(wasm, null, [WAY.pqverify, WAY.pqverifyPrepared]), ...nativeCalls]
  : [...makeWays(wasm, { ...nobleMl, ...nobleSlh }, undefined, baseline, liboqs, ox), ...nativeCalls, ...platformWays(platform)];
if (out) writeFileSync(out, '');
let last = 0;
await suite.run(JSON.stringify(options), JSON.stringify(env), ways, () => performance.now(),
  (line) => (out ? appendFileSync(out, `${line}\n`) : process.stdout.write(`${line}\n`)),
  (done, total, current) => {
    const now = performance.now();
    if (now - last > 2000 || done === total) {
      process.stderr.write(`${target} bench: ${done}/${total} ${current}\n`);
      last = now;
    }
  });

const emit = (record) => {
  const line = JSON.stringify(record);
  if (out) appendFileSync(out, `${line}\n`);
  else process.stdout.write(`${line}\n`);
};
// Section 7: the native build's batch across cores, and the event loop meanwhile.
if (native) {
  process.stderr.write(`${target} bench: verifyMany across cores (the native build)\n`);
  await nativeBatch({ pq: native, fixtures, distinct, run, target, cores: env.cores, quick: options.quick, emit });
}
if (bun) process.exit(0);
// Section 7: first call in fresh workers, memory per prepared key, throughput by
// worker threads.
process.stderr.write('node bench: capacity (first call, memory per key, throughput by threads)\n');
await capacity({ fixtures, suites: options.suites, run, quick: options.quick, native: native !== null, emit });
// Also section 7: cold start in fresh processes, and the package's .wasm sizes.
process.stderr.write('node bench: cold start (fresh processes) and .wasm sizes\n');
for (const record of coldStarts({ fixtures, processes: options.quick ? 3 : 15, run })) emit(record);
for (const record of wasmSizes({ run })) emit(record);
// And what a bundler ships for each entry, beside noble and liboqs-js.
process.stderr.write('node bench: bundle sizes (esbuild --bundle --minify)\n');
for (const { label, bytes, gzip_bytes } of await bundleSizes(new URL('.', import.meta.url).pathname)) {
  emit({ type: 'bundle-size', schema: SCHEMA, target: 'node', run, import: label, bytes, gzip_bytes });
}
// Section 8: quorum certificates through the verifier pool, beside WebCrypto with n in flight.
if (opt('--certificates')) {
  const certificates = JSON.parse(readFileSync(opt('--certificates'), 'utf8'));
  process.stderr.write(`node bench: quorum certificates of ${certificates.validators} validators\n`);
  await certificateScenario(certificates, createPool, BenchSuite.certificateRecord, {
    env, quick: options.quick, cores: env.cores, subtle: globalThis.crypto?.subtle, native, emit: (line) => emit(JSON.parse(line)),
    progress: (text) => process.stderr.write(`node bench: ${text}\n`),
  });
}
