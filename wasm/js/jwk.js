// WebCrypto's JSON Web Key for ML-DSA public keys (kty "AKP", draft-ietf-cose-dilithium):
// JSON is the JavaScript side's to read; the key it holds is checked by pqverify-core.

import { describe, isBytes } from './check.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Strict base64url (RFC 4648 §5, no padding, as JWK uses it): bytes, or a RangeError. */
function base64url(text, what) {
  if (typeof text !== 'string') throw new TypeError(`pqverify: ${what} must be a base64url string, got ${describe(text)}`);
  if (text.length % 4 === 1) throw new RangeError(`pqverify: ${what} is not base64url: ${text.length} characters cannot encode whole bytes`);
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const v = BASE64URL.indexOf(text[i]);
    if (v < 0) throw new RangeError(`pqverify: ${what} is not base64url: character ${JSON.stringify(text[i])} at ${i} (no padding, '-' and '_' for 62 and 63)`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) throw new RangeError(`pqverify: ${what} is not canonical base64url: its last character has bits set past the end of the data`);
  return out;
}

/**
 * The raw key of a WebCrypto JWK (kty "AKP", draft-ietf-cose-dilithium): own
 * properties only; kty, alg and pub must say this suite's public key, and nothing
 * present may contradict them (a private part, another use or no "verify" operation).
 */
export function jwkKey(jwk, name, isMlDsa) {
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk) || isBytes(jwk)) {
    throw new TypeError(`pqverify: a "jwk" public key must be an object such as WebCrypto's exportKey("jwk") gives, got ${describe(jwk)}`);
  }
  if (!isMlDsa) throw new RangeError(`pqverify: ${name} has no JWK encoding (WebCrypto's "AKP" keys are ML-DSA); use "raw" or "spki"`);
  const own = (key) => (Object.prototype.hasOwnProperty.call(jwk, key) ? jwk[key] : undefined);
  const kty = own('kty');
  if (kty !== 'AKP') throw new RangeError(`pqverify: JWK kty is ${JSON.stringify(kty)}; ML-DSA keys have kty "AKP"`);
  const alg = own('alg');
  if (alg !== name) throw new RangeError(`pqverify: JWK alg is ${JSON.stringify(alg)}; expected "${name}"`);
  if (own('priv') !== undefined) throw new RangeError('pqverify: the JWK holds a private key ("priv"); pass only the public key');
  const use = own('use');
  if (use !== undefined && use !== 'sig') throw new RangeError(`pqverify: JWK use is ${JSON.stringify(use)}; a signature key has use "sig"`);
  const ops = own('key_ops');
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) {
    throw new RangeError('pqverify: JWK key_ops does not include "verify"');
  }
  const pub = own('pub');
  if (pub === undefined) throw new RangeError('pqverify: the JWK has no "pub" (the base64url public key)');
  return base64url(pub, 'JWK pub');
}
