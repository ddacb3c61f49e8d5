// The Node benchmark's capacity records (section 7 of the report): first call in fresh
// worker threads, memory per prepared key, and throughput on 1, 2, 4, … worker threads
// up to the core count, each worker with its own instance of the package.
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import { SUITES } from 'pqverify/tables';
import { SCHEMA, firstCallAndMemory, unhex } from './records.mjs';
import { threadCounts } from './certificates.mjs';
import { WAY } from './names.mjs';

const WORKER = new URL('./capacity-worker.mjs', import.meta.url);

function runWorker(workerData, onReady) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData });
    worker.on('message', (m) => {
      if (m === 'ready') onReady(worker);
      else {
        resolve(m);
        worker.terminate();
      }
    });
    worker.on('error', reject);
  });
}


/**
 * Every capacity record for the fixtures of `suites` (FIPS names; all when empty):
 * `emit(record)` per record. `quick` shortens the measurements; `native`: the native
 * build is installed (its first call and memory are measured too).
 */
export async function capacity({ fixtures, suites, run, quick, native, emit }) {
  const handles = quick ? 3 : 7;
  const ms = quick ? 40 : 300;
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const chosen = fixtures.suites.filter((f) => !suites?.length || suites.includes(f.suite));
  for (const f of chosen) {
    const exportName = SUITES.find((s) => s.name === f.suite).export;
    const data = { exportName, pk: unhex(f.pk), msg: unhex(f.msg), sig: unhex(f.sig), entry: 'wasm' };
    // Held keys: enough that the WebAssembly memory grows by many 64 KiB pages even for
    // SLH-DSA's keys of a few hundred bytes.
    const keys = f.suite.startsWith('ML-DSA') ? 200 : 4000;
    // First call and memory: fresh workers, the WebAssembly build and (where its platform
    // package is installed) the native build.
    for (const [entry, oneShot, prepared] of [['wasm', WAY.pqverify, WAY.pqverifyPrepared], ...(native ? [['native', WAY.pqverifyNative, WAY.pqverifyNativePrepared]] : [])]) {
      const fresh = () => runWorker({ ...data, entry, keys, mode: 'first-call' });
      for (const record of await firstCallAndMemory('node', run, f.suite, handles, fresh, [oneShot, prepared])) emit(record);
    }
    // Throughput on 1, 2, … worker threads (the WebAssembly build: the native build's
    // batch across cores is measured apart).
    for (const way of [WAY.pqverify, WAY.pqverifyPrepared]) {
      for (const threads of threadCounts(cores)) {
        const ready = [];
        let go;
        const started = new Promise((r) => { go = r; });
        const results = Array.from({ length: threads }, () => runWorker({ ...data, mode: 'rate', way }, (w) => {
          ready.push(w);
          if (ready.length === threads) go();
        }));
        await started;
        for (const w of ready) w.postMessage({ ms });
        const done = await Promise.all(results);
        if (done.some((d) => d.wrong)) throw new Error(`${f.suite} ${way}: wrong verdicts while measuring throughput`);
        const seconds = Math.max(...done.map((d) => d.elapsedMs)) / 1000;
        emit({
          type: 'scaling', schema: SCHEMA, target: 'node', run, suite: f.suite, way, threads,
          ops_per_s: done.reduce((n, d) => n + d.count, 0) / seconds,
        });
      }
    }
  }
}
