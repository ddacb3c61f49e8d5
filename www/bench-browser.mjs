// The benchmark suite in a browser engine, for `cargo xtask bench`: runs the built
// page and writes that engine's records.
//   node bench-browser.mjs DIST OUT [--quick] [--engine chromium|firefox|webkit]
import { writeFileSync } from 'node:fs';
import { SUITES } from 'pqverify/tables';
import { runInEngine } from './engines.mjs';

const [dist, out, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick') ? 1 : 0;
const engine = flags.includes('--engine') ? flags[flags.indexOf('--engine') + 1] : 'chromium';
const suites = SUITES.map((s) => s.name).join(',');
// Section 7 (first call in fresh workers, memory per key) in Chromium only: Firefox 153's
// worker stopped for good while starting fresh workers at the end of a full run.
const capacity = engine === 'chromium' ? 1 : 0;
// Section 8 (quorum certificates through pqverify/pool) in every engine: the page starts
// its pool's workers itself, not from a worker.
const { errors, records, version } = await runInEngine(engine, dist, `?quick=${quick}&rounds=${quick ? 2 : 3}&suites=${suites}&autorun=1&capacity=${capacity}`);
if (errors.length) console.error(`page errors: ${errors.join('; ')}`);
writeFileSync(out, records);
console.error(`${engine} bench (${version}): ${records.trim().split('\n').length} records in ${out}`);
