// The benchmark page: controls, progress, results table and chart, native records
// side by side, export of the browser's records (schema pqverify-bench/1).
import { SUITES as SUITE_TABLE } from 'pqverify/tables';
import { createPool } from 'pqverify/pool';
import initBench, { BenchSuite } from '../generated/pqverify_bench.js';
import { certificateScenario } from '../../js/certificates.mjs';
import { coldStartRecord, firstCallAndMemory, unhex } from '../../js/records.mjs';
import { COLD_START_ENTRIES, COLD_START_SUITE, SCHEMA, WAY } from '../../js/names.mjs';

const $ = (id) => document.getElementById(id);
const SUITES = SUITE_TABLE.map((s) => s.name);
const WAYS = [WAY.pqverify, WAY.pqverifyPrepared, WAY.noble, WAY.liboqsJs, WAY.ox, WAY.oxWasm, WAY.webcrypto, WAY.webcryptoInflight, WAY.webcryptoImport];
const params = new URLSearchParams(location.search);
let records = [];
let native = [];

// simd128 support: a module with one v128 instruction validates only where SIMD exists.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const simd = WebAssembly.validate(SIMD_PROBE);

// The records' target is the browser engine: chromium (V8), firefox (SpiderMonkey) or
// webkit (JavaScriptCore), as the runner says or as the user agent tells.
const ua = navigator.userAgent;
const target = params.get('target') ?? (/Firefox\//.test(ua) ? 'firefox' : /Chrom(e|ium)\//.test(ua) ? 'chromium' : 'webkit');

function env() {
  return {
    type: 'env', schema: SCHEMA, target,
    run: `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}-${target}`,
    cpu: navigator.userAgentData?.platform ?? navigator.platform ?? 'unknown',
    cores: navigator.hardwareConcurrency ?? 1, os: navigator.userAgent,
    runtime: params.get('runtime') ?? (ua.match(/(Chrom(e|ium)|Firefox|Version)\/[\d.]+/)?.[0] ?? target).replace('Version/', `${target}/`),
    liboqs: null, backend: '', fixtures: '', ways: [],
    extra: {
      userAgent: navigator.userAgent, simd128: simd, crossOriginIsolated: self.crossOriginIsolated === true,
      noble: __NOBLE_VERSION__, 'liboqs-js': __LIBOQS_JS_VERSION__,
    },
  };
}

function controls() {
  const chosen = (params.get('suites') ?? 'ML-DSA-44,ML-DSA-65,ML-DSA-87,SLH-DSA-SHAKE-128s').split(',');
  $('suites').innerHTML = SUITES.map((s) => `<label><input type="checkbox" name="suite" value="${s}" ${chosen.includes(s) ? 'checked' : ''}> ${s}</label>`).join('');
  const ways = (params.get('ways') ?? WAYS.join(',')).split(',');
  $('ways').innerHTML = WAYS.map((w) => `<label><input type="checkbox" name="way" value="${w}" ${ways.includes(w) ? 'checked' : ''}> ${w}</label>`).join('');
  if (params.has('quick')) $('quick').checked = params.get('quick') !== '0';
  if (params.has('rounds')) $('rounds').value = params.get('rounds');
  $('env').textContent = `${navigator.userAgent} · ${navigator.hardwareConcurrency} cores · simd128 ${simd ? 'available' : 'not available'} · cross-origin isolated ${self.crossOriginIsolated === true}`;
}

const us = (ns) => (ns >= 1e7 ? (ns / 1e3).toFixed(0) : ns >= 1e5 ? (ns / 1e3).toFixed(1) : (ns / 1e3).toFixed(2));
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Per (way, suite, case): median of round medians, worst p95, disagreements. */
function summarise(lines) {
  const cells = new Map();
  for (const r of lines) {
    if (r.type !== 'sample') continue;
    const k = `${r.way}|${r.suite}|${r.case}`;
    const c = cells.get(k) ?? { medians: [], p95: 0, disagreements: 0 };
    c.medians.push(r.median_ns);
    c.p95 = Math.max(c.p95, r.p95_ns);
    c.disagreements += r.disagreements;
    cells.set(k, c);
  }
  return (way, suite, c = 'valid') => {
    const cell = cells.get(`${way}|${suite}|${c}`);
    return cell && { median: median(cell.medians), p95: cell.p95, disagreements: cell.disagreements };
  };
}

function render() {
  const get = summarise(records);
  const nat = summarise(native);
  const suites = [...new Set(records.filter((r) => r.type === 'sample').map((r) => r.suite))];
  const ways = [...new Set(records.filter((r) => r.type === 'sample').map((r) => r.way))];
  const withNative = native.length > 0;
  let html = `<tr><th>suite</th><th>way</th><th>case</th><th>median µs</th><th>p95 µs</th><th>× vs noble</th>${withNative ? '<th>native µs</th><th>wasm / native</th>' : ''}<th>verdicts</th></tr>`;
  for (const suite of suites) {
    for (const way of ways) {
      for (const c of ['valid', 'invalid']) {
        const cell = get(way, suite, c);
        if (!cell) continue;
        const noble = get('noble', suite, c);
        const n = withNative ? nat(way, suite, c) : null;
        html += `<tr data-suite="${suite}" data-way="${way}" data-case="${c}"><td>${suite}</td><td>${way}</td><td>${c}</td>` +
          `<td>${us(cell.median)}</td><td>${us(cell.p95)}</td>` +
          `<td>${noble && way !== 'noble' ? (noble.median / cell.median).toFixed(1) + '×' : '—'}</td>` +
          (withNative ? `<td class="native">${n ? us(n.median) : '—'}</td><td class="ratio">${n ? (cell.median / n.median).toFixed(2) + '×' : '—'}</td>` : '') +
          `<td class="verdicts">${cell.disagreements === 0 ? 'all correct' : `${cell.disagreements} wrong`}</td></tr>`;
      }
    }
  }
  $('results').innerHTML = html;
  $('capacity').innerHTML = capacityTable(get);
  $('cold-start').innerHTML = coldStartTable();
  $('certificates').innerHTML = certificateTable();
  $('chart').innerHTML = chart(suites, ways, get, withNative ? nat : null);
  $('export').disabled = records.length === 0;
}

/** First call (fresh worker) beside the steady median, and memory per prepared key. */
function capacityTable(get) {
  const memory = new Map(records.filter((r) => r.type === 'memory').map((r) => [r.suite, r]));
  const suites = [...new Set(records.filter((r) => r.case === 'first-call').map((r) => r.suite))];
  let html = '<tr><th>suite</th><th>first call µs (fresh worker: import + verify)</th><th>steady µs</th><th>new prepared key + verify µs</th><th>memory per prepared key</th></tr>';
  for (const suite of suites) {
    const first = get('pqverify', suite, 'first-call');
    const steady = get('pqverify', suite, 'valid');
    const prepared = get('pqverify-prepared', suite, 'first-call');
    const m = memory.get(suite);
    html += `<tr data-capacity="${suite}"><td>${suite}</td><td>${first ? us(first.median) : '—'}</td><td>${steady ? us(steady.median) : '—'}</td>` +
      `<td>${prepared ? us(prepared.median) : '—'}</td><td>${m ? `${(m.bytes_per_key / 1024).toFixed(1)} KiB` : '—'}</td></tr>`;
  }
  return html;
}

/** Cold start per entry (fresh workers): import, and import + first verify, in ms. */
function coldStartTable() {
  const rows = records.filter((r) => r.type === 'cold-start');
  if (rows.length === 0) return '';
  let html = '<tr><th>entry</th><th>suite</th><th>workers</th><th>import ms</th><th>import + first verify ms</th></tr>';
  for (const r of rows) {
    html += `<tr data-cold-start="${r.way}"><td>${r.way}</td><td>${r.suite}</td><td>${r.processes}</td>` +
      `<td>${(r.import_ns / 1e6).toFixed(2)}</td><td>${(r.first_verify_ns / 1e6).toFixed(2)}</td></tr>`;
  }
  return html;
}

/** Horizontal bars, log scale (1 µs … 100 ms), valid signatures. */
function chart(suites, ways, get, nat) {
  const series = ways.map((w) => ({ label: `${target} ${w}`, f: (s) => get(w, s) }));
  if (nat) for (const w of ['pqverify', 'liboqs', 'reference']) series.push({ label: `native ${w}`, f: (s) => nat(w, s) });
  const colors = ['#2563eb', '#1e3a8a', '#f59e0b', '#16a34a', '#6b7280', '#a3a3a3'];
  const bar = 10, left = 150, width = 640;
  const group = bar * series.length + 8;
  const x = (ns) => left + (width - left - 10) * Math.max(0, Math.log10(ns / 1e3)) / 5;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${30 + group * suites.length + 16 * series.length}" font-size="11" font-family="sans-serif">`;
  for (let p = 0; p <= 5; p++) svg += `<line x1="${x(10 ** p * 1e3)}" y1="14" x2="${x(10 ** p * 1e3)}" y2="${20 + group * suites.length}" stroke="#e5e7eb"/><text x="${x(10 ** p * 1e3)}" y="12" text-anchor="middle">${10 ** p} µs</text>`;
  suites.forEach((s, i) => {
    const y = 20 + group * i;
    svg += `<text x="${left - 6}" y="${y + group / 2}" text-anchor="end">${s}</text>`;
    series.forEach((se, j) => {
      const c = se.f(s);
      if (c) svg += `<rect x="${left}" y="${y + bar * j}" width="${Math.max(1, x(c.median) - left)}" height="${bar - 1}" fill="${colors[j % colors.length]}"><title>${se.label}: ${us(c.median)} µs</title></rect>`;
    });
  });
  series.forEach((se, j) => {
    const y = 26 + group * suites.length + 16 * j;
    svg += `<rect x="${left}" y="${y}" width="10" height="10" fill="${colors[j % colors.length]}"/><text x="${left + 16}" y="${y + 9}">${se.label}</text>`;
  });
  return `${svg}</svg>`;
}

function loadNative(text) {
  native = text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((r) => r.schema === SCHEMA && r.target === 'native');
  $('native-status').textContent = `${native.filter((r) => r.type === 'sample').length} native samples loaded`;
  render();
}

function run() {
  const suites = [...document.querySelectorAll('input[name=suite]:checked')].map((i) => i.value);
  const ways = [...document.querySelectorAll('input[name=way]:checked')].map((i) => i.value);
  const options = { quick: $('quick').checked, rounds: Number($('rounds').value) || undefined, suites };
  records = [];
  document.body.dataset.done = '0';
  $('run').disabled = true;
  const runEnv = env();
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.type === 'ready') {
      worker.postMessage({ type: 'run', options, ways, env: runEnv });
    } else if (data.type === 'record') {
      records.push(JSON.parse(data.line));
      render();
    } else if (data.type === 'progress') {
      $('progress').max = data.total;
      $('progress').value = data.done;
      $('current').textContent = data.current;
    } else if (data.type === 'done' || data.type === 'error') {
      worker.terminate();
      if (data.type === 'error') {
        $('current').textContent = `error: ${data.message}`;
        $('run').disabled = false;
        document.body.dataset.done = 'error';
        return;
      }
      // Sections 7 and 8 from this page's own thread, which starts their workers (in some
      // runs Firefox 153 froze for good a worker that started workers of its own):
      // capacity=0 and certificates=0 leave them out.
      const finish = (state) => {
        $('run').disabled = false;
        document.body.dataset.done = state;
      };
      (async () => {
        if (params.get('capacity') !== '0') await capacity(options, runEnv);
        if (params.get('certificates') !== '0') await certificates(options.quick, runEnv);
      })().then(() => finish('1'), (e) => {
        $('current').textContent = `error: ${e?.message ?? e}`;
        finish('error');
      });
    }
  };
  worker.onerror = (e) => {
    $('current').textContent = `error: ${e.message ?? 'the worker failed to load'}`;
    $('run').disabled = false;
    document.body.dataset.done = 'error';
  };
}

