// Property tests of the package's public-key decoders on hostile input: the
// SubjectPublicKeyInfo decoder (in wasm, pqverify-core) for all 15 suites and the JWK /
// base64url decoder (in JS) for ML-DSA. Every truncation, every extension, every header
// byte at every value, every length field re-encoded, every other suite's OID and
// foreign ones, and seeded random bytes: an error that starts "pqverify:", never a
// trap, never a key. The one valid encoding of each key verifies that key's signature
// (a NIST ACVP case), so "accepted" is known to mean "decoded to exactly that key".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as pq from 'pqverify';
import { SUITES } from 'pqverify/tables';

const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));

/** The last arc of each suite's OID, 2.16.840.1.101.3.4.3.n (NIST CSOR), written out here. */
const ARCS = {
  'ML-DSA-44': 17, 'ML-DSA-65': 18, 'ML-DSA-87': 19,
  'SLH-DSA-SHA2-128s': 20, 'SLH-DSA-SHA2-128f': 21, 'SLH-DSA-SHA2-192s': 22, 'SLH-DSA-SHA2-192f': 23,
  'SLH-DSA-SHA2-256s': 24, 'SLH-DSA-SHA2-256f': 25, 'SLH-DSA-SHAKE-128s': 26, 'SLH-DSA-SHAKE-128f': 27,
  'SLH-DSA-SHAKE-192s': 28, 'SLH-DSA-SHAKE-192f': 29, 'SLH-DSA-SHAKE-256s': 30, 'SLH-DSA-SHAKE-256f': 31,
};

/** A DER length in its minimal form. */
const derLength = (n) => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff]);

/** SEQUENCE { SEQUENCE { OID }, BIT STRING { 0 unused bits, key } }, as RFC 9881 lays it out. */
function spki(oid, key, { algorithm = [0x06, oid.length, ...oid], len = derLength } = {}) {
  const alg = [0x30, ...len(algorithm.length), ...algorithm];
  const bits = [0x03, ...len(key.length + 1), 0x00, ...key];
  return new Uint8Array([0x30, ...len(alg.length + bits.length), ...alg, ...bits]);
}
const nistOid = (arc) => [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc];

/** A deterministic byte stream (xorshift32), so every run tries the same inputs. */
function prng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x & 0xff;
  };
}

/** A valid pure-interface ACVP case (key, message, signature) for every suite. */
function validCases() {
  const file = process.env.PQVERIFY_ACVP_CASES;
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const cases = JSON.parse(readFileSync(file, 'utf8'));
  return SUITES.map((s) => {
    const c = cases.find((k) => k.suite === s.name && k.interface === 'pure' && k.expected === true);
    assert.ok(c, `no valid pure ACVP case for ${s.name}`);
    return { suite: pq[s.export], name: s.name, pk: unhex(c.publicKey), msg: unhex(c.message), sig: unhex(c.signature), context: unhex(c.context) };
  });
}

/**
 * What the package makes of `key` in `keyFormat`: "key" when it prepares one, or the
 * error. Anything but a RangeError or TypeError starting "pqverify: " (a wasm trap, an
 * internal error) fails the test at once.
 */
function decode(suite, key, keyFormat, where) {
  let prepared;
  try {
    prepared = suite.prepare(key, { keyFormat });
  } catch (e) {
    assert.ok(e instanceof RangeError || e instanceof TypeError, `${where}: ${e?.constructor?.name}: ${e?.message}`);
    assert.match(e.message, /^pqverify: /, where);
    assert.doesNotMatch(e.message, /pqverify: pqverify:/, where);
    return e;
  }
  prepared.free();
  return 'key';
}

/** Asserts that `key` is refused; returns the error. */
function refused(suite, key, keyFormat, where) {
  const answer = decode(suite, key, keyFormat, where);
  assert.notEqual(answer, 'key', `${where}: a key was made from a malformed encoding`);
  return answer;
}

