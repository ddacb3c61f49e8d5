import { runBench } from './run.mjs';
const suites = process.argv[2];
try {
  const result = await runBench('webkit', 'dist', `?quick=1&rounds=1&suites=${suites}&ways=pqverify,pqverify-prepared&autorun=1`, { timeoutMs: 10 * 60 * 1000 });
  console.log('ok', result.errors);
  const lines = result.records.trim().split('\n').map((l) => JSON.parse(l));
  for (const r of lines.filter((r) => r.case === 'first-call' || r.type === 'memory')) console.log(JSON.stringify(r).slice(0, 300));
} catch (e) { console.log('FAILED', e.message); }
