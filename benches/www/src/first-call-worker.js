// A fresh worker for the page's first-call records: on its one message it imports the
// package (compiling its wasm), verifies once, then prepares a new key and verifies
// with it, and posts the times; then the memory that 200 more prepared keys take.
self.onmessage = async ({ data: { exportName, pk, msg, sig } }) => {
  try {
    postMessage(await firstCall(exportName, pk, msg, sig));
  } catch (e) {
    // Said to the page, which would otherwise wait for this worker forever.
    postMessage({ error: `the first-call worker failed: ${e?.message ?? e}` });
  }
};

async function firstCall(exportName, pk, msg, sig) {
  const t0 = performance.now();
  const pq = await import('pqverify');
  const suite = pq[exportName];
  const one = suite.verify(sig, msg, pk);
  const t1 = performance.now();
  const two = suite.prepare(pk).verify(sig, msg);
  const t2 = performance.now();
  // Memory in this fresh instance (its allocator has no freed blocks to reuse).
  const keys = 200;
  const linear0 = pq.memoryBytes();
  const held = Array.from({ length: keys }, () => suite.prepare(pk));
  const linear1 = pq.memoryBytes();
  const heldValid = held.every((k) => k.verify(sig, msg));
  return { oneShotMs: t1 - t0, preparedMs: t2 - t1, valid: one && two && heldValid, keys, bytesPerKey: (linear1 - linear0) / keys };
}
