// Threads in wasm measured (issue 13 section 4; docs/performance.md,
// "Threads"): every benchmark model on wnn at 1 and 2 threads
// (dist/wnn.wasm, and dist/wnn-mt.wasm with load's threads: 2) and on
// onnxruntime-web at env.wasm.numThreads 1 and 2, each configuration in a
// process of its own (bench/runner.mjs: ORT-web reads numThreads once per
// process), the four in a rotating order each round so that the VM's drift
// touches them alike; the median over the rounds of each configuration's
// median. (Pairs in one process, as bench/pair.mjs runs them, do not work
// here: the threaded runtimes' workers spin between jobs, and on 2 cores the
// one runtime's spinning worker takes the core the other runs on.) Then the
// memory of N worker_threads sharing one model (bench/threads-memory.mjs).
//
//   node bench/threads-web.mjs [--models a,b] [--rounds R] [--runs K] [--out DIR]
//
// Defaults: every artifact in build/bench/models (npm run bench converts
// them), R = 3, K = 20 runs per process. Writes threads-web.json and
// threads-web.md in --out (default bench/).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARTIFACTS = path.join(ROOT, 'build/bench/models');
const opt = { models: null, rounds: 3, runs: 20, out: path.join(ROOT, 'bench') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const val = () => argv[++i];
  if (argv[i] === '--models') opt.models = val().split(',');
  else if (argv[i] === '--rounds') opt.rounds = Number(val());
  else if (argv[i] === '--runs') opt.runs = Number(val());
  else if (argv[i] === '--out') opt.out = path.resolve(val());
  else { console.error(`threads-web: unknown option '${argv[i]}'`); process.exit(2); }
}
if (!fs.existsSync(ARTIFACTS) || !fs.existsSync(path.join(ROOT, 'dist/wnn-mt.wasm'))) {
  console.error('threads-web: needs build/bench/models (npm run bench converts them) and dist/wnn-mt.wasm (npm run build)');
  process.exit(1);
}

// Where a benchmark model's ONNX file and test data are (bench/run.mjs's folders).
function sourceOf(name) {
  const dirs = [path.resolve(ROOT, '../shared/models', name), path.join(ROOT, 'build/quant', name)];
  if (name.startsWith('tv_')) dirs.push(path.join(ROOT, 'build/torchvision', name.slice(3)));
  const dir = dirs.find((d) => fs.existsSync(path.join(d, 'model.onnx')) && fs.existsSync(path.join(d, 'test_data_set_0')));
  return dir ? { onnx: path.join(dir, 'model.onnx'), data: path.join(dir, 'test_data_set_0') } : null;
}

