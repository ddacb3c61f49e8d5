// Old and new wasm-simd builds in one Node process, timed in alternating blocks.
const fs = require('fs');
const old = require('/tmp/wasmab-old/pkg/pqverify_wasm.js');
// The new build: $NEW, or the checkout's build in /tmp/wasmab-main.
const neu = require(process.env.NEW || '/tmp/wasmab-main/pkg/pqverify_wasm.js');
const fx = JSON.parse(fs.readFileSync('/work/main/benches/fixtures/fixtures.json'));
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const rounds = Number(process.argv[2] || 11);
const only = process.argv.slice(3);
function block(f) {
  const start = process.hrtime.bigint();
  let n = 0;
  while (Number(process.hrtime.bigint() - start) < 2e7) { if (!f()) throw new Error('invalid'); n++; }
  return Number(process.hrtime.bigint() - start) / n;
}
const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
fx.suites.forEach((s, id) => {
  if (only.length && !only.some((o) => s.suite.includes(o))) return;
  const [pk, msg, sig] = [hex(s.pk), hex(s.msg), hex(s.sig)];
  const empty = new Uint8Array(0);
  const ways = [];
  for (const m of [old, neu]) {
    const key = new m.PreparedKey(id, 0, pk);
    ways.push({ one: () => m.verify(id, 0, 0, 0, sig, msg, empty, pk), prep: () => key.verify(0, 0, sig, msg, empty) });
  }
  for (const w of ['one', 'prep']) {
    const [o, n] = [ways[0][w], ways[1][w]];
    block(o); block(n);
    const ov = [], nv = [], r = [];
    for (let i = 0; i < rounds; i++) {
      let a, b;
      if (i % 2) { b = block(n); a = block(o); } else { a = block(o); b = block(n); }
      ov.push(a); nv.push(b); r.push(b / a);
    }
    console.log(`${s.suite.padEnd(19)} ${w.padEnd(5)} old ${median(ov).toFixed(0).padStart(8)} ns new ${median(nv).toFixed(0).padStart(8)} ns new/old ${median(r).toFixed(3)}`);
  }
});
