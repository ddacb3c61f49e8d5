// The @noble/post-quantum-shaped API of pqverify, over the wasm exports. Shared by
// every entry: the per-scheme ones (ml-dsa.js, slh-dsa.js), the default one (index.js),
// the baseline build (baseline.js) and the manual one (manual.js).

import { bytes, describe, isBytes } from './check.js';
import { jwkKey } from './jwk.js';
import { INTERFACES, PREHASHES, SUITES } from './tables.js';

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
  if ('keyFormat' in snapshot) checkKeyFormat(snapshot.keyFormat);
  if ('externalMu' in snapshot && typeof snapshot.externalMu !== 'boolean') {
    throw new TypeError(`pqverify: option externalMu must be a boolean, got ${describe(snapshot.externalMu)}`);
  }
  return snapshot;
}

// The empty context: one shared array (a length-0 view cannot be written), so a call
// allocates nothing beyond what it copies into wasm memory.
const NO_BYTES = new Uint8Array(0);

/** The context option's bytes (empty when absent); its length is pqverify-core's to check. */
export function context(opts) {
  return opts.context === undefined ? NO_BYTES : bytes('context', opts.context);
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

/** The keyFormat option's check: one of KEY_FORMATS, or a TypeError. */
export function checkKeyFormat(value) {
  if (!KEY_FORMATS.includes(value)) {
    throw new TypeError(`pqverify: option keyFormat must be one of ${KEY_FORMATS.map((f) => `"${f}"`).join(', ')}, got ${typeof value === 'string' ? `"${value}"` : describe(value)}`);
  }
}

/**
 * The public key as the wasm side takes it: [the glue's KeyFormat member, bytes]. A JWK
 * is decoded here (JSON); lengths and SubjectPublicKeyInfo are pqverify-core's to check.
 */
export function publicKey(pk, format, name, isMlDsa) {
  if (format === 'spki') return ['Spki', bytes('publicKey', pk)];
  return ['Raw', format === 'jwk' ? jwkKey(pk, name, isMlDsa) : bytes('publicKey', pk)];
}

/**
 * The key under which each suite object carries its build's `bindings()`, for the
 * pool's workers (pool-serve.js), which call the low-level exports. A registered
 * symbol: the same in every bundled copy of this file.
 */
export const BINDINGS = Symbol.for('pqverify.bindings');

/**
 * `e`, thrown by an engine, as the package throws it, with one "pqverify:" prefix: the
 * engines' errors are about argument values (RangeError), but for the native build's
 * failures that are not (code GenericFailure: a verifier thread, the dual check's
 * verifiers or log), which stay Errors.
 */
export function packageError(e) {
  if (e instanceof TypeError || e instanceof RangeError) return e;
  const message = String(e?.message ?? e).replace(/^pqverify: /, '');
  if (e?.code === 'GenericFailure') return new Error(`pqverify: ${message}`, { cause: e });
  return new RangeError(`pqverify: ${message}`);
}

/** `fn()`, its errors as the package throws them (packageError). */
export function call(fn) {
  try {
    return fn();
  } catch (e) {
    throw packageError(e);
  }
}

/**
 * The three ways to verify (`verify`, `prehash(hash).verify`, `internal.verify`) over one
 * checked call. `keyed`: the calls take a public key after the message, and the option
 * keyFormat (one-shot); otherwise the key is already inside (prepared).
 * `reach(iface, hash, sig, msg, ctx, pk, o)` reaches the module after the argument types
 * are checked here; values (the lengths of keys, contexts and μ, the interfaces a suite
 * has) are pqverify-core's, with its error text (`call`).
 */
function ways(where, keyed, reach) {
  const keyOptions = keyed ? ['keyFormat'] : [];
  const checked = (iface, hash, sig, msg, ctx, pk, o) => {
    bytes('signature', sig);
    bytes('message', msg);
    return reach(iface, hash, sig, msg, ctx, pk, o);
  };
  // (sig, msg, pk, opts) one-shot, (sig, msg, opts) prepared.
  const split = (rest) => (keyed ? rest : [undefined, rest[0]]);
  return {
    verify(sig, msg, ...rest) {
      const [pk, opts] = split(rest);
      const o = options(opts, ['context', ...keyOptions], `${where} verify`);
      return checked(INTERFACES.pure, 0, sig, msg, context(o), pk, o);
    },
    prehash(hash) {
      const h = hashId(hash);
      return (sig, msg, ...rest) => {
        const [pk, opts] = split(rest);
        const o = options(opts, ['context', ...keyOptions], `${where} prehash verify`);
        return checked(INTERFACES.prehash, h, sig, msg, context(o), pk, o);
      };
    },
    internal(sig, msg, ...rest) {
      const [pk, opts] = split(rest);
      const o = options(opts, ['externalMu', ...keyOptions], `${where} internal verify`);
      return checked(o.externalMu ? INTERFACES['external-mu'] : INTERFACES.internal, 0, sig, msg, NO_BYTES, pk, o);
    },
  };
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
    const info = Object.freeze({ type });
    // bindings() outside call(): not being initialised is an environment Error, not an
    // argument error. Suite, interface and pre-hash cross as numbers (the ids come
    // from tables.js, generated from pqverify-core).
    const oneShot = ways(name, true, (iface, hash, sig, msg, ctx, pk, o) => {
      const [format, key] = publicKey(pk, o.keyFormat, name, isMlDsa);
      const wasm = bindings();
      return call(() => wasm.verify(id, wasm.KeyFormat[format], iface, hash, sig, msg, ctx, key));
    });

    const suite = {
      /** As noble: the family. */
      info,
      /** As noble: the security strength in bits (128, 192 or 256). */
      securityLevel,
      /** Byte lengths of this suite's public key and signature. */
      lengths,
      /** FIPS name, e.g. "ML-DSA-65". */
      name,
      verify: oneShot.verify,
      prehash: (hash) => Object.freeze({ info, securityLevel, lengths, verify: oneShot.prehash(hash) }),
      internal: Object.freeze({ info, lengths, verify: oneShot.internal }),
      prepare(pk, opts) {
        const o = options(opts, ['keyFormat'], `${name} prepare`);
        const [format, raw] = publicKey(pk, o.keyFormat, name, isMlDsa);
        const wasm = bindings();
        let key = call(() => new wasm.PreparedKey(id, wasm.KeyFormat[format], raw));
        const live = () => {
          if (key === null) throw new Error(`pqverify: this ${name} prepared key was freed`);
          return key;
        };
        const prepared = ways(`${name} prepared`, false, (iface, hash, sig, msg, ctx) => {
          const k = live();
          return call(() => k.verify(iface, hash, sig, msg, ctx));
        });
        return Object.freeze({
          suite: name,
          verify: prepared.verify,
          prehash: (hash) => Object.freeze({ verify: prepared.prehash(hash) }),
          internal: Object.freeze({ verify: prepared.internal }),
          /** Releases the expanded key now (otherwise it is released when garbage-collected). */
          free() {
            if (key !== null) {
              key.free();
              key = null;
            }
          },
        });
      },
    };
    suite[BINDINGS] = bindings;
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
