// Runs THE benchmark suite (the same engine and fixtures as natively, compiled to
// wasm) in a Web Worker, so the page stays responsive: the pqverify package, noble,
// liboqs-js, ox's ML-DSA-44 on both its engines, and the engine's own WebCrypto where
// it has the suite.
import * as pq from 'pqverify';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import { Engine, MlDsa44 } from 'ox';
import * as OxWasm from 'ox/wasm';
import init, { BenchSuite } from '../generated/pqverify_bench.js';
import { makeWays } from '../../js/ways.mjs';
import { liboqsInstances } from '../../js/liboqs.mjs';
import { platformKeys, platformWays } from '../../js/platform.mjs';
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

let fixtures = null;
const ready = (async () => {
  await init({ module_or_path: new URL('../generated/pqverify_bench_bg.wasm', import.meta.url) });
  const bytes = new Uint8Array(await (await fetch(new URL('../generated/fixtures.json', import.meta.url))).arrayBuffer());
  fixtures = JSON.parse(new TextDecoder().decode(bytes));
  return new BenchSuite(bytes);
})();

self.onmessage = async ({ data }) => {
  try {
    const suite = await ready;
    if (data.type === 'info') {
      postMessage({ type: 'info', digest: suite.digest, suites: suite.suites(), backend: pq.kernels() });
      return;
    }
    const { options, ways, env } = data;
    env.backend = pq.kernels();
    // liboqs-js only when asked for: each suite's Emscripten module is fetched and compiled.
    const liboqs = ways.includes('liboqs-js')
      ? await liboqsInstances(liboqsSig, options.suites?.length ? options.suites : suite.suites())
      : null;
    // The engine's WebCrypto, for the suites it verifies (found here, at run time).
    const platform = await platformKeys(fixtures, { subtle: ways.some((w) => w.startsWith('webcrypto')) ? self.crypto?.subtle : null });
    env.extra['webcrypto-suites'] = [...platform.webcrypto.keys()];
    env.extra['webcrypto-import-format'] = platform.webcryptoFormat;
    // ox's wasm engine only when asked for (it compiles its module).
    const ox = ways.some((w) => w.startsWith('ox'))
      ? { Engine, MlDsa44, wasmSlot: await OxWasm.MlDsa44.engine() }
      : null;
    const selected = [...makeWays(pq, { ...nobleMl, ...nobleSlh }, ways, null, liboqs, ox), ...platformWays(platform)]
      .filter((w) => ways.includes(w.name));
    await suite.run(
      JSON.stringify(options),
      JSON.stringify(env),
      selected,
      () => performance.now(),
      (line) => postMessage({ type: 'record', line }),
      (done, total, current) => postMessage({ type: 'progress', done, total, current }),
    );
    postMessage({ type: 'done' });
  } catch (e) {
    postMessage({ type: 'error', message: String(e?.message ?? e) });
  }
};

// Module evaluation is done and the handler is set: the page may send work.
postMessage({ type: 'ready' });
