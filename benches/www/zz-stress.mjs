import { openInEngine } from '../../testkit/js/engines.mjs';
const r = await openInEngine(process.env.ENGINE ?? 'webkit', 'dist', '/zz.html?' + process.argv[2], '{ out: window.OUT }', { timeoutMs: 15 * 60 * 1000 });
const bad = r.out.filter((l) => !/ ok /.test(l));
console.log(r.out.length, 'runs;', bad.length, 'bad'); for (const l of bad.slice(0, 20)) console.log(l);
