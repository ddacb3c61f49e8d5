// A worker thread of the Node benchmark's capacity records. `first-call`: the time to
// import the package and verify once (then to prepare a new key and verify with it),
// in this fresh worker; then, in this fresh instance (whose allocator has nothing
// freed to reuse), the memory that more prepared keys take (the heap the native build
// holds, or the WebAssembly memory's growth). `rate`: verify until
// told the time is up, and count.
import { parentPort, workerData } from 'node:worker_threads';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const { exportName, pk, msg, sig, mode, way, entry, keys: heldKeys } = workerData;
const t0 = performance.now();
// The WebAssembly build (the package's index.js, as bundlers and browsers get it), or the
// Node entry (the native build, where its platform package is installed).
const pq = await import(entry === 'native' ? 'pqverify' : new URL('index.js', new URL('.', import.meta.resolve('pqverify/package.json'))).href);
const suite = pq[exportName];
if (mode === 'first-call') {
  const one = suite.verify(sig, msg, pk);
  const t1 = performance.now();
  const two = suite.prepare(pk).verify(sig, msg);
  const t2 = performance.now();
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc');
  const keys = heldKeys;
  gc();
  const [linear0, heap0] = [pq.memoryBytes(), getHeapStatistics().used_heap_size];
  const held = Array.from({ length: keys }, () => suite.prepare(pk));
  gc();
  const [linear1, heap1] = [pq.memoryBytes(), getHeapStatistics().used_heap_size];
  // A few of the held keys verify (all of 4,000 SLH-DSA keys would take seconds a worker).
  const heldValid = [...held.slice(0, 4), held[held.length - 1]].every((k) => k.verify(sig, msg));
  parentPort.postMessage({
    oneShotMs: t1 - t0, preparedMs: t2 - t1, valid: one && two && heldValid, keys,
    bytesPerKey: (linear1 - linear0) / keys, jsHeapPerKey: Math.max(0, heap1 - heap0) / keys,
  });
} else {
  const key = suite.prepare(pk);
  const verify = way === 'pqverify-prepared' ? () => key.verify(sig, msg) : () => suite.verify(sig, msg, pk);
  verify(); // warm: the rate is of the steady state
  parentPort.once('message', ({ ms }) => {
    let count = 0;
    let wrong = 0;
    const start = performance.now();
    while (performance.now() - start < ms || count === 0) {
      if (!verify()) wrong++;
      count++;
    }
    parentPort.postMessage({ count, wrong, elapsedMs: performance.now() - start });
  });
  parentPort.postMessage('ready');
}
