// `npm run bench`: wnn (dist/wnn.wasm through js/wnn.js) against
// onnxruntime-web (wasm backend, 1 thread, SIMD build) and onnxruntime-node
// (native, 1 thread) on the real models of ../shared/models and the
// torchvision exports of tests/torch/export.py (build/torchvision), plus the
// GEMM microkernel against the machine's SIMD128 peak
// (bench/kernels/run-wasm.sh). docs/performance.md explains what is measured
// and how.
//
//   node bench/run.mjs [--models a,b,...] [--runs N] [--warmups N] [--no-gemm]
//                      [--models-dir DIR] [--extra-models DIR] [--no-extra-models]
//                      [--quant-models DIR] [--no-quant-models] [--out DIR]
//
// --extra-models DIR: every subfolder of DIR with model.onnx and
// test_data_set_0 joins the models, named tv_<folder> (tv_mobilenet_v2, ...);
// default build/torchvision when it exists (`npm run bench` runs
// tests/torch/export.py into it first when it is missing). --quant-models
// DIR: the quantized models of tests/quant/quantize.py (default build/quant
// when it exists), under their folder names (q_tv_mobilenet_v2,
// qdyn_tv_transformer_encoder, bert_encoder, ...); each quantized one is also
// set against its float version (quant.json's "float": tv_mobilenet_v2, ...)
// in the "quantized" part of the results (issue 17). --models selects from
// all the lists by those names.
//
// Needs build/native/wnn (to convert the models), dist/wnn.wasm and the dev
// dependencies onnxruntime-web and onnxruntime-node (`npm run bench` builds
// the first two; `npm test`'s setup installs the others). Writes
// results.json, results.md and results.svg in --out (default bench/); the
// converted artifacts go to build/bench/models/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseTensorProto } from '../js/io.js';
import { convertModel } from './convert.mjs';
import { renderSvg } from './chart.mjs';
import { renderDocSection, renderMarkdown, renderQuantizedTable } from './report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (p) => path.relative(ROOT, p) || '.';

// ------------------------------------------------------------------ options
const EXTRA_PREFIX = 'tv_';
const DEFAULT_EXTRA = path.join(ROOT, 'build/torchvision');
const DEFAULT_QUANT = path.join(ROOT, 'build/quant');
const opt = {
  models: null, runs: 20, warmups: 3, gemm: true, modelsDir: path.resolve(ROOT, '../shared/models'),
  extraDir: fs.existsSync(DEFAULT_EXTRA) ? DEFAULT_EXTRA : null,
  quantDir: fs.existsSync(DEFAULT_QUANT) ? DEFAULT_QUANT : null, out: path.join(ROOT, 'bench'),
};
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const [k, inline] = argv[i].split(/=(.*)/s);
  const val = () => inline ?? argv[++i];
  if (k === '--models') opt.models = val().split(',').filter(Boolean);
  else if (k === '--runs') opt.runs = Number(val());
  else if (k === '--warmups') opt.warmups = Number(val());
  else if (k === '--no-gemm') opt.gemm = false;
  else if (k === '--models-dir') opt.modelsDir = path.resolve(val());
  else if (k === '--extra-models') opt.extraDir = path.resolve(val());
  else if (k === '--no-extra-models') opt.extraDir = null;
  else if (k === '--quant-models') opt.quantDir = path.resolve(val());
  else if (k === '--no-quant-models') opt.quantDir = null;
  else if (k === '--out') opt.out = path.resolve(val());
  else {
    console.error(`bench: unknown option '${argv[i]}' (options: --models a,b --runs N --warmups N --no-gemm --models-dir DIR --extra-models DIR --no-extra-models --quant-models DIR --no-quant-models --out DIR)`);
    process.exit(2);
  }
}
if (!(Number.isInteger(opt.runs) && opt.runs >= 20)) { console.error(`bench: --runs must be an integer >= 20, got ${opt.runs}`); process.exit(2); }
if (!(Number.isInteger(opt.warmups) && opt.warmups >= 1)) { console.error(`bench: --warmups must be an integer >= 1, got ${opt.warmups}`); process.exit(2); }

