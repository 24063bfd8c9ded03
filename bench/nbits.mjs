// MatMulNBits speed (issue 17's stretch): the bench models of
// tests/quant/nbits.py (a decoder MLP of TinyLlama's width, 4-bit weights, one
// token and a 64-token prompt), wnn (dist/wnn.wasm through js/wnn.js) against
// onnxruntime-web (wasm, 1 thread, SIMD) and onnxruntime-node (1 thread), on
// the same ONNX file and input. Prints a table of median and minimum ms.
//
//   node bench/nbits.mjs [--runs N] [--dir DIR]
//
// Needs build/native/wnn (to convert), /usr/bin/python3 with onnx and numpy,
// onnxruntime-web and onnxruntime-node. Not a test: no assertions.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../js/wnn.js';
import { createSession } from '../tests/quant/ort.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const runs = Number(opt('--runs', 20));
const dir = path.resolve(opt('--dir', path.join(ROOT, 'build/bench/nbits')));

const gen = spawnSync('/usr/bin/python3', [path.join(ROOT, 'tests/quant/nbits.py'), dir, '--bench'], { encoding: 'utf8' });
if (gen.status !== 0) throw new Error(`tests/quant/nbits.py: ${gen.stderr}`);
const names = gen.stdout.split('\n').filter(Boolean);

const stats = (t) => { const s = [...t].sort((a, b) => a - b); return { median: s[s.length >> 1], min: s[0] }; };
async function time(fn) {
  for (let i = 0; i < 3; i++) await fn();
  const t = [];
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await fn(); t.push(performance.now() - t0); }
  return stats(t);
}

const rows = [];
for (const name of names) {
  const onnx = path.join(dir, `${name}.onnx`), art = path.join(dir, `${name}.wnn`);
  const c = spawnSync(path.join(ROOT, 'build/native/wnn'), ['convert', onnx, '-o', art], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`wnn convert ${name}: ${c.stderr}`);
  const model = await wnn.load(fs.readFileSync(art), { threads: 1 }); // dist/wnn.wasm, one thread, as ORT here
  const shape = model.inputs[0].shape;
  const n = shape.reduce((a, b) => a * b, 1);
  const x = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37));
  const w = await time(() => model.predict({ x: { data: x, shape } }));
  model.dispose();
  const res = { name, wnn: w };
  for (const runtime of ['web', 'node']) {
    const s = await createSession(onnx, runtime, 'all');
    const feeds = { x: new s.ort.Tensor('float32', x, shape) };
    res[runtime] = await time(() => s.run(feeds));
  }
  rows.push(res);
  console.error(`${name}: wnn ${w.median.toFixed(2)} ms, ORT-web ${res.web.median.toFixed(2)}, ORT-node ${res.node.median.toFixed(2)}`);
}
console.log('| model | wnn ms | ORT-web ms | ORT-node ms | wnn / ORT-web |');
console.log('|---|--:|--:|--:|--:|');
const f = (s) => `${s.median.toFixed(2)} (${s.min.toFixed(2)})`;
for (const r of rows) console.log(`| ${r.name} | ${f(r.wnn)} | ${f(r.web)} | ${f(r.node)} | ${(r.wnn.median / r.web.median).toFixed(2)} |`);
