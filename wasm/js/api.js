// The @noble/post-quantum-shaped API of pqverify, over the wasm exports. Shared by
// every entry: the per-scheme ones (ml-dsa.js, slh-dsa.js), the default one (index.js),
// the baseline build (baseline.js) and the manual one (manual.js).

import { INTERFACES, PREHASHES, SUITES } from './tables.js';

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an Array';
  if (typeof value === 'object') return `a ${value.constructor?.name ?? 'object'}`;
  return `a ${typeof value}`;
}

/** Whether `value` is a Uint8Array of any realm (vm contexts, iframes, jsdom test runners). */
function isBytes(value) {
  return value instanceof Uint8Array
    || (ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]');
}

export function bytes(name, value) {
  if (!isBytes(value)) {
    throw new TypeError(`pqverify: ${name} must be a Uint8Array, got ${describe(value)}`);
  }
  return value;
}

/**
 * The options as a null-prototype snapshot of their own enumerable properties:
 * nothing is read through the prototype chain (a polluted Object.prototype cannot
 * change a verdict), `undefined` values count as absent, unknown keys are refused.
 */
export function options(opts, allowed, where) {
  const snapshot = Object.create(null);
  if (opts === undefined) return snapshot;
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts) || isBytes(opts)) {
    throw new TypeError(`pqverify: ${where} options must be an object, got ${describe(opts)}`);
  }
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`pqverify: unknown option "${key}" for ${where}; allowed: ${allowed.join(', ') || 'none'}`);
    }
    if (opts[key] !== undefined) snapshot[key] = opts[key];
  }
  if ('keyFormat' in snapshot && !KEY_FORMATS.includes(snapshot.keyFormat)) {
    throw new TypeError(`pqverify: option keyFormat must be one of ${KEY_FORMATS.map((f) => `"${f}"`).join(', ')}, got ${typeof snapshot.keyFormat === 'string' ? `"${snapshot.keyFormat}"` : describe(snapshot.keyFormat)}`);
  }
  if ('externalMu' in snapshot && typeof snapshot.externalMu !== 'boolean') {
    throw new TypeError(`pqverify: option externalMu must be a boolean, got ${describe(snapshot.externalMu)}`);
  }
  return snapshot;
}

// The empty context: one shared array (a length-0 view cannot be written), so a call
// allocates nothing beyond what it copies into wasm memory.
const NO_BYTES = new Uint8Array(0);

export function context(opts) {
  if (opts.context === undefined) return NO_BYTES;
  const ctx = bytes('context', opts.context);
  if (ctx.length > 255) throw new RangeError(`pqverify: context is ${ctx.length} bytes; a context is at most 255 bytes`);
  return ctx;
}

/** The id of a pre-hash given by name or as a @noble/hashes function (by its OID). */
export function hashId(hash) {
  if (typeof hash === 'string') {
    const found = PREHASHES.find(({ name }) => name.toUpperCase() === hash.toUpperCase());
    if (!found) throw new RangeError(`pqverify: unknown pre-hash "${hash}"; expected one of ${PREHASHES.map(({ name }) => name).join(', ')}`);
    return found.id;
  }
  if ((typeof hash === 'function' || (typeof hash === 'object' && hash !== null)) && isBytes(hash.oid)) {
    const oid = hash.oid;
    const found = PREHASHES.find((h) => h.oid.length === oid.length && h.oid.every((b, i) => oid[i] === b));
    if (!found) throw new RangeError('pqverify: the hash function\'s OID is not one of the approved pre-hash functions');
    return found.id;
  }
  throw new TypeError(`pqverify: a pre-hash must be a name such as "SHA2-256" or a @noble/hashes hash function, got ${describe(hash)}`);
}

// Public-key encodings, as WebCrypto names them: the raw FIPS encoding ('raw', or
// WebCrypto's 'raw-public'), an X.509 SubjectPublicKeyInfo ('spki', decoded strictly in
// the wasm module by pqverify-core) and WebCrypto's JSON Web Key ('jwk', ML-DSA).
const KEY_FORMATS = ['raw', 'raw-public', 'spki', 'jwk'];

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Strict base64url (RFC 4648 §5, no padding, as JWK uses it): bytes, or a RangeError. */
function base64url(text, what) {
  if (typeof text !== 'string') throw new TypeError(`pqverify: ${what} must be a base64url string, got ${describe(text)}`);
  if (text.length % 4 === 1) throw new RangeError(`pqverify: ${what} is not base64url: ${text.length} characters cannot encode whole bytes`);
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = BASE64URL.indexOf(text[i]);
    if (v < 0) throw new RangeError(`pqverify: ${what} is not base64url: character ${JSON.stringify(text[i])} at ${i} (no padding, '-' and '_' for 62 and 63)`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) throw new RangeError(`pqverify: ${what} is not canonical base64url: its last character has bits set past the end of the data`);
  return out;
}

/**
 * The raw key of a WebCrypto JWK (kty "AKP", draft-ietf-cose-dilithium): own
 * properties only; kty, alg and pub must say this suite's public key, and nothing
 * present may contradict them (a private part, another use or no "verify" operation).
 */
