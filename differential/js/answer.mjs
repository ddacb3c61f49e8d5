// The differential campaign's Node helper: OpenSSL (node:crypto), @noble/post-quantum
// and, with --chromium, Chromium's WebCrypto (BoringSSL, ML-DSA) answer every case of a
// case file (the layout of differential/src/case.rs), and the answers go to a JSON file:
//   node answer.mjs CASES.cases ANSWERS.json [--chromium /usr/bin/chromium]
// {"verifiers":[{"name","version","answers":"VR-F…","faults":{"i":"why"}}]}, one letter
// per case: V accepted, R rejected (false, or an error about the input, as FIPS 204/205
// return one for a context over 255 bytes), F an answer that is neither, - not its suite.
// Pre-hash cases (HashML-DSA, HashSLH-DSA) go to noble's prehash verifiers; OpenSSL and
// WebCrypto have none. Run in Node 24 (OpenSSL 3.5 has ML-DSA and SLH-DSA).
import { readFileSync, writeFileSync } from 'node:fs';
import * as nodeCrypto from 'node:crypto';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128_32, shake256_64 } from '@noble/hashes/sha3.js';
import { serve } from '../../testkit/js/serve.mjs';
import { spki } from '../../testkit/js/spki.mjs';
import { SUITES } from '../../testkit/js/suites.mjs';

const MAGIC = 'PQVCASES 2\n';
const MAGIC_1 = 'PQVCASES 1\n';

/** The cases of a case file: { suite, mutation, prehash ('' for pure), pk, msg, ctx, sig }. */
export function readCases(bytes) {
  const head = bytes.subarray(0, MAGIC.length).toString('latin1');
  if (head !== MAGIC && head !== MAGIC_1) throw new Error('not a case file (no `PQVCASES 2` or `PQVCASES 1` line)');
  let at = MAGIC.length;
  const take = (n) => {
    if (at + n > bytes.length) throw new Error('case file: truncated');
    const part = bytes.subarray(at, at + n);
    at += n;
    return part;
  };
  const short = () => take(take(1)[0]).toString('utf8');
  const long = () => new Uint8Array(take(take(4).readUInt32LE(0)));
  const cases = [];
  while (at < bytes.length) {
    const suite = short();
    const mutation = short();
    const prehash = head === MAGIC ? short() : '';
    cases.push({ suite, mutation, prehash, pk: long(), msg: long(), ctx: long(), sig: long() });
  }
  return cases;
}

/** noble's signer object for a suite name, or undefined. */
const nobleOf = (suite) => {
  const m = /^ML-DSA-(\d+)$/.exec(suite);
  if (m) return nobleMl[`ml_dsa${m[1]}`];
  const s = /^SLH-DSA-(SHA2|SHAKE)-(\d+[sf])$/.exec(suite);
  return s ? nobleSlh[`slh_dsa_${s[1].toLowerCase()}_${s[2]}`] : undefined;
};

/** The pre-hash functions by their ACVP names, as @noble/hashes gives them (the XOFs at FIPS 204/205's lengths). */
const NOBLE_HASHES = {
  'SHA2-224': sha224, 'SHA2-256': sha256, 'SHA2-384': sha384, 'SHA2-512': sha512,
  'SHA2-512/224': sha512_224, 'SHA2-512/256': sha512_256,
  'SHA3-224': sha3_224, 'SHA3-256': sha3_256, 'SHA3-384': sha3_384, 'SHA3-512': sha3_512,
  'SHAKE-128': shake128_32, 'SHAKE-256': shake256_64,
};

/**
 * noble's verifier for a suite, pure or under a pre-hash, or undefined where noble has
 * none: noble's prehash() refuses a hash whose collision strength is below the suite's
 * level (SHA2-224 for ML-DSA-44, say), a policy FIPS 204 §5.4 and FIPS 205 §10.2
 * put on the signer's choice of hash; the verify call is then not noble's to answer.
 */
const nobleVerifiers = new Map();
function nobleVerifier(suite, prehash) {
  const key = `${suite} ${prehash}`;
  if (!nobleVerifiers.has(key)) {
    const signer = nobleOf(suite);
    let verifier = signer;
    if (signer && prehash) {
      try {
        verifier = signer.prehash(NOBLE_HASHES[prehash]);
      } catch {
        verifier = undefined;
      }
    }
    nobleVerifiers.set(key, verifier);
  }
  return nobleVerifiers.get(key);
}

/** Whether this Node's OpenSSL honours a context (a signature under one context must fail under another). */
function opensslTakesContext() {
  try {
    const { publicKey, privateKey } = nodeCrypto.generateKeyPairSync('ml-dsa-44');
    const msg = Buffer.from('m');
    const sig = nodeCrypto.sign(null, msg, { key: privateKey, context: Buffer.from('a') });
    return nodeCrypto.verify(null, msg, { key: publicKey, context: Buffer.from('a') }, sig) === true
      && nodeCrypto.verify(null, msg, { key: publicKey, context: Buffer.from('b') }, sig) === false;
  } catch {
    return false;
  }
}

/** The suites this OpenSSL has: it imports a key of the suite's OID and length. */
const opensslSuites = new Map();
function opensslHas(suite) {
  if (!opensslSuites.has(suite)) {
    let has = true;
    try {
      const length = SUITES.find((s) => s.name === suite).publicKey;
      nodeCrypto.createPublicKey({ key: Buffer.from(spki(suite, new Uint8Array(length))), format: 'der', type: 'spki' });
    } catch {
      has = false;
    }
    opensslSuites.set(suite, has);
  }
  return opensslSuites.get(suite);
}

