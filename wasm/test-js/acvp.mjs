// The NIST ACVP sigVer cases (written by cargo xtask from pqverify-kats into the file
// PQVERIFY_ACVP_CASES names) through the package's API, as a wallet calls it. Plain
// JavaScript with no imports: the Node tests, the Hermes bundle and the Firefox and
// WebKit pages all run this one file.

const unhex = (h) => {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(2 * i, 2), 16);
  return out;
};

/** The verdict of case `c` through the entry `pq` (its suites by export name). */
export function verdictOf(pq, c) {
  const suite = pq[pq.suites().find((s) => s.name === c.suite).export];
  const [sig, msg, pk, context] = [unhex(c.signature), unhex(c.message), unhex(c.publicKey), unhex(c.context)];
  switch (c.interface) {
    case 'pure': return suite.verify(sig, msg, pk, { context });
    case 'prehash': return suite.prehash(c.prehash).verify(sig, msg, pk, { context });
    case 'internal': return suite.internal.verify(sig, msg, pk);
    case 'external-mu': return suite.internal.verify(sig, msg, pk, { externalMu: true });
    default: throw new Error(`unknown interface ${c.interface}`);
  }
}

/**
 * The cases whose verdict through `pq` is not the expected one, as "suite tg N tc M"
 * (a RangeError counts as a rejection: the API throws it for input it refuses).
 */
export function wrongCases(pq, cases) {
  const wrong = [];
  for (const c of cases) {
    let ok;
    try {
      ok = verdictOf(pq, c) === c.expected;
    } catch (e) {
      ok = c.expected === false && e instanceof RangeError;
    }
    if (!ok) wrong.push(`${c.suite} tg ${c.tgId} tc ${c.tcId}`);
  }
  return wrong;
}
