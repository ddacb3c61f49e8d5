// A pqverify pool worker (Node, Deno and Bun worker_threads): pool-node.js starts it.
import { parentPort } from 'node:worker_threads';
import { handle } from './pool-serve.js';

parentPort.on('message', (data) => {
  const out = handle(data);
  if (out) parentPort.postMessage(out.reply, out.transfer);
});
