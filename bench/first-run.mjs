// First inference against the steady state, for issue 16 section 4: loads
// one artifact with js/wnn.js (the runtime's wasm compiled and instantiated
// in this process, as a page's first load does), then times 15 runs in a
// row; prints the load, the first four runs, the median of the last ten and
// first / median. Run it under V8 flags to see where the first run's time
// goes (docs/performance.md, "First inference"), e.g.
//
//   node bench/first-run.mjs build/bench/models/tv_mobilenet_v2.wnn
//   node --no-wasm-lazy-compilation --no-liftoff bench/first-run.mjs MODEL.wnn
//
// Inputs are deterministic values (sin; int64 inputs zeros): speed only.
import fs from 'node:fs';
import * as wnn from '../js/wnn.js';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node [V8 flags] bench/first-run.mjs MODEL.wnn');
  process.exit(2);
}
const bytes = fs.readFileSync(file);
const t0 = performance.now();
const model = await wnn.load(bytes);
const loadMs = performance.now() - t0;
const feeds = Object.fromEntries(model.inputs.map((inp) => {
  const shape = inp.shape.map((d) => (typeof d === 'number' ? d : 1));
  const n = shape.reduce((a, b) => a * b, 1);
  const data = inp.dtype === 'int64' ? new BigInt64Array(n)
    : new Float32Array(n).map((_, i) => Math.sin(i) * 0.5);
  return [inp.name, { data, shape }];
}));
const times = [];
for (let i = 0; i < 15; i++) {
  const a = performance.now();
  await model.predict(feeds);
  times.push(performance.now() - a);
}
const steady = [...times.slice(5)].sort((a, b) => a - b)[5];
console.log(`${file.split('/').pop()}: load ${loadMs.toFixed(1)} ms, first runs ` +
  `${times.slice(0, 4).map((x) => x.toFixed(1)).join(' ')} ms, steady ${steady.toFixed(1)} ms, ` +
  `first / steady ${(times[0] / steady).toFixed(2)}`);
model.dispose();
