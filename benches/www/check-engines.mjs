// The benchmark page in the other two browser engines, for `cargo xtask test`: Firefox
// ESR (SpiderMonkey) and WebKitGTK (JavaScriptCore, Safari's engine). A quick run,
// checked for the package's simd128 build, a correct verdict on every valid and flipped
// signature of every way, the engine as the records' target, section 7's first-call
// and cold-start records and section 8's certificates. (The package itself is checked
// in these engines by wasm/test-js/engines-check.mjs.) Prints `N passed, M failed` last.
//   node check-engines.mjs DIST
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tally } from '../../testkit/js/tally.mjs';
import { COLD_START_ENTRIES, COLD_START_SUITE } from '../js/names.mjs';
import { runBench } from './run.mjs';

const [dist = 'dist'] = process.argv.slice(2);
const SUITES = ['ML-DSA-44', 'SLH-DSA-SHAKE-128f'];
const WAYS = ['pqverify', 'pqverify-prepared', 'noble'];
// ox's MlDsa44 on both its engines (ML-DSA-44 only).
const OX = ['ox', 'ox-wasm'];
const digest = `sha256:${createHash('sha256').update(readFileSync(new URL('../fixtures/fixtures.json', import.meta.url))).digest('hex')}`;
// The committee the page was built with (`generated/certificates.json`).
const validators = JSON.parse(readFileSync(new URL('./generated/certificates.json', import.meta.url), 'utf8')).validators;
const { check, finish } = tally();

for (const engine of ['firefox', 'webkit']) {
  let result;
  try {
    // WebCrypto is asked for too: the page must find that the engine lacks ML-DSA, not fail.
    result = await runBench(engine, dist, `?quick=1&rounds=1&suites=${SUITES.join(',')}&ways=${[...WAYS, ...OX, 'webcrypto'].join(',')}&autorun=1`, { timeoutMs: 10 * 60 * 1000 });
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
    for (const way of suite === 'ML-DSA-44' ? [...WAYS, ...OX] : WAYS) {
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
  // Section 7's cold start: each entry imported in fresh workers, the first verify true.
  for (const entry of COLD_START_ENTRIES) {
    const c = lines.find((r) => r.type === 'cold-start' && r.way === entry);
    check(c && c.target === engine && c.suite === COLD_START_SUITE && c.processes === 3 && c.first_verify_ns >= c.import_ns && c.import_ns > 0, `${engine}: cold start of ${entry} in fresh workers`);
  }
  // Section 8: the certificate of every validator through pqverify/pool, one worker and all cores.
  const certificates = lines.filter((r) => r.type === 'certificate');
  for (const suite of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'SLH-DSA-SHAKE-128s']) {
    for (const threads of [...new Set([1, env.cores])]) {
      for (const way of ['pool-prepared', 'pool']) {
        const c = certificates.find((r) => r.suite === suite && r.way === way && r.threads === threads);
        check(c && c.target === engine && c.validators === validators && c.certificates > 0 && c.median_ns > 0 && c.wrong === 0,
          `${engine}: certificate record for ${way} ${suite} on ${threads} workers, every certificate valid`);
      }
    }
  }
}
finish();
