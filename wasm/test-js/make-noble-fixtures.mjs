// Writes fixtures/noble.json.gz: signatures made by @noble/post-quantum for all 15
// suites — pure without context, pure with a context, and pre-hash — so the Node
// tests need not re-run noble's slow SLH-DSA signing (seconds per signature).
// Deterministic: fixed seeds, deterministic signing. Run: node make-noble-fixtures.mjs
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as mldsa from '@noble/post-quantum/ml-dsa.js';
import * as slhdsa from '@noble/post-quantum/slh-dsa.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { sha3_256, shake256_64 } from '@noble/hashes/sha3.js';
import { SUITES } from './suites.mjs';

const hex = (b) => Buffer.from(b).toString('hex');
// Pre-hash per suite, strong enough for noble's own category check.
const prehashFor = (name) => (name.includes('256') || name.endsWith('87') ? [sha512, 'SHA2-512'] : name.includes('192') || name.endsWith('65') ? [shake256_64, 'SHAKE-256'] : name.includes('SHAKE') ? [sha3_256, 'SHA3-256'] : [sha256, 'SHA2-256']);

const out = [];
for (const { export: exportName, name } of SUITES) {
  const s = mldsa[exportName] ?? slhdsa[exportName];
  const seed = new Uint8Array(s.lengths.seed).map((_, i) => (i * 31 + name.length) & 0xff);
  const { secretKey, publicKey } = s.keygen(seed);
  const msg = new TextEncoder().encode(`noble fixture for ${name}`);
  const context = new TextEncoder().encode('pqverify/test');
  const [hash, hashName] = prehashFor(name);
  const t0 = performance.now();
  const entry = {
    suite: name,
    publicKey: hex(publicKey),
    message: hex(msg),
    context: hex(context),
    pure: hex(s.sign(msg, secretKey, { extraEntropy: false })),
    pureWithContext: hex(s.sign(msg, secretKey, { context, extraEntropy: false })),
    prehash: hashName,
    prehashWithContext: hex(s.prehash(hash).sign(msg, secretKey, { context, extraEntropy: false })),
  };
  out.push(entry);
  console.error(`${name}: ${(performance.now() - t0).toFixed(0)} ms`);
}
writeFileSync(new URL('./fixtures/noble.json.gz', import.meta.url), gzipSync(JSON.stringify(out), { level: 9 }));