/** One fresh worker's answer to `data` (fresh-worker.js: `first-call` or `cold-start`). */
function inFreshWorker(data) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./fresh-worker.js', import.meta.url), { type: 'module' });
    // A worker that never answers fails the run, with what happened, instead of hanging it.
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error(`a ${data.mode} worker gave no answer within 60 s`));
    }, 60_000);
    const settle = (f, value) => {
      clearTimeout(timer);
      worker.terminate();
      f(value);
    };
    worker.onmessage = ({ data: result }) => (result.error ? settle(reject, new Error(result.error)) : settle(resolve, result));
    worker.onerror = (e) => settle(reject, new Error(e.message ?? `the ${data.mode} worker failed`));
    worker.postMessage(data);
  });
}

/**
 * Section 7 of the report, in the browser: first call in fresh workers and memory per
 * prepared key (the growth of a fresh instance's linear memory over 200 held keys,
 * median over the workers); then the cold start of each entry in fresh workers (import
 * + first verify, as Node's fresh processes), where the run has its suite.
 */
async function capacity(options, runEnv) {
  const handles = options.quick ? 3 : 7;
  const fixtures = await (await fetch(new URL('../generated/fixtures.json', import.meta.url))).json();
  const bytes = (f) => ({ exportName: SUITE_TABLE.find((s) => s.name === f.suite).export, pk: unhex(f.pk), msg: unhex(f.msg), sig: unhex(f.sig) });
  const measured = fixtures.suites.filter((f) => !options.suites.length || options.suites.includes(f.suite));
  for (const f of measured) {
    $('current').textContent = `${f.suite} first call and memory`;
    const data = { mode: 'first-call', ...bytes(f) };
    for (const record of await firstCallAndMemory(runEnv.target, runEnv.run, f.suite, handles, () => inFreshWorker(data))) {
      records.push(record);
      render();
    }
  }
  const cold = measured.find((f) => f.suite === COLD_START_SUITE);
  if (!cold) return;
  for (const entry of COLD_START_ENTRIES) {
    $('current').textContent = `cold start of ${entry}`;
    const reports = [];
    for (let i = 0; i < (options.quick ? 3 : 15); i++) reports.push(await inFreshWorker({ mode: 'cold-start', entry, ...bytes(cold) }));
    records.push(coldStartRecord(runEnv.target, runEnv.run, entry, cold.suite, reports));
  }
  render();
}

