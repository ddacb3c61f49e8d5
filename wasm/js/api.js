// The @noble/post-quantum-shaped API of pqverify, over the wasm exports.
// Shared by the self-initialising entry (index.js) and the manual one (manual.js).

import { PREHASHES, SUITES } from './tables.js';

function describe(value) {
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

function bytes(name, value) {
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
function options(opts, allowed, where) {
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
  if ('externalMu' in snapshot && typeof snapshot.externalMu !== 'boolean') {
    throw new TypeError(`pqverify: option externalMu must be a boolean, got ${describe(snapshot.externalMu)}`);
  }
  return snapshot;
}

// The empty context: one shared array (a length-0 view cannot be written), so a call
// allocates nothing beyond what it copies into wasm memory.
const NO_BYTES = new Uint8Array(0);

function context(opts) {
  if (opts.context === undefined) return NO_BYTES;
  const ctx = bytes('context', opts.context);
  if (ctx.length > 255) throw new RangeError(`pqverify: context is ${ctx.length} bytes; a context is at most 255 bytes`);
  return ctx;
}

/** The id of a pre-hash given by name or as a @noble/hashes function (by its OID). */
function hashId(hash) {
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

function publicKey(pk, name, length) {
  bytes('publicKey', pk);
  if (pk.length !== length) {
    throw new RangeError(`pqverify: public key is ${pk.length} bytes; ${name} public keys are ${length} bytes`);
  }
  return pk;
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
 * Builds the public API over the wasm-bindgen exports of one build.
 * @param {() => object} bindings - returns the initialised wasm exports (throws if not initialised)
 * @param {() => number} memory - bytes of the module's linear memory
 */
export function makeApi(bindings, memory) {
  const api = {};

  function check(name, pkLen, sig, msg, pk) {
    bytes('signature', sig);
    bytes('message', msg);
    publicKey(pk, name, pkLen);
  }

  for (const { id, export: exportName, name, type, publicKey: pkLen, signature: sigLen, securityLevel } of SUITES) {
    const isMlDsa = type === 'ml-dsa';
    const lengths = Object.freeze({ publicKey: pkLen, signature: sigLen });
    // bindings() outside call(): not being initialised is an environment Error, not an
    // argument error. Suite, interface and pre-hash cross as numbers (`iface` names a
    // member of the glue's Interface enum; the ids come from tables.js).
    const run = (iface, hash, sig, msg, ctx, pk) => {
      const wasm = bindings();
      return call(() => wasm.verify(id, wasm.Interface[iface], hash, sig, msg, ctx, pk));
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
        const o = options(opts, ['context'], `${name} verify`);
        check(name, pkLen, sig, msg, pk);
        return run('Pure', 0, sig, msg, context(o), pk);
      },
      prehash(hash) {
        const h = hashId(hash);
        return Object.freeze({
          info: suite.info,
          securityLevel,
          lengths,
          verify(sig, msg, pk, opts) {
            const o = options(opts, ['context'], `${name} prehash verify`);
            check(name, pkLen, sig, msg, pk);
            return run('PreHash', h, sig, msg, context(o), pk);
          },
        });
      },
      internal: Object.freeze({
        info: Object.freeze({ type }),
        lengths,
        verify(sig, msg, pk, opts) {
          const o = options(opts, ['externalMu'], `${name} internal verify`);
          check(name, pkLen, sig, msg, pk);
          if (o.externalMu) {
            if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no external-mu interface (ML-DSA only)`);
            if (msg.length !== 64) throw new RangeError(`pqverify: external mu is ${msg.length} bytes; it must be exactly 64 bytes`);
            return run('Mu', 0, sig, msg, NO_BYTES, pk);
          }
          return run('Internal', 0, sig, msg, NO_BYTES, pk);
        },
      }),
      prepare(pk) {
        publicKey(pk, name, pkLen);
        const wasm = bindings();
        let key = call(() => new wasm.PreparedKey(id, pk));
        const live = () => {
          if (key === null) throw new Error(`pqverify: this ${name} prepared key was freed`);
          return key;
        };
        const runPrepared = (iface, hash, sig, msg, ctx) => call(() => live().verify(wasm.Interface[iface], hash, sig, msg, ctx));
        const prepared = {
          suite: name,
          verify(sig, msg, opts) {
            const o = options(opts, ['context'], `${name} prepared verify`);
            bytes('signature', sig);
            bytes('message', msg);
            return runPrepared('Pure', 0, sig, msg, context(o));
          },
          prehash(hash) {
            const h = hashId(hash);
            return Object.freeze({
              verify(sig, msg, opts) {
                const o = options(opts, ['context'], `${name} prepared prehash verify`);
                bytes('signature', sig);
                bytes('message', msg);
                return runPrepared('PreHash', h, sig, msg, context(o));
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
                return runPrepared('Mu', 0, sig, msg, NO_BYTES);
              }
              return runPrepared('Internal', 0, sig, msg, NO_BYTES);
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

  const byName = new Map(SUITES.map((s) => [s.name.toUpperCase(), api[s.export]]));

  /** Verifies with the suite named `suiteName` (a FIPS name such as "SLH-DSA-SHAKE-128s"). */
  api.verify = function verify(suiteName, sig, msg, pk, opts) {
    if (typeof suiteName !== 'string') throw new TypeError(`pqverify: suite name must be a string, got ${describe(suiteName)}`);
    const suite = byName.get(suiteName.toUpperCase());
    if (!suite) throw new RangeError(`pqverify: unknown suite "${suiteName}"; expected one of ${SUITES.map((s) => s.name).join(', ')}`);
    const o = options(opts, ['context', 'prehash'], 'verify');
    const rest = o.context === undefined ? undefined : { context: o.context };
    return o.prehash === undefined ? suite.verify(sig, msg, pk, rest) : suite.prehash(o.prehash).verify(sig, msg, pk, rest);
  };

  /** Every suite with its FIPS name and byte lengths. */
  api.suites = function suites() {
    return SUITES.map(({ name, export: exportName, publicKey, signature }) => ({ name, export: exportName, publicKey, signature }));
  };

  /** Bytes of the wasm module's linear memory (it grows by 64 KiB pages, never shrinks). */
  api.memoryBytes = function memoryBytes() {
    return memory();
  };

  /** Which wasm build is running: "simd128" or "portable". */
  api.backend = function backend() {
    return bindings().backend();
  };

  return Object.freeze(api);
}
