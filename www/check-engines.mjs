// The page in the other two browser engines, for `cargo xtask test`: a quick run in
// Firefox ESR (SpiderMonkey) and WebKitGTK (JavaScriptCore, Safari's engine), each
// checked for the package's simd128 build, a correct verdict on every valid and
// flipped signature of every way, the engine as the records' target, and section 7's
// first-call records.   node check-engines.mjs DIST
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { runInEngine } from './engines.mjs';
import { tally } from './tally.mjs';

const [dist = 'dist'] = process.argv.slice(2);
const SUITES = ['ML-DSA-44', 'SLH-DSA-SHAKE-128f'];
const WAYS = ['pqverify', 'pqverify-prepared', 'noble'];
const digest = `sha256:${createHash('sha256').update(readFileSync(new URL('../benches/fixtures/fixtures.json', import.meta.url))).digest('hex')}`;
const { check, finish } = tally();

for (const engine of ['firefox', 'webkit']) {
  let result;
  try {
    // WebCrypto is asked for too: the page must find that the engine lacks ML-DSA, not fail.
    result = await runInEngine(engine, dist, `?quick=1&rounds=1&suites=${SUITES.join(',')}&ways=${[...WAYS, 'webcrypto'].join(',')}&autorun=1`, { timeoutMs: 10 * 60 * 1000 });
  } catch (e) {
    check(false, `${engine}: the page ran (${e.message})`);
    continue;
  }
  check(true, `${engine} (${result.version}): the page ran`);
  check(result.errors.length === 0, `${engine}: no page errors (${result.errors.join('; ')})`);
  const lines = result.records.trim().split('\n').map((l) => JSON.parse(l));
  const env = lines[0];
  check(env.type === 'env' && env.target === engine && env.fixtures === digest, `${engine}: the environment record names the engine and the shared fixtures`);
  check(env.backend === 'simd128' && env.extra.simd128 === true, `${engine}: the package chose its simd128 build (${env.backend})`);
  check(Array.isArray(env.extra['webcrypto-suites']), `${engine}: WebCrypto ML-DSA detected at run time (${JSON.stringify(env.extra['webcrypto-suites'])})`);
  const samples = lines.filter((r) => r.type === 'sample');
  for (const suite of SUITES) {
    for (const way of WAYS) {
      for (const c of ['valid', 'invalid']) {
        const s = samples.find((r) => r.suite === suite && r.way === way && r.case === c);
        check(s && s.target === engine && s.checks > 0 && s.disagreements === 0 && s.median_ns > 0, `${engine}: ${suite} ${way} ${c}: every verdict correct`);
      }
    }
    for (const way of ['pqverify', 'pqverify-prepared']) {
      const first = samples.find((r) => r.case === 'first-call' && r.suite === suite && r.way === way);
      check(first && first.disagreements === 0, `${engine}: first call of ${way} ${suite} in a fresh worker`);
    }
  }
}
finish();
