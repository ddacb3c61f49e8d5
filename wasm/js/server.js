// The server calls of the main entries: verifyMany (many signatures, any suites, one
// promise of verdicts in order), prepareValidators (a quorum certificate's validator set,
// its keys prepared once) and createDualVerifier (every signature checked by two
// independent verifiers), over one engine:
//   - the native build (native.js): batches and certificates on its thread pool, off the
//     JavaScript thread; the dual check is pqverify-native's own;
//   - WebAssembly (wasmEngine below): the same answers and errors, computed in order on
//     the calling thread (pqverify/pool spreads work over workers there); no dual check.
// Argument types and names are checked here, once; values by pqverify-core in the engine.

import { BINDINGS, call, options, publicKey, suiteByName, context } from './api.js';
import { bytes, describe } from './check.js';
import { FORMAT, certificateSignatures, request, writeItem } from './items.js';
import { INTERFACES, SUITES } from './tables.js';

/** The threads option: undefined (the engine's default: every core) or an integer ≥ 1. */
function threads(o, where) {
  if (o.threads === undefined) return 0;
  if (!Number.isInteger(o.threads) || o.threads < 1) {
    throw new RangeError(`pqverify: option threads of ${where} must be an integer ≥ 1, got ${typeof o.threads === 'number' ? o.threads : describe(o.threads)}`);
  }
  return o.threads;
}

/** `e` (a pqverify: error) with `what` after its prefix: "pqverify: item 3: …". */
function naming(e, what) {
  const message = `pqverify: ${what}: ${String(e?.message ?? e).replace(/^pqverify: /, '')}`;
  return e instanceof TypeError || e instanceof RangeError ? new e.constructor(message) : new Error(message, { cause: e });
}

/**
 * The server calls over `engine`: `verifyMany(heads, fields, threads)`,
 * `prepareValidators(suite, format, keys, threads)` (a set with `verify(message, context,
 * signers, signatures, threads)` and `release()`) and `dual(options)`, the engine's
 * low-level calls (numbers and bytes, as items.js makes them).
 */
export function makeServer(engine) {
  async function verifyMany(items, opts) {
    const o = options(opts, ['threads'], 'verifyMany');
    if (!Array.isArray(items)) throw new TypeError(`pqverify: verifyMany takes an array of items, got ${describe(items)}`);
    const heads = new Uint32Array(4 * items.length);
    const fields = new Array(4 * items.length);
    for (let i = 0; i < items.length; i++) {
      try {
        writeItem(items[i], heads, fields, i);
      } catch (e) {
        throw naming(e, `item ${i}`);
      }
    }
    return engine.verifyMany(heads, fields, threads(o, 'verifyMany'));
  }

  async function prepareValidators(suiteName, publicKeys, opts) {
    const suite = suiteByName(suiteName);
    const o = options(opts, ['keyFormat', 'threads'], 'prepareValidators');
    if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
      throw new TypeError(`pqverify: prepareValidators takes a non-empty array of the validators' public keys, got ${Array.isArray(publicKeys) ? 'an empty Array' : describe(publicKeys)}`);
    }
    let format = FORMAT.Raw;
    const keys = publicKeys.map((pk, i) => {
      try {
        const [f, key] = publicKey(pk, o.keyFormat, suite.name, suite.type === 'ml-dsa');
        format = FORMAT[f];
        return key;
      } catch (e) {
        throw naming(e, `validator ${i}`);
      }
    });
    const set = await engine.prepareValidators(suite.id, format, keys, threads(o, 'prepareValidators'));
    let released = false;
    return Object.freeze({
      suite: suite.name,
      size: keys.length,
      async verify(message, signatures, verifyOpts) {
        if (released) throw new Error(`pqverify: this ${suite.name} validator set was released`);
        const msg = bytes('message', message);
        const v = options(verifyOpts, ['context', 'threads'], 'certificate verify');
        const { signers, signatures: sigs } = certificateSignatures(signatures, keys.length);
        const verdicts = await set.verify(msg, context(v), signers, sigs, threads(v, 'certificate verify'));
        return { verdicts, valid: verdicts.filter(Boolean).length };
      },
      release() {
        if (!released) set.release();
        released = true;
      },
    });
  }

  function createDualVerifier(opts) {
    const o = options(opts, ['liboqs', 'mode', 'log', 'auditRejections', 'keyCache'], 'createDualVerifier');
    const dual = engine.dual(o);
    return Object.freeze({
      /** verify(suiteName, signature, message, publicKey, { context, prehash, keyFormat }) through both verifiers. */
      verify(suiteName, sig, msg, pk, verifyOpts) {
        const v = options(verifyOpts, ['context', 'prehash', 'keyFormat'], 'dual verify');
        const { head, fields } = request({ suite: suiteName, signature: sig, message: msg, publicKey: pk, ...v }, 'dual verify');
        return dual.verify(head, fields);
      },
      stats: () => dual.stats(),
      describe: () => dual.describe(),
    });
  }

  return { verifyMany, prepareValidators, createDualVerifier };
}

/**
 * The WebAssembly engine of `makeServer` over the suites of an entry (by export name,
 * each carrying its module's bindings): everything in order, on the calling thread.
 * `why` says why this is not the native build, for the dual check's error.
 */
export function wasmEngine(suitesByExport, why) {
  const bindingsOf = (suite) => suitesByExport[SUITES[suite].export][BINDINGS]();
  return {
    async verifyMany(heads, fields) {
      const verdicts = new Array(heads.length / 4);
      for (let i = 0; i < verdicts.length; i++) {
        const [suite, iface, hash, format] = heads.subarray(4 * i, 4 * i + 4);
        const [sig, msg, key, ctx] = fields.slice(4 * i, 4 * i + 4);
        const wasm = bindingsOf(suite);
        try {
          verdicts[i] = call(() => wasm.verify(suite, format, iface, hash, sig, msg, ctx, key));
        } catch (e) {
          throw naming(e, `item ${i}`);
        }
      }
      return verdicts;
    },
    async prepareValidators(suite, format, keys) {
      const wasm = bindingsOf(suite);
      const prepared = [];
      keys.forEach((key, i) => {
        try {
          prepared.push(call(() => new wasm.PreparedKey(suite, format, key)));
        } catch (e) {
          prepared.forEach((k) => k.free());
          throw naming(e, `validator ${i}`);
        }
      });
      return {
        async verify(message, ctx, signers, signatures) {
          call(() => wasm.checkCertificate(suite, prepared.length, signers, ctx));
          return signatures.map((sig, k) => call(() => prepared[signers[k]].verify(INTERFACES.pure, 0, sig, message, ctx)));
        },
        release: () => prepared.forEach((k) => k.free()),
      };
    },
    dual() {
      throw new Error(`pqverify: the dual check runs only in the native build (Node, Bun or Deno on a platform with a pqverify-<os>-<cpu> package installed), and this is WebAssembly: ${why}`);
    },
  };
}
