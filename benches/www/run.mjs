// The benchmark page in a browser engine: opens the built page with a query, waits
// for the run and returns the records it wrote (JSON lines).
import { openInEngine, webkitVersion } from '../../testkit/js/engines.mjs';

/** The page's progress line, for a run that does not finish. */
const CURRENT = "document.getElementById('current')?.textContent ?? ''";

/**
 * Runs the page in `dist` at `query` in `engine` (the records' `target`); resolves to
 * `{ records, errors, version }`, or throws with the page's own message when the run failed.
 */
export async function runBench(engine, dist, query, { timeoutMs = 30 * 60 * 1000 } = {}) {
  // The runner knows WebKit's release; the page cannot (its user agent is frozen).
  const runtime = engine === 'webkit' ? `&runtime=${encodeURIComponent(webkitVersion().replace(' ', '/'))}` : '';
  const result = await openInEngine(engine, dist, `${query}&target=${engine}${runtime}`,
    `{ current: ${CURRENT}, records: window.pqverifyRecords() }`, { timeoutMs, status: CURRENT });
  if (result.state !== '1') throw new Error(`the run in ${engine} failed: ${result.current}`);
  return result;
}
