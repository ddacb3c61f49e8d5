// The @noble/post-quantum-shaped API of pqverify, over the wasm exports.
// Shared by the auto-initialising entry (index.js) and the manual one (manual.js).

/** Every suite: export name, FIPS name, public-key and signature bytes. */
const SUITES = [
  ['ml_dsa44', 'ML-DSA-44', 1312, 2420],
  ['ml_dsa65', 'ML-DSA-65', 1952, 3309],
  ['ml_dsa87', 'ML-DSA-87', 2592, 4627],
  ['slh_dsa_sha2_128s', 'SLH-DSA-SHA2-128s', 32, 7856],
  ['slh_dsa_sha2_128f', 'SLH-DSA-SHA2-128f', 32, 17088],
  ['slh_dsa_sha2_192s', 'SLH-DSA-SHA2-192s', 48, 16224],
  ['slh_dsa_sha2_192f', 'SLH-DSA-SHA2-192f', 48, 35664],
  ['slh_dsa_sha2_256s', 'SLH-DSA-SHA2-256s', 64, 29792],
  ['slh_dsa_sha2_256f', 'SLH-DSA-SHA2-256f', 64, 49856],
  ['slh_dsa_shake_128s', 'SLH-DSA-SHAKE-128s', 32, 7856],
  ['slh_dsa_shake_128f', 'SLH-DSA-SHAKE-128f', 32, 17088],
  ['slh_dsa_shake_192s', 'SLH-DSA-SHAKE-192s', 48, 16224],
  ['slh_dsa_shake_192f', 'SLH-DSA-SHAKE-192f', 48, 35664],
  ['slh_dsa_shake_256s', 'SLH-DSA-SHAKE-256s', 64, 29792],
  ['slh_dsa_shake_256f', 'SLH-DSA-SHAKE-256f', 64, 49856],
];

/** Approved pre-hash functions by ACVP name, with the last arc of their NIST OID. */
const HASHES = [
  ['SHA2-256', 0x01], ['SHA2-384', 0x02], ['SHA2-512', 0x03], ['SHA2-224', 0x04],
  ['SHA2-512/224', 0x05], ['SHA2-512/256', 0x06], ['SHA3-224', 0x07], ['SHA3-256', 0x08],
  ['SHA3-384', 0x09], ['SHA3-512', 0x0a], ['SHAKE-128', 0x0b], ['SHAKE-256', 0x0c],
];
const OID_PREFIX = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];

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

function context(opts) {
  if (opts.context === undefined) return new Uint8Array(0);
  const ctx = bytes('context', opts.context);
  if (ctx.length > 255) throw new RangeError(`pqverify: context is ${ctx.length} bytes; a context is at most 255 bytes`);
  return ctx;
}

/** The ACVP name of a pre-hash given by name or as a @noble/hashes function (by its OID). */
function hashName(hash) {
  if (typeof hash === 'string') {
    const found = HASHES.find(([name]) => name.toUpperCase() === hash.toUpperCase());
    if (!found) throw new RangeError(`pqverify: unknown pre-hash "${hash}"; expected one of ${HASHES.map(([n]) => n).join(', ')}`);
    return found[0];
  }
  if ((typeof hash === 'function' || (typeof hash === 'object' && hash !== null)) && isBytes(hash.oid)) {
    const oid = hash.oid;
    const prefixOk = oid.length === 11 && OID_PREFIX.every((b, i) => oid[i] === b);
    const found = prefixOk && HASHES.find(([, arc]) => arc === oid[10]);
    if (!found) throw new RangeError('pqverify: the hash function\'s OID is not one of the approved pre-hash functions');
    return found[0];
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

/** Errors thrown by the wasm side are about argument values; one "pqverify:" prefix. */
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
 */
export function makeApi(bindings) {
  const api = {};

  function check(name, pkLen, sig, msg, pk) {
    bytes('signature', sig);
    bytes('message', msg);
    publicKey(pk, name, pkLen);
  }

  for (const [exportName, name, pkLen, sigLen] of SUITES) {
    const isMlDsa = name.startsWith('ML-DSA');
    const run = (iface, hash, sig, msg, ctx, pk) => call(() => bindings().verify(name, iface, hash, sig, msg, ctx, pk));

    const suite = {
      /** Byte lengths of this suite's public key and signature. */
      lengths: Object.freeze({ publicKey: pkLen, signature: sigLen }),
      /** FIPS name, e.g. "ML-DSA-65". */
      name,
      verify(sig, msg, pk, opts) {
        const o = options(opts, ['context'], `${name} verify`);
        check(name, pkLen, sig, msg, pk);
        return run('pure', '', sig, msg, context(o), pk);
      },
      prehash(hash) {
        const h = hashName(hash);
        return Object.freeze({
          lengths: suite.lengths,
          verify(sig, msg, pk, opts) {
            const o = options(opts, ['context'], `${name} prehash verify`);
            check(name, pkLen, sig, msg, pk);
            return run('prehash', h, sig, msg, context(o), pk);
          },
        });
      },
      internal: Object.freeze({
        lengths: Object.freeze({ publicKey: pkLen, signature: sigLen }),
        verify(sig, msg, pk, opts) {
          const o = options(opts, ['externalMu'], `${name} internal verify`);
          check(name, pkLen, sig, msg, pk);
          if (o.externalMu) {
            if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no external-mu interface (ML-DSA only)`);
            if (msg.length !== 64) throw new RangeError(`pqverify: external mu is ${msg.length} bytes; it must be exactly 64 bytes`);
            return run('mu', '', sig, msg, new Uint8Array(0), pk);
          }
          return run('internal', '', sig, msg, new Uint8Array(0), pk);
        },
      }),
      prepare(pk) {
        publicKey(pk, name, pkLen);
        let key = call(() => new (bindings().PreparedKey)(name, pk));
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
            return runPrepared('pure', '', sig, msg, context(o));
          },
          prehash(hash) {
            const h = hashName(hash);
            return Object.freeze({
              verify(sig, msg, opts) {
                const o = options(opts, ['context'], `${name} prepared prehash verify`);
                bytes('signature', sig);
                bytes('message', msg);
                return runPrepared('prehash', h, sig, msg, context(o));
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
                return runPrepared('mu', '', sig, msg, new Uint8Array(0));
              }
              return runPrepared('internal', '', sig, msg, new Uint8Array(0));
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

  const byName = new Map(SUITES.map(([exportName, name]) => [name.toUpperCase(), api[exportName]]));

  /** Verifies with the suite named `suiteName` (a FIPS name such as "SLH-DSA-SHAKE-128s"). */
  api.verify = function verify(suiteName, sig, msg, pk, opts) {
    if (typeof suiteName !== 'string') throw new TypeError(`pqverify: suite name must be a string, got ${describe(suiteName)}`);
    const suite = byName.get(suiteName.toUpperCase());
    if (!suite) throw new RangeError(`pqverify: unknown suite "${suiteName}"; expected one of ${SUITES.map((s) => s[1]).join(', ')}`);
    const o = options(opts, ['context', 'prehash'], 'verify');
    const rest = o.context === undefined ? undefined : { context: o.context };
    return o.prehash === undefined ? suite.verify(sig, msg, pk, rest) : suite.prehash(o.prehash).verify(sig, msg, pk, rest);
  };

  /** Every suite with its FIPS name and byte lengths. */
  api.suites = function suites() {
    return SUITES.map(([exportName, name, publicKey, signature]) => ({ name, export: exportName, publicKey, signature }));
  };

  /** Which wasm build is running: "simd128" or "portable". */
  api.backend = function backend() {
    return bindings().backend();
  };

  return Object.freeze(api);
}
