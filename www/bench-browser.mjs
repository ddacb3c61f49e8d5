// The benchmark suite in headless Chromium, for `cargo xtask bench`: runs the page
// and writes the browser's records.   node bench-browser.mjs DIST OUT [--quick]
import { writeFileSync } from 'node:fs';
import { runPage } from './browser.mjs';

const [dist, out, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick') ? 1 : 0;
const suites = 'ML-DSA-44,ML-DSA-65,ML-DSA-87,SLH-DSA-SHA2-128s,SLH-DSA-SHA2-128f,SLH-DSA-SHA2-192s,SLH-DSA-SHA2-192f,SLH-DSA-SHA2-256s,SLH-DSA-SHA2-256f,SLH-DSA-SHAKE-128s,SLH-DSA-SHAKE-128f,SLH-DSA-SHAKE-192s,SLH-DSA-SHAKE-192f,SLH-DSA-SHAKE-256s,SLH-DSA-SHAKE-256f';
const { server, browser, errors, records } = await runPage(dist, `?quick=${quick}&rounds=${quick ? 2 : 3}&suites=${suites}&autorun=1`);
await browser.close();
server.close();
if (errors.length) console.error(`page errors: ${errors.join('; ')}`);
writeFileSync(out, records);
console.error(`browser bench: ${records.trim().split('\n').length} records in ${out}`);
