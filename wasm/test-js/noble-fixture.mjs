// The signatures @noble/post-quantum made for every suite (make-noble-fixtures.mjs),
// hex strings: `{ suite, publicKey, message, pure, … }`, one per suite.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Every suite's fixture, in pqverify's suite order. */
export const nobleFixtures = JSON.parse(gunzipSync(readFileSync(new URL('./fixtures/noble.json.gz', import.meta.url))).toString());

/** The ML-DSA-44 fixture (pure, empty context). */
export const nobleFixture = nobleFixtures[0];
