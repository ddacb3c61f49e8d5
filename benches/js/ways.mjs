// The ways of the benchmark suite in JS engines (Node and the browser page): the
// pqverify package one-shot and with prepared keys, and as peers @noble/post-quantum,
// @oqs/liboqs-js (liboqs compiled by Emscripten) and ox's ML-DSA-44 on both its engines
// (noble inside, and mldsa-native compiled to wasm). Each way binds a fixture case
// outside the timing and returns a zero-argument verify call. Modules are passed in, so
// Node and the browser share this file.

import { SUITES } from 'pqverify/tables';
import { WAY } from './names.mjs';

const EXPORTS = Object.fromEntries(SUITES.map((s) => [s.name, s.export]));

/** The export name of a suite (e.g. "ml_dsa44"). */
export const exportOf = (suite) => EXPORTS[suite];

/**
 * The package's two ways over the entry `pq`, named `[oneShot, prepared]`: one-shot
 * (the key decoded per call) and with a key prepared once (the previous one freed when
 * the next is made).
 */
export function packageWays(pq, [oneShot, prepared]) {
  let held = null;
  return [
    {
      name: oneShot,
      bind(suite, pk, msg, sig) {
        const s = pq[exportOf(suite)];
        return s ? () => s.verify(sig, msg, pk) : null;
      },
    },
    {
      name: prepared,
      bind(suite, pk, msg, sig) {
        const s = pq[exportOf(suite)];
        if (!s) return null;
        held?.free();
        const key = s.prepare(pk);
        held = key;
        return () => key.verify(sig, msg);
      },
    },
  ];
}

/**
 * @param pq - the pqverify package namespace
 * @param noble - noble's ml-dsa and slh-dsa exports merged, or null to leave noble out
 * @param selected - way names to include (default: all)
 * @param baseline - the package's `pqverify/baseline` entry (its build without SIMD:
 *   the portable kernels), or null: the `pqverify-portable` way
 * @param liboqs - liboqs-js signature instances by FIPS suite name, or null: the
 *   `liboqs-js` way (one-shot from bytes, as `pqverify`: both copy the inputs into
 *   their wasm memory on every call)
 * @param ox - `{ Engine, MlDsa44, wasmSlot }` (ox's engine registry, its `MlDsa44`
 *   module and the `MlDsa44` slot of `ox/wasm`), or null: the `ox` and `ox-wasm` ways,
 *   ML-DSA-44 only, through `MlDsa44.verify` as a viem user calls it; binding a way
 *   installs its engine in ox's (process-wide) registry for that measurement
 */
export function makeWays(pq, noble, selected, baseline = null, liboqs = null, ox = null) {
  const ways = packageWays(pq, [WAY.pqverify, WAY.pqverifyPrepared]);
  if (baseline) {
    ways.push({
      name: WAY.pqverifyPortable,
      bind(suite, pk, msg, sig) {
        const s = baseline[exportOf(suite)];
        return s ? () => s.verify(sig, msg, pk) : null;
      },
    });
  }
  if (noble) {
    ways.push({
      name: WAY.noble,
      bind(suite, pk, msg, sig) {
        const s = noble[exportOf(suite)];
        return s ? () => s.verify(sig, msg, pk) : null;
      },
    });
  }
  if (liboqs) {
    ways.push({
      name: WAY.liboqsJs,
      bind(suite, pk, msg, sig) {
        const s = liboqs[suite];
        return s ? () => s.verify(msg, sig, pk) : null;
      },
    });
  }
  if (ox) {
    const { Engine, MlDsa44, wasmSlot } = ox;
    for (const [name, install] of [
      [WAY.ox, () => Engine.reset('MlDsa44')],
      [WAY.oxWasm, () => Engine.set({ MlDsa44: wasmSlot })],
    ]) {
      ways.push({
        name,
        bind(suite, pk, msg, sig) {
          if (suite !== 'ML-DSA-44') return null;
          install();
          return () => MlDsa44.verify({ payload: msg, publicKey: pk, signature: sig });
        },
      });
    }
  }
  return selected ? ways.filter((w) => selected.includes(w.name)) : ways;
}
