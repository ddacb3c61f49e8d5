// The package's native build in the JS runners (Node and Bun), where its platform
// package is installed: its ways for the suite engine (one-shot, prepared, and the dual
// check on the distinct-key fixtures, measured as the native driver measures
// `dual-enforce-distinct`), and its batch across cores: `verifyMany` on 1, 2, … threads
// over distinct keys, with the event loop's delay recorded while the batch runs.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadCounts } from './certificates.mjs';
import { SCHEMA, WAY } from './names.mjs';
import { unhex } from './records.mjs';
import { packageWays } from './ways.mjs';

/**
 * The distinct-key fixtures (pqverify-distinct/1, hex) by suite: { signed, signedLong }
 * as [publicKey, signature] byte pairs.
 */
export function distinctKeys(file) {
  return new Map(file.suites.map((s) => [s.suite, {
    signed: s.keys.map((k, i) => [unhex(k), unhex(s.signatures[i])]),
    signedLong: s.signatures_long.map((sig, i) => [unhex(s.keys[i]), unhex(sig)]),
  }]));
}

/** The invalid case's signature: one bit of the middle byte flipped (benches/src/fixtures.rs `Case::flip`). */
function flip(sig) {
  const out = sig.slice();
  out[out.length >> 1] ^= 1;
  return out;
}

/**
 * The native build's ways for the suite engine.
 * @param pq - the package's Node entry, answering with the native build
 * @param fixtures - the benchmark fixtures (to tell a bound case: valid, invalid, long)
 * @param distinct - distinctKeys(file), or null (then no dual way)
 * @param dual - { liboqs, log }: the dual verifier's primary and disagreement log
 */
export function nativeWays(pq, fixtures, distinct, dual) {
  const ways = packageWays(pq, [WAY.pqverifyNative, WAY.pqverifyNativePrepared]);
  if (distinct && dual) {
    ways.push({
      name: WAY.dualEnforceDistinct,
      bind(suite, pk, msg, sig) {
        const keys = distinct.get(suite);
        const f = fixtures.suites.find((x) => x.suite === suite);
        if (!keys || !f) return null;
        // The bound case's bytes, on every distinct key.
        const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
        const long = msg.length === unhex(f.msg_long).length;
        const invalid = !long && !same(sig, unhex(f.sig));
        const signed = (long ? keys.signedLong : keys.signed).map(([k, s]) => [k, invalid ? flip(s) : s]);
        if (signed.length === 0) return null;
        // A verifier made afresh for each pass over the keys: every key is seen first.
        const fresh = () => pq.createDualVerifier({ liboqs: dual.liboqs, log: dual.log, mode: 'enforce' });
        let verifier = fresh();
        let next = 0;
        return () => {
          if (next === signed.length) {
            verifier = fresh();
            next = 0;
          }
          const [key, signature] = signed[next++];
          return verifier.verify(suite, signature, msg, key);
        };
      },
    });
  }
  return ways;
}

/**
 * `verifyMany` of `count` ML-DSA-44 signatures under distinct keys (the fixtures' keys,
 * repeated where it has fewer) on 1, 2, … `cores` threads: one `scaling` record per
 * thread count (the best rate of `rounds`, the call to the settled promise), with the
 * event loop's delay while the batches verified (`monitorEventLoopDelay`: the largest
 * round's 99th percentile, and the largest delay) and the median time of the call
 * itself (its items checked and copied on this thread).
 */
export async function nativeBatch({ pq, fixtures, distinct, run, target, cores, quick, emit }) {
  const suite = 'ML-DSA-44';
  const f = fixtures.suites.find((x) => x.suite === suite);
  const keys = distinct?.get(suite)?.signed ?? [[unhex(f.pk), unhex(f.sig)]];
  const count = 2000;
  const message = unhex(f.msg);
  const items = Array.from({ length: count }, (_, i) => {
    const [publicKey, signature] = keys[i % keys.length];
    return { suite, signature, message, publicKey };
  });
  const rounds = quick ? 3 : 15;
  // The loop's delay with nothing to do, in the same process: the floor the histogram
  // reports (its 1 ms resolution and the timers' own lateness).
  const idle = monitorEventLoopDelay({ resolution: 1 });
  const idleTimer = setInterval(() => {}, 1);
  idle.enable();
  await new Promise((r) => setTimeout(r, quick ? 100 : 500));
  idle.disable();
  clearInterval(idleTimer);
  for (const threads of threadCounts(cores)) {
    // Warm: the pool's threads exist, and V8 has optimised the call's JavaScript.
    for (let w = 0; w < 5; w++) await pq.verifyMany(items, { threads });
    // A timer keeps the loop turning, so that its delay is sampled while the batch runs.
    const timer = setInterval(() => {}, 1);
    let best = Infinity;
    let wrong = 0;
    const calls = [];
    let [p99, max] = [0, 0];
    for (let r = 0; r < rounds; r++) {
      const t0 = performance.now();
      const pending = pq.verifyMany(items, { threads });
      // The call itself checks and copies every item on this thread; then the batch
      // verifies on the pool while the loop turns. A histogram of its own each round: one
      // enabled again would count the gap since it was disabled as a delay.
      calls.push(performance.now() - t0);
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      const verdicts = await pending;
      delay.disable();
      best = Math.min(best, performance.now() - t0);
      wrong += verdicts.filter((v) => v !== true).length;
      [p99, max] = [Math.max(p99, delay.percentile(99)), Math.max(max, delay.max)];
    }
    clearInterval(timer);
    if (wrong) throw new Error(`${WAY.pqverifyNativeBatch} on ${threads} threads: ${wrong} wrong verdicts`);
    emit({
      type: 'scaling', schema: SCHEMA, target, run, suite, way: WAY.pqverifyNativeBatch, threads,
      ops_per_s: count / (best / 1000),
      event_loop_p99_ns: p99, event_loop_max_ns: max, event_loop_idle_p99_ns: idle.percentile(99),
      call_ns: calls.sort((a, b) => a - b)[calls.length >> 1] * 1e6,
    });
  }
}
