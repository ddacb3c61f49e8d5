// The verifier pool's scheduler, the same for Web Workers (pool.js) and Node's
// worker_threads (pool-node.js): it checks every argument on the calling thread (with
// the messages of the suites' own verify), packs the bytes of a job into one buffer
// that is transferred, not copied, and hands jobs to idle workers. A worker that
// stops, throws or does not answer in time fails its own job, never the pool: it is
// replaced, and its validator sets are installed in the replacement. This file holds
// no wasm: the workers (pool-serve.js) do.

import { context, hashId, options, publicKey, suiteByName } from './api.js';
import { bytes, describe } from './check.js';
import { FORMAT, VERDICT, pack } from './pool-protocol.js';

/** Items per job at most: a worker answers within a bounded time, and sharing evens out. */
const MAX_JOB = 256;
/** Default time a worker may take to answer one message. */
const DEFAULT_TIMEOUT_MS = 30_000;
/** Workers started in a row that stopped without one answer: then the pool stops trying. */
const MAX_FAILED_STARTS = 3;

/** An Error of the class a worker named, with its message. */
function rebuild(name, message) {
  if (name === 'TypeError') return new TypeError(message);
  if (name === 'RangeError') return new RangeError(message);
  return new Error(message);
}

function positiveInteger(value, name, { zero = false } = {}) {
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) {
    throw new RangeError(`pqverify: pool option ${name} must be an integer ≥ ${zero ? 0 : 1}, got ${typeof value === 'number' ? value : describe(value)}`);
  }
  return value;
}

/**
 * One request of `verifyMany`, checked as the suite's verify checks it: the suite's
 * row, the interface (0 pure, 1 pre-hash), the pre-hash id, the key's encoding and the
 * four byte fields. Throws what `verify(suiteName, …)` would throw.
 */
function request(item) {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new TypeError(`pqverify: a verifyMany item must be an object { suite, signature, message, publicKey, … }, got ${describe(item)}`);
  }
  const o = options(item, ['suite', 'signature', 'message', 'publicKey', 'context', 'prehash', 'keyFormat'], 'verifyMany item');
  const suite = suiteByName(o.suite);
  const sig = bytes('signature', o.signature);
  const msg = bytes('message', o.message);
  const ctx = context(o);
  const prehash = o.prehash === undefined ? null : hashId(o.prehash);
  const [format, key] = publicKey(o.publicKey, o.keyFormat, suite.name, suite.publicKey, suite.type === 'ml-dsa');
  return { suite: suite.id, prehash, format: FORMAT[format], fields: [sig, msg, key, ctx] };
}

/**
 * The pool over one platform.
 * @param {object} platform - `cores()`; `unavailable()` (why workers cannot be made
 *   here, or null); `spawn(url, { message, failure })` → `{ post(data, transfer),
 *   terminate(), busy(boolean) }`; `inThread()` → a promise of pool-serve.js's `handle`.
 * @param {object} [opts] - `size`, `timeout`, `workerUrl` (see pool.d.ts)
 */