const CLI = path.join(ROOT, 'build/native/wnn');
const need = [
  [CLI, 'bash scripts/build.sh native'],
  [path.join(ROOT, 'dist/wnn.wasm'), 'bash scripts/build.sh web'],
  [path.join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'ONNXRUNTIME_NODE_INSTALL=skip npm install'],
  [path.join(ROOT, 'node_modules/onnxruntime-node/package.json'), 'ONNXRUNTIME_NODE_INSTALL=skip npm install'],
];
for (const [file, how] of need) {
  if (!fs.existsSync(file)) { console.error(`bench: ${rel(file)} is missing (${how})`); process.exit(1); }
}
if (!fs.existsSync(opt.modelsDir)) { console.error(`bench: ${opt.modelsDir}: no models folder`); process.exit(1); }
if (opt.quantDir && !fs.existsSync(opt.quantDir)) {
  console.error(`bench: --quant-models ${opt.quantDir}: no such folder (/usr/bin/python3 tests/quant/quantize.py DIR writes the quantized models there)`);
  process.exit(1);
}
if (opt.extraDir && !fs.existsSync(opt.extraDir)) {
  console.error(`bench: --extra-models ${opt.extraDir}: no such folder (/usr/bin/python3 tests/torch/export.py DIR writes the torchvision exports there)`);
  process.exit(1);
}

const ARTIFACTS = path.join(ROOT, 'build/bench/models');
fs.mkdirSync(ARTIFACTS, { recursive: true });
const log = (...a) => console.error(...a);
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
const loadBefore = loadavg();

// -------------------------------------------------------------- one model
// wnn-relaxed (dist/wnn-relaxed.wasm) runs in a Node with relaxed SIMD on.
const NODE_FLAGS = { 'wnn-relaxed': ['--experimental-wasm-relaxed-simd'] };
function runOne(runtime, file, dataDir) {
  const r = spawnSync(process.execPath, [...(NODE_FLAGS[runtime] ?? []), path.join(ROOT, 'bench/runner.mjs'), runtime, file, dataDir, String(opt.runs), String(opt.warmups)],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 15 * 60 * 1000 });
  const line = (r.stdout || '').trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n').pop() || `exit status ${r.status}`;
    return { runtime, error: why.slice(0, 300) };
  }
}

const convert = (name, onnx, inputs, dataDir) =>
  convertModel({ cli: CLI, onnx, out: path.join(ARTIFACTS, `${name}.wnn`), inputs, dataDir });

// Within ONNX's backend-test tolerance of the expected outputs?
const close = (r, expected) => r.maxAbsDiff !== null && r.maxAbsDiff <= 1e-5 + 1e-3 * expected;

// The model folders of a directory (with model.onnx and test_data_set_0), as
// {name, dir, source}: the shared models under their folder names, the
// extra ones (torchvision exports) under tv_<folder>.
const modelFolders = (root, prefix, source) => fs.readdirSync(root)
  .filter((d) => fs.existsSync(path.join(root, d, 'model.onnx')) && fs.existsSync(path.join(root, d, 'test_data_set_0')))
  .sort()
  .map((d) => ({ name: prefix + d, dir: path.join(root, d), source }));
const available = [
  ...modelFolders(opt.modelsDir, '', rel(opt.modelsDir)),
  ...(opt.extraDir ? modelFolders(opt.extraDir, EXTRA_PREFIX, `${rel(opt.extraDir)} (tests/torch/export.py)`) : []),
  ...(opt.quantDir ? modelFolders(opt.quantDir, '', `${rel(opt.quantDir)} (tests/quant/quantize.py)`) : []),
];
if (opt.models) {
  for (const m of opt.models) {
    if (!available.some((a) => a.name === m)) {
      console.error(`bench: no model '${m}' (with model.onnx and test_data_set_0) in ${opt.modelsDir}` +
        `${opt.extraDir ? ` or (as ${EXTRA_PREFIX}<folder>) in ${opt.extraDir}` : ''}${opt.quantDir ? ` or in ${opt.quantDir}` : ''}`);
      process.exit(2);
    }
  }
}
const selected = available.filter((a) => !opt.models || opt.models.includes(a.name));

