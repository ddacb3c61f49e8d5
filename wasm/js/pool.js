// pqverify/pool in pages and extension pages: a fixed number of module Web Workers,
// each with its own instance of the package (Node, Deno and Bun take pool-node.js by
// the "node" condition). The `new Worker(new URL('./pool-worker.js', import.meta.url), …)`
// call is written out so that bundlers that follow the pattern (Vite, webpack 5) bundle
// the worker file.
import { makePool } from './pool-core.js';

const web = {
  cores: () => globalThis.navigator?.hardwareConcurrency ?? 1,
  unavailable: () => (typeof Worker === 'function'
    ? null
    : 'this context has no Worker (a service worker, such as an MV3 extension\'s background, cannot start one)'),
  spawn(url, { message, failure }) {
    const worker = url === undefined
      ? new Worker(new URL('./pool-worker.js', import.meta.url), { type: 'module' })
      : new Worker(url, { type: 'module' });
    worker.onmessage = (event) => message(event.data);
    worker.onerror = (event) => {
      event.preventDefault?.();
      failure(`threw ${event.message ? `"${event.message}"` : 'an error'} (or its script did not load)`);
    };
    worker.onmessageerror = () => failure('got a message it could not read');
    return {
      post: (data, transfer) => worker.postMessage(data, transfer),
      terminate: () => worker.terminate(),
      busy() {},
    };
  },
  inThread: () => import('./pool-serve.js').then((m) => m.handle),
};

/**
 * A verifier pool: `verifyMany`, `prepare` (validator sets) and `close`. See pool.d.ts.
 * @param {import('./pool.d.ts').PoolOptions} [opts]
 */
export function createPool(opts) {
  return makePool(web, opts);
}
