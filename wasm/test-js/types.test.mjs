// The package's types under `tsc --strict` with only ES lib types (no DOM): a consumer
// written against noble's types compiles with pqverify in its place, both entries and the
// CommonJS require type-check, and a misuse is a type error (so the check is real).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';

const here = dirname(new URL(import.meta.url).pathname);
const tsc = join(here, 'node_modules/.bin/tsc');

const CONSUMER = `
import { ml_dsa44 as nobleMlDsa44 } from '@noble/post-quantum/ml-dsa.js';
import { slh_dsa_shake_128s as nobleSlh } from '@noble/post-quantum/slh-dsa.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { ml_dsa44, slh_dsa_shake_128s, verify, suites, kernels, verifyMany, prepareValidators, createDualVerifier, type Kernels, type CertificateResult, type DualStats } from 'pqverify';
import { init, initSync, ml_dsa65 } from 'pqverify/manual';
import { SUITES } from 'pqverify/tables';

// A wallet's verifier type, written against noble; pqverify's suites fill it.
type NobleVerifier = Pick<typeof nobleMlDsa44, 'verify' | 'lengths' | 'info' | 'securityLevel'>;
const verifiers: NobleVerifier[] = [nobleMlDsa44, ml_dsa44];
const slh: Pick<typeof nobleSlh, 'verify' | 'lengths' | 'info' | 'securityLevel'> = slh_dsa_shake_128s;

export function check(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): boolean {
  const context = new Uint8Array([1]);
  const a: boolean = verifiers.every((v) => v.verify(sig, msg, pk, { context }));
  const b: boolean = ml_dsa44.prehash(sha256).verify(sig, msg, pk) && ml_dsa44.prehash('SHA2-256').verify(sig, msg, pk);
  const c: boolean = ml_dsa44.internal.verify(sig, msg, pk, { externalMu: true });
  const d: boolean = verify('ML-DSA-65', sig, msg, pk, { prehash: 'SHAKE-128' }) && slh.verify(sig, msg, pk);
  const key = ml_dsa65.prepare(pk);
  const e: boolean = key.verify(sig, msg) && key.prehash('SHA3-256').verify(sig, msg);
  key.free();
  const level: number = ml_dsa44.securityLevel + ml_dsa44.lengths.publicKey;
  const family: 'ml-dsa' | 'slh-dsa' = ml_dsa44.info.type;
  const names: string[] = suites().map((s) => s.name).concat(SUITES.map((s) => s.export));
  const which: Kernels = kernels();
  return a && b && c && d && e && level > 0 && family === 'ml-dsa' && names.length > 0 && which !== 'portable';
}

// The server calls: a batch, a validator set's certificate, the dual check.
export async function serve(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): Promise<number> {
  const verdicts: boolean[] = await verifyMany([{ suite: 'ML-DSA-44', signature: sig, message: msg, publicKey: pk }], { threads: 2 });
  const set = await prepareValidators('ML-DSA-44', [pk, pk], { keyFormat: 'raw' });
  const result: CertificateResult = await set.verify(msg, [{ validator: 1, signature: sig }], { context: new Uint8Array(0), threads: 1 });
  set.release();
  const dual = createDualVerifier({ liboqs: '/usr/lib/liboqs.so', log: 'disagreements.jsonl', mode: 'shadow', auditRejections: 1, keyCache: 16 });
  const stats: DualStats = dual.stats();
  return verdicts.length + result.valid + stats.disagreements + Number(dual.verify('ML-DSA-44', sig, msg, pk, { context: msg }));
}

export async function load(bytes: Uint8Array): Promise<void> {
  initSync(bytes);
  await init();
  await init('https://wallet.example/pqverify_wasm_bg.wasm');
}
`;

const CJS_CONSUMER = `
import pq = require('pqverify');
import mlDsa = require('pqverify/ml-dsa');
import slhDsa = require('pqverify/slh-dsa');
export const ok: boolean = pq.ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(0), new Uint8Array(1312))
  && mlDsa.ml_dsa87.verify(new Uint8Array(4627), new Uint8Array(0), new Uint8Array(2592), { keyFormat: 'raw' })
  && slhDsa.slh_dsa_sha2_128s.verify(new Uint8Array(7856), new Uint8Array(0), new Uint8Array(32));
`;

// The per-scheme and baseline entries, and public keys in the platforms' formats.
const ENTRIES_CONSUMER = `
import { ml_dsa44, ml_dsa65, kernels, type AkpJsonWebKey, type KeyFormat } from 'pqverify/ml-dsa';
import { slh_dsa_shake_128s } from 'pqverify/slh-dsa';
import * as legacy from 'pqverify/baseline';

export function check(sig: Uint8Array, msg: Uint8Array, spki: Uint8Array, jwk: AkpJsonWebKey): boolean {
  const format: KeyFormat = 'spki';
  const a: boolean = ml_dsa44.verify(sig, msg, spki, { keyFormat: format, context: new Uint8Array(1) });
  const b: boolean = ml_dsa65.prepare(jwk, { keyFormat: 'jwk' }).verify(sig, msg);
  const c: boolean = slh_dsa_shake_128s.prehash('SHAKE-128').verify(sig, msg, spki, { keyFormat: 'spki' });
  const d: boolean = legacy.verify('ML-DSA-44', sig, msg, spki, { keyFormat: 'raw-public' }) && legacy.kernels() === 'portable';
  return a && b && c && d && kernels() !== 'portable';
}
`;

// pqverify/ox's slot object is what ox's engine registry takes (ox's own types need the
// DOM library: they name CryptoKey and fetch).
const OX_CONSUMER = `
import { Engine, MlDsa44 as OxMlDsa44 } from 'ox';
import { MlDsa44 } from 'pqverify/ox';
Engine.set({ MlDsa44: MlDsa44.engine() });
export const ok: boolean = OxMlDsa44.verify({ payload: '0x00', publicKey: new Uint8Array(1312), signature: new Uint8Array(2420) });
`;

function typecheck(files, lib = ['es2022']) {
  const dir = mkdtempSync(join(here, '.tmp-tsc-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, target: 'es2022', lib, types: [],
        module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: false,
      },
      files: Object.keys(files),
    }));
    return spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('tsc --strict: a noble-typed consumer, every entry, key formats, the tables, and require()', () => {
  const out = typecheck({ 'consumer.mts': CONSUMER, 'entries.mts': ENTRIES_CONSUMER, 'cjs.cts': CJS_CONSUMER });
  assert.equal(out.status, 0, out.stdout + out.stderr);
});

test("tsc --strict: pqverify/ox's slot in ox's Engine.set", () => {
  const out = typecheck({ 'ox.mts': OX_CONSUMER }, ['es2022', 'dom']);
  assert.equal(out.status, 0, out.stdout + out.stderr);
});

test('tsc --strict rejects a misuse (an unknown pre-hash name, a string as bytes)', () => {
  const out = typecheck({ 'bad.mts': `import { ml_dsa44 } from 'pqverify';
ml_dsa44.prehash('MD5');
ml_dsa44.verify('sig', new Uint8Array(0), new Uint8Array(0));
ml_dsa44.verify(new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), { keyFormat: 'der' });
` });
  assert.notEqual(out.status, 0);
  assert.match(out.stdout, /bad\.mts\(4,\d+\): error TS2322/);
  assert.match(out.stdout, /bad\.mts\(2,\d+\): error TS2345/);
  assert.match(out.stdout, /bad\.mts\(3,\d+\): error TS2345/);
});
