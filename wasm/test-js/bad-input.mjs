// The package's bad-input suite through an entry `pq`: every kind of bad argument gets
// its error class (TypeError for types and options, RangeError for values), a bad
// signature is false, and a freed key says so. Plain JavaScript with no imports, like
// acvp.mjs: the Node tests run it on the default entry and on pqverify/js without
// WebAssembly, and a Worker runs it in workerd.

const unhex = (h) => {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
};

/**
 * The checks that fail through `pq`, as "what: got …" lines (none when all pass).
 * @param pq - an entry of the package (its namespace object)
 * @param fixture - a valid ML-DSA-44 case, hex: { publicKey, message, pure }
 */
export function badInputFailures(pq, fixture) {
  const [pk, msg, sig] = [unhex(fixture.publicKey), unhex(fixture.message), unhex(fixture.pure)];
  const s = pq.ml_dsa44;
  const failures = [];
  const name = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? v.constructor.name : typeof v);
  /** `call` must throw an instance of `Class` (whose message matches `pattern`, if given). */
  const throws = (what, call, Class, pattern) => {
    try {
      const r = call();
      failures.push(`${what}: returned ${String(r)}, expected a ${Class.name}`);
    } catch (e) {
      if (!(e instanceof Class)) failures.push(`${what}: threw ${e?.constructor?.name} (${e?.message}), expected a ${Class.name}`);
      else if (pattern && !pattern.test(e.message)) failures.push(`${what}: message "${e.message}" does not match ${pattern}`);
    }
  };
  /** `call` must return `expected`. */
  const gives = (what, call, expected) => {
    try {
      const r = call();
      if (r !== expected) failures.push(`${what}: returned ${String(r)}, expected ${String(expected)}`);
    } catch (e) {
      failures.push(`${what}: threw ${e?.constructor?.name} (${e?.message}), expected ${String(expected)}`);
    }
  };
  for (const bad of [[1, 2, 3], 'abcd', null, undefined, 42, new ArrayBuffer(8), new Uint16Array(4)]) {
    throws(`signature ${name(bad)}`, () => s.verify(bad, msg, pk), TypeError);
    throws(`message ${name(bad)}`, () => s.verify(sig, bad, pk), TypeError);
    throws(`public key ${name(bad)}`, () => s.verify(sig, msg, bad), TypeError);
  }
  throws('a misspelt option', () => s.verify(sig, msg, pk, { contxt: new Uint8Array(1) }), TypeError, /unknown option "contxt"/);
  throws('a string context', () => s.verify(sig, msg, pk, { context: 'abc' }), TypeError);
  throws('options that are a string', () => s.verify(sig, msg, pk, 'opts'), TypeError);
  throws('a 256-byte context', () => s.verify(sig, msg, pk, { context: new Uint8Array(256) }), RangeError);
  gives('a 255-byte context', () => s.verify(sig, msg, pk, { context: new Uint8Array(255) }), false);
  throws('a short public key', () => s.verify(sig, msg, pk.subarray(1)), RangeError, /1311 bytes; ML-DSA-44 public keys are 1312/);
  throws('prepare of a short key', () => s.prepare(new Uint8Array(5)), RangeError);
  throws('an unknown pre-hash name', () => s.prehash('MD5'), RangeError);
  throws('a pre-hash object without an OID', () => s.prehash({}), TypeError);
  throws('an unknown pre-hash OID', () => s.prehash({ oid: new Uint8Array([6, 9, 96, 134, 72, 1, 101, 3, 4, 2, 99]) }), RangeError);
  throws('a 63-byte external mu', () => s.internal.verify(sig, new Uint8Array(63), pk, { externalMu: true }), RangeError);
  throws('a context on the internal interface', () => s.internal.verify(sig, msg, pk, { context: new Uint8Array(0) }), TypeError);
  throws('external mu for SLH-DSA', () => pq.slh_dsa_shake_128f.internal.verify(sig, new Uint8Array(64), new Uint8Array(32), { externalMu: true }), RangeError);
  throws('an unknown suite name', () => pq.verify('ML-DSA-45', sig, msg, pk), RangeError);
  throws('a suite that is a number', () => pq.verify(44, sig, msg, pk), TypeError);
  throws('a misspelt option of verify()', () => pq.verify('ML-DSA-44', sig, msg, pk, { prehsh: 'SHA2-256' }), TypeError);
  // A wrong-length or garbage signature is simply false.
  gives('an empty signature', () => s.verify(new Uint8Array(0), msg, pk), false);
  gives('a 100000-byte signature', () => s.verify(new Uint8Array(100000), msg, pk), false);
  gives('the valid signature', () => s.verify(sig, msg, pk), true);
  // A freed prepared key says so, and freeing twice is harmless.
  const key = s.prepare(pk);
  gives('a prepared key', () => key.verify(sig, msg), true);
  key.free();
  key.free();
  throws('a freed key', () => key.verify(sig, msg), Error, /freed/);
  return failures;
}