const median = (x) => { const s = [...x].sort((a, b) => a - b), m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const geomean = (x) => (x.length ? Math.exp(x.reduce((a, v) => a + Math.log(v), 0) / x.length) : null);
// wnn-relaxed@2: dist/wnn-mt-relaxed.wasm, in a Node with relaxed SIMD on.
const CONFIGS = ['wnn@1', 'wnn@2', 'wnn-relaxed@2', 'ort-web@1', 'ort-web@2'];

function runOne(config, wnnFile, src) {
  const file = config.startsWith('wnn') ? wnnFile : src.onnx;
  const flags = config.startsWith('wnn-relaxed') ? ['--experimental-wasm-relaxed-simd'] : [];
  const r = spawnSync(process.execPath, [...flags, path.join(ROOT, 'bench/runner.mjs'), config, file, src.data, String(opt.runs), '3'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24, timeout: 15 * 60 * 1000 });
  try {
    return JSON.parse((r.stdout || '').trim().split('\n').pop());
  } catch {
    return { error: (r.stderr || `exit ${r.status}`).trim().split('\n').pop().slice(0, 200) };
  }
}

const names = opt.models ?? fs.readdirSync(ARTIFACTS).filter((f) => f.endsWith('.wnn')).map((f) => f.slice(0, -4)).sort();
const rows = [];
for (const name of names) {
  const src = sourceOf(name);
  const wnnFile = path.join(ARTIFACTS, `${name}.wnn`);
  if (!src || !fs.existsSync(wnnFile)) { console.error(`threads-web: ${name}: no artifact or ONNX source, skipped`); continue; }
  const times = Object.fromEntries(CONFIGS.map((c) => [c, []]));
  const mins = Object.fromEntries(CONFIGS.map((c) => [c, []]));
  const errors = {};
  for (let r = 0; r < opt.rounds; r++) {
    for (let k = 0; k < CONFIGS.length; k++) {
      const config = CONFIGS[(k + r) % CONFIGS.length];
      const res = runOne(config, wnnFile, src);
      if (res.error) errors[config] = res.error;
      else times[config].push(res.medianMs), mins[config].push(res.minMs);
    }
  }
  const ms = Object.fromEntries(CONFIGS.map((c) => [c, times[c].length ? +median(times[c]).toFixed(3) : null]));
  const best = Object.fromEntries(CONFIGS.map((c) => [c, mins[c].length ? +Math.min(...mins[c]).toFixed(3) : null]));
  const row = { model: name, ms, best, errors: Object.keys(errors).length ? errors : undefined, convolutional: !/bert|transformer|gpt|vad|mnist/.test(name) };
  rows.push(row);
  console.error(`${name}: ${CONFIGS.map((c) => `${c} ${ms[c] ?? 'error'}`).join(', ')}`);
}

const ratio = (a, b) => (a != null && b != null ? a / b : null);
const conv = rows.filter((r) => r.convolutional).map((r) => ratio(r.ms['wnn@2'], r.ms['wnn@1'])).filter((v) => v != null);
const vsWeb2 = rows.map((r) => ratio(r.ms['wnn@2'], r.ms['ort-web@2'])).filter((v) => v != null);
const slower = rows.filter((r) => ratio(r.ms['wnn@2'], r.ms['ort-web@2']) > 1).map((r) => r.model);
// The same from each configuration's fastest run (what the machine can do
// when no other tenant of the VM takes a core: medians move by tens of
// percent between minutes here).
const convBest = rows.filter((r) => r.convolutional).map((r) => ratio(r.best['wnn@2'], r.best['wnn@1'])).filter((v) => v != null);
const vsWeb2Best = rows.map((r) => ratio(r.best['wnn@2'], r.best['ort-web@2'])).filter((v) => v != null);
const vsWeb2Relaxed = rows.map((r) => ratio(r.ms['wnn-relaxed@2'], r.ms['ort-web@2'])).filter((v) => v != null);
const summary = {
  relaxed2VsWeb2Geomean: vsWeb2Relaxed.length ? +geomean(vsWeb2Relaxed).toFixed(3) : null,
  slowerThanWeb2Relaxed: rows.filter((r) => ratio(r.ms['wnn-relaxed@2'], r.ms['ort-web@2']) > 1).map((r) => r.model),
  wnn2VsWnn1ConvGeomean: conv.length ? +geomean(conv).toFixed(3) : null,
  wnn2VsWeb2Geomean: vsWeb2.length ? +geomean(vsWeb2).toFixed(3) : null,
  slowerThanWeb2: slower,
  best: {
    wnn2VsWnn1ConvGeomean: convBest.length ? +geomean(convBest).toFixed(3) : null,
    wnn2VsWeb2Geomean: vsWeb2Best.length ? +geomean(vsWeb2Best).toFixed(3) : null,
    slowerThanWeb2: rows.filter((r) => ratio(r.best['wnn@2'], r.best['ort-web@2']) > 1).map((r) => r.model),
  },
};

// ------------------------------------------------- memory: workers sharing
// bench/threads-memory.mjs, a fresh process per N.
function memoryOf(model, n) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/threads-memory.mjs'), path.join(ARTIFACTS, `${model}.wnn`), String(n)], { encoding: 'utf8', timeout: 300_000 });
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop());
  } catch {
    return { error: (r.stderr || `exit ${r.status}`).trim().split('\n').pop().slice(0, 200) };
  }
}
const memModel = names.includes('tv_mobilenet_v2') ? 'tv_mobilenet_v2' : names[0];
const memory = memModel ? [1, 2, 4].map((n) => ({ workers: n, ...memoryOf(memModel, n) })) : [];