/** One verifier's letter for one call: its boolean, an error as a rejection, anything else a fault. */
function letter(call, faults, i) {
  try {
    const r = call();
    if (r === true) return 'V';
    if (r === false) return 'R';
    faults[i] = `returned ${String(r)}`;
    return 'F';
  } catch {
    return 'R';
  }
}

/**
 * Chromium's WebCrypto answers (ML-DSA; '-' for the rest) on a page served from
 * 127.0.0.1 (a secure context, as WebCrypto needs). A context goes in `ContextParams.context`; where the engine does not
 * honour it (probed: a signature under one context must fail under another), a case
 * with a context is not asked.
 */
async function webcrypto(cases, executablePath) {
  const { launch } = await import('../../testkit/js/chromium.mjs');
  const browser = await launch([], { executablePath });
  const server = await serve(new URL('./page', import.meta.url).pathname, { isolated: false });
  try {
    const page = await browser.newPage();
    await page.goto(server.url);
    const b64 = (u8) => Buffer.from(u8).toString('base64');
    // WebCrypto's ML-DSA is the pure interface only.
    const asked = cases.flatMap((c, i) => (c.suite.startsWith('ML-DSA') && !c.prehash
      ? [{ i, suite: c.suite, der: b64(spki(c.suite, c.pk)), msg: b64(c.msg), ctx: b64(c.ctx), sig: b64(c.sig) }]
      : []));
    const answered = await page.evaluate(async (asked) => {
      if (!globalThis.crypto?.subtle) throw new Error(`no crypto.subtle on ${location.href} (secure context: ${isSecureContext})`);
      const un = (s) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
      let context = false;
      try {
        const keys = await crypto.subtle.generateKey({ name: 'ML-DSA-44' }, false, ['sign', 'verify']);
        const m = new Uint8Array([1]);
        const sig = await crypto.subtle.sign({ name: 'ML-DSA-44', context: new Uint8Array([1]) }, keys.privateKey, m);
        context = await crypto.subtle.verify({ name: 'ML-DSA-44', context: new Uint8Array([1]) }, keys.publicKey, sig, m)
          && !(await crypto.subtle.verify({ name: 'ML-DSA-44', context: new Uint8Array([2]) }, keys.publicKey, sig, m));
      } catch {
        context = false;
      }
      const answers = {};
      const faults = {};
      for (const c of asked) {
        const ctx = un(c.ctx);
        if (ctx.length && !context) {
          answers[c.i] = '-';
          continue;
        }
        let key;
        try {
          key = await crypto.subtle.importKey('spki', un(c.der), { name: c.suite }, false, ['verify']);
        } catch (e) {
          // NotSupportedError: the engine lacks the algorithm; anything else: a bad key.
          answers[c.i] = e.name === 'NotSupportedError' ? '-' : 'R';
          continue;
        }
        try {
          const r = await crypto.subtle.verify(ctx.length ? { name: c.suite, context: ctx } : { name: c.suite }, key, un(c.sig), un(c.msg));
          answers[c.i] = r === true ? 'V' : r === false ? 'R' : 'F';
          if (answers[c.i] === 'F') faults[c.i] = `returned ${String(r)}`;
        } catch (e) {
          // An error about the input is a rejection; a TypeError is this page's mistake.
          answers[c.i] = e instanceof TypeError ? 'F' : 'R';
          if (e instanceof TypeError) faults[c.i] = String(e);
        }
      }
      return { answers, faults, context };
    }, asked);
    return {
      name: 'webcrypto-chromium',
      version: `${browser.version()} (WebCrypto, BoringSSL${answered.context ? '' : '; no context'})`,
      answers: cases.map((_, i) => answered.answers[i] ?? '-').join(''),
      faults: answered.faults,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main() {
  const [casesPath, answersPath] = process.argv.slice(2);
  const flag = process.argv.indexOf('--chromium');
  const chromiumPath = flag > 0 ? process.argv[flag + 1] : null;
  if (!casesPath || !answersPath || (flag > 0 && !chromiumPath)) {
    console.error('usage: node answer.mjs CASES.cases ANSWERS.json [--chromium PATH]');
    process.exit(2);
  }
  const cases = readCases(readFileSync(casesPath));
  const context = opensslTakesContext();
  const openssl = { name: 'openssl', version: `${process.versions.openssl} (node:crypto, Node ${process.version})`, answers: '', faults: {} };
  const noble = { name: 'noble', version: JSON.parse(readFileSync(new URL('./node_modules/@noble/post-quantum/package.json', import.meta.url))).version, answers: '', faults: {} };
  cases.forEach((c, i) => {
    // OpenSSL 3.5 signs and verifies pure ML-DSA and SLH-DSA only: no HashML-DSA or HashSLH-DSA.
    if (!c.prehash && opensslHas(c.suite) && (context || c.ctx.length === 0)) {
      openssl.answers += letter(() => {
        const key = nodeCrypto.createPublicKey({ key: Buffer.from(spki(c.suite, c.pk)), format: 'der', type: 'spki' });
        return nodeCrypto.verify(null, c.msg, c.ctx.length ? { key, context: c.ctx } : key, c.sig);
      }, openssl.faults, i);
    } else {
      openssl.answers += '-';
    }
    const verifier = nobleVerifier(c.suite, c.prehash);
    noble.answers += verifier ? letter(() => verifier.verify(c.sig, c.msg, c.pk, { context: c.ctx }), noble.faults, i) : '-';
  });
  const verifiers = [openssl, noble];
  if (chromiumPath) verifiers.push(await webcrypto(cases, chromiumPath));
  writeFileSync(answersPath, JSON.stringify({ verifiers }));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
