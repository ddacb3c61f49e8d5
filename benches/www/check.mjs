// The browser test of `cargo xtask test`: opens the built page in headless Chromium,
// runs a quick suite, and checks rows, verdicts, the exported records (schema, and
// the same fixtures as natively), the native side-by-side view, and takes a screenshot.
//   node check.mjs DIST NATIVE_RECORDS SCREENSHOT
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { openPage } from '../../testkit/js/chromium.mjs';
import { tally } from '../../testkit/js/tally.mjs';
import { COLD_START_ENTRIES, COLD_START_SUITE } from '../js/names.mjs';

const [dist = 'dist', nativePath, shot = 'shot.png'] = process.argv.slice(2);
const SUITES = ['ML-DSA-44', 'SLH-DSA-SHAKE-128f'];
const WAYS = ['pqverify', 'pqverify-prepared', 'noble', 'liboqs-js'];
// Chromium's own ML-DSA (WebCrypto), awaited, many in flight, and imported per call:
// ML-DSA suites only.
const PLATFORM = ['webcrypto', 'webcrypto-inflight', 'webcrypto-import'];
// ox's MlDsa44 on both its engines: ML-DSA-44 only.
const OX = ['ox', 'ox-wasm'];
const ways = (suite) => (suite.startsWith('ML-DSA') ? [...WAYS, ...PLATFORM, ...(suite === 'ML-DSA-44' ? OX : [])] : WAYS);
const { check, finish } = tally();

const { state, page, errors, close } = await openPage(dist, `?quick=1&rounds=1&suites=${SUITES.join(',')}&ways=${[...WAYS, ...PLATFORM, ...OX].join(',')}&autorun=1&target=chromium`, { timeoutMs: 10 * 60 * 1000 });
try {
  if (state !== '1') throw new Error(`the run failed: ${await page.textContent('#current')}`);
  const records = await page.evaluate(() => window.pqverifyRecords());
  check(errors.length === 0, `no page errors (${errors.join('; ')})`);
  for (const suite of SUITES) {
    for (const way of ways(suite)) {
      for (const c of ['valid', 'invalid']) {
        const row = page.locator(`tr[data-suite="${suite}"][data-way="${way}"][data-case="${c}"]`);
        check((await row.count()) === 1, `row for ${suite} ${way} ${c}`);
        check((await row.locator('td.verdicts').textContent()) === 'all correct', `${suite} ${way} ${c}: every verdict correct`);
      }
    }
  }
  // Export: the downloaded file is the records, in schema pqverify-bench/1, target chromium.
  const download = page.waitForEvent('download');
  await page.click('#export');
  const file = await (await download).path();
  const exported = readFileSync(file, 'utf8');
  check(exported === records, 'the exported file holds the records');
  const lines = exported.trim().split('\n').map((l) => JSON.parse(l));
  const env = lines[0];
  const digest = `sha256:${createHash('sha256').update(readFileSync(new URL('../fixtures/fixtures.json', import.meta.url))).digest('hex')}`;
  // The committee the page was built with (`generated/certificates.json`).
  const validators = JSON.parse(readFileSync(new URL('./generated/certificates.json', import.meta.url), 'utf8')).validators;
  check(env.type === 'env' && env.schema === 'pqverify-bench/1' && env.target === 'chromium', 'first record is the chromium environment');
  check(env.fixtures === digest, 'the browser used the same fixtures as native (digest)');
  check(typeof env.cores === 'number' && env.runtime.length > 0 && typeof env.extra.simd128 === 'boolean', 'environment has cores, runtime, simd128');
  check(['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].every((s) => env.extra['webcrypto-suites']?.includes(s)), `WebCrypto ML-DSA found (${env.extra['webcrypto-suites']})`);
  const samples = lines.filter((r) => r.type === 'sample');
  const steady = samples.filter((r) => r.case !== 'first-call');
  check(steady.length === SUITES.reduce((n, s) => n + ways(s).length * 2, 0), `${steady.length} sample records (one per suite, way, case, round)`);
  // Section 7 in the browser: first call of both pqverify ways and memory per key, every suite.
  for (const suite of SUITES) {
    for (const way of ['pqverify', 'pqverify-prepared']) {
      const first = samples.find((r) => r.case === 'first-call' && r.suite === suite && r.way === way);
      check(first && first.median_ns > 0 && first.disagreements === 0, `first-call record for ${way} ${suite}`);
    }
    const memory = lines.find((r) => r.type === 'memory' && r.suite === suite);
    check(memory && memory.keys === 200 && memory.bytes_per_key >= 0, `memory record for ${suite}`);
    check((await page.locator(`tr[data-capacity="${suite}"]`).count()) === 1, `the page shows first call and memory for ${suite}`);
  }
  // Section 7's cold start: each entry imported in fresh workers, the first verify true.
  for (const entry of COLD_START_ENTRIES) {
    const c = lines.find((r) => r.type === 'cold-start' && r.way === entry);
    check(c && c.target === 'chromium' && c.suite === COLD_START_SUITE && c.processes === 3 && c.import_ns > 0 && c.first_verify_ns >= c.import_ns,
      `cold-start record for ${entry} in fresh workers`);
    check((await page.locator(`tr[data-cold-start="${entry}"]`).count()) === 1, `the page shows the cold start of ${entry}`);
  }
  // Section 8 on the page: a certificate of every validator through pqverify/pool (one
  // worker and all cores), and WebCrypto with all in flight for ML-DSA; all valid, shown.
  const certificates = lines.filter((r) => r.type === 'certificate');
  const cores = env.cores;
  for (const suite of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'SLH-DSA-SHAKE-128s']) {
    const expected = [...new Set([1, cores])].flatMap((t) => [['pool-prepared', t], ['pool', t]]);
    if (suite.startsWith('ML-DSA')) expected.push(['webcrypto-inflight', 0]);
    for (const [way, threads] of expected) {
      const c = certificates.find((r) => r.suite === suite && r.way === way && r.threads === threads);
      check(c && c.validators === validators && c.certificates > 0 && c.median_ns > 0 && c.wrong === 0 && c.blocked_ns >= 0,
        `certificate record for ${way} ${suite} on ${threads || 'the platform\'s'} threads, every certificate valid`);
      check((await page.locator(`tr[data-certificate="${suite}|${way}|${threads}"]`).count()) === 1, `the page shows the ${way} ${suite} ${threads} certificate row`);
    }
  }
  const fields = ['schema', 'target', 'run', 'way', 'suite', 'case', 'round', 'iterations', 'median_ns', 'p95_ns', 'p99_ns', 'min_ns', 'checks', 'disagreements'];
  check(samples.every((s) => fields.every((f) => f in s) && s.target === 'chromium' && s.run === env.run && s.median_ns > 0 && s.disagreements === 0),
    'every sample record is well-formed with no disagreement');
  // Native records side by side: the ratio column appears.
  const native = nativePath ?? '/dev/null';
  await page.setInputFiles('#native-file', native);
  await page.waitForSelector('td.ratio', { state: 'attached', timeout: 10000 }).catch(() => {});
  const ratios = await page.locator('td.ratio').allTextContents();
  check(ratios.some((r) => r.endsWith('×')), `wasm / native ratio column shown (${ratios.slice(0, 3).join(', ')})`);
  await page.screenshot({ path: shot, fullPage: true });
  console.log(`screenshot: ${shot}`);
} finally {
  await close();
}
finish();