const mib = (b) => (b / 1048576).toFixed(1);
const fmt = (v) => (v == null ? 'error' : `${v.toFixed(1)} ms`);
const md = [
  'wnn: dist/wnn.wasm and dist/wnn-mt.wasm; wnn-relaxed 2 threads: dist/wnn-mt-relaxed.wasm (a Node with --experimental-wasm-relaxed-simd).',
  '',
  `| model | wnn 1 thread | wnn 2 threads | wnn-relaxed 2 threads | ORT-web 1 thread | ORT-web 2 threads | wnn 2 / wnn 1 | wnn 2 / ORT-web 2 | wnn-relaxed 2 / ORT-web 2 |`,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.model} | ${fmt(r.ms['wnn@1'])} | ${fmt(r.ms['wnn@2'])} | ${fmt(r.ms['wnn-relaxed@2'])} | ${fmt(r.ms['ort-web@1'])} | ${fmt(r.ms['ort-web@2'])} | ${ratio(r.ms['wnn@2'], r.ms['wnn@1'])?.toFixed(2) ?? '-'} | ${ratio(r.ms['wnn@2'], r.ms['ort-web@2'])?.toFixed(2) ?? '-'} | ${ratio(r.ms['wnn-relaxed@2'], r.ms['ort-web@2'])?.toFixed(2) ?? '-'} |`),
  '',
  `Geometric means of the medians: wnn 2 threads / wnn 1 thread on the convolutional models ${summary.wnn2VsWnn1ConvGeomean ?? '-'} (target <= 0.6); wnn 2 threads / ORT-web 2 threads ${summary.wnn2VsWeb2Geomean ?? '-'} (target <= 0.5); slower than ORT-web at 2 threads: ${slower.length ? slower.join(', ') : 'none'}. With relaxed SIMD: wnn-relaxed 2 threads / ORT-web 2 threads ${summary.relaxed2VsWeb2Geomean ?? '-'}; slower than ORT-web at 2 threads: ${summary.slowerThanWeb2Relaxed.length ? summary.slowerThanWeb2Relaxed.join(', ') : 'none'}.`,
  '',
  `The same from each configuration's fastest run: ${summary.best.wnn2VsWnn1ConvGeomean ?? '-'}, ${summary.best.wnn2VsWeb2Geomean ?? '-'}; slower than ORT-web at 2 threads: ${summary.best.slowerThanWeb2.length ? summary.best.slowerThanWeb2.join(', ') : 'none'}.`,
  '',
  `Memory, ${memModel}: N worker_threads sharing one model (share()/attach(), an executor each) against N workers loading a copy each:`,
  '',
  '| workers | shared: wasm memory | copies: wasm memory, summed |',
  '|---:|---:|---:|',
  ...memory.map((m) => `| ${m.workers} | ${m.error ? m.error : `${mib(m.sharedBytes)} MiB`} | ${m.error ? '-' : `${mib(m.ownBytes)} MiB`} |`),
].join('\n');
fs.mkdirSync(opt.out, { recursive: true });
fs.writeFileSync(path.join(opt.out, 'threads-web.json'), JSON.stringify({ date: new Date().toISOString(), rounds: opt.rounds, runs: opt.runs, rows, summary, memory }, null, 1) + '\n');
fs.writeFileSync(path.join(opt.out, 'threads-web.md'), md + '\n');
console.log(md);
