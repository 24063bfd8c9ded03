// A/B of two wasm builds of wnn on the same artifacts, in one process: the
// runs alternate (A B, then B A, ...) so that a change in the machine's load
// touches both alike; prints the median and minimum of each and B / A.
// Convert the artifacts with the build whose scratch sizes both share (an
// artifact records each node's scratch size, and a build that plans it
// differently refuses it).
//
//   node bench/ab.mjs A.wasm B.wasm MODEL.wnn... [--runs N]
//
// Inputs are deterministic values (sin), not a test set: speed only.
import fs from 'node:fs';
import * as wnn from '../js/wnn.js';

const args = process.argv.slice(2);
let runs = 30;
const ri = args.indexOf('--runs');
if (ri >= 0) { runs = Number(args[ri + 1]); args.splice(ri, 2); }
const [wa, wb, ...models] = args;
if (!wb || !models.length) {
  console.error('usage: node bench/ab.mjs A.wasm B.wasm MODEL.wnn... [--runs N]');
  process.exit(2);
}
const modules = [await WebAssembly.compile(fs.readFileSync(wa)), await WebAssembly.compile(fs.readFileSync(wb))];
const median = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array, int8: Int8Array };

for (const file of models) {
  const bytes = fs.readFileSync(file);
  const loaded = [];
  for (const m of modules) loaded.push(await wnn.load(bytes, { wasm: m }));
  const feeds = loaded.map((m) => Object.fromEntries(m.inputs.map((inp) => {
    const shape = inp.shape.map((d) => (typeof d === 'number' ? d : 1));
    const n = shape.reduce((a, b) => a * b, 1);
    const C = ARRAYS[inp.dtype] ?? Float32Array;
    const data = new C(n);
    if (C === Float32Array) for (let i = 0; i < n; i++) data[i] = Math.sin(i) * 0.5;
    return [inp.name, { data, shape }];
  })));
  const t = [[], []];
  for (let w = 0; w < 5; w++) for (let k = 0; k < 2; k++) await loaded[k].predict(feeds[k]);
  for (let r = 0; r < runs; r++) {
    for (const k of r & 1 ? [1, 0] : [0, 1]) {
      const t0 = performance.now();
      await loaded[k].predict(feeds[k]);
      t[k].push(performance.now() - t0);
    }
  }
  const [a, b] = t.map(median);
  console.log(`${file.split('/').pop()}: A ${a.toFixed(2)} ms  B ${b.toFixed(2)} ms  B/A ${(b / a).toFixed(3)}` +
    `  (min A ${Math.min(...t[0]).toFixed(2)}, B ${Math.min(...t[1]).toFixed(2)})`);
  for (const m of loaded) m.dispose();
}
