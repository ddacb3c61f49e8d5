// X.509 SubjectPublicKeyInfo (RFC 5280) around a raw public key, as the platforms'
// verifiers (WebCrypto's `spki` format, node:crypto) import keys. Browser-safe.
import { SUITES } from './suites.mjs';

/** A DER length octet string. */
const derLength = (n) => (n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff]);

/** The SubjectPublicKeyInfo DER of the raw public key `pk` of `suite` (a FIPS name). */
export function spki(suite, pk) {
  const facts = SUITES.find((s) => s.name === suite);
  if (!facts) throw new Error(`spki: unknown suite ${suite}`);
  const alg = [0x30, facts.oid.length, ...facts.oid];
  const bits = [0x03, ...derLength(pk.length + 1), 0];
  const head = [0x30, ...derLength(alg.length + bits.length + pk.length), ...alg, ...bits];
  const der = new Uint8Array(head.length + pk.length);
  der.set(head);
  der.set(pk, head.length);
  return der;
}
