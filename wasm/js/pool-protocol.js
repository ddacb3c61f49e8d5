// The messages between the verifier pool (pool-core.js, through pool-scheduler.js) and
// its workers (pool-serve.js): codes, and byte fields packed into one transferable buffer.
//   verify       { items: [[suite, interface, pre-hash, key format]], data, ends } (4 fields an item)
//   install      { set, suite, format, keys: { data, ends } }
//   certificate  { set, message, context, signers (every index), start, data, ends }
//   release      { set } (no reply)
// Replies: { id, verdicts (VERDICT codes), errors: { k: [name, message] } }, or
// { id, failure: { name, message } }. Suites, interfaces and pre-hashes are the ids of
// the generated tables.js.

/** The job protocol's verdict codes. */
export const VERDICT = Object.freeze({ false: 0, true: 1, error: 2 });

/**
 * Packs byte arrays into one fresh buffer: `data` and `ends` (field i is
 * data[ends[i - 1] ?? 0 .. ends[i]]), both transferable.
 */
export function pack(fields) {
  let total = 0;
  for (const f of fields) total += f.length;
  const data = new Uint8Array(total);
  const ends = new Uint32Array(fields.length);
  let at = 0;
  fields.forEach((f, i) => {
    data.set(f, at);
    at += f.length;
    ends[i] = at;
  });
  return { data, ends };
}

/** Field `i` of a packed buffer, as a view. */
export function field({ data, ends }, i) {
  return data.subarray(i === 0 ? 0 : ends[i - 1], ends[i]);
}
