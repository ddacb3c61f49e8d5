// A fresh worker for the page's section-7 records; it answers one message.
// `first-call`: it imports the package (compiling its wasm), verifies once, then
// prepares a new key and verifies with it, and posts the times; then the memory that
// 200 more prepared keys take. `cold-start`: it imports one entry of the package and
// verifies once, as a fresh Node process does in benches/js/cold-start.mjs.

// The entries measured cold (names.rs's COLD_START_ENTRIES, written here by `cargo
// xtask tables`), each a literal import the bundler can follow.
const ENTRIES = {
  // xtask tables: cold-start-imports
  'pqverify': () => import('pqverify'),
  'pqverify/ml-dsa': () => import('pqverify/ml-dsa'),
  // xtask tables: end
};

self.onmessage = async ({ data }) => {
  try {
    postMessage(await (data.mode === 'cold-start' ? coldStart(data) : firstCall(data)));
  } catch (e) {
    // Said to the page, which would otherwise wait for this worker forever.
    postMessage({ error: `the ${data.mode} worker failed: ${e?.message ?? e}` });
  }
};

async function firstCall({ exportName, pk, msg, sig }) {
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

async function coldStart({ entry, exportName, pk, msg, sig }) {
  const load = ENTRIES[entry];
  if (!load) throw new Error(`no import of ${entry} here (the entries: ${Object.keys(ENTRIES).join(', ')})`);
  const t0 = performance.now();
  const pq = await load();
  const t1 = performance.now();
  const valid = pq[exportName].verify(sig, msg, pk);
  const t2 = performance.now();
  return { importMs: t1 - t0, totalMs: t2 - t0, valid };
}
