// What a pool worker does with the scheduler's messages (pool-protocol.js): verify jobs,
// validator sets installed once and certificates checked against them. The same code
// answers in a Web Worker (pool-worker.js), a Node worker thread (pool-worker-node.js)
// and, for createPool({ size: 0 }), on the calling thread. Everything arrives as numbers
// and bytes, already type-checked by the scheduler; each item is one call of the wasm
// module's low-level exports, whose values pqverify-core checks (with its error text).
// The builds are the default entry's, reached through its suites (one instance each).

import * as pq from './index.js';
import { BINDINGS, call } from './api.js';
import { INTERFACES, SUITES } from './tables.js';
import { VERDICT, field } from './pool-protocol.js';

/** Installed validator sets: id → { suite, keys: the wasm module's prepared keys }. */
const sets = new Map();

/** The wasm exports of the build that holds suite number `suite`. */
function wasmOf(suite) {
  const row = SUITES[suite];
  if (row === undefined) throw new RangeError(`pqverify: unknown suite id ${suite}`);
  return pq[row.export][BINDINGS]();
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

/** items[k] = [suite, interface, pre-hash, key format]; fields 4k… = signature, message, key, context. */
function verify({ items, data, ends }) {
  const packed = { data, ends };
  return each(items.length, (k) => {
    const [suite, iface, hash, format] = items[k];
    const [sig, msg, key, ctx] = [0, 1, 2, 3].map((f) => field(packed, 4 * k + f));
    const wasm = wasmOf(suite);
    return call(() => wasm.verify(suite, format, iface, hash, sig, msg, ctx, key));
  });
}

function install({ set, suite, format, keys }) {
  const wasm = wasmOf(suite);
  const prepared = [];
  try {
    for (let i = 0; i < keys.ends.length; i++) {
      try {
        prepared.push(call(() => new wasm.PreparedKey(suite, format, field(keys, i))));
      } catch (e) {
        throw new e.constructor(`pqverify: validator ${i}: ${String(e.message).replace(/^pqverify: /, '')}`);
      }
    }
  } catch (e) {
    for (const key of prepared) key.free();
    throw e;
  }
  sets.set(set, { suite, keys: prepared });
  return {};
}

/**
 * signers: the whole certificate's validator indices (pqverify-core checks them all, and
 * the message, in every job); the job verifies signatures start… of them.
 */
function certificate({ set, message, context, signers, start, data, ends }) {
  const installed = sets.get(set);
  if (installed === undefined) throw new Error(`pqverify: validator set ${set} is not installed in this worker`);
  const { suite, keys } = installed;
  call(() => wasmOf(suite).checkCertificate(suite, keys.length, signers, context));
  return each(ends.length, (k) => call(() => keys[signers[start + k]].verify(INTERFACES.pure, 0, field({ data, ends }, k), message, context)));
}

function release({ set }) {
  for (const key of sets.get(set)?.keys ?? []) key.free();
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
