// Cold start of each entry of the installed package: a fresh Node process imports it
// and verifies one ML-DSA-44 signature; the process reports the time from just before
// the import to the end of the first verify (performance.now()), and this script the
// median of N processes. `node cold-start.mjs [N]`.
import { spawnSync } from 'node:child_process';
import { fixture } from './chromium.mjs';

const runs = Number(process.argv[2] ?? 15);
const verify = `const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const ok = m.ml_dsa44.verify(unhex('${fixture.pure}'), unhex('${fixture.message}'), unhex('${fixture.publicKey}'));
if (!ok) process.exit(1);`;
const ENTRIES = [
  ['import "pqverify" (embedded, sync)', 'mjs', `const t0 = performance.now(); const m = await import('pqverify'); const t1 = performance.now();`],
  ['require("pqverify") (index.cjs)', 'cjs', `const t0 = performance.now(); const m = require('pqverify'); const t1 = performance.now();`],
  ['"pqverify/manual" + await init() (file read)', 'mjs', `const t0 = performance.now(); const m = await import('pqverify/manual'); await m.init(); const t1 = performance.now();`],
];

const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
export function measure() {
  return ENTRIES.map(([name, kind, load]) => {
    const totals = [];
    const imports = [];
    for (let i = 0; i < runs; i++) {
      const script = `${load}\n${verify}\nconst t2 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t0]));`;
      const args = kind === 'mjs' ? ['--input-type=module', '-e', script] : ['-e', script];
      const out = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: new URL('.', import.meta.url).pathname });
      if (out.status !== 0) throw new Error(`${name}: ${out.stderr}`);
      const [imported, total] = JSON.parse(out.stdout);
      imports.push(imported);
      totals.push(total);
    }
    return { entry: name, import_ms: median(imports), first_verify_ms: median(totals) };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Node ${process.version}, median of ${runs} fresh processes`);
  for (const r of measure()) console.log(`${r.entry}: import ${r.import_ms.toFixed(1)} ms, import + first verify ${r.first_verify_ms.toFixed(1)} ms`);
}