const models = [];
for (const { name, dir, source } of selected) {
  const onnx = path.join(dir, 'model.onnx');
  const data = path.join(dir, 'test_data_set_0');
  const inputs = [];
  for (let i = 0; fs.existsSync(path.join(data, `input_${i}.pb`)); i++) inputs.push(parseTensorProto(fs.readFileSync(path.join(data, `input_${i}.pb`))));
  let expectedMax = 0;
  for (let i = 0; fs.existsSync(path.join(data, `output_${i}.pb`)); i++) {
    for (const v of parseTensorProto(fs.readFileSync(path.join(data, `output_${i}.pb`))).data) expectedMax = Math.max(expectedMax, Math.abs(Number(v)));
  }
  const m = {
    name, source, onnxBytes: fs.statSync(onnx).size,
    inputs: inputs.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.shape })),
  };
  // A quantized model names its float version (tests/quant/quantize.py's quant.json).
  const qmeta = path.join(dir, 'quant.json');
  if (fs.existsSync(qmeta)) {
    const q = JSON.parse(fs.readFileSync(qmeta, 'utf8'));
    if (q.float) m.quantized = { kind: q.kind, float: q.float, weights: q.weights };
  }
  models.push(m);
  log(`== ${name}`);
  const c = convert(name, onnx, inputs, data);
  m.convert = { command: ['build/native/wnn', ...c.args.slice(0, 1), rel(onnx), ...c.args.slice(2, 3), rel(c.args[3]), ...c.args.slice(4).map((a) => a.replace(`${ROOT}/`, '').replace(opt.modelsDir, rel(opt.modelsDir)))].join(' ') };
  if (c.consts?.length) m.note = `wnn: ${c.consts.join(', ')} frozen to the test data's value (wnn convert --const); the ORT runtimes take it as an input`;
  if (!c.ok) { m.skipped = c.why; log(`   skipped: ${c.why}`); continue; }
  m.convert.ms = +c.ms.toFixed(1);
  m.wnnBytes = fs.statSync(c.file).size;
  m.files = { wnn: c.file, onnx, data };
  const wnn = runOne('wnn', c.file, data);
  if (wnn.error) { m.skipped = `wnn fails to run it: ${wnn.error}`; log(`   skipped: ${m.skipped}`); continue; }
  m.results = { wnn, 'wnn-relaxed': runOne('wnn-relaxed', c.file, data), 'ort-web': runOne('ort-web', onnx, data), 'ort-node': runOne('ort-node', onnx, data) };
  for (const r of Object.values(m.results)) {
    if (r.error) { log(`   ${r.runtime}: error: ${r.error}`); continue; }
    r.matchesExpected = close(r, expectedMax);
    log(`   ${r.runtime.padEnd(8)} median ${r.medianMs.toFixed(3)} ms  min ${r.minMs.toFixed(3)} ms  load ${r.loadMs.toFixed(1)} ms  wasm memory ${r.wasmMemoryBytes ?? '-'}  max|diff| ${r.maxAbsDiff}`);
  }
  const w = m.results.wnn, web = m.results['ort-web'], nat = m.results['ort-node'], rx = m.results['wnn-relaxed'];
  const ratio = (a, b) => (a != null && b != null && !w.error && b > 0 ? +(a / b).toFixed(4) : null);
  m.ratios = {
    relaxedVsWnn: rx.error ? null : ratio(rx.medianMs, w.medianMs),
    relaxedVsWeb: rx.error || web.error ? null : ratio(rx.medianMs, web.medianMs),
    relaxedVsNode: rx.error || nat.error ? null : ratio(rx.medianMs, nat.medianMs),
    latencyVsWeb: web.error ? null : ratio(w.medianMs, web.medianMs),
    latencyVsNode: nat.error ? null : ratio(w.medianMs, nat.medianMs),
    loadVsWeb: web.error ? null : ratio(w.loadMs, web.loadMs),
    warmLoadVsWeb: web.error ? null : ratio(w.warmLoadMs, web.warmLoadMs),
    memoryVsWeb: web.error ? null : ratio(w.wasmMemoryBytes, web.wasmMemoryBytes),
  };
}

