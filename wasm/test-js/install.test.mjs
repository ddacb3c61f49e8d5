// The package installed as users install it: `pqverify` and its platform packages (the
// tarballs cargo xtask packed, named by PQVERIFY_TEST_TARBALLS) published to a local npm
// registry (Verdaccio, pinned in registry/, on 127.0.0.1, no uplink: nothing comes from
// elsewhere), then `npm install pqverify` in a fresh project picks the platform package
// by os/cpu/libc and the native build answers; `--omit=optional` leaves it out and
// WebAssembly gives the same answers; pnpm and `bun install` pick it as npm does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPECTED, VERDICTS, runtimes } from './runtime-cases.mjs';

const here = new URL('.', import.meta.url).pathname;
const registryTools = join(here, 'registry/node_modules');
const SCRIPT = `import * as pq from 'pqverify';${VERDICTS}\nconsole.log(JSON.stringify({ verdicts, kernels: pq.kernels() }));`;
const X64 = process.arch === 'x64' ? 'pqverify-linux-x64-gnu' : 'pqverify-linux-arm64-gnu';
const OTHER = process.arch === 'x64' ? 'pqverify-linux-arm64-gnu' : 'pqverify-linux-x64-gnu';

let dir;
let registry;
let server;

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** Runs `cmd args` in `cwd`; its standard output (it must succeed). */
function sh(cmd, args, cwd, env = {}) {
  const out = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...env } });
  assert.equal(out.status, 0, `${cmd} ${args.join(' ')} in ${cwd}: ${out.stdout}\n${out.stderr}${out.error ?? ''}`);
  return out.stdout;
}

/** A fresh project folder with its own npm settings (this registry, its token, its own cache). */
function project(name) {
  const p = join(dir, name);
  mkdirSync(p);
  writeFileSync(join(p, 'package.json'), JSON.stringify({ name: `app-${name}`, version: '1.0.0', private: true, type: 'module' }));
  writeFileSync(join(p, 'app.mjs'), SCRIPT);
  writeFileSync(join(p, '.npmrc'), `registry=${registry}/\n${registry.replace(/^http:/, '')}/:_authToken=${token}\ncache=${join(p, '.npm-cache')}\n`);
  return p;
}

/** What `node app.mjs` prints in project `p`. */
const runApp = (p, node = process.execPath) => JSON.parse(sh(node, ['app.mjs'], p, { PQVERIFY_ENGINE: '' }).trim());

let token;

before(async () => {
  const tarballs = (process.env.PQVERIFY_TEST_TARBALLS ?? '').split(':').filter(Boolean);
  assert.equal(tarballs.length, 3, `PQVERIFY_TEST_TARBALLS names ${tarballs.length} tarballs: cargo xtask test packs pqverify and its two platform packages and sets it`);
  for (const t of tarballs) assert.ok(existsSync(t), t);
  const verdaccio = join(registryTools, 'verdaccio/bin/verdaccio');
  assert.ok(existsSync(verdaccio), `${verdaccio} is missing: cargo xtask test installs it (wasm/test-js/registry, npm ci)`);
  // Outside this project: Node would find its node_modules (and its platform package) from a folder inside it.
  dir = mkdtempSync(join(tmpdir(), 'pqverify-install-'));
  const port = await freePort();
  registry = `http://127.0.0.1:${port}`;
  writeFileSync(join(dir, 'config.yaml'), `storage: ${join(dir, 'storage')}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
log: { type: stdout, format: pretty, level: warn }
`);
  // Verdaccio 6 runs on Node ≥ 22: the pinned Node 24.
  server = spawn(join(runtimes, 'node24/bin/node'), [verdaccio, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  server.stderr.on('data', (d) => { said += d; });
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${registry}/-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    assert.ok(tries < 200, `Verdaccio did not start within 20 s: ${said}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const user = await fetch(`${registry}/-/user/org.couchdb.user:tester`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'tester', password: 'pqverify-tests', type: 'user', roles: [] }),
  });
  assert.ok(user.ok, `adding a Verdaccio user: ${user.status}`);
  ({ token } = await user.json());
  const publisher = project('publisher');
  for (const t of tarballs) sh('npm', ['publish', t], publisher);
});

after(() => {
  server?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('npm install pqverify: the platform package of this os/cpu/libc, and the native build answers', () => {
  const p = project('npm');
  sh('npm', ['install', 'pqverify', '--no-audit', '--no-fund'], p);
  const installed = readdirSync(join(p, 'node_modules'));
  assert.ok(installed.includes(X64), `installed: ${installed}`);
  assert.ok(!installed.includes(OTHER), `installed: ${installed}`);
  const r = runApp(p);
  assert.deepEqual(r.verdicts, EXPECTED);
  assert.match(r.kernels, /^native-/);
});

test('npm install pqverify --omit=optional: no platform package, WebAssembly, the same answers', () => {
  const p = project('omit');
  sh('npm', ['install', 'pqverify', '--omit=optional', '--no-audit', '--no-fund'], p);
  assert.deepEqual(readdirSync(join(p, 'node_modules')).filter((n) => n.startsWith('pqverify')), ['pqverify']);
  assert.deepEqual(runApp(p), { verdicts: EXPECTED, kernels: 'simd128' });
});

test('pnpm add pqverify: the platform package beside it in pnpm\'s store layout; the native build answers', () => {
  const p = project('pnpm');
  sh(process.execPath, [join(registryTools, 'pnpm/bin/pnpm.cjs'), 'add', 'pqverify', `--store-dir=${join(p, '.pnpm-store')}`], p);
  const store = readdirSync(join(p, 'node_modules/.pnpm'));
  assert.ok(store.some((n) => n.startsWith(`${X64}@`)), `pnpm store: ${store}`);
  assert.ok(!store.some((n) => n.startsWith(`${OTHER}@`)), `pnpm store: ${store}`);
  const r = runApp(p);
  assert.deepEqual(r.verdicts, EXPECTED);
  assert.match(r.kernels, /^native-/);
});

test('bun install: the platform package, and the native build answers in Bun and in Node', () => {
  const p = project('bun');
  const bun = join(runtimes, '.bin/bun');
  writeFileSync(join(p, 'bunfig.toml'), `[install]\nregistry = "${registry}/"\ncache = "${join(p, '.bun-cache')}"\n`);
  sh(bun, ['add', 'pqverify'], p);
  const installed = readdirSync(join(p, 'node_modules'));
  assert.ok(installed.includes(X64), `installed: ${installed}`);
  assert.ok(!installed.includes(OTHER), `installed: ${installed}`);
  for (const r of [JSON.parse(sh(bun, ['run', 'app.mjs'], p, { PQVERIFY_ENGINE: '' }).trim()), runApp(p)]) {
    assert.deepEqual(r.verdicts, EXPECTED);
    assert.match(r.kernels, /^native-/);
  }
});
