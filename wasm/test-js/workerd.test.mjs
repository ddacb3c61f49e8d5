// Cloudflare's Workers runtime, workerd (the binary wrangler 4.164.0 pins, from the npm
// registry, pinned in runtimes/package.json): a Worker importing 'pqverify', bundled by
// `wrangler deploy --dry-run` (which resolves the "workerd" export condition to the
// entry that imports the .wasm as a module), served by `workerd serve` on 127.0.0.1,
// asked (the runtime cases, all 684 NIST ACVP sigVer cases, the bad-input suite), then stopped. Workers refuse to compile wasm from bytes at run time: the
// default entry bundled without that condition says so, naming the Workers entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

import { nobleFixtures as fixtures } from './noble-fixture.mjs';
import { EXPECTED, VERDICTS, here, runtimes } from './runtime-cases.mjs';

const node24 = join(runtimes, 'node24/bin/node');
const wrangler = join(runtimes, 'wrangler/bin/wrangler.js');
const workerd = join(runtimes, '@cloudflare/workerd-linux-64/bin/workerd');

// GET: the runtime cases; POST /acvp (the NIST ACVP cases as JSON): the cases whose
// verdict is not the expected one (acvp.mjs, the file every engine runs them with);
// POST /bad-input (an ML-DSA-44 fixture): the bad-input suite's failures (bad-input.mjs).
const WORKER = `import * as pq from 'pqverify';
import { wrongCases } from './acvp.mjs';
import { badInputFailures } from './bad-input.mjs';
export default {
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && path === '/acvp') {
      const cases = await request.json();
      return Response.json({ kernels: pq.kernels(), count: cases.length, wrong: wrongCases(pq, cases) });
    }
    if (request.method === 'POST' && path === '/bad-input') {
      return Response.json({ failures: badInputFailures(pq, await request.json()) });
    }
    ${VERDICTS}
    return Response.json({ kernels: pq.kernels(), verdicts });
  },
};
`;

const freePort = () => new Promise((ok, fail) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => ok(port));
  }).on('error', fail);
});

/**
 * Serves `modules` ([name, kind ("esModule" or "wasm"), file in `dir`]; the first is
 * the Worker) with `workerd serve` on a free port of 127.0.0.1, asks once per request
 * of `asks` (fetch options and a `path`; at most 30 s for the socket, 300 s per answer), stops it and
 * resolves to one `{ status, body }` per request.
 */
async function ask(dir, modules, asks) {
  assert.ok(existsSync(workerd), `workerd is missing at ${workerd}; cargo xtask test installs it (wasm/test-js/runtimes, npm ci)`);
  const port = await freePort();
  writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [${modules.map(([name, kind, file]) => `(name = "${name}", ${kind} = embed "${file}")`).join(', ')}],
  compatibilityDate = "2026-11-01",
);
`);
  let log = '';
  const server = spawn(workerd, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => { log += d; });
  server.stderr.on('data', (d) => { log += d; });
  try {
    let up = false;
    for (const until = Date.now() + 30_000; !up && Date.now() < until;) {
      try {
        await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD', signal: AbortSignal.timeout(20_000) });
        up = true;
      } catch {
        if (server.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    assert.ok(up, `workerd did not answer on 127.0.0.1:${port}: ${log}`);
    const answers = [];
    for (const { path = '/', ...options } of asks) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { ...options, signal: AbortSignal.timeout(300_000) });
      answers.push({ status: response.status, body: await response.text(), log });
    }
    return answers;
  } finally {
    server.kill('SIGTERM');
  }
}

/** A folder beside this file whose node_modules is the test project's (the installed package). */
function project() {
  const dir = mkdtempSync(join(here, '.tmp-workerd-'));
  symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

test('workerd: a Worker bundled by wrangler imports "pqverify" and verifies (true, and false when flipped); every NIST ACVP sigVer case (684) has its expected verdict; the bad-input suite passes', async () => {
  const acvp = process.env.PQVERIFY_ACVP_CASES;
  assert.ok(acvp, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  for (const [file, what] of [[node24, 'Node 24'], [wrangler, 'wrangler']]) {
    assert.ok(existsSync(file), `${what} is missing at ${file}; cargo xtask test installs it (wasm/test-js/runtimes, npm ci)`);
  }
  const dir = project();
  try {
    writeFileSync(join(dir, 'worker.js'), WORKER);
    for (const file of ['acvp.mjs', 'bad-input.mjs']) copyFileSync(join(here, file), join(dir, file));
    writeFileSync(join(dir, 'wrangler.toml'), 'name = "pqverify-test"\nmain = "worker.js"\ncompatibility_date = "2026-11-01"\n');
    // No account, no network: a dry run only bundles. Its home and metrics kept to itself.
    const env = { ...process.env, HOME: dir, WRANGLER_SEND_METRICS: 'false', CI: '1' };
    const bundled = spawnSync(node24, [wrangler, 'deploy', '--dry-run', '--outdir', 'out'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(bundled.status, 0, `wrangler deploy --dry-run: ${bundled.stdout}${bundled.stderr}${bundled.error ?? ''}`);
    const wasm = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `wrangler bundled one .wasm module (${wasm})`);
    const json = { method: 'POST', headers: { 'content-type': 'application/json' } };
    const fixture = fixtures.find((f) => f.suite === 'ML-DSA-44');
    const [r, a, b] = await ask(dir, [['worker.js', 'esModule', 'out/worker.js'], [wasm[0], 'wasm', `out/${wasm[0]}`]],
      [{}, { ...json, path: '/acvp', body: readFileSync(acvp) }, { ...json, path: '/bad-input', body: JSON.stringify(fixture) }]);
    assert.equal(r.status, 200, `${r.body}\n${r.log}`);
    assert.deepEqual(JSON.parse(r.body), { kernels: 'simd128', verdicts: EXPECTED });
    assert.equal(a.status, 200, `${a.body}\n${a.log}`);
    assert.deepEqual(JSON.parse(a.body), { kernels: 'simd128', count: 684, wrong: [] });
    assert.equal(b.status, 200, `${b.body}\n${b.log}`);
    assert.deepEqual(JSON.parse(b.body), { failures: [] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('workerd: the default entry bundled without the workerd condition gives a pqverify: Error naming the Workers entry', async () => {
  const dir = project();
  try {
    writeFileSync(join(dir, 'worker.js'), `import { ml_dsa44 } from 'pqverify';
export default {
  async fetch() {
    try {
      return new Response(String(ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312))));
    } catch (e) {
      return new Response(e.message);
    }
  },
};
`);
    // A bundler that knows nothing of Workers (the browser's conditions).
    await build({ entryPoints: [join(dir, 'worker.js')], bundle: true, format: 'esm', platform: 'browser', outfile: join(dir, 'out/worker.js'), logLevel: 'error' });
    const [r] = await ask(dir, [['worker.js', 'esModule', 'out/worker.js']], [{}]);
    assert.equal(r.status, 200, `${r.body}\n${r.log}`);
    assert.match(r.body, /^pqverify: this engine did not compile the embedded WebAssembly \(.*disallowed.*\).*"pqverify\/worker"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
