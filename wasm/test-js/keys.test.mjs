// Public keys in the platforms' formats: keys made and exported by OpenSSL 3.5
// (`node:crypto` in Node 24: SubjectPublicKeyInfo DER and PEM for all 15 suites, JWK for
// ML-DSA), by Node 24's WebCrypto and by Chromium's WebCrypto (raw-public, spki, jwk for
// ML-DSA) verify the platform's own signatures through pqverify, one-shot and prepared;
// a flipped signature is false; malformed encodings are errors that say what was wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import * as esbuild from 'esbuild';
import * as pq from 'pqverify';
import { SUITES } from 'pqverify/tables';
import { launch, serve } from './chromium.mjs';
import { ENGINE } from './engine.mjs';

const here = dirname(new URL(import.meta.url).pathname);
/** Node 24 (its OpenSSL has ML-DSA and SLH-DSA), installed by `cargo xtask` in runtimes/. */
const NODE24 = join(here, 'runtimes/node_modules/node24/bin/node');

const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const flip = (sig) => {
  const bad = sig.slice();
  bad[bad.length >> 1] ^= 0x10;
  return bad;
};

// Run in Node 24: every suite through node:crypto, ML-DSA also through WebCrypto.
const MAKE_KEYS = `
const crypto = require('node:crypto');
const suites = ${JSON.stringify(SUITES.map((s) => s.name))};
const msg = Buffer.from('a block hash signed by the platform');
const hex = (b) => Buffer.from(b).toString('hex');
(async () => {
  const out = { openssl: process.versions.openssl, node: process.version, openSsl: [], webCrypto: [] };
  for (const name of suites) {
    const { publicKey, privateKey } = crypto.generateKeyPairSync(name.toLowerCase());
    const row = { suite: name, msg: hex(msg), sig: hex(crypto.sign(null, msg, privateKey)),
      spki: hex(publicKey.export({ format: 'der', type: 'spki' })), pem: publicKey.export({ format: 'pem', type: 'spki' }) };
    if (name.startsWith('ML-DSA')) row.jwk = publicKey.export({ format: 'jwk' });
    out.openSsl.push(row);
  }
  for (const name of suites.filter((s) => s.startsWith('ML-DSA'))) {
    const k = await crypto.subtle.generateKey({ name }, true, ['sign', 'verify']);
    out.webCrypto.push({ suite: name, msg: hex(msg), sig: hex(await crypto.subtle.sign({ name }, k.privateKey, msg)),
      raw: hex(await crypto.subtle.exportKey('raw-public', k.publicKey)),
      spki: hex(await crypto.subtle.exportKey('spki', k.publicKey)),
      jwk: await crypto.subtle.exportKey('jwk', k.publicKey) });
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Every way a row's key can be given, with what pqverify must answer for it. */
function checkRow(row, label) {
  const suite = pq[SUITES.find((s) => s.name === row.suite).export];
  const [msg, sig] = [unhex(row.msg), unhex(row.sig)];
  const keys = [['spki', unhex(row.spki)]];
  if (row.raw) keys.push(['raw-public', unhex(row.raw)], ['raw', unhex(row.raw)]);
  if (row.jwk) keys.push(['jwk', row.jwk]);
  for (const [keyFormat, key] of keys) {
    const where = `${label} ${row.suite} ${keyFormat}`;
    assert.equal(suite.verify(sig, msg, key, { keyFormat }), true, where);
    assert.equal(suite.verify(flip(sig), msg, key, { keyFormat }), false, `${where}, flipped`);
    assert.equal(pq.verify(row.suite, sig, msg, key, { keyFormat }), true, `${where}, by name`);
    const prepared = suite.prepare(key, { keyFormat });
    assert.equal(prepared.verify(sig, msg), true, `${where}, prepared`);
    assert.equal(prepared.verify(flip(sig), msg), false, `${where}, prepared, flipped`);
    prepared.free();
  }
  // The SPKI's key is the raw key; OpenSSL's PEM is the same DER in base64.
  const der = unhex(row.spki);
  const raw = der.subarray(der.length - suite.lengths.publicKey);
  assert.equal(suite.verify(sig, msg, raw), true, `${label} ${row.suite} raw from the SPKI`);
  if (row.pem) {
    const body = row.pem.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s/g, '');
    assert.deepEqual(new Uint8Array(Buffer.from(body, 'base64')), der, `${label} ${row.suite} PEM is the DER`);
  }
}

test('keys from OpenSSL (node:crypto, Node 24) and Node 24\'s WebCrypto verify their signatures', () => {
  assert.ok(existsSync(NODE24), `Node 24 is missing at ${NODE24}; cargo xtask test installs it (wasm/test-js/runtimes)`);
  const out = spawnSync(NODE24, ['--no-warnings', '-e', MAKE_KEYS], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(out.status, 0, out.stderr);
  const made = JSON.parse(out.stdout);
  assert.equal(made.openSsl.length, 15);
  assert.equal(made.webCrypto.length, 3);
  for (const row of made.openSsl) checkRow(row, `OpenSSL ${made.openssl}`);
  for (const row of made.webCrypto) checkRow(row, `Node ${made.node} WebCrypto`);
});

// The page runs the WebAssembly build whatever the engine: once, in the native run.
if (ENGINE === 'native') test('keys from Chromium\'s WebCrypto verify its signatures through the package in the page', async () => {
  const dir = mkdtempSync(join(here, '.tmp-keys-'));
  try {
    writeFileSync(join(dir, 'page.js'), `
