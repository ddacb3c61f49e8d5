// The certificate scenario in JS engines (Node and the page), beside the native one
// (native/src/bench.rs): one certificate of every validator's signature on one block
// hash, timed whole, through the package's verifier pool of 1, 2, 4, … up to the
// cores workers — the validator set installed in every worker (`pool-prepared`) and
// one-shot through verifyMany (`pool`) — the native build's validator set on its thread
// pool (`pqverify-native-prepared`, Node) — and, where the platform has the suite, its
// WebCrypto with all n in flight (keys imported once; `webcrypto-inflight`). While
// each runs, a 1 ms timer on this thread measures how late it fires. Records are
// built by the bench module (Rust), as natively.
import { spki } from '../../testkit/js/spki.mjs';
import { WAY } from './names.mjs';
import { unhex } from './records.mjs';

/** The budgets of the native run (pqverify-bench's CertificateBudget), and a warm-up in ms. */
const BUDGET = { full: { ns: 400e6, min: 21, max: 2000, warm: 500 }, quick: { ns: 30e6, min: 5, max: 200, warm: 50 } };

/** 1, 2, 4, … below `cores`, then `cores` (as natively). */
export function threadCounts(cores) {
  const out = [];
  for (let t = 1; t < cores; t *= 2) out.push(t);
  if (!out.includes(cores)) out.push(Math.max(1, cores));
  return out;
}

/**
 * How late a repeating 1 ms timer fires on this thread while `work` runs: the longest
 * interval between two firings beyond the median one (the timer's own period: 1 ms in
 * Node, the 4 ms clamp of nested timers in browsers).
 */
async function lateness(work) {
  const gaps = [];
  let last = performance.now();
  let on = true;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (on) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  try {
    const result = await work();
    const sorted = gaps.sort((a, b) => a - b);
    return { result, late: () => (sorted.length < 2 ? 0 : sorted[sorted.length - 1] - sorted[sorted.length >> 1]) };
  } finally {
    on = false;
  }
}

/**
 * Runs the scenario.
 * @param fixtures - the parsed pqverify-certificates/1 file
 * @param createPool - pqverify/pool's
 * @param record - the bench module's certificateRecord(envJson, measurementJson) → record line
 * @param options - { env, quick, cores, subtle (or null), native (the package's Node entry
 *   on its native build, or null: its validator sets on its thread pool of 1, 2, … cores
 *   threads, `pqverify-native-prepared`), emit(line), progress(text) }
 */
export async function certificateScenario(fixtures, createPool, record, { env, quick, cores, subtle, native = null, emit, progress }) {
  const budget = quick ? BUDGET.quick : BUDGET.full;
  const measure = async (verify) => {
    const times = [];
    let wrong = 0;
    // Unmeasured: the workers' first use and the engine's optimising tier (V8 tiers a
    // wasm function up once it has run for a while), as a server that verifies all day.
    for (let t0 = performance.now(), n = 0; n < 3 || performance.now() - t0 < budget.warm; n++) await verify();
    const { late } = await lateness(async () => {
      let spent = 0;
      while (times.length < budget.min || (spent < budget.ns / 1e6 && times.length < budget.max)) {
        const t0 = performance.now();
        const verdicts = await verify();
        const dt = performance.now() - t0;
        times.push(dt * 1e6);
        spent += dt;
        if (!verdicts.every((v) => v === true)) wrong++;
      }
    });
    return { times, wrong, blocked: late() * 1e6 };
  };
  const out = (way, set, threads, m) => emit(record(JSON.stringify(env), JSON.stringify({
    way, suite: set.suite, validators: set.keys.length, threads, times_ns: m.times, wrong: m.wrong, blocked_ns: m.blocked,
  })));
  for (const s of fixtures.sets) {
    const set = { suite: s.suite, message: unhex(s.message), keys: s.keys.map(unhex), signatures: s.signatures.map(unhex) };
    const signed = set.signatures.map((signature, validator) => ({ validator, signature }));
    const items = set.signatures.map((signature, i) => ({ suite: set.suite, signature, message: set.message, publicKey: set.keys[i] }));
    for (const threads of threadCounts(cores)) {
      progress(`certificates: ${set.suite}, pool of ${threads}`);
      const pool = createPool({ size: threads, timeout: 120_000 });
      try {
        const validators = await pool.prepare(set.suite, set.keys);
        out(WAY.poolPrepared, set, threads, await measure(async () => (await validators.verify(set.message, signed)).verdicts));
        out(WAY.pool, set, threads, await measure(async () => (await pool.verifyMany(items)).map((r) => r.valid)));
        validators.release();
      } finally {
        pool.close();
      }
    }
    if (native) {
      const validators = await native.prepareValidators(set.suite, set.keys);
      for (const threads of threadCounts(cores)) {
        progress(`certificates: ${set.suite}, the native build on ${threads} threads`);
        out(WAY.pqverifyNativePrepared, set, threads, await measure(async () => (await validators.verify(set.message, signed, { threads })).verdicts));
      }
      validators.release();
    }
    if (subtle && set.suite.startsWith('ML-DSA')) {
      let keys = null;
      try {
        keys = await Promise.all(set.keys.map((pk) => subtle.importKey('spki', spki(set.suite, pk), { name: set.suite }, false, ['verify'])));
      } catch {
        // The engine lacks the algorithm: no record, as in the suite's platform ways.
      }
      if (keys) {
        progress(`certificates: ${set.suite}, WebCrypto with ${keys.length} in flight`);
        const verify = () => Promise.all(set.signatures.map((sig, i) => subtle.verify({ name: set.suite }, keys[i], sig, set.message)));
        out(WAY.webcryptoInflight, set, 0, await measure(verify));
      }
    }
  }
}