export function makePool(platform, opts) {
  const o = options(opts, ['size', 'timeout', 'workerUrl'], 'createPool');
  const explicit = o.size !== undefined;
  const size = explicit ? positiveInteger(o.size, 'size', { zero: true }) : Math.max(1, platform.cores() || 1);
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

  let closed = false;
  let nextId = 1;
  let failedStarts = 0;
  /** Jobs waiting for an idle worker: { message, transfer, settle(reply | Error) }. */
  const queue = [];
  /** Live validator sets: id → { suite, format, keys (packed), pending: Map(slot → settle of its install) }. */
  const sets = new Map();
  const slots = [];

  const fail = (error) => {
    closed = true;
    for (const job of queue.splice(0)) job.settle(error);
    for (const slot of [...slots]) stop(slot, error);
  };

  /** A worker and what it owes: its job (one at a time) and set installs. */
  function start() {
    const slot = { worker: null, job: null, timer: null, answered: false, waits: new Map() };
    const events = {
      message: (reply) => answer(slot, reply),
      failure: (why) => died(slot, why),
    };
    if (size === 0) {
      // In this thread: the same handler as a worker's, one message per macrotask.
      const handler = platform.inThread();
      slot.worker = {
        post: (data) => setTimeout(() => handler.then((handle) => {
          const out = handle(data);
          if (out) events.message(out.reply);
        }, (e) => events.failure(`pqverify could not load its verifier (${e?.message ?? e})`)), 0),
        terminate() {},
        busy() {},
      };
    } else {
      try {
        slot.worker = platform.spawn(o.workerUrl, events);
      } catch (e) {
        throw new Error(`pqverify: could not start a verifier worker (${e?.message ?? e})`);
      }
    }
    slots.push(slot);
    for (const [id, set] of sets) install(slot, id, set);
    return slot;
  }

  /** Posts `message` to `slot`, expecting one reply; `settle` gets it or an Error. */
  function send(slot, message, transfer, settle) {
    slot.waits.set(message.id, settle);
    slot.worker.busy(true);
    if (slot.timer === null) {
      slot.timer = setTimeout(() => died(slot, `did not answer within ${timeout} ms (the pool's timeout)`), timeout);
    }
    slot.worker.post(message, transfer);
  }

  function answer(slot, reply) {
    const settle = slot.waits.get(reply?.id);
    if (!settle) return;
    slot.waits.delete(reply.id);
    slot.answered = true;
    failedStarts = 0;
    clearTimeout(slot.timer);
    slot.timer = null;
    if (slot.waits.size > 0) {
      slot.timer = setTimeout(() => died(slot, `did not answer within ${timeout} ms (the pool's timeout)`), timeout);
    } else {
      slot.worker.busy(false);
    }
    if (slot.job?.message.id === reply.id) slot.job = null;
    settle(reply.failure === undefined ? reply : rebuild(reply.failure.name, reply.failure.message));
    pump();
  }

  /** Ends `slot`: whatever it owes gets `error`. */
  function stop(slot, error) {
    clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    const waits = [...slot.waits.values()];
    slot.waits.clear();
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
    try {
      slot.worker.terminate();
    } catch {
      // Already gone.
    }
    for (const settle of waits) settle(error);
  }

  function died(slot, why) {
    if (!slots.includes(slot)) return;
    const error = new Error(`pqverify: a verifier worker ${why}; what it was given is not verified`);
    stop(slot, error);
    if (closed) return;
    failedStarts = slot.answered ? 0 : failedStarts + 1;
    if (failedStarts >= MAX_FAILED_STARTS) {
      fail(new Error(`pqverify: ${MAX_FAILED_STARTS} verifier workers in a row stopped before answering (the last ${why}); the pool is closed. Check workerUrl and the page's CSP (worker-src)`));
      return;
    }
    try {
      start();
    } catch (e) {
      fail(e);
      return;
    }
    pump();
  }

  /** Gives queued jobs to idle workers. */
  function pump() {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.job !== null) continue;
      const job = queue.shift();
      slot.job = job;
      send(slot, job.message, job.transfer, job.settle);
    }
  }

  /** Queues a job; resolves to the worker's reply, or rejects. */
  function run(message, transfer) {
    return new Promise((resolve, reject) => {
      message.id = nextId++;
      queue.push({ message, transfer, settle: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
      pump();
    });
  }

  function install(slot, id, set) {
    const data = set.keys.data.slice();
    const ends = set.keys.ends.slice();
    const message = { id: nextId++, op: 'install', set: id, suite: set.suite.id, format: set.format, keys: { data, ends } };
    send(slot, message, [data.buffer, ends.buffer], (r) => {
      const settle = set.pending.get(slot);
      set.pending.delete(slot);
      settle?.(r);
    });
  }

  function open() {
    if (closed) throw new Error('pqverify: this pool is closed');
  }

  /** The job sizes for `n` items: about one job per worker, at most MAX_JOB items each. */
  const jobSize = (n) => Math.max(1, Math.min(MAX_JOB, Math.ceil(n / Math.max(1, size))));

  for (let i = 0; i < Math.max(1, size); i++) start();

  const pool = {
    size,

    async verifyMany(items) {
      open();
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
      const step = jobSize(ready.length);
      for (let at = 0; at < ready.length; at += step) {
        const part = ready.slice(at, at + step);
        const packed = pack(part.flatMap(([, r]) => r.fields));
        const head = part.map(([, r]) => [r.suite, r.prehash ?? -1, r.format]);
        const message = { op: 'verify', items: head, ...packed };
        jobs.push(run(message, [packed.data.buffer, packed.ends.buffer]).then(
          (reply) => part.forEach(([i], k) => { results[i] = verdict(reply, k); }),
          (error) => part.forEach(([i]) => { results[i] = { valid: false, error }; }),
        ));
      }
      await Promise.all(jobs);
      return results;
    },

    async prepare(suiteName, publicKeys, opts) {
      open();
      const suite = suiteByName(suiteName);
      const p = options(opts, ['keyFormat'], 'pool prepare');
      if (!Array.isArray(publicKeys) || publicKeys.length === 0) {
        throw new TypeError(`pqverify: prepare takes a non-empty array of the validators' public keys, got ${Array.isArray(publicKeys) ? 'an empty Array' : describe(publicKeys)}`);
      }
      let format = null;
      const raw = publicKeys.map((pk, index) => {
        try {
          const [f, key] = publicKey(pk, p.keyFormat, suite.name, suite.publicKey, suite.type === 'ml-dsa');
          format = FORMAT[f];
          return key;
        } catch (e) {
          throw new e.constructor(`pqverify: validator ${index}: ${e.message.replace(/^pqverify: /, '')}`);
        }
      });
      const id = nextId++;
      const set = { suite, format, keys: pack(raw), pending: new Map() };
      const installed = slots.map((slot) => new Promise((resolve, reject) => {
        set.pending.set(slot, (r) => (r instanceof Error ? reject(r) : resolve()));
      }));
      sets.set(id, set);
      for (const slot of slots) install(slot, id, set);
      try {
        await Promise.all(installed);
      } catch (e) {
        release(id);
        throw e;
      }
      return makeSet(id, set, publicKeys.length);
    },

    close() {
      if (closed) return;
      fail(new Error('pqverify: the pool was closed before this call finished'));
      sets.clear();
    },
  };

  function release(id) {
    if (!sets.delete(id)) return;
    for (const slot of slots) slot.worker.post({ op: 'release', set: id }, []);
  }

  /** The handle of an installed validator set. */
  function makeSet(id, set, validators) {
    let released = false;
    return Object.freeze({
      suite: set.suite.name,
      size: validators,
      async verify(message, signatures, opts) {
        open();
        if (released) throw new Error(`pqverify: this ${set.suite.name} validator set was released`);
        const msg = bytes('message', message);
        const ctx = context(options(opts, ['context'], 'certificate verify'));
        if (!Array.isArray(signatures)) {
          throw new TypeError(`pqverify: a certificate's signatures must be an array of { validator, signature }, got ${describe(signatures)}`);
        }
        const seen = new Uint8Array(validators);
        const indices = new Uint32Array(signatures.length);
        const sigs = signatures.map((entry, k) => {
          if (entry === null || typeof entry !== 'object') {
            throw new TypeError(`pqverify: certificate signature ${k} must be { validator, signature }, got ${describe(entry)}`);
          }
          const { validator } = entry;
          if (!Number.isInteger(validator) || validator < 0 || validator >= validators) {
            throw new RangeError(`pqverify: certificate signature ${k} names validator ${String(validator)}, not in the set of ${validators} (indices 0 to ${validators - 1})`);
          }
          if (seen[validator]++) {
            throw new RangeError(`pqverify: validator ${validator} signs twice; a certificate counts each validator once`);
          }
          indices[k] = validator;
          return bytes(`certificate signature ${k}`, entry.signature);
        });
        const verdicts = new Array(signatures.length);
        const step = jobSize(signatures.length);
        const jobs = [];
        for (let at = 0; at < signatures.length; at += step) {
          const packed = pack(sigs.slice(at, at + step));
          const part = indices.slice(at, at + step);
          const job = { op: 'certificate', set: id, message: msg, context: ctx, validators: part, ...packed };
          jobs.push(run(job, [packed.data.buffer, packed.ends.buffer, part.buffer]).then((reply) => {
            reply.verdicts.forEach((v, k) => {
              // A signature the worker could not check is a fault, never a quiet false.
              if (v === VERDICT.error) throw verdict(reply, k).error;
              verdicts[at + k] = v === VERDICT.true;
            });
          }));
        }
        await Promise.all(jobs);
        return { verdicts, valid: verdicts.filter(Boolean).length };
      },
      release() {
        released = true;
        release(id);
      },
    });
  }

  return Object.freeze(pool);
}

/** Item `k` of a verify job's reply as a result. */
function verdict(reply, k) {
  const code = reply.verdicts[k];
  if (code === VERDICT.error) {
    const [name, message] = reply.errors[k];
    return { valid: false, error: rebuild(name, message) };
  }
  return { valid: code === VERDICT.true };
}
