// Weight codecs measured model by model (issue 11, section 2; the table in
// docs/performance.md, "Weight codecs"): for every model of
// ../shared/models and the torchvision exports (build/torchvision), each
// setting of `wnn convert --weights/--compress` below:
//   - artifact bytes and their gzip -9;
//   - load time in js/wnn.js with dist/wnn.wasm (median of --loads loads of
//     the bytes in hand, after one untimed load that also fetches
//     dist/wnn-codecs.wasm where needed);
//   - accuracy on test_data_set_0: the largest |output - expected| over all
//     outputs, and for classifiers (one output with at least 100 values per
//     row) whether the top-1 class is the expected one's.
//
//   node bench/codecs.mjs [--models a,b] [--loads N] [--out FILE.json]
//
// Prints a markdown table; writes the numbers as JSON (default
// bench/codecs.json). Needs build/native/wnn and dist/wnn.wasm.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as wnn from '../js/wnn.js';
import { parseTensorProto } from '../js/io.js';
import { benchModels, convertModel } from './convert.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'build/native/wnn');
const SETTINGS = [
  ['raw', []], ['fp16', ['--weights', 'fp16']], ['int8', ['--weights', 'int8']],
  ['lz4', ['--compress', 'lz4']], ['zstd', ['--compress', 'zstd']],
  ['fp16+zstd', ['--weights', 'fp16', '--compress', 'zstd']],
];

const opt = { models: null, loads: 5, out: path.join(ROOT, 'bench/codecs.json') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const val = () => argv[++i];
  if (argv[i] === '--models') opt.models = val().split(',');
  else if (argv[i] === '--loads') opt.loads = Number(val());
  else if (argv[i] === '--out') opt.out = path.resolve(val());
  else { console.error(`codecs: unknown option '${argv[i]}' (--models a,b --loads N --out FILE)`); process.exit(2); }
}
for (const f of [CLI, path.join(ROOT, 'dist/wnn.wasm')]) {
  if (!fs.existsSync(f)) { console.error(`codecs: ${path.relative(ROOT, f)} is missing (npm run build)`); process.exit(1); }
}

const models = benchModels(ROOT, opt.models);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-codecs-'));
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const argmax = (a, from, n) => { let k = 0; for (let i = 1; i < n; i++) if (a[from + i] > a[from + k]) k = i; return k; };

const results = [];
for (const { name, dir } of models) {
  const data = path.join(dir, 'test_data_set_0');
  const inputs = [];
  for (let i = 0; fs.existsSync(path.join(data, `input_${i}.pb`)); i++) inputs.push(parseTensorProto(fs.readFileSync(path.join(data, `input_${i}.pb`))));
  const expected = [];
  for (let i = 0; fs.existsSync(path.join(data, `output_${i}.pb`)); i++) expected.push(parseTensorProto(fs.readFileSync(path.join(data, `output_${i}.pb`))));
  const row = { model: name, settings: {} };
  for (const [setting, extra] of SETTINGS) {
    const out = path.join(tmp, `${name}.${setting}.wnn`);
    const c = convertModel({ cli: CLI, onnx: path.join(dir, 'model.onnx'), out, inputs, dataDir: data, extra });
    if (!c.ok) { row.settings[setting] = { error: c.why }; console.error(`${name} ${setting}: ${c.why}`); continue; }
    const bytes = fs.readFileSync(out);
    const r = { bytes: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length, convertMs: +c.ms.toFixed(0) };
    let model = await wnn.load(bytes, { threads: 1 }); // dist/wnn.wasm, as docs/performance.md says
    model.dispose();
    const times = [];
    for (let k = 0; k < opt.loads; k++) {
      const t0 = performance.now();
      model = await wnn.load(bytes, { threads: 1 });
      times.push(performance.now() - t0);
      if (k < opt.loads - 1) model.dispose();
    }
    r.loadMs = +median(times).toFixed(2);
    const feed = {};
    for (const t of inputs) if (model.inputs.some((i) => i.name === t.name)) feed[t.name] = { data: t.data, shape: t.shape };
    const got = await model.predict(feed);
    model.dispose();
    let maxAbs = 0;
    model.outputs.forEach((o, i) => {
      const want = expected[i]?.data;
      const have = got[o.name].data;
      if (!want) return;
      for (let k = 0; k < have.length; k++) maxAbs = Math.max(maxAbs, Math.abs(Number(have[k]) - Number(want[k])));
    });
    r.maxAbsError = maxAbs;
    const o0 = model.outputs[0];
    const classes = o0.shape.reduce((a, b) => a * b, 1);
    if (model.outputs.length === 1 && o0.dtype === 'float32' && classes >= 100 && classes === Math.max(...o0.shape)) {
      r.top1 = argmax(got[o0.name].data, 0, classes) === argmax(expected[0].data, 0, classes);
    }
    row.settings[setting] = r;
    console.error(`${name} ${setting}: ${r.bytes} B (gzip ${r.gzip}), load ${r.loadMs} ms, max |err| ${maxAbs.toExponential(2)}${r.top1 === undefined ? '' : `, top-1 ${r.top1 ? 'same' : 'DIFFERENT'}`}`);
  }
  results.push(row);
}
fs.rmSync(tmp, { recursive: true, force: true });
fs.writeFileSync(opt.out, JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 1) + '\n');

// The markdown table: bytes (gzip), load ms, max |error| (top-1 for classifiers) per setting.
const fmtB = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} KB`);
console.log(`| model | ${SETTINGS.map(([s]) => s).join(' | ')} |`);
console.log(`|---|${SETTINGS.map(() => '---').join('|')}|`);
for (const row of results) {
  const cells = SETTINGS.map(([s]) => {
    const r = row.settings[s];
    if (!r || r.error) return 'fails';
    const acc = `${r.maxAbsError.toExponential(1)}${r.top1 === undefined ? '' : r.top1 ? ' ✓' : ' ✗'}`;
    return `${fmtB(r.bytes)} (${fmtB(r.gzip)}); ${r.loadMs} ms; ${acc}`;
  });
  console.log(`| ${row.model} | ${cells.join(' | ')} |`);
}