// ------------------------------------------------------------------ sizes
const sizeOf = (file, who, role) => {
  const bytes = fs.readFileSync(file);
  return { runtime: who, file: rel(file), role, bytes: bytes.length, gzipBytes: zlib.gzipSync(bytes, { level: 9 }).length };
};
const ORT_DIST = path.join(ROOT, 'node_modules/onnxruntime-web/dist');
const sizes = [
  sizeOf(path.join(ROOT, 'dist/wnn.wasm'), 'wnn', 'wasm (SIMD128)'),
  sizeOf(path.join(ROOT, 'dist/wnn-scalar.wasm'), 'wnn', 'wasm (fallback without SIMD128)'),
  ...(fs.existsSync(path.join(ROOT, 'dist/wnn-relaxed.wasm')) ? [sizeOf(path.join(ROOT, 'dist/wnn-relaxed.wasm'), 'wnn', 'wasm (SIMD128 + relaxed SIMD: the default where the engine has it)')] : []),
  ...(fs.existsSync(path.join(ROOT, 'dist/wnn-mt.wasm')) ? [sizeOf(path.join(ROOT, 'dist/wnn-mt.wasm'), 'wnn', 'wasm (SIMD128, threads: load with threads > 1)')] : []),
  sizeOf(path.join(ROOT, 'js/wnn.js'), 'wnn', 'JS'),
  sizeOf(path.join(ORT_DIST, 'ort-wasm-simd-threaded.wasm'), 'ort-web', 'wasm (SIMD; the wasm backend with 1 or more threads)'),
  sizeOf(path.join(ORT_DIST, 'ort-wasm-simd-threaded.mjs'), 'ort-web', 'JS (Emscripten glue)'),
  sizeOf(path.join(ORT_DIST, 'ort.wasm.min.mjs'), 'ort-web', 'JS (onnxruntime-web/wasm entry)'),
];

// ------------------------------------------------------------------- GEMM
let gemm = null;
if (opt.gemm) {
  log('== GEMM microkernel and SIMD128 peak (bench/kernels/run-wasm.sh)');
  const r = spawnSync('sh', [path.join(ROOT, 'bench/kernels/run-wasm.sh'), path.join(ROOT, 'build/bench/bench_kernels.wasm')],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 15 * 60 * 1000 });
  const lines = (r.stdout || '').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const peak = lines.find((l) => l.kernel === 'peak mul+add simd128');
  const cases = lines.filter((l) => /gemm/.test(l.kernel) && /wasmsimd/.test(l.kernel) && l.gflops !== undefined)
    .map((l) => ({ kernel: l.kernel, case: l.case, m: l.m, n: l.n, k: l.k, gflops: l.gflops, ofPeak: l.of_peak }));
  if (r.status !== 0 || !peak || !cases.length) {
    gemm = { error: `bench/kernels/run-wasm.sh: exit ${r.status}: ${(r.stderr || '').trim().split('\n').pop() || 'no peak or SIMD GEMM lines'}` };
  } else {
    const fr = cases.map((c) => c.ofPeak).sort((a, b) => a - b);
    const square = cases.find((c) => /square/.test(c.case)) ?? cases[0];
    gemm = {
      command: 'sh bench/kernels/run-wasm.sh',
      peakGflops: peak.gflops, scalarPeakGflops: lines.find((l) => l.kernel === 'peak mul+add scalar')?.gflops ?? null,
      headline: square, medianOfPeak: fr[fr.length >> 1], minOfPeak: fr[0], maxOfPeak: fr[fr.length - 1], cases,
    };
  }
  log(gemm.error ? `   ${gemm.error}` : `   peak ${gemm.peakGflops} GFLOP/s; ${gemm.headline.case}: ${gemm.headline.gflops} GFLOP/s (${(100 * gemm.headline.ofPeak).toFixed(1)}%)`);
}

