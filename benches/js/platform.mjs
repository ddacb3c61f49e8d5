// The platforms' own verifiers as ways of the benchmark suite: WebCrypto (browsers,
// Node) and node:crypto (OpenSSL, in Node). Each key is made once, before the run, the
// way an application holding a key object would (as `pqverify-prepared` holds a
// prepared key; `pqverify` decodes the raw key on every call); message and signature
// are passed as bytes on every call, copied by the platform as by the package. What an
// engine has is found at run time: a suite it lacks has no key, so no record.

import { SUITES } from '../../wasm/js/tables.js';
import { WAY } from './names.mjs';
import { unhex } from './records.mjs';

/** How many WebCrypto verifications the `webcrypto-inflight` way has in flight. */
export const IN_FLIGHT = 128;

/** A DER length octet string. */
const derLength = (n) => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff]);

/** The X.509 SubjectPublicKeyInfo of a raw public key of `suite` (OID from the tables). */
export function spki(suite, pk) {
  const { oid } = SUITES.find((s) => s.name === suite);
  const alg = [0x30, oid.length, ...oid];
  const bits = [0x03, ...derLength(pk.length + 1), 0];
  const head = [0x30, ...derLength(alg.length + bits.length + pk.length), ...alg, ...bits];
  const der = new Uint8Array(head.length + pk.length);
  der.set(head);
  der.set(pk, head.length);
  return der;
}

/**
 * The keys each platform verifier can use, by suite name: `webcrypto` (CryptoKeys from
 * `subtle.importKey('spki', …)`, ML-DSA where the engine has it) and `nodeCrypto`
 * (KeyObjects from `createPublicKey`, each suite OpenSSL has). A suite counts as
 * present only when the platform also verifies its valid fixture signature.
 * @param fixtures - the parsed fixture file (`{ suites: [{ suite, pk, msg, sig }] }`, hex)
 * @param subtle - a SubtleCrypto, or null
 * @param nodeCrypto - the `node:crypto` module, or null
 */
export async function platformKeys(fixtures, { subtle = null, nodeCrypto = null } = {}) {
  const webcrypto = new Map();
  const node = new Map();
  for (const f of fixtures.suites) {
    const [pk, msg, sig] = [unhex(f.pk), unhex(f.msg), unhex(f.sig)];
    const der = spki(f.suite, pk);
    if (subtle && f.suite.startsWith('ML-DSA')) {
      try {
        const key = await subtle.importKey('spki', der, { name: f.suite }, false, ['verify']);
        if ((await subtle.verify({ name: f.suite }, key, sig, msg)) === true) webcrypto.set(f.suite, key);
      } catch {
        // The engine lacks this algorithm: no webcrypto way for it.
      }
    }
    if (nodeCrypto) {
      try {
        const key = nodeCrypto.createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' });
        if (nodeCrypto.verify(null, msg, key, sig) === true) node.set(f.suite, key);
      } catch {
        // This OpenSSL lacks the suite.
      }
    }
  }
  return { webcrypto, nodeCrypto: node, subtle, crypto: nodeCrypto };
}

/** Every verdict of a batch, as one: the same for all, or an error. */
const oneVerdict = (verdicts) => {
  if (verdicts.every((v) => v === verdicts[0])) return verdicts[0];
  throw new Error('the verdicts of one batch differ');
};

/**
 * The platform ways over keys from {@link platformKeys}: `webcrypto` (each verify
 * awaited before the next), `webcrypto-inflight` ({@link IN_FLIGHT} verifications
 * started at once, timed per signature: the throughput of the engine's thread pool)
 * and `node-crypto` (synchronous `crypto.verify`).
 */
export function platformWays(keys) {
  const ways = [];
  if (keys.webcrypto.size) {
    const { subtle } = keys;
    const verify = (suite, key, msg, sig) => subtle.verify({ name: suite }, key, sig, msg);
    ways.push({
      name: WAY.webcrypto,
      bind(suite, _pk, msg, sig) {
        const key = keys.webcrypto.get(suite);
        return key ? () => verify(suite, key, msg, sig) : null;
      },
    });
    ways.push({
      name: WAY.webcryptoInflight,
      batch: IN_FLIGHT,
      bind(suite, _pk, msg, sig) {
        const key = keys.webcrypto.get(suite);
        if (!key) return null;
        return () => Promise.all(Array.from({ length: IN_FLIGHT }, () => verify(suite, key, msg, sig))).then(oneVerdict);
      },
    });
  }
  if (keys.nodeCrypto.size) {
    const { crypto } = keys;
    ways.push({
      name: WAY.nodeCrypto,
      bind(suite, _pk, msg, sig) {
        const key = keys.nodeCrypto.get(suite);
        return key ? () => crypto.verify(null, msg, key, sig) : null;
      },
    });
  }
  return ways;
}
