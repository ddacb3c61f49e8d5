// The verifier pool's API (pqverify/pool), the same for Web Workers (pool.js) and Node's
// worker_threads (pool-node.js), over the scheduler (pool-scheduler.js). On the calling
// thread it checks argument types and turns names into the numbers the wasm module takes
// (suite, interface, pre-hash, key encoding), decodes JWK keys, and packs the bytes of a
// job into one buffer that is transferred, not copied. Values (lengths of keys and
// contexts, the certificate rule) are checked once, by pqverify-core in the workers
// (pool-serve.js), with its error text. This file holds no wasm.

import { context, options, publicKey, suiteByName } from './api.js';
import { bytes, describe } from './check.js';
import { FORMAT, certificateSignatures, request } from './items.js';
import { VERDICT, pack } from './pool-protocol.js';
import { makeScheduler, rebuild } from './pool-scheduler.js';

/** Default time a worker may take to answer one message. */
const DEFAULT_TIMEOUT_MS = 30_000;

function positiveInteger(value, name, { zero = false } = {}) {
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) {
    throw new RangeError(`pqverify: pool option ${name} must be an integer ≥ ${zero ? 0 : 1}, got ${typeof value === 'number' ? value : describe(value)}`);
  }
  return value;
}

/** Item `k` of a job's reply as a result. */
function verdict(reply, k) {
  const code = reply.verdicts[k];
  if (code === VERDICT.error) {
    const [name, message] = reply.errors[k];
    return { valid: false, error: rebuild(name, message) };
  }
  return { valid: code === VERDICT.true };
}

/**
 * The pool over one platform.
 * @param {object} platform - `cores()`; `unavailable()` (why workers cannot be made
 *   here, or null); and what the scheduler needs (`spawn`, `inThread`: pool-scheduler.js)
 * @param {object} [opts] - `size`, `timeout`, `workerUrl` (see pool.d.ts)
 */
export function makePool(platform, opts) {
  const o = options(opts, ['size', 'timeout', 'workerUrl'], 'createPool');
  const size = o.size !== undefined ? positiveInteger(o.size, 'size', { zero: true }) : Math.max(1, platform.cores() || 1);
  const timeout = o.timeout === undefined ? DEFAULT_TIMEOUT_MS : positiveInteger(o.timeout, 'timeout');
  if (o.workerUrl !== undefined && typeof o.workerUrl !== 'string' && !(o.workerUrl instanceof URL)) {
    throw new TypeError(`pqverify: pool option workerUrl must be a string or URL, got ${describe(o.workerUrl)}`);
  }
  if (size > 0) {
    const why = platform.unavailable();
    if (why !== null) {
      throw new Error(`pqverify: ${why}, so the pool cannot start workers; verify here with the suites themselves (ml_dsa44.verify, prepare), or make the pool in a page, an extension page or an offscreen document`);
    }
  }
  const scheduler = makeScheduler(platform, { size, timeout, workerUrl: o.workerUrl });

  return Object.freeze({
    size,

    async verifyMany(items) {
      scheduler.open();
      if (!Array.isArray(items)) throw new TypeError(`pqverify: verifyMany takes an array of items, got ${describe(items)}`);
      const results = new Array(items.length);
      const ready = [];
      items.forEach((item, i) => {
        try {
          ready.push([i, request(item)]);
        } catch (error) {
          results[i] = { valid: false, error };
        }
      });
      const jobs = [];
      const step = scheduler.jobSize(ready.length);
      for (let at = 0; at < ready.length; at += step) {
        const part = ready.slice(at, at + step);
        const packed = pack(part.flatMap(([, r]) => r.fields));
        const message = { op: 'verify', items: part.map(([, r]) => r.head), ...packed };
        jobs.push(scheduler.run(message, [packed.data.buffer, packed.ends.buffer]).then(
          (reply) => part.forEach(([i], k) => { results[i] = verdict(reply, k); }),
          (error) => part.forEach(([i]) => { results[i] = { valid: false, error }; }),
        ));
      }
      await Promise.all(jobs);
      return results;
    },

    async prepare(suiteName, publicKeys, opts) {
      scheduler.open();
      const suite = suiteByName(suiteName);
      const p = options(opts, ['keyFormat'], 'pool prepare');
      if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
        throw new TypeError(`pqverify: prepare takes a non-empty array of the validators' public keys, got ${Array.isArray(publicKeys) ? 'an empty Array' : describe(publicKeys)}`);
      }
      let format = null;
      const keys = publicKeys.map((pk, index) => {
        try {
          const [f, key] = publicKey(pk, p.keyFormat, suite.name, suite.type === 'ml-dsa');
          format = FORMAT[f];
          return key;
        } catch (e) {
          throw new e.constructor(`pqverify: validator ${index}: ${e.message.replace(/^pqverify: /, '')}`);
        }
      });
      const id = await scheduler.addSet({ suite: suite.id, format, keys: pack(keys) });
      return validatorSet(scheduler, id, suite, publicKeys.length);
    },

    close() {
      scheduler.close(new Error('pqverify: the pool was closed before this call finished'));
    },
  });
}

/** The handle of validator set `id`, installed in every worker. */
function validatorSet(scheduler, id, suite, validators) {
  let released = false;
  return Object.freeze({
    suite: suite.name,
    size: validators,
    async verify(message, signatures, opts) {
      scheduler.open();
      if (released) throw new Error(`pqverify: this ${suite.name} validator set was released`);
      const msg = bytes('message', message);
      const ctx = context(options(opts, ['context'], 'certificate verify'));
      const { signers, signatures: sigs } = certificateSignatures(signatures, validators);
      // Every job carries all the signers, so each worker checks the whole certificate
      // (and its message); at least one job, so an empty certificate is checked too.
      const verdicts = new Array(signatures.length);
      const step = scheduler.jobSize(signatures.length);
      const jobs = [];
      for (let start = 0; start < Math.max(1, signatures.length); start += step) {
        const packed = pack(sigs.slice(start, start + step));
        const job = { op: 'certificate', set: id, message: msg, context: ctx, signers, start, ...packed };
        jobs.push(scheduler.run(job, [packed.data.buffer, packed.ends.buffer]).then((reply) => {
          reply.verdicts.forEach((v, k) => {
            // A signature the worker could not check is a fault, never a quiet false.
            if (v === VERDICT.error) throw verdict(reply, k).error;
            verdicts[start + k] = v === VERDICT.true;
          });
        }));
      }
      await Promise.all(jobs);
      return { verdicts, valid: verdicts.filter(Boolean).length };
    },
    release() {
      released = true;
      scheduler.release(id);
    },
  });
}
