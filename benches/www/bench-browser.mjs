// The benchmark suite in a browser engine, for `cargo xtask bench`: runs the built
// page and writes that engine's records.
//   node bench-browser.mjs DIST OUT [--quick] [--engine chromium|firefox|webkit]
import { writeFileSync } from 'node:fs';
import { SUITES } from 'pqverify/tables';
import { runBench } from './run.mjs';

const [dist, out, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick') ? 1 : 0;
const engine = flags.includes('--engine') ? flags[flags.indexOf('--engine') + 1] : 'chromium';
const suites = SUITES.map((s) => s.name).join(',');
// Sections 7 (first call in fresh workers, memory per key) and 8 (quorum certificates
// through pqverify/pool) in every engine: the page starts their workers itself.
const { errors, records, version } = await runBench(engine, dist, `?quick=${quick}&rounds=${quick ? 2 : 3}&suites=${suites}&autorun=1`);
if (errors.length) console.error(`page errors: ${errors.join('; ')}`);
writeFileSync(out, records);
console.error(`${engine} bench (${version}): ${records.trim().split('\n').length} records in ${out}`);
