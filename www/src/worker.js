// Runs THE benchmark suite (the same engine and fixtures as natively, compiled to
// wasm) in a Web Worker, so the page stays responsive: the pqverify package, noble,
// liboqs-js and the engine's own WebCrypto where it has the suite.
import * as pq from 'pqverify';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import init, { BenchSuite } from '../generated/pqverify_bench.js';
import { makeWays } from '../../benches/js/ways.mjs';
import { firstCallAndMemory } from '../../benches/js/records.mjs';
import { liboqsInstances } from '../../benches/js/liboqs.mjs';
import { platformKeys, platformWays } from '../../benches/js/platform.mjs';
// Named, so that the bundle holds only these suites' liboqs-js modules (each a chunk
// fetched when its factory is first called).
import {
  createMLDSA44, createMLDSA65, createMLDSA87,
  createSlhDsaSha2128s, createSlhDsaSha2128f, createSlhDsaSha2192s, createSlhDsaSha2192f,
  createSlhDsaSha2256s, createSlhDsaSha2256f, createSlhDsaShake128s, createSlhDsaShake128f,
  createSlhDsaShake192s, createSlhDsaShake192f, createSlhDsaShake256s, createSlhDsaShake256f,
} from '@oqs/liboqs-js/sig';

const liboqsSig = {
  createMLDSA44, createMLDSA65, createMLDSA87,
  createSlhDsaSha2128s, createSlhDsaSha2128f, createSlhDsaSha2192s, createSlhDsaSha2192f,
  createSlhDsaSha2256s, createSlhDsaSha2256f, createSlhDsaShake128s, createSlhDsaShake128f,
  createSlhDsaShake192s, createSlhDsaShake192f, createSlhDsaShake256s, createSlhDsaShake256f,
};
import { SUITES } from 'pqverify/tables';

const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));

let fixtures = null;
const ready = (async () => {
  await init({ module_or_path: new URL('../generated/pqverify_bench_bg.wasm', import.meta.url) });
  const bytes = new Uint8Array(await (await fetch(new URL('../generated/fixtures.json', import.meta.url))).arrayBuffer());
  fixtures = JSON.parse(new TextDecoder().decode(bytes));
  return new BenchSuite(bytes);
})();

/** One fresh worker's first call (see first-call-worker.js). */
function firstCall(data) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./first-call-worker.js', import.meta.url), { type: 'module' });
    // A worker that never answers fails the run, with what happened, instead of hanging it.
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error('a first-call worker gave no answer within 60 s'));
    }, 60_000);
    const settle = (f, value) => {
      clearTimeout(timer);
      worker.terminate();
      f(value);
    };
    worker.onmessage = ({ data: result }) => (result.error ? settle(reject, new Error(result.error)) : settle(resolve, result));
    worker.onerror = (e) => settle(reject, new Error(e.message ?? 'the first-call worker failed'));
    worker.postMessage(data);
  });
}


/**
 * Section 7 of the report, in the browser: first call in fresh workers and memory per
 * prepared key (the growth of a fresh instance's linear memory over 200 held keys,
 * median over the workers).
 */
async function capacity(options, target, run, emit) {
  const handles = options.quick ? 3 : 7;
  const chosen = fixtures.suites.filter((f) => !options.suites?.length || options.suites.includes(f.suite));
  for (const f of chosen) {
    postMessage({ type: 'progress', done: 0, total: 0, current: `${f.suite} first call and memory` });
    const exportName = SUITES.find((s) => s.name === f.suite).export;
    const data = { exportName, pk: unhex(f.pk), msg: unhex(f.msg), sig: unhex(f.sig) };
    for (const record of await firstCallAndMemory(target, run, f.suite, handles, () => firstCall(data))) emit(record);
  }
}

self.onmessage = async ({ data }) => {
  try {
    const suite = await ready;
    if (data.type === 'info') {
      postMessage({ type: 'info', digest: suite.digest, suites: suite.suites(), backend: pq.backend() });
      return;
    }
    const { options, ways, env, capacity: withCapacity = true } = data;
    env.backend = pq.backend();
    // liboqs-js only when asked for: each suite's Emscripten module is fetched and compiled.
    const liboqs = ways.includes('liboqs-js')
      ? await liboqsInstances(liboqsSig, options.suites?.length ? options.suites : suite.suites())
      : null;
    // The engine's WebCrypto, for the suites it verifies (found here, at run time).
    const platform = await platformKeys(fixtures, { subtle: ways.some((w) => w.startsWith('webcrypto')) ? self.crypto?.subtle : null });
    env.extra['webcrypto-suites'] = [...platform.webcrypto.keys()];
    const selected = [...makeWays(pq, { ...nobleMl, ...nobleSlh }, ways, null, liboqs), ...platformWays(platform)]
      .filter((w) => ways.includes(w.name));
    await suite.run(
      JSON.stringify(options),
      JSON.stringify(env),
      selected,
      () => performance.now(),
      (line) => postMessage({ type: 'record', line }),
      (done, total, current) => postMessage({ type: 'progress', done, total, current }),
    );
    if (withCapacity) await capacity(options, env.target, env.run, (record) => postMessage({ type: 'record', line: JSON.stringify(record) }));
    postMessage({ type: 'done' });
  } catch (e) {
    postMessage({ type: 'error', message: String(e?.message ?? e) });
  }
};

// Module evaluation is done and the handler is set: the page may send work.
postMessage({ type: 'ready' });
