// Where wnn's time goes on one model: V8's sampling profiler (node:inspector)
// over repeated inferences of js/wnn.js, self time per wasm function.
//
//   node bench/profile.mjs MODEL.wnn TEST_DATA_DIR --wasm FILE.wasm [--runs N] [--top N] [--json] [--load] [--callers NAME]
//
// With --load it profiles N times load + createExecutor (after one untimed
// load that instantiates the runtime) instead of N inferences. With
// --callers NAME it also splits NAME's self time by the function that called
// it (which op's memcpy, which op's kernel).
//
// FILE.wasm must carry a name section (dist/wnn.wasm has none: it is the
// shipped module). Build one with function names, outside dist/, from the web
// preset's objects (docs/performance.md shows the commands), e.g.
// build/bench-web/prof/wnn.wasm. Kernels are named wnn_f32_<kernel>__<variant>,
// ops' run functions wnn_<op>_run: the table answers "which op and which
// kernel", the question a target that is not met raises.
import fs from 'node:fs';
import path from 'node:path';
import inspector from 'node:inspector';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseTensorProto } from '../js/io.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pos = [];
const opt = { runs: 20, top: 25, json: false, wasm: null, load: false, callers: null };
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') opt.runs = Number(args[++i]);
  else if (args[i] === '--top') opt.top = Number(args[++i]);
  else if (args[i] === '--wasm') opt.wasm = args[++i];
  else if (args[i] === '--json') opt.json = true;
  else if (args[i] === '--load') opt.load = true;
  else if (args[i] === '--callers') opt.callers = args[++i];
  else pos.push(args[i]);
}
if (pos.length !== 2 || !opt.wasm) {
  console.error('usage: node bench/profile.mjs MODEL.wnn TEST_DATA_DIR --wasm FILE.wasm [--runs N] [--top N] [--json] [--load] [--callers NAME]');
  process.exit(2);
}
const [modelFile, dataDir] = pos;

const wnn = await import(pathToFileURL(path.join(ROOT, 'js/wnn.js')).href);
const bytes = new Uint8Array(fs.readFileSync(modelFile));
const wasm = await WebAssembly.compile(fs.readFileSync(opt.wasm));
const model = await wnn.load(bytes, { wasm });
const exec = model.createExecutor();
for (let i = 0; fs.existsSync(path.join(dataDir, `input_${i}.pb`)); i++) {
  exec.setInput(i, parseTensorProto(fs.readFileSync(path.join(dataDir, `input_${i}.pb`))).data);
}
for (let i = 0; i < 3; i++) exec.run();

const session = new inspector.Session();
session.connect();
const post = (method, params = {}) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
const INTERVAL_US = 100;
await post('Profiler.enable');
await post('Profiler.setSamplingInterval', { interval: INTERVAL_US });
await post('Profiler.start');
const t0 = performance.now();
for (let i = 0; i < opt.runs; i++) {
  if (!opt.load) { exec.run(); continue; }
  const m = await wnn.load(bytes, { wasm });
  m.createExecutor();
  m.dispose();
}
const wall = performance.now() - t0;
const { profile } = await post('Profiler.stop');
session.disconnect();

// Self time per function name, from the sample counts.
const self = new Map();
let total = 0;
for (const n of profile.nodes) {
  if (!n.hitCount) continue;
  const name = n.callFrame.functionName || `(${n.callFrame.url ? path.basename(n.callFrame.url) : 'anonymous'})`;
  self.set(name, (self.get(name) ?? 0) + n.hitCount);
  total += n.hitCount;
}
const rows = [...self].sort((a, b) => b[1] - a[1]).map(([name, hits]) => ({
  function: name.replace(/^\$/, ''), share: hits / total, msPerRun: (wall * hits) / total / opt.runs,
}));
if (opt.json) {
  process.stdout.write(JSON.stringify({ model: path.basename(modelFile), runs: opt.runs, msPerRun: wall / opt.runs, samples: total, functions: rows.slice(0, opt.top) }) + '\n');
} else {
  console.log(`${path.basename(modelFile)}: ${(wall / opt.runs).toFixed(3)} ms per ${opt.load ? 'load + createExecutor' : 'run'} over ${opt.runs} runs, ${total} samples`);
  console.log('share   ms/run  function (self time)');
  for (const r of rows.slice(0, opt.top)) console.log(`${(100 * r.share).toFixed(1).padStart(5)}%  ${r.msPerRun.toFixed(3).padStart(7)}  ${r.function}`);
}
if (opt.callers) {
  // NAME's samples by the name of the node's parent in the call tree.
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const by = new Map();
  let hits = 0;
  for (const n of profile.nodes) {
    if (!n.hitCount || n.callFrame.functionName.replace(/^\$/, '') !== opt.callers) continue;
    const p = parent.get(n.id);
    const name = (p?.callFrame.functionName || '(root)').replace(/^\$/, '');
    by.set(name, (by.get(name) ?? 0) + n.hitCount);
    hits += n.hitCount;
  }
  console.log(`${opt.callers}: ${hits} samples, by caller`);
  for (const [name, h] of [...by].sort((a, b) => b[1] - a[1]))
    console.log(`${(100 * h / Math.max(hits, 1)).toFixed(1).padStart(5)}%  ${((wall * h) / total / opt.runs).toFixed(3).padStart(7)}  ${name}`);
}
exec.dispose();
model.dispose();
