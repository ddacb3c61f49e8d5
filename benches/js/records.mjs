// Record builders shared by the JS runners (Node and the browser page), in schema
// pqverify-bench/1, as natively, and the fixtures' hex decoding they share.

export { SCHEMA } from './names.mjs';
import { SCHEMA, WAY } from './names.mjs';

/** A fixture's hex as bytes (without Buffer, which the page lacks). */
export const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));

const sorted = (xs) => [...xs].sort((a, b) => a - b);

/** The median of numbers. */
export function median(xs) {
  const s = sorted(xs);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The `first-call` sample of `valuesNs` (one per fresh handle), round 1. */
export function firstCallSample(target, run, way, suite, valuesNs, wrong) {
  const s = sorted(valuesNs);
  // Nearest rank, as benches/src/stats.rs `quantile`.
  const at = (q) => s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1];
  return {
    type: 'sample', schema: SCHEMA, target, run, way, suite, case: 'first-call', round: 1,
    iterations: s.length, samples: s.length, median_ns: median(s), p95_ns: at(0.95), p99_ns: at(0.99),
    min_ns: s[0], checks: s.length, disagreements: wrong,
  };
}

/**
 * The first-call and memory records of one suite from `handles` fresh workers, under
 * the way names `[oneShot, prepared]` (default: pqverify's):
 * `fresh()` starts one and resolves to its report ({ oneShotMs, preparedMs, valid, keys,
 * bytesPerKey, jsHeapPerKey? }). Memory is measured in each fresh instance (its
 * allocator has no freed blocks to reuse); the record takes the median over workers.
 */
export async function firstCallAndMemory(target, run, suite, handles, fresh, [oneShot, prepared] = [WAY.pqverify, WAY.pqverifyPrepared]) {
  const reports = [];
  for (let i = 0; i < handles; i++) reports.push(await fresh());
  const wrong = reports.filter((r) => !r.valid).length;
  const heaps = reports.map((r) => r.jsHeapPerKey).filter((h) => typeof h === 'number');
  const memory = {
    type: 'memory', schema: SCHEMA, target, run, suite, way: prepared, keys: reports[0].keys,
    bytes_per_key: median(reports.map((r) => r.bytesPerKey)),
  };
  if (heaps.length) memory.js_heap_bytes_per_key = median(heaps);
  return [
    firstCallSample(target, run, oneShot, suite, reports.map((r) => r.oneShotMs * 1e6), wrong),
    firstCallSample(target, run, prepared, suite, reports.map((r) => r.preparedMs * 1e6), wrong),
    memory,
  ];
}

/**
 * The `cold-start` record of one way from fresh processes' or workers' reports
 * ({ importMs, totalMs, valid }): the medians of the import and of import + first
 * verify. A first verify that did not return true is an error.
 */
export function coldStartRecord(target, run, way, suite, reports) {
  if (!reports.every((r) => r.valid === true)) throw new Error(`cold start of ${way}: a first verify of the valid ${suite} fixture did not return true`);
  return {
    type: 'cold-start', schema: SCHEMA, target, run, way, suite, processes: reports.length,
    import_ns: median(reports.map((r) => r.importMs)) * 1e6, first_verify_ns: median(reports.map((r) => r.totalMs)) * 1e6,
  };
}
