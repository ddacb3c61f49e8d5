// A pqverify pool worker (module Web Worker): pool.js starts it. To host it yourself
// (a bundler that does not follow `new URL(…, import.meta.url)`), serve this file with
// the package's other files beside it and pass its URL as createPool({ workerUrl }).
import { handle } from './pool-serve.js';

self.onmessage = (event) => {
  const out = handle(event.data);
  if (out) self.postMessage(out.reply, out.transfer);
};