// ---------------------------------------------------------------- summary
const ran = models.filter((m) => m.results && m.ratios.latencyVsWeb != null);
const geomean = (xs) => (xs.length ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : null);
const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m) || [])[1] || os.cpus()[0]?.model || 'unknown';
const flags = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:\s*(.*)$/m) || [])[1] || '';
const wnnWasm = sizes[0];
const summary = {
  modelsRun: ran.length,
  modelsSkipped: models.filter((m) => m.skipped).length,
  latencyGeomeanVsWeb: geomean(ran.map((m) => m.ratios.latencyVsWeb)),
  latencyGeomeanVsNode: geomean(ran.filter((m) => m.ratios.latencyVsNode != null).map((m) => m.ratios.latencyVsNode)),
  latencyWorstVsWeb: ran.length ? Math.max(...ran.map((m) => m.ratios.latencyVsWeb)) : null,
  modelsSlowerThanWeb: ran.filter((m) => m.ratios.latencyVsWeb > 1).map((m) => m.name),
  loadGeomeanVsWeb: geomean(ran.map((m) => m.ratios.loadVsWeb)),
  loadWorstVsWeb: ran.length ? Math.max(...ran.map((m) => m.ratios.loadVsWeb)) : null,
  warmLoadGeomeanVsWeb: geomean(ran.map((m) => m.ratios.warmLoadVsWeb)),
  memoryGeomeanVsWeb: geomean(ran.filter((m) => m.ratios.memoryVsWeb != null).map((m) => m.ratios.memoryVsWeb)),
  // dist/wnn-relaxed.wasm (issue 16 §3), on the float models (the quantized
  // ones' integer kernels are the same in both modules).
  relaxedGeomeanVsWnn: geomean(ran.filter((m) => !m.quantized && m.ratios.relaxedVsWnn != null).map((m) => m.ratios.relaxedVsWnn)),
  relaxedGeomeanVsWeb: geomean(ran.filter((m) => !m.quantized && m.ratios.relaxedVsWeb != null).map((m) => m.ratios.relaxedVsWeb)),
  relaxedWorstVsWeb: ran.some((m) => !m.quantized && m.ratios.relaxedVsWeb != null) ? Math.max(...ran.filter((m) => !m.quantized && m.ratios.relaxedVsWeb != null).map((m) => m.ratios.relaxedVsWeb)) : null,
  relaxedGeomeanVsNode: geomean(ran.filter((m) => !m.quantized && m.ratios.relaxedVsNode != null).map((m) => m.ratios.relaxedVsNode)),
  memoryWorstVsWeb: ran.some((m) => m.ratios.memoryVsWeb != null) ? Math.max(...ran.filter((m) => m.ratios.memoryVsWeb != null).map((m) => m.ratios.memoryVsWeb)) : null,
  wasmBytes: wnnWasm.bytes, wasmGzipBytes: wnnWasm.gzipBytes,
  gemmOfPeak: gemm && !gemm.error ? gemm.headline.ofPeak : null,
};
// Issue 17: each quantized model against onnxruntime-web on the same
// quantized model and against wnn on the float model of the same network
// (when that one ran too): from the separate runs above, and paired, the two
// sides' runs alternating in one process (bench/pair.mjs), which the
// targets use (the machine's speed drifts between processes).
function pair(a, b) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/pair.mjs'), String(opt.runs), String(opt.warmups), ...a, ...b],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 15 * 60 * 1000 });
  try {
    const j = JSON.parse((r.stdout || '').trim().split('\n').pop());
    return j.error ? null : j;
  } catch {
    return null;
  }
}
const quantized = models.filter((m) => m.quantized && m.results && !m.results.wnn.error).map((m) => {
  const f = models.find((x) => x.name === m.quantized.float && x.results && !x.results.wnn.error);
  const web = m.results['ort-web'];
  const fweb = f?.results['ort-web'];
  const r = (a, b) => (a != null && b != null && b > 0 ? +(a / b).toFixed(4) : null);
  log(`== ${m.name}: paired runs (bench/pair.mjs)`);
  const pw = web.error ? null : pair(['wnn', m.files.wnn, m.files.data], ['ort-web', m.files.onnx, m.files.data]);
  const pf = f ? pair(['wnn', m.files.wnn, m.files.data], ['wnn', f.files.wnn, f.files.data]) : null;
  if (pw) log(`   wnn ${pw.a.medianMs.toFixed(3)} ms, ORT-web ${pw.b.medianMs.toFixed(3)} ms: ${pw.ratio.toFixed(3)}`);
  if (pf) log(`   wnn ${pf.a.medianMs.toFixed(3)} ms, wnn float ${pf.b.medianMs.toFixed(3)} ms: ${pf.ratio.toFixed(3)}`);
  return {
    paired: {
      wnnMs: pw?.a.medianMs ?? null, webMs: pw?.b.medianMs ?? null, vsWeb: pw ? +pw.ratio.toFixed(4) : null,
      wnnMsVsFloat: pf?.a.medianMs ?? null, wnnFloatMs: pf?.b.medianMs ?? null, vsWnnFloat: pf ? +pf.ratio.toFixed(4) : null,
    },
    name: m.name, kind: m.quantized.kind, float: m.quantized.float,
    wnnMs: m.results.wnn.medianMs, webMs: web.error ? null : web.medianMs,
    wnnFloatMs: f ? f.results.wnn.medianMs : null, webFloatMs: fweb && !fweb.error ? fweb.medianMs : null,
    vsWeb: web.error ? null : r(m.results.wnn.medianMs, web.medianMs),
    vsWnnFloat: f ? r(m.results.wnn.medianMs, f.results.wnn.medianMs) : null,
    webVsWebFloat: fweb && !fweb.error && !web.error ? r(web.medianMs, fweb.medianMs) : null,
  };
});
// The paired ratio where there is one, else the separate runs'.
const vsWeb = (q) => q.paired.vsWeb ?? q.vsWeb, vsFloat = (q) => q.paired.vsWnnFloat ?? q.vsWnnFloat;
summary.quantizedGeomeanVsWeb = geomean(quantized.filter((q) => vsWeb(q) != null).map(vsWeb));
summary.quantizedWorstVsWeb = quantized.some((q) => vsWeb(q) != null) ? Math.max(...quantized.filter((q) => vsWeb(q) != null).map(vsWeb)) : null;
summary.quantizedGeomeanVsWnnFloat = geomean(quantized.filter((q) => vsFloat(q) != null).map(vsFloat));
summary.quantizedWorstVsWnnFloat = quantized.some((q) => vsFloat(q) != null) ? Math.max(...quantized.filter((q) => vsFloat(q) != null).map(vsFloat)) : null;
const targets = [
  { target: 'latency: geometric mean of wnn / ORT-web', limit: '<= 0.6', value: summary.latencyGeomeanVsWeb, met: summary.latencyGeomeanVsWeb != null && summary.latencyGeomeanVsWeb <= 0.6 },
  { target: 'latency: no model slower than ORT-web (worst wnn / ORT-web)', limit: '<= 1', value: summary.latencyWorstVsWeb, met: summary.latencyWorstVsWeb != null && summary.latencyWorstVsWeb <= 1 },
  { target: 'load: wnn / ORT-web InferenceSession.create (worst model)', limit: '<= 0.3', value: summary.loadWorstVsWeb, met: summary.loadWorstVsWeb != null && summary.loadWorstVsWeb <= 0.3 },
  { target: 'memory: wnn / ORT-web wasm memory (worst model)', limit: '<= 0.5', value: summary.memoryWorstVsWeb, met: summary.memoryWorstVsWeb != null && summary.memoryWorstVsWeb <= 0.5 },
  { target: 'size: dist/wnn.wasm raw KB', limit: '<= 400', value: +(wnnWasm.bytes / 1024).toFixed(1), met: wnnWasm.bytes <= 400 * 1024 },
  { target: 'size: dist/wnn.wasm gzip KB (issues 15-17: 140)', limit: '<= 140', value: +(wnnWasm.gzipBytes / 1024).toFixed(1), met: wnnWasm.gzipBytes <= 140 * 1024 },
  ...(quantized.length ? [
    { target: 'quantized latency: worst wnn / ORT-web, same quantized model (issue 17: every model <= 0.8)', limit: '<= 0.8', value: summary.quantizedWorstVsWeb, met: summary.quantizedWorstVsWeb != null && summary.quantizedWorstVsWeb <= 0.8 },
    { target: 'quantized latency: geometric mean of wnn / ORT-web, same quantized model', limit: 'reported', value: summary.quantizedGeomeanVsWeb, met: summary.quantizedGeomeanVsWeb != null },
    { target: 'quantized speed-up: worst wnn quantized / wnn float, same network (issue 17: every model >= 1.5x faster)', limit: '<= 0.667', value: summary.quantizedWorstVsWnnFloat, met: summary.quantizedWorstVsWnnFloat != null && summary.quantizedWorstVsWnnFloat <= 1 / 1.5 },
  ] : []),
  { target: 'relaxed SIMD (dist/wnn-relaxed.wasm, Node with the flag): geometric mean of wnn-relaxed / ORT-web, float models (issue 16: <= 0.45)', limit: '<= 0.45', value: summary.relaxedGeomeanVsWeb, met: summary.relaxedGeomeanVsWeb != null && summary.relaxedGeomeanVsWeb <= 0.45 },
  { target: 'relaxed SIMD: geometric mean of wnn-relaxed / ORT-node, float models (issue 16: <= 2.5)', limit: '<= 2.5', value: summary.relaxedGeomeanVsNode, met: summary.relaxedGeomeanVsNode != null && summary.relaxedGeomeanVsNode <= 2.5 },
  { target: 'relaxed SIMD: geometric mean of wnn-relaxed / wnn (dist/wnn.wasm), float models', limit: 'reported', value: summary.relaxedGeomeanVsWnn, met: summary.relaxedGeomeanVsWnn != null },
  { target: `GEMM: fraction of the SIMD128 peak (${gemm && !gemm.error ? gemm.headline.case : 'not measured'})`, limit: '>= 0.7', value: summary.gemmOfPeak, met: summary.gemmOfPeak != null && summary.gemmOfPeak >= 0.7 },
];