/** The quorum-certificate scenario (benches/js/certificates.mjs) on this page's thread. */
async function certificates(quick, runEnv) {
  await initBench({ module_or_path: new URL('../generated/pqverify_bench_bg.wasm', import.meta.url) });
  const fixtures = await (await fetch(new URL('../generated/certificates.json', import.meta.url))).json();
  await certificateScenario(fixtures, createPool, BenchSuite.certificateRecord, {
    env: runEnv, quick, cores: navigator.hardwareConcurrency ?? 1, subtle: self.crypto?.subtle ?? null,
    emit: (line) => {
      records.push(JSON.parse(line));
      render();
    },
    progress: (text) => { $('current').textContent = text; },
  });
}

/** Quorum certificates: ms per certificate by workers, and how late this page's timer fired. */
function certificateTable() {
  const rows = records.filter((r) => r.type === 'certificate');
  let html = '<tr><th>suite</th><th>way</th><th>workers</th><th>validators</th><th>ms per certificate</th><th>p95 ms</th><th>µs per signature</th><th>page timer late, ms</th><th>verdicts</th></tr>';
  for (const r of rows) {
    html += `<tr data-certificate="${r.suite}|${r.way}|${r.threads}"><td>${r.suite}</td><td>${r.way}</td><td>${r.threads || 'platform'}</td><td>${r.validators}</td>` +
      `<td>${(r.median_ns / 1e6).toFixed(2)}</td><td>${(r.p95_ns / 1e6).toFixed(2)}</td><td>${us(r.per_signature_ns)}</td>` +
      `<td>${r.blocked_ns === undefined ? '—' : (r.blocked_ns / 1e6).toFixed(2)}</td><td>${r.wrong === 0 ? 'all valid' : `${r.wrong} wrong`}</td></tr>`;
  }
  return html;
}

function exportRecords() {
  const blob = new Blob([records.map((r) => JSON.stringify(r)).join('\n') + '\n'], { type: 'application/x-ndjson' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `pqverify-${target}-${Date.now()}.jsonl`;
  a.click();
}

controls();
$('run').onclick = run;
$('export').onclick = exportRecords;
$('native-file').onchange = async (e) => loadNative(await e.target.files[0].text());
document.body.ondragover = (e) => e.preventDefault();
document.body.ondrop = async (e) => {
  e.preventDefault();
  if (e.dataTransfer.files[0]) loadNative(await e.dataTransfer.files[0].text());
};
// For tests and the headless runner: the records as JSON lines.
window.pqverifyRecords = () => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
if (params.get('autorun') === '1') run();