test('SPKI: the one valid encoding of each suite\'s key verifies; every truncation and extension is an error', () => {
  for (const c of validCases()) {
    const der = spki(nistOid(ARCS[c.name]), c.pk);
    const opts = { keyFormat: 'spki', context: c.context };
    assert.equal(c.suite.verify(c.sig, c.msg, der, opts), true, `${c.name}: the valid SPKI`);
    const bad = c.sig.slice();
    bad[0] ^= 1;
    assert.equal(c.suite.verify(bad, c.msg, der, opts), false, `${c.name}: a flipped signature under the SPKI`);
    for (let cut = 0; cut < der.length; cut++) {
      const e = refused(c.suite, der.subarray(0, cut), 'spki', `${c.name} cut to ${cut}`);
      assert.match(e.message, /SubjectPublicKeyInfo/, `${c.name} cut to ${cut}`);
    }
    for (const tail of [[0], [0, 0], [0x30, 0x00], [0xff, 0xff, 0xff]]) {
      const e = refused(c.suite, new Uint8Array([...der, ...tail]), 'spki', `${c.name} + ${tail}`);
      assert.match(e.message, /trailing bytes/, `${c.name} + ${tail}`);
    }
  }
});

test('SPKI: every header byte at every other value is refused, or names the other suite its OID now says', () => {
  const names = Object.fromEntries(Object.entries(ARCS).map(([n, a]) => [a, n]));
  for (const c of validCases()) {
    const der = spki(nistOid(ARCS[c.name]), c.pk);
    const header = der.length - c.pk.length;
    // The OID's last byte (the suite's arc) comes before the BIT STRING's tag, length and unused-bits byte.
    const arcAt = header - 2 - derLength(c.pk.length + 1).length - 1;
    assert.equal(der[arcAt], ARCS[c.name]);
    for (let at = 0; at < header; at++) {
      for (let v = 0; v < 256; v++) {
        if (v === der[at]) continue;
        const mutated = der.slice();
        mutated[at] = v;
        const where = `${c.name} byte ${at} = ${v}`;
        const e = refused(c.suite, mutated, 'spki', where);
        // The OID's last byte is the suite's arc: another suite's arc names that suite.
        if (at === arcAt && names[v]) assert.match(e.message, new RegExp(`holds a ${names[v]} key; expected a ${c.name} key`), where);
      }
    }
  }
});

test('SPKI: every length field re-encoded (off by one, non-minimal, indefinite, too long) is refused', () => {
  for (const c of validCases()) {
    const oid = nistOid(ARCS[c.name]);
    // Each of the four lengths (outer SEQUENCE, AlgorithmIdentifier, OID, BIT STRING) in turn.
    const fields = ['outer', 'algorithm', 'oid', 'bits'];
    // The long form with `zeros` needless leading zero octets before the value's own.
    const withZeros = (zeros, n) => {
      const value = n < 0x100 ? [n] : [n >> 8, n & 0xff];
      return [0x80 | (zeros + value.length), ...Array(zeros).fill(0), ...value];
    };
    for (const field of fields) {
      const encodings = [
        ['minus one', (n) => derLength(n - 1)],
        ['plus one', (n) => derLength(n + 1)],
        ['one leading zero octet', (n) => withZeros(1, n)],
        ['two leading zero octets', (n) => withZeros(2, n)],
        ['indefinite', () => [0x80]],
        ['reserved 0xff', () => [0xff]],
        ['2^32 - 1', () => [0x84, 0xff, 0xff, 0xff, 0xff]],
        ['2^64 - 1', () => [0x88, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]],
      ];
      for (const [label, encode] of encodings) {
        const where = `${c.name}: ${field} length ${label}`;
        // The field named is re-encoded; the others stay minimal.
        const len = (n) => derLength(n);
        const seq = (n) => (field === 'outer' ? encode(n) : len(n));
        const alg = field === 'algorithm' ? encode(11) : len(11);
        const oidLen = field === 'oid' ? encode(oid.length) : len(oid.length);
        const bitsLen = field === 'bits' ? encode(c.pk.length + 1) : len(c.pk.length + 1);
        const algorithm = [0x30, ...alg, 0x06, ...oidLen, ...oid];
        const bits = [0x03, ...bitsLen, 0x00, ...c.pk];
        const der = new Uint8Array([0x30, ...seq(algorithm.length + bits.length), ...algorithm, ...bits]);
        const e = refused(c.suite, der, 'spki', where);
        assert.match(e.message, /SubjectPublicKeyInfo|trailing bytes/, where);
      }
    }
  }
});

