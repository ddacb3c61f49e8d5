// The benchmark suite in headless Chromium, for `cargo xtask bench`: runs the page
// and writes the browser's records.   node bench-browser.mjs DIST OUT [--quick]
import { writeFileSync } from 'node:fs';
import { SUITES } from 'pqverify/tables';
import { runPage } from './browser.mjs';

const [dist, out, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick') ? 1 : 0;
const suites = SUITES.map((s) => s.name).join(',');
const { server, browser, errors, records } = await runPage(dist, `?quick=${quick}&rounds=${quick ? 2 : 3}&suites=${suites}&autorun=1`);
await browser.close();
server.close();
if (errors.length) console.error(`page errors: ${errors.join('; ')}`);
writeFileSync(out, records);
console.error(`browser bench: ${records.trim().split('\n').length} records in ${out}`);
