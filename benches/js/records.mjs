// Record builders shared by the JS runners (Node and the browser page), in schema
// pqverify-bench/1, as natively.

export const SCHEMA = 'pqverify-bench/1';

const sorted = (xs) => [...xs].sort((a, b) => a - b);

/** The median of numbers. */
export function median(xs) {
  const s = sorted(xs);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The `first-call` sample of `valuesNs` (one per fresh handle), round 1. */
export function firstCallSample(target, run, way, suite, valuesNs, wrong) {
  const s = sorted(valuesNs);
  const at = (q) => s[Math.round((s.length - 1) * q)];
  return {
    type: 'sample', schema: SCHEMA, target, run, way, suite, case: 'first-call', round: 1,
    iterations: s.length, samples: s.length, median_ns: median(s), p95_ns: at(0.95), p99_ns: at(0.99),
    min_ns: s[0], checks: s.length, disagreements: wrong,
  };
}
