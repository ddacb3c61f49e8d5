// What a pool worker does with the scheduler's messages (pool-core.js): verify jobs,
// validator sets installed once and certificates checked against them. The same code
// answers in a Web Worker (pool-worker.js), a Node worker thread (pool-worker-node.js)
// and, for createPool({ size: 0 }), on the calling thread. Each worker has its own
// instance of the package's default entry.

import * as pq from './index.js';
import { PREHASHES, SUITES } from './tables.js';
import { FORMAT, VERDICT, field } from './pool-protocol.js';

const KEY_FORMAT = ['raw', 'spki'];
/** Installed validator sets: id → their prepared keys. */
const sets = new Map();

function suiteOf(id) {
  return pq[SUITES[id].export];
}

/** Runs `fn` on each of `count` items: verdict codes, and the errors by item. */
function each(count, fn) {
  const verdicts = new Uint8Array(count);
  const errors = {};
  for (let k = 0; k < count; k++) {
    try {
      verdicts[k] = fn(k) ? VERDICT.true : VERDICT.false;
    } catch (e) {
      verdicts[k] = VERDICT.error;
      errors[k] = [e?.name ?? 'Error', String(e?.message ?? e)];
    }
  }
  return { verdicts, errors };
}

function verify({ items, data, ends }) {
  const packed = { data, ends };
  return each(items.length, (k) => {
    const [suite, prehash, format] = items[k];
    const [sig, msg, key, ctx] = [0, 1, 2, 3].map((f) => field(packed, 4 * k + f));
    const opts = { context: ctx, keyFormat: KEY_FORMAT[format] };
    const s = suiteOf(suite);
    return prehash < 0 ? s.verify(sig, msg, key, opts) : s.prehash(PREHASHES[prehash].name).verify(sig, msg, key, opts);
  });
}

function install({ set, suite, format, keys }) {
  const s = suiteOf(suite);
  const prepared = [];
  try {
    for (let i = 0; i < keys.ends.length; i++) {
      try {
        prepared.push(s.prepare(field(keys, i), { keyFormat: format === FORMAT.Spki ? 'spki' : 'raw' }));
      } catch (e) {
        throw new e.constructor(`pqverify: validator ${i}: ${String(e.message).replace(/^pqverify: /, '')}`);
      }
    }
  } catch (e) {
    for (const key of prepared) key.free();
    throw e;
  }
  sets.set(set, prepared);
  return {};
}

function certificate({ set, message, context, validators, data, ends }) {
  const keys = sets.get(set);
  if (keys === undefined) throw new Error(`pqverify: validator set ${set} is not installed in this worker`);
  const opts = { context };
  return each(validators.length, (k) => keys[validators[k]].verify(field({ data, ends }, k), message, opts));
}

function release({ set }) {
  for (const key of sets.get(set) ?? []) key.free();
  sets.delete(set);
}

/**
 * Answers one message: `{ reply, transfer }`, or null for a message that needs no
 * reply. Never throws: a failure is the reply `{ id, failure: { name, message } }`.
 */
export function handle(message) {
  try {
    switch (message?.op) {
      case 'verify': {
        const out = verify(message);
        return { reply: { id: message.id, ...out }, transfer: [out.verdicts.buffer] };
      }
      case 'certificate': {
        const out = certificate(message);
        return { reply: { id: message.id, ...out }, transfer: [out.verdicts.buffer] };
      }
      case 'install':
        return { reply: { id: message.id, ...install(message) }, transfer: [] };
      case 'release':
        release(message);
        return null;
      default:
        throw new Error(`pqverify: the pool worker got an unknown message ${JSON.stringify(message?.op)}`);
    }
  } catch (e) {
    return { reply: { id: message?.id, failure: { name: e?.name ?? 'Error', message: String(e?.message ?? e) } }, transfer: [] };
  }
}