const round = (x) => (typeof x === 'number' && !Number.isInteger(x) ? +x.toPrecision(5) : x);
const results = {
  date: new Date().toISOString(),
  command: process.env.npm_lifecycle_event === 'bench' ? `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}` : `node bench/run.mjs ${argv.join(' ')}`.trim(),
  node: process.version,
  cpu, cores: os.cpus().length,
  cpuSimd: ['sse4_2', 'avx2', 'avx512f', 'fma'].filter((f) => flags.split(' ').includes(f)),
  loadAverage: { before: loadBefore, after: loadavg() },
  runs: opt.runs, warmups: opt.warmups,
  runtimes: {
    wnn: { wasm: 'dist/wnn.wasm', via: 'js/wnn.js', version: ran[0]?.results.wnn.version ?? null },
    'wnn-relaxed': { wasm: 'dist/wnn-relaxed.wasm', via: 'js/wnn.js (its default where relaxed SIMD is on)', settings: 'node --experimental-wasm-relaxed-simd' },
    'ort-web': { package: 'onnxruntime-web', version: ran[0]?.results['ort-web'].version ?? null, settings: 'wasm backend, env.wasm.numThreads = 1, SIMD build, graphOptimizationLevel all' },
    'ort-node': { package: 'onnxruntime-node', version: ran[0]?.results['ort-node'].version ?? null, settings: 'cpu, intraOpNumThreads = 1, interOpNumThreads = 1, sequential, graphOptimizationLevel all' },
  },
  summary, targets, quantized, sizes, gemm, models,
};
const json = JSON.stringify(results, (k, v) => (k === 'times' ? v.map((t) => +t.toFixed(4)) : round(v)), 1);
fs.mkdirSync(opt.out, { recursive: true });
fs.writeFileSync(path.join(opt.out, 'results.json'), json + '\n');
fs.writeFileSync(path.join(opt.out, 'results.md'), renderMarkdown(results));
fs.writeFileSync(path.join(opt.out, 'results.svg'), renderSvg(results));
log(`wrote ${['results.json', 'results.md', 'results.svg'].map((f) => rel(path.join(opt.out, f))).join(', ')}`);
// docs/performance.md carries the latest table between its markers (only for
// a run that writes bench/ itself, with every model).
const DOC = path.join(ROOT, 'docs/performance.md');
if (opt.out === path.join(ROOT, 'bench') && !opt.models && fs.existsSync(DOC)) {
  const doc = fs.readFileSync(DOC, 'utf8');
  const re = /(<!-- bench:begin -->\n)[\s\S]*?(\n<!-- bench:end -->)/;
  let text = doc;
  if (re.test(text)) text = text.replace(re, (_, a, b) => a + renderDocSection(results) + b);
  // The quantized models' table (section "Quantized models (issue 17)").
  const qre = /(<!-- bench-quant:begin -->\n)[\s\S]*?(\n<!-- bench-quant:end -->)/;
  if (quantized.length && qre.test(text)) {
    text = text.replace(qre, (_, a, b) => a + `Measured ${results.date.slice(0, 16).replace('T', ' ')} UTC with \`${results.command}\`, ` +
      `load average ${results.loadAverage.before.join(' ')} at the start and ${results.loadAverage.after.join(' ')} at the end.\n\n` +
      renderQuantizedTable(results).join('\n') + b);
  }
  if (text !== doc) {
    fs.writeFileSync(DOC, text);
    log(`updated ${rel(DOC)}`);
  }
}
for (const t of targets) log(`${t.met ? 'met    ' : 'NOT met'}  ${t.target}: ${t.value == null ? 'n/a' : round(t.value)} (target ${t.limit})`);
