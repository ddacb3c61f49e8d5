// The checks of pqverify/ox inside ox (viem's core, pinned in package.json), shared by
// Node 24 and the bundled Chromium page: keys and signatures made by ox's own `sign`
// through both of its engines (noble, and mldsa-native in wasm), then verified through
// `MlDsa44.verify` with pqverify installed in the `MlDsa44` slot, beside the verdicts
// of ox's own engines. Returns a plain object of results the test compares.
import { Engine, MlDsa44, Secp256k1 } from 'ox';
import * as OxWasm from 'ox/wasm';
import * as pqverify from 'pqverify/ox';

/** What is expected of `runOxCases` (everywhere). */
export const OX_EXPECTED = {
  slots: ['MlDsa44'],
  primitives: ['getPublicKey', 'sign', 'verify'],
  verdicts: {
    noble: [true, false, false, false, false, true],
    wasm: [true, false, false, false, false, true],
  },
  agree: true,
  routed: true,
  wrongKey: 'RangeError',
  longContext: 'MlDsa44.InvalidContextSizeError',
  secp256k1: true,
};

/** The cases on one signature: valid, flipped, wrong context, wrong payload, truncated, and an empty-context signature. */
function verdicts(publicKey, signature, plain, payload, context) {
  const flipped = signature.slice();
  flipped[100] ^= 1;
  return [
    MlDsa44.verify({ payload, publicKey, signature, context }),
    MlDsa44.verify({ payload, publicKey, signature: flipped, context }),
    MlDsa44.verify({ payload, publicKey, signature, context: new Uint8Array([1]) }),
    MlDsa44.verify({ payload: new Uint8Array([7]), publicKey, signature, context }),
    MlDsa44.verify({ payload, publicKey, signature: signature.slice(0, 2419), context }),
    MlDsa44.verify({ payload, publicKey, signature: plain }),
  ];
}

const errorName = (f) => {
  try {
    f();
    return 'no error';
  } catch (e) {
    return e.name;
  }
};

export async function runOxCases() {
  const payload = new TextEncoder().encode('a transaction payload');
  const context = new Uint8Array([0x6f, 0x78]);
  const privateKey = MlDsa44.randomPrivateKey({ as: 'Bytes' });
  const publicKey = MlDsa44.getPublicKey({ privateKey, as: 'Bytes' });
  // Signatures by ox's default engine (noble), then by its wasm engine (mldsa-native).
  Engine.reset();
  const sign = () => ({
    signature: MlDsa44.sign({ payload, privateKey, context, as: 'Bytes' }),
    plain: MlDsa44.sign({ payload, privateKey, as: 'Bytes' }),
  });
  const noble = sign();
  const oxVerdicts = { noble: verdicts(publicKey, noble.signature, noble.plain, payload, context) };
  await Engine.install({ MlDsa44: OxWasm.MlDsa44.engine() });
  const wasm = sign();
  oxVerdicts.wasm = verdicts(publicKey, wasm.signature, wasm.plain, payload, context);
  // pqverify in the slot: verify only; the wasm engine's sign and getPublicKey stay.
  const slot = pqverify.MlDsa44.engine();
  Engine.set({ MlDsa44: slot });
  const installed = Engine.get();
  const ours = {
    noble: verdicts(publicKey, noble.signature, noble.plain, payload, context),
    wasm: verdicts(publicKey, wasm.signature, wasm.plain, payload, context),
  };
  const result = {
    slots: Object.keys(installed),
    primitives: Object.keys(installed.MlDsa44).sort(),
    verdicts: ours,
    agree: JSON.stringify(ours) === JSON.stringify(oxVerdicts),
    routed: installed.MlDsa44.verify === slot.verify,
    wrongKey: errorName(() => MlDsa44.verify({ payload, publicKey: publicKey.slice(1), signature: noble.signature })),
    longContext: errorName(() => MlDsa44.verify({ payload, publicKey, signature: noble.signature, context: new Uint8Array(256) })),
    // The other slots are ox's own: secp256k1 still signs and verifies.
    secp256k1: (() => {
      const key = Secp256k1.randomPrivateKey();
      const sig = Secp256k1.sign({ payload: '0x1234', privateKey: key });
      return Secp256k1.verify({ payload: '0x1234', publicKey: Secp256k1.getPublicKey({ privateKey: key }), signature: sig });
    })(),
  };
  Engine.reset();
  return result;
}
