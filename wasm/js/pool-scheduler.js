// The verifier pool's scheduler, the same for Web Workers (pool.js) and Node's
// worker_threads (pool-node.js): it hands jobs to idle workers, one at a time each, and
// keeps every worker's validator sets installed. A worker that stops, throws or does
// not answer in time fails its own job, never the pool: it is replaced, and the sets are
// installed in the replacement. It knows nothing of what a job holds (pool-core.js
// makes them, pool-serve.js answers them) and holds no wasm.

/** Workers started in a row that stopped without one answer: then the pool stops trying. */
const MAX_FAILED_STARTS = 3;
/** Items per job at most: a worker answers within a bounded time, and sharing evens out. */
const MAX_JOB = 256;

/** An Error of the class a worker named, with its message. */
export function rebuild(name, message) {
  if (name === 'TypeError') return new TypeError(message);
  if (name === 'RangeError') return new RangeError(message);
  return new Error(message);
}

/**
 * Starts `size` workers (one on this thread for 0) and schedules over them.
 * @param {object} platform - `spawn(url, { message, failure })` → `{ post(data, transfer),
 *   terminate(), busy(boolean) }`; `inThread()` → a promise of pool-serve.js's `handle`.
 * @returns `{ run, addSet, release, jobSize, open, close }`
 */
export function makeScheduler(platform, { size, timeout, workerUrl }) {
  let closed = false;
  let nextId = 1;
  let failedStarts = 0;
  /** Jobs waiting for an idle worker: { message, transfer, settle(reply | Error) }. */
  const queue = [];
  /** Live validator sets: id → { install: the message's fields, pending: Map(slot → settle of its install) }. */
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
        slot.worker = platform.spawn(workerUrl, events);
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

  /** Installs set `id` in `slot`: a copy of its keys, transferred. */
  function install(slot, id, set) {
    const { suite, format, keys } = set.install;
    const data = keys.data.slice();
    const ends = keys.ends.slice();
    const message = { id: nextId++, op: 'install', set: id, suite, format, keys: { data, ends } };
    send(slot, message, [data.buffer, ends.buffer], (r) => {
      const settle = set.pending.get(slot);
      set.pending.delete(slot);
      settle?.(r);
    });
  }

  /** Drops set `id` from every worker. */
  function release(id) {
    if (!sets.delete(id)) return;
    for (const slot of slots) slot.worker.post({ op: 'release', set: id }, []);
  }

  for (let i = 0; i < Math.max(1, size); i++) start();

  return {
    /** Queues a job; resolves to the worker's reply, or rejects. */
    run(message, transfer) {
      return new Promise((resolve, reject) => {
        message.id = nextId++;
        queue.push({ message, transfer, settle: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
        pump();
      });
    },

    /**
     * Installs a validator set ({ suite, format, keys (packed) }) in every worker, and in
     * every replacement until released; resolves to its id once every worker has it.
     */
    async addSet(fields) {
      const id = nextId++;
      const set = { install: fields, pending: new Map() };
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
      return id;
    },

    release,

    /** The job size for `n` items: about one job per worker, at most MAX_JOB items each. */
    jobSize: (n) => Math.max(1, Math.min(MAX_JOB, Math.ceil(n / Math.max(1, size)))),

    /** Throws once the pool is closed. */
    open() {
      if (closed) throw new Error('pqverify: this pool is closed');
    },

    /** Closes the pool: what is queued or running gets `error`. */
    close(error) {
      if (closed) return;
      fail(error);
      sets.clear();
    },
  };
}