test('SPKI: every other suite\'s OID, foreign OIDs and parameters are refused, naming what was found', () => {
  const cases = validCases();
  for (const c of cases) {
    for (const other of cases) {
      if (other.name === c.name) continue;
      // The other suite's OID around this suite's key, and around its own key.
      for (const key of [c.pk, other.pk]) {
        const e = refused(c.suite, spki(nistOid(ARCS[other.name]), key), 'spki', `${c.name} given ${other.name}`);
        assert.match(e.message, new RegExp(`holds a ${other.name} key; expected a ${c.name} key`), `${c.name} given ${other.name}`);
      }
    }
    const foreign = [
      ['Ed25519', [0x2b, 0x65, 0x70]],
      ['rsaEncryption', [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]],
      ['ML-KEM-768', [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02]],
      ['HashML-DSA-44 with SHA-512', [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x20]],
      ['arc 16', nistOid(16)],
      ['arc 32', nistOid(32)],
      ['a longer arc', [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x81, ARCS[c.name]]],
      ['one arc short', nistOid(ARCS[c.name]).slice(0, -1)],
      ['an empty OID', []],
    ];
    for (const [label, oid] of foreign) {
      refused(c.suite, spki(oid, c.pk), 'spki', `${c.name} with the OID of ${label}`);
    }
    const oid = nistOid(ARCS[c.name]);
    // RFC 9881 (and the SLH-DSA document): the parameters MUST be absent; NULL is not absent.
    const withNull = [0x06, oid.length, ...oid, 0x05, 0x00];
    refused(c.suite, spki(oid, c.pk, { algorithm: withNull }), 'spki', `${c.name} with NULL parameters`);
    const wrongTag = [0x04, oid.length, ...oid];
    refused(c.suite, spki(oid, c.pk, { algorithm: wrongTag }), 'spki', `${c.name} with the OID as an OCTET STRING`);
  }
});

test('SPKI: seeded random bytes, and random bytes after a valid header, are refused without a trap', () => {
  for (const c of validCases()) {
    const next = prng(ARCS[c.name] * 7919);
    const der = spki(nistOid(ARCS[c.name]), c.pk);
    for (let i = 0; i < 300; i++) {
      const len = (next() << 4) | (next() & 0x0f);
      const random = Uint8Array.from({ length: len }, next);
      const answer = decode(c.suite, random, 'spki', `${c.name} random ${i}`);
      assert.notEqual(answer, 'key', `${c.name} random ${i}`);
      // A valid prefix cut at a random point, then random bytes.
      const cut = (next() * der.length) >> 8;
      const spliced = new Uint8Array([...der.subarray(0, cut), ...Uint8Array.from({ length: der.length - cut }, next)]);
      const spliceAnswer = decode(c.suite, spliced, 'spki', `${c.name} splice ${i} at ${cut}`);
      // Random bytes past the header are a key of the right length; a key means the header is intact.
      if (spliceAnswer === 'key') {
        const header = der.length - c.pk.length;
        assert.deepEqual(spliced.subarray(0, header), der.subarray(0, header), `${c.name} splice ${i} at ${cut}: a key from a broken header`);
      }
    }
  }
});

/** base64url with Node's encoder, unpadded, for comparison. */
const b64url = (bytes) => Buffer.from(bytes).toString('base64url');

test('JWK: every truncation and extension of "pub", every invalid character at every position, is refused', () => {
  for (const c of validCases().filter((k) => k.name.startsWith('ML-DSA'))) {
    const pub = b64url(c.pk);
    const jwk = (p) => ({ kty: 'AKP', alg: c.name, pub: p });
    assert.equal(c.suite.verify(c.sig, c.msg, jwk(pub), { keyFormat: 'jwk', context: c.context }), true, `${c.name}: the valid JWK`);
    for (let cut = 0; cut < pub.length; cut++) {
      const e = refused(c.suite, jwk(pub.slice(0, cut)), 'jwk', `${c.name} pub cut to ${cut}`);
      assert.match(e.message, /not base64url|not canonical|public key is \d+ bytes/, `${c.name} pub cut to ${cut}`);
    }
    for (const tail of ['A', 'AA', 'AAA', 'AAAA', '=', '==']) refused(c.suite, jwk(pub + tail), 'jwk', `${c.name} pub + ${tail}`);
    const invalid = ['=', '+', '/', ' ', '\n', '.', '\0', 'é', '\u{1F511}', '\uFEFF'];
    for (let at = 0; at < pub.length; at++) {
      const ch = invalid[at % invalid.length];
      const e = refused(c.suite, jwk(pub.slice(0, at) + ch + pub.slice(at + 1)), 'jwk', `${c.name} ${JSON.stringify(ch)} at ${at}`);
      assert.match(e.message, /not base64url/, `${c.name} ${JSON.stringify(ch)} at ${at}`);
    }
  }
});