import { ml_dsa44, ml_dsa65, ml_dsa87 } from 'pqverify';
const suites = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const msg = new TextEncoder().encode('a transaction signed in the browser');
const results = [];
for (const [name, suite] of Object.entries(suites)) {
  const k = await crypto.subtle.generateKey({ name }, true, ['sign', 'verify']);
  const sig = new Uint8Array(await crypto.subtle.sign({ name }, k.privateKey, msg));
  const bad = sig.slice(); bad[100] ^= 1;
  const keys = {
    'raw-public': new Uint8Array(await crypto.subtle.exportKey('raw-public', k.publicKey)),
    spki: new Uint8Array(await crypto.subtle.exportKey('spki', k.publicKey)),
    jwk: await crypto.subtle.exportKey('jwk', k.publicKey),
  };
  for (const [keyFormat, key] of Object.entries(keys)) {
    const prepared = suite.prepare(key, { keyFormat });
    results.push([name, keyFormat, suite.verify(sig, msg, key, { keyFormat }), suite.verify(bad, msg, key, { keyFormat }),
      prepared.verify(sig, msg), await crypto.subtle.verify({ name }, k.publicKey, sig, msg)]);
  }
}
document.body.dataset.results = JSON.stringify(results);
document.body.dataset.done = '1';
`);
    await esbuild.build({ entryPoints: [join(dir, 'page.js')], bundle: true, format: 'esm', platform: 'browser',
      outfile: join(dir, 'dist/page.js'), absWorkingDir: dir, logLevel: 'warning' });
    writeFileSync(join(dir, 'dist/index.html'), '<!doctype html><body><script type="module" src="page.js"></script></body>');
    const server = await serve(join(dir, 'dist'));
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server.url);
      await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 30000 });
      assert.deepEqual(errors, []);
      const results = JSON.parse(await page.evaluate(() => document.body.dataset.results));
      assert.equal(results.length, 9);
      for (const [name, format, valid, flipped, prepared, platform] of results) {
        assert.deepEqual([valid, flipped, prepared, platform], [true, false, true, true], `${name} ${format}`);
      }
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('malformed or contradicting keys are errors that say what was wrong, never false', () => {
  const s = pq.ml_dsa44;
  const [sig, msg] = [new Uint8Array(2420), new Uint8Array(1)];
  const raw = new Uint8Array(1312).fill(7);
  const spki = (arc, key) => new Uint8Array([0x30, 0x82, 0x05, 0x32, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
    0x03, 0x04, 0x03, arc, 0x03, 0x82, 0x05, 0x21, 0x00, ...key]);
  const good = spki(0x11, raw);
  assert.equal(s.verify(sig, msg, good, { keyFormat: 'spki' }), false); // well formed, signature not valid
  const rangeError = (re) => (e) => e instanceof RangeError && re.test(e.message) && /^pqverify: /.test(e.message) && !/pqverify: pqverify:/.test(e.message);
  // Every truncation and a trailing byte.
  for (const cut of [0, 1, 2, 4, 12, 17, 21, 22, 1000, good.length - 1]) {
    assert.throws(() => s.verify(sig, msg, good.subarray(0, cut), { keyFormat: 'spki' }), rangeError(/malformed SubjectPublicKeyInfo/), `cut ${cut}`);
  }
  assert.throws(() => s.verify(sig, msg, new Uint8Array([...good, 0]), { keyFormat: 'spki' }), rangeError(/trailing bytes/));
  assert.throws(() => s.prepare(new Uint8Array([...good, 0]), { keyFormat: 'spki' }), rangeError(/trailing bytes/));
  // Another suite's OID, an unknown one, unused bits, a raw key given as SPKI.
  assert.throws(() => s.verify(sig, msg, spki(0x12, raw), { keyFormat: 'spki' }), rangeError(/holds a ML-DSA-65 key; expected a ML-DSA-44 key/));
  assert.throws(() => s.verify(sig, msg, spki(0x10, raw), { keyFormat: 'spki' }), rangeError(/algorithm is not ML-DSA/));
  const unused = good.slice();
  unused[21] = 1;
  assert.throws(() => s.verify(sig, msg, unused, { keyFormat: 'spki' }), rangeError(/unused bits/));
  assert.throws(() => s.verify(sig, msg, raw, { keyFormat: 'spki' }), rangeError(/expected a SEQUENCE/));
  // An SPKI given as raw: a length error (never guessed).
  assert.throws(() => s.verify(sig, msg, good), rangeError(/public key is 1334 bytes; ML-DSA-44 public keys are 1312 bytes/));
  // JWK: wrong kty, alg, a private part, another use, no verify op, bad base64url.
  const pub = Buffer.from(raw).toString('base64url');
  const jwk = (extra) => ({ kty: 'AKP', alg: 'ML-DSA-44', pub, ...extra });
  assert.equal(s.verify(sig, msg, jwk({ key_ops: ['verify'], ext: true, use: 'sig' }), { keyFormat: 'jwk' }), false);
  assert.throws(() => s.verify(sig, msg, jwk({ kty: 'OKP' }), { keyFormat: 'jwk' }), rangeError(/kty is "OKP"; ML-DSA keys have kty "AKP"/));
  assert.throws(() => s.verify(sig, msg, jwk({ alg: 'ML-DSA-65' }), { keyFormat: 'jwk' }), rangeError(/alg is "ML-DSA-65"; expected "ML-DSA-44"/));
  assert.throws(() => s.verify(sig, msg, jwk({ priv: 'AAAA' }), { keyFormat: 'jwk' }), rangeError(/private key/));
  assert.throws(() => s.verify(sig, msg, jwk({ use: 'enc' }), { keyFormat: 'jwk' }), rangeError(/use is "enc"/));
  assert.throws(() => s.verify(sig, msg, jwk({ key_ops: ['sign'] }), { keyFormat: 'jwk' }), rangeError(/key_ops does not include "verify"/));
  assert.throws(() => s.verify(sig, msg, jwk({ pub: `${pub}=` }), { keyFormat: 'jwk' }), rangeError(/not base64url/));
  assert.throws(() => s.verify(sig, msg, jwk({ pub: `+${pub.slice(1)}` }), { keyFormat: 'jwk' }), rangeError(/not base64url|bytes/));
  assert.throws(() => s.verify(sig, msg, jwk({ pub: pub.slice(0, -1) + 'x' }), { keyFormat: 'jwk' }), rangeError(/not canonical/));
  assert.throws(() => s.verify(sig, msg, jwk({ pub: pub.slice(0, -4) }), { keyFormat: 'jwk' }), rangeError(/public key is 1309 bytes/));
  assert.throws(() => s.verify(sig, msg, jwk({ pub: undefined }), { keyFormat: 'jwk' }), rangeError(/no "pub"/));
  assert.throws(() => s.verify(sig, msg, Object.create(jwk({})), { keyFormat: 'jwk' }), rangeError(/kty is undefined/)); // own properties only
  assert.throws(() => pq.slh_dsa_shake_128s.verify(new Uint8Array(7856), msg, jwk({ alg: 'SLH-DSA-SHAKE-128s' }), { keyFormat: 'jwk' }), rangeError(/no JWK encoding/));
  assert.throws(() => s.verify(sig, msg, JSON.stringify(jwk({})), { keyFormat: 'jwk' }), TypeError);
  // The option itself.
  assert.throws(() => s.verify(sig, msg, raw, { keyFormat: 'der' }), (e) => e instanceof TypeError && /keyFormat must be one of "raw", "raw-public", "spki", "jwk", got "der"/.test(e.message));
  assert.throws(() => s.prepare(raw, { context: new Uint8Array(1) }), TypeError);
});
