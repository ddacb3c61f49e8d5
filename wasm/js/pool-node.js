// pqverify/pool in Node, Deno and Bun (the "node" export condition): a fixed number of
// worker_threads, each with its own instance of the package. An idle pool does not
// keep the process alive.
import { Worker } from 'node:worker_threads';
import { availableParallelism, cpus } from 'node:os';
import { makePool } from './pool-core.js';

const node = {
  cores: () => (typeof availableParallelism === 'function' ? availableParallelism() : cpus().length),
  unavailable: () => null,
  spawn(url, { message, failure }) {
    const worker = new Worker(url ?? new URL('./pool-worker-node.js', import.meta.url));
    worker.on('message', message);
    worker.on('error', (e) => failure(`threw "${e?.message ?? e}"`));
    worker.on('messageerror', () => failure('got a message it could not read'));
    worker.on('exit', (code) => failure(`exited (code ${code})`));
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    return {
      post: (data, transfer) => worker.postMessage(data, transfer),
      terminate: () => { worker.terminate(); },
      busy: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  },
  inThread: () => import('./pool-serve.js').then((m) => m.handle),
};

/**
 * A verifier pool: `verifyMany`, `prepare` (validator sets) and `close`. See pool.d.ts.
 * @param {import('./pool.d.ts').PoolOptions} [opts]
 */
export function createPool(opts) {
  return makePool(node, opts);
}