test('JWK: "pub" decodes exactly as base64url (RFC 4648 §5): random strings agree with Node\'s decoder', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const s = pq.ml_dsa44;
  const next = prng(20261202);
  const random = (n) => Array.from({ length: n }, () => alphabet[next() & 63]).join('');
  const seen = { 'not canonical': 0, key: 0, 'another length': 0 };
  for (let i = 0; i < 3000; i++) {
    // Lengths around the key's (1,750 characters), and short ones.
    const n = i % 2 ? 1746 + (next() % 9) : next() % 12;
    const text = random(n);
    const where = `pub of ${n} characters, try ${i}`;
    const answer = decode(s, { kty: 'AKP', alg: 'ML-DSA-44', pub: text }, 'jwk', where);
    const bytes = Buffer.from(text, 'base64url');
    const canonical = n % 4 !== 1 && b64url(bytes) === text;
    if (!canonical) {
      assert.notEqual(answer, 'key', `${where}: a non-canonical string made a key`);
      assert.match(answer.message, /not base64url|not canonical/, where);
      seen['not canonical']++;
    } else if (bytes.length === 1312) {
      assert.equal(answer, 'key', `${where}: a canonical 1312-byte key was refused: ${answer.message}`);
      seen.key++;
    } else {
      assert.match(answer.message, new RegExp(`public key is ${bytes.length} bytes`), where);
      seen['another length']++;
    }
  }
  // Each branch was taken: the strings reached all three outcomes.
  for (const [outcome, n] of Object.entries(seen)) assert.ok(n > 0, `no random string was ${outcome}: ${JSON.stringify(seen)}`);
});

test('JWK: members of the wrong type or value, inherited members and other suites are refused', () => {
  const [c] = validCases();
  const pub = b64url(c.pk);
  const base = { kty: 'AKP', alg: c.name, pub };
  const odd = [undefined, null, 0, 1, true, '', 'akp', [], ['AKP'], {}, new Uint8Array(3), () => 'AKP', Symbol('AKP')];
  for (const member of ['kty', 'alg', 'pub']) {
    for (const value of odd) {
      refused(c.suite, { ...base, [member]: value }, 'jwk', `${member} = ${String(value)}`);
    }
  }
  for (const [member, value] of [['use', 'enc'], ['use', ''], ['key_ops', 'verify'], ['key_ops', []], ['key_ops', ['sign']],
    ['key_ops', {}], ['priv', ''], ['priv', pub]]) {
    refused(c.suite, { ...base, [member]: value }, 'jwk', `${member} = ${JSON.stringify(value)}`);
  }
  assert.equal(decode(c.suite, { ...base, use: 'sig', key_ops: ['verify', 'sign'], ext: true, kid: 'x' }, 'jwk', 'extra members'), 'key');
  // Own members only: an inherited kty or pub is not the key's.
  refused(c.suite, Object.assign(Object.create({ pub }), { kty: 'AKP', alg: c.name }), 'jwk', 'inherited pub');
  refused(c.suite, Object.assign(Object.create({ kty: 'AKP' }), { alg: c.name, pub }), 'jwk', 'inherited kty');
  for (const other of ['ML-DSA-65', 'ML-DSA-87', 'ml-dsa-44', 'ML-DSA-44 ', 'SLH-DSA-SHA2-128s']) {
    refused(c.suite, { ...base, alg: other }, 'jwk', `alg ${other}`);
  }
  for (const notObject of [null, 'x', JSON.stringify(base), [base], new Uint8Array(1312), 7]) {
    const e = refused(c.suite, notObject, 'jwk', `jwk ${typeof notObject}`);
    assert.ok(e instanceof TypeError, `jwk ${typeof notObject}: ${e.message}`);
  }
  // SLH-DSA has no JWK encoding.
  for (const s of SUITES.filter((t) => t.type === 'slh-dsa')) {
    const e = refused(pq[s.export], { kty: 'AKP', alg: s.name, pub: b64url(new Uint8Array(s.publicKey)) }, 'jwk', s.name);
    assert.match(e.message, /no JWK encoding/, s.name);
  }
});
