// Runs THE benchmark suite (the same engine and fixtures as natively, compiled to
// wasm) in a Web Worker, so the page stays responsive.
import * as pq from 'pqverify';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import init, { BenchSuite } from '../generated/pqverify_bench.js';
import { makeWays } from '../../benches/js/ways.mjs';

const ready = (async () => {
  await init({ module_or_path: new URL('../generated/pqverify_bench_bg.wasm', import.meta.url) });
  const bytes = new Uint8Array(await (await fetch(new URL('../generated/fixtures.json', import.meta.url))).arrayBuffer());
  return new BenchSuite(bytes);
})();

self.onmessage = async ({ data }) => {
  try {
    const suite = await ready;
    if (data.type === 'info') {
      postMessage({ type: 'info', digest: suite.digest, suites: suite.suites(), backend: pq.backend() });
      return;
    }
    const { options, ways, env } = data;
    env.backend = pq.backend();
    const selected = makeWays(pq, { ...nobleMl, ...nobleSlh }, ways);
    suite.run(
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

// Module evaluation (including the package's top-level await) is done and the handler
// is set: only now may the page send work, or its message could arrive unheard.
postMessage({ type: 'ready' });
