// The platforms' own verifiers as ways of the benchmark suite: WebCrypto (browsers,
// Node) and node:crypto (OpenSSL, in Node), asked the package's two questions. Known
// key (`webcrypto`, `webcrypto-inflight`, `node-crypto`): the key object is made once,
// before the run, as an application holding it would (beside `pqverify-prepared`).
// One-shot (`webcrypto-import`, `node-crypto-import`): the raw public key is imported
// and the signature verified on every call (beside `pqverify`, which decodes the raw
// key on every call). Message, signature and raw key are passed as bytes on every call,
// copied by the platform as by the package. What an engine has is found at run time: a
// suite it lacks has no key, so no record.

import { spki } from '../../testkit/js/spki.mjs';
import { WAY } from './names.mjs';
import { unhex } from './records.mjs';

/** How many WebCrypto verifications the `webcrypto-inflight` way has in flight. */
export const IN_FLIGHT = 128;

/** node:crypto's key type of a suite: `ml-dsa-44`, `slh-dsa-sha2-128s`. */
const nodeKeyType = (suite) => suite.toLowerCase();

/**
 * The keys each platform verifier can use, by suite name: `webcrypto` (CryptoKeys from
 * `subtle.importKey('raw-public', …)`, ML-DSA where the engine has it) and `nodeCrypto`
 * (KeyObjects from `createPublicKey` of the raw key, each suite OpenSSL has). A suite
 * counts as present only when the platform also verifies its valid fixture signature.
 * `webcryptoFormat` is the format the engine imports raw keys in (`raw-public`; `spki`,
 * the key wrapped, where the engine lacks it), found on the first suite.
 * @param fixtures - the parsed fixture file (`{ suites: [{ suite, pk, msg, sig }] }`, hex)
 * @param subtle - a SubtleCrypto, or null
 * @param nodeCrypto - the `node:crypto` module, or null
 */
export async function platformKeys(fixtures, { subtle = null, nodeCrypto = null } = {}) {
  const webcrypto = new Map();
  const node = new Map();
  let webcryptoFormat = null;
  for (const f of fixtures.suites) {
    const [pk, msg, sig] = [unhex(f.pk), unhex(f.msg), unhex(f.sig)];
    if (subtle && f.suite.startsWith('ML-DSA')) {
      for (const format of webcryptoFormat ? [webcryptoFormat] : ['raw-public', 'spki']) {
        try {
          const data = format === 'spki' ? spki(f.suite, pk) : pk;
          const key = await subtle.importKey(format, data, { name: f.suite }, false, ['verify']);
          if ((await subtle.verify({ name: f.suite }, key, sig, msg)) === true) {
            webcrypto.set(f.suite, key);
            webcryptoFormat = format;
            break;
          }
        } catch {
          // The engine lacks this algorithm (or this format): no webcrypto way for it.
        }
      }
    }
    if (nodeCrypto) {
      try {
        const key = nodeCrypto.createPublicKey(nodeRawKey(f.suite, pk));
        if (nodeCrypto.verify(null, msg, key, sig) === true) node.set(f.suite, key);
      } catch {
        // This OpenSSL lacks the suite.
      }
    }
  }
  return { webcrypto, nodeCrypto: node, subtle, crypto: nodeCrypto, webcryptoFormat };
}

/** `createPublicKey`'s options for a raw public key of `suite`. */
const nodeRawKey = (suite, pk) => ({ key: Buffer.from(pk), format: 'raw-public', asymmetricKeyType: nodeKeyType(suite) });

/** Every verdict of a batch, as one: the same for all, or an error. */
const oneVerdict = (verdicts) => {
  if (verdicts.every((v) => v === verdicts[0])) return verdicts[0];
  throw new Error('the verdicts of one batch differ');
};

/**
 * The platform ways over keys from {@link platformKeys}: `webcrypto` (each verify
 * awaited before the next), `webcrypto-inflight` ({@link IN_FLIGHT} verifications
 * started at once, timed per signature: the throughput of the engine's thread pool),
 * `node-crypto` (synchronous `crypto.verify`), and the one-shot `webcrypto-import`
 * (`importKey` of the raw key, then `verify`, awaited, per call) and
 * `node-crypto-import` (`createPublicKey` of the raw key, then `verify`, per call).
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
    const format = keys.webcryptoFormat;
    ways.push({
      name: WAY.webcryptoImport,
      bind(suite, pk, msg, sig) {
        if (!keys.webcrypto.has(suite)) return null;
        // The key's bytes as the engine imports them, made outside the timing.
        const data = format === 'spki' ? spki(suite, pk) : pk;
        return async () => verify(suite, await subtle.importKey(format, data, { name: suite }, false, ['verify']), msg, sig);
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
    ways.push({
      name: WAY.nodeCryptoImport,
      bind(suite, pk, msg, sig) {
        if (!keys.nodeCrypto.has(suite)) return null;
        return () => crypto.verify(null, msg, crypto.createPublicKey(nodeRawKey(suite, pk)), sig);
      },
    });
  }
  return ways;
}
