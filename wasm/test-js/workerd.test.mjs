// Cloudflare's Workers runtime, workerd (the binary wrangler 4.164.0 pins, from the npm
// registry, pinned in runtimes/package.json): a Worker importing 'pqverify', bundled by
// `wrangler deploy --dry-run` (which resolves the "workerd" export condition to the
// entry that imports the .wasm as a module), served by `workerd serve` on 127.0.0.1,
// asked once, then stopped. Workers refuse to compile wasm from bytes at run time: the
// default entry bundled without that condition says so, naming the Workers entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';

import { EXPECTED, VERDICTS, here, runtimes } from './runtime-cases.mjs';

const node24 = join(runtimes, 'node24/bin/node');
const wrangler = join(runtimes, 'wrangler/bin/wrangler.js');
const workerd = join(runtimes, '@cloudflare/workerd-linux-64/bin/workerd');

const WORKER = `import * as pq from 'pqverify';
export default {
  async fetch() {
    ${VERDICTS}
    return Response.json({ backend: pq.backend(), verdicts });
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
 * the Worker) with `workerd serve` on a free port of 127.0.0.1, asks once (at most 30 s
 * for the socket), stops it and resolves to `{ status, body }`.
 */
async function askOnce(dir, modules) {
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
    let response = null;
    for (const until = Date.now() + 30_000; response === null && Date.now() < until;) {
      try {
        response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(20_000) });
      } catch {
        if (server.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    assert.ok(response, `workerd did not answer on 127.0.0.1:${port}: ${log}`);
    return { status: response.status, body: await response.text(), log };
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

test('workerd: a Worker bundled by wrangler imports "pqverify" and verifies (true, and false when flipped)', async () => {
  for (const [file, what] of [[node24, 'Node 24'], [wrangler, 'wrangler']]) {
    assert.ok(existsSync(file), `${what} is missing at ${file}; cargo xtask test installs it (wasm/test-js/runtimes, npm ci)`);
  }
  const dir = project();
  try {
    writeFileSync(join(dir, 'worker.js'), WORKER);
    writeFileSync(join(dir, 'wrangler.toml'), 'name = "pqverify-test"\nmain = "worker.js"\ncompatibility_date = "2026-11-01"\n');
    // No account, no network: a dry run only bundles. Its home and metrics kept to itself.
    const env = { ...process.env, HOME: dir, WRANGLER_SEND_METRICS: 'false', CI: '1' };
    const bundled = spawnSync(node24, [wrangler, 'deploy', '--dry-run', '--outdir', 'out'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(bundled.status, 0, `wrangler deploy --dry-run: ${bundled.stdout}${bundled.stderr}${bundled.error ?? ''}`);
    const wasm = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `wrangler bundled one .wasm module (${wasm})`);
    const r = await askOnce(dir, [['worker.js', 'esModule', 'out/worker.js'], [wasm[0], 'wasm', `out/${wasm[0]}`]]);
    assert.equal(r.status, 200, `${r.body}\n${r.log}`);
    assert.deepEqual(JSON.parse(r.body), { backend: 'simd128', verdicts: EXPECTED });
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
    const r = await askOnce(dir, [['worker.js', 'esModule', 'out/worker.js']]);
    assert.equal(r.status, 200, `${r.body}\n${r.log}`);
    assert.match(r.body, /^pqverify: this engine did not compile the embedded WebAssembly \(.*disallowed.*\).*"pqverify\/worker"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
