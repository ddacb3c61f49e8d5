// liboqs-js (liboqs compiled by Emscripten), the JS peer of the benchmark: one
// instance per suite it has, made before any timing. Its factory names follow the
// FIPS names: ML-DSA-44 → createMLDSA44, SLH-DSA-SHA2-128s → createSlhDsaSha2128s.

/** The liboqs-js factory name of a FIPS suite. */
export const factoryName = (suite) => (suite.startsWith('ML-DSA')
  ? `createMLDSA${suite.slice(7)}`
  : `createSlhDsa${suite.slice(8).split('-').map((p) => p[0] + p.slice(1).toLowerCase()).join('')}`);

/** Instances by FIPS suite name, for the suites liboqs-js (the module `sig`) has. */
export async function liboqsInstances(sig, suites) {
  const out = {};
  for (const name of suites) {
    const make = sig[factoryName(name)];
    if (typeof make === 'function') out[name] = await make();
  }
  return out;
}