function jwkKey(jwk, name, isMlDsa) {
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk) || isBytes(jwk)) {
    throw new TypeError(`pqverify: a "jwk" public key must be an object such as WebCrypto's exportKey("jwk") gives, got ${describe(jwk)}`);
  }
  if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no JWK encoding (WebCrypto's "AKP" keys are ML-DSA); use "raw" or "spki"`);
  const own = (key) => (Object.prototype.hasOwnProperty.call(jwk, key) ? jwk[key] : undefined);
  const kty = own('kty');
  if (kty !== 'AKP') throw new RangeError(`pqverify: JWK kty is ${JSON.stringify(kty)}; ML-DSA keys have kty "AKP"`);
  const alg = own('alg');
  if (alg !== name) throw new RangeError(`pqverify: JWK alg is ${JSON.stringify(alg)}; expected "${name}"`);
  if (own('priv') !== undefined) throw new RangeError('pqverify: the JWK holds a private key ("priv"); pass only the public key');
  const use = own('use');
  if (use !== undefined && use !== 'sig') throw new RangeError(`pqverify: JWK use is ${JSON.stringify(use)}; a signature key has use "sig"`);
  const ops = own('key_ops');
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) {
    throw new RangeError('pqverify: JWK key_ops does not include "verify"');
  }
  const pub = own('pub');
  if (pub === undefined) throw new RangeError('pqverify: the JWK has no "pub" (the base64url public key)');
  return base64url(pub, 'JWK pub');
}

/**
 * The public key as the wasm side takes it: [the glue's KeyFormat member, bytes]. Raw
 * keys are checked for length here, before the module is needed; SubjectPublicKeyInfo
 * is decoded in wasm (pqverify-core).
 */
export function publicKey(pk, format, name, length, isMlDsa) {
  if (format === 'spki') return ['Spki', bytes('publicKey', pk)];
  const raw = format === 'jwk' ? jwkKey(pk, name, isMlDsa) : bytes('publicKey', pk);
  if (raw.length !== length) {
    throw new RangeError(`pqverify: public key is ${raw.length} bytes; ${name} public keys are ${length} bytes`);
  }
  return ['Raw', raw];
}

/** Errors thrown by the wasm side are about argument values (RangeError); one "pqverify:" prefix. */
function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw e;
    const message = String(e?.message ?? e).replace(/^pqverify: /, '');
    throw new RangeError(`pqverify: ${message}`);
  }
}

/**
 * Builds the suites of one wasm build over its wasm-bindgen exports.
 * @param {() => object} bindings - returns the initialised wasm exports (throws if not initialised)
 * @param {'ml-dsa' | 'slh-dsa' | undefined} family - the family the build holds (both when undefined)
 * @returns an object with one frozen suite per export name (`ml_dsa44`, …)
 */
export function makeSuites(bindings, family) {
  const api = {};

  for (const { id, export: exportName, name, type, publicKey: pkLen, signature: sigLen, securityLevel } of SUITES) {
    if (family !== undefined && type !== family) continue;
    const isMlDsa = type === 'ml-dsa';
    const lengths = Object.freeze({ publicKey: pkLen, signature: sigLen });
    // bindings() outside call(): not being initialised is an environment Error, not an
    // argument error. Suite, interface and pre-hash cross as numbers (the ids come
    // from tables.js, generated from pqverify-core).
    const run = (iface, hash, sig, msg, ctx, pk, o) => {
      bytes('signature', sig);
      bytes('message', msg);
      const [format, key] = publicKey(pk, o.keyFormat, name, pkLen, isMlDsa);
      const wasm = bindings();
      return call(() => wasm.verify(id, wasm.KeyFormat[format], iface, hash, sig, msg, ctx, key));
    };

    const suite = {
      /** As noble: the family. */
      info: Object.freeze({ type }),
      /** As noble: the security strength in bits (128, 192 or 256). */
      securityLevel,
      /** Byte lengths of this suite's public key and signature. */
      lengths,
      /** FIPS name, e.g. "ML-DSA-65". */
      name,
      verify(sig, msg, pk, opts) {
        const o = options(opts, ['context', 'keyFormat'], `${name} verify`);
        return run(INTERFACES.pure, 0, sig, msg, context(o), pk, o);
      },
      prehash(hash) {
        const h = hashId(hash);
        return Object.freeze({
          info: suite.info,
          securityLevel,
          lengths,
          verify(sig, msg, pk, opts) {
            const o = options(opts, ['context', 'keyFormat'], `${name} prehash verify`);
            return run(INTERFACES.prehash, h, sig, msg, context(o), pk, o);
          },
        });
      },
      internal: Object.freeze({
        info: Object.freeze({ type }),
        lengths,
        verify(sig, msg, pk, opts) {
          const o = options(opts, ['externalMu', 'keyFormat'], `${name} internal verify`);
          if (o.externalMu) {
            bytes('message', msg);
            if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no external-mu interface (ML-DSA only)`);
            if (msg.length !== 64) throw new RangeError(`pqverify: external mu is ${msg.length} bytes; it must be exactly 64 bytes`);
            return run(INTERFACES['external-mu'], 0, sig, msg, NO_BYTES, pk, o);
          }
          return run(INTERFACES.internal, 0, sig, msg, NO_BYTES, pk, o);
        },
      }),
      prepare(pk, opts) {
        const o = options(opts, ['keyFormat'], `${name} prepare`);
        const [format, raw] = publicKey(pk, o.keyFormat, name, pkLen, isMlDsa);
        const wasm = bindings();
        let key = call(() => new wasm.PreparedKey(id, wasm.KeyFormat[format], raw));
        const live = () => {
          if (key === null) throw new Error(`pqverify: this ${name} prepared key was freed`);
          return key;
        };
        const runPrepared = (iface, hash, sig, msg, ctx) => call(() => live().verify(iface, hash, sig, msg, ctx));
        const prepared = {
          suite: name,
          verify(sig, msg, opts) {
            const o = options(opts, ['context'], `${name} prepared verify`);
            bytes('signature', sig);
            bytes('message', msg);
            return runPrepared(INTERFACES.pure, 0, sig, msg, context(o));
          },
          prehash(hash) {
            const h = hashId(hash);
            return Object.freeze({
              verify(sig, msg, opts) {
                const o = options(opts, ['context'], `${name} prepared prehash verify`);
                bytes('signature', sig);
                bytes('message', msg);
                return runPrepared(INTERFACES.prehash, h, sig, msg, context(o));
              },
            });
          },
          internal: Object.freeze({
            verify(sig, msg, opts) {
              const o = options(opts, ['externalMu'], `${name} prepared internal verify`);
              bytes('signature', sig);
              bytes('message', msg);
              if (o.externalMu) {
                if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no external-mu interface (ML-DSA only)`);
                if (msg.length !== 64) throw new RangeError(`pqverify: external mu is ${msg.length} bytes; it must be exactly 64 bytes`);
                return runPrepared(INTERFACES['external-mu'], 0, sig, msg, NO_BYTES);
              }
              return runPrepared(INTERFACES.internal, 0, sig, msg, NO_BYTES);
            },
          }),
          /** Releases the expanded key now (otherwise it is released when garbage-collected). */
          free() {
            if (key !== null) {
              key.free();
              key = null;
            }
          },
        };
        return Object.freeze(prepared);
      },
    };
    api[exportName] = Object.freeze(suite);
  }

  return api;
}

/** FIPS name in upper case → the suite's row in tables.js; made on first use. */
let byName = null;

/** The tables.js row of the suite named `suiteName` (a FIPS name, any case), or a TypeError/RangeError. */
export function suiteByName(suiteName) {
  if (typeof suiteName !== 'string') throw new TypeError(`pqverify: suite name must be a string, got ${describe(suiteName)}`);
  byName ??= new Map(SUITES.map((s) => [s.name.toUpperCase(), s]));
  const suite = byName.get(suiteName.toUpperCase());
  if (!suite) throw new RangeError(`pqverify: unknown suite "${suiteName}"; expected one of ${SUITES.map((s) => s.name).join(', ')}`);
  return suite;
}

/**
 * `verify(suiteName, …)` of an entry: verifies with the suite named `suiteName` (a FIPS
 * name such as "SLH-DSA-SHAKE-128s") among `suitesByExport` (the entry's suites).
 */
export function verifyByName(suitesByExport, suiteName, sig, msg, pk, opts) {
  const suite = suitesByExport[suiteByName(suiteName).export];
  if (!suite) throw new RangeError(`pqverify: this entry has no ${suiteName}`);
  const o = options(opts, ['context', 'prehash', 'keyFormat'], 'verify');
  const rest = { context: o.context, keyFormat: o.keyFormat };
  return o.prehash === undefined ? suite.verify(sig, msg, pk, rest) : suite.prehash(o.prehash).verify(sig, msg, pk, rest);
}

/** Every suite with its FIPS name, export name and byte lengths. */
export function suites() {
  return SUITES.map(({ name, export: exportName, publicKey, signature }) => ({ name, export: exportName, publicKey, signature }));
}

/**
 * The API of an entry holding every suite in one instance (pqverify/baseline,
 * pqverify/manual): the suites, `verify(suiteName, …)`, `suites()`, `memoryBytes()` and
 * `backend()`.
 * @param {{ linearMemoryBytes: () => number }} instance - the entry's wasm instance
 * @param {() => object} bindings - its initialised exports (initialising them if the entry embeds its build)
 */
export function makeEntry(instance, bindings) {
  const all = makeSuites(bindings);
  return Object.freeze({
    ...all,
    suites,
    verify: (suiteName, sig, msg, pk, opts) => verifyByName(all, suiteName, sig, msg, pk, opts),
    memoryBytes: () => instance.linearMemoryBytes(),
    backend: () => bindings().backend(),
  });
}
